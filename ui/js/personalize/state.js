// The Personalize view's state: the catalog learned, its items, the
// person's ratings and recommendations (session.js changes it, views.js
// draws it).

export const P_PAGE = 40;             // items listed, and added by "Show more"

/**
 * An item of the catalog as the view lists it: the core's catalog item
 * (occfm.lib.recCatalog) with its place in the list and its search key.
 * @typedef {object} PItem
 * @property {string} id        its id in the core (rate takes it)
 * @property {string} title
 * @property {string[]} genres  its tags
 * @property {number} count     ratings of it in the catalog
 * @property {number} mean      their mean, to 3 decimals
 * @property {boolean} known    in the ratings: it can be rated and recommended
 * @property {number} index     its place in personal.items (data-item)
 * @property {string} key       its title and genres for the search (fold)
 */

/**
 * A recommendation as the view shows it.
 * @typedef {object} PRec
 * @property {number} item      the item's index in personal.items
 * @property {number} score     the predicted stars, to 3 decimals
 * @property {number} rank      what the list is ranked by, highest first
 * @property {string[]} why     the reasons, in words
 */

/**
 * A rating of the person.
 * @typedef {object} PRated
 * @property {number} item      the item's index in personal.items
 * @property {number} stars
 * @property {number} before    what the model expected just before, to 3 decimals
 */

/**
 * What a rating, Clear or the first list gives the view: the top P_TOP,
 * the person's ratings, and for a rating the time in Go (ms), or an error.
 * @typedef {object} PUpdate
 * @property {PRec[]} [recs]
 * @property {PRated[]} [rated]
 * @property {number} [ms]
 * @property {string} [error]
 */

export const personal = {
  started: false,              // a catalog was started once (the view was opened)
  gen: 0,                      // counts catalogs: a feeder of an old one stops
  phase: "idle",               // idle | files (waiting for them) | learning | ready | error
  catalog: "synthetic",        // "synthetic" | "files"
  learners: [],                // the registry (occfm.learners()), once the core is ready
  // defaultLearner is the one a catalog is learned with unless the person
  // picks another: the core's (occfm.lib.defaults(), personal.DefaultLearner
  // in Go), once the core is ready.
  defaultLearner: "",
  learner: "",                 // the one learning the catalog: the link's plearner= when set
  rec: 0,                      // the Recommender learning the catalog, by its id in the core (occfm.lib), or 0
  key: "",                     // the catalog learned: its ratings replay only on the same one
  ratingsFile: null,           // File: u.data, ratings.dat, ratings.csv (gzip or not)
  itemsFile: null,             // File: u.item, movies.dat, movies.csv
  /** @type {PItem[]} */
  items: [],                   // the catalog's items (index = data-item)
  /** @type {Map<string, number>} */
  index: new Map(),            // an item's id → its index in items
  known: 0,                    // items in the ratings
  unlisted: 0,                 // items of the ratings missing from the item list
  scale: {lo: 1, hi: 5, step: 1, text: "1 to 5 in whole stars"}, // the catalog's ratings' scale, which rate takes
  /** @type {number[]} */
  order: [],                   // item indices listed, in the current sort and search
  query: "",
  sort: "popular",
  shown: P_PAGE,
  /** @type {Map<number, number>} */
  stars: new Map(),            // item → the person's stars
  /** @type {PRated[]} */
  rated: [],                   // in the order first rated
  /** @type {PRec[]} */
  recs: [],
  rankedBy: "stars",           // "match" (the learner's own score, item-lift's) or "stars" (the predicted stars)
  cold: true,
  /** @type {[number, number][]} */
  replay: [],                  // [item, stars] to give again to a catalog learned anew
  last: null,                  // the last progress of the catalog's learning (occfm.lib.recRun)
  drawn: -Infinity,            // when the progress was last drawn
  startedAt: 0,
  pump: {port: null, queued: false},
  feeder: {reader: null, resume: null},
  timings: [],                 // per rating: {go, call, dom, paint} in ms (tests read them)
};

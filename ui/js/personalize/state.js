// The Personalize view's state: the catalog learned, its items, the
// person's ratings and recommendations (session.js changes it, views.js
// draws it).

export const P_PAGE = 40;             // items listed, and added by "Show more"
// P_LEARNER is the learner a catalog is learned with unless the person picks
// another: item-lift (core/item_lift.go, personal.DefaultLearner), which
// ranks by what people who rated the person's films also rated and liked;
// on held-out MovieLens people its top 10 holds more liked films than the
// most rated list (occfm topn, docs/personalize.md). OCCFM and occfm-auto
// learn the person by online steps that barely move a new row.
export const P_LEARNER = "item-lift";

export const personal = {
  started: false,              // a catalog was started once (the view was opened)
  gen: 0,                      // counts catalogs: a feeder of an old one stops
  phase: "idle",               // idle | files (waiting for them) | learning | ready | error
  catalog: "synthetic",        // "synthetic" | "files"
  learners: [],                // the registry (occfm.learners()), once the core is ready
  learner: P_LEARNER,          // the one learning the catalog: the link's plearner= when set
  key: "",                     // the catalog learned: its ratings replay only on the same one
  ratingsFile: null,           // File: u.data, ratings.dat, ratings.csv (gzip or not)
  itemsFile: null,             // File: u.item, movies.dat, movies.csv
  items: [],                   // the catalog's items (index = the core's item index)
  known: 0,                    // items in the ratings
  scale: {lo: 1, hi: 5, step: 1, text: "1 to 5 in whole stars"}, // the catalog's ratings' scale, which rate takes
  order: [],                   // item indices listed, in the current sort and search
  query: "",
  sort: "popular",
  shown: P_PAGE,
  stars: new Map(),            // item → the person's stars
  rated: [],                   // [{item, stars, before}], in the order first rated
  recs: [],                    // [{item, score, rank, why}]: score the predicted stars, rank what they are ranked by
  rankedBy: "stars",           // "match" (the learner's own score, item-lift's) or "stars" (the predicted stars)
  cold: true,
  replay: [],                  // ratings to give again to a catalog learned anew
  last: null,                  // the last snapshot
  drawn: -Infinity,            // when the progress was last drawn
  startedAt: 0,
  pump: {port: null, queued: false},
  feeder: {reader: null, resume: null},
  timings: [],                 // per rating: {go, call, dom, paint} in ms (tests read them)
};

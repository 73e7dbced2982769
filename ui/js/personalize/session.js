// The Personalize view's session: a catalog learned by a Recommender of
// the core, then the person's ratings, each folded in at once (occfm-k) or
// one online update (other learners).

import {SLICE_MS} from "../shared/config.js";
import {download} from "../shared/download.js";
import {pollFeeder, stopFeeder, streamFile} from "../shared/feeder.js";
import {formatMs} from "../shared/format.js";
import {queueTask} from "../shared/queue-task.js";
import {readError} from "../shared/read-error.js";
import {occfm, settings} from "../shared/state.js";
import {personal} from "./state.js";
import {fold, renderItemStars, renderPersonalAll, renderPersonalProgress, renderRated, renderRecs, sortPersonalItems} from "./views.js";

/** @typedef {import("./state.js").PItem} PItem */
/** @typedef {import("./state.js").PRec} PRec */
/** @typedef {import("./state.js").PRated} PRated */
/** @typedef {import("./state.js").PUpdate} PUpdate */

// The Personalize view: a catalog (the built-in synthetic one, or the
// person's MovieLens files) is learned by a Recommender of the page's core,
// made and driven by the calls of occfm.lib that the library's Recommender
// makes for an embedder (occfm.js; wasm/lib_rec_js.go), synchronously, on
// the core the page has loaded. It learns online first, one 10 ms slice
// per task as the Learn view's pump does, with the progress shown. Then
// the person, a new user in the same model, rates items: each rating folds
// the person in anew (occfm-k) or is one online update (other learners),
// and the top P_TOP refresh in the same task. The ratings live in this
// page's memory only. Titles, genres and reasons come from the files:
// textContent only.

export const P_TOP = 10;              // recommendations shown
export const P_PROGRESS_MS = 100;     // the progress is redrawn at most 10 times a second

// showPersonalize is what the view does when it is shown (../shared/view.js):
// it learns the synthetic catalog the first time, once the core is ready,
// and otherwise goes on learning the catalog it was learning.
export function showPersonalize() {
  if (occfm && !personal.started) startPersonal();
  else if (personal.phase === "learning") startPersonalPump();
}

/**
 * pcall makes a call of the core; a thrown error or an answer {error}
 * shows in the view and gives null.
 * @template T
 * @param {() => T} fn
 * @returns {T | null}
 */
export function pcall(fn) {
  let out;
  try {
    out = fn();
  } catch (err) {
    personalFail(`occfm: ${err && err.message ? err.message : err}`);
    return null;
  }
  if (out && out.error) {
    personalFail(out.error);
    return null;
  }
  return out;
}

/** @param {string} message */
export function personalFail(message) {
  personal.gen++;
  stopFeeder(personal.feeder);
  personal.phase = "error";
  const el = document.getElementById("p-error");
  el.textContent = String(message);
  el.hidden = false;
  renderPersonalProgress();
}

// closeRecommender lets the core forget the catalog's Recommender (and
// the reading of its ratings file, if it is still read).
function closeRecommender() {
  if (personal.rec) occfm.lib.close(personal.rec);
  personal.rec = 0;
}

// startPersonal learns the chosen catalog from its first row, with the
// chosen learner, in a new Recommender of the core; the person's ratings
// are given again once it is learned (replay), when the catalog is the
// same.
export async function startPersonal() {
  if (!occfm) return;
  personal.started = true;
  const gen = ++personal.gen;
  stopFeeder(personal.feeder);
  closeRecommender();
  document.getElementById("p-error").hidden = true;
  const key = personal.catalog === "files"
    ? ["files", personal.ratingsFile?.name, personal.ratingsFile?.size, personal.itemsFile?.name, personal.itemsFile?.size].join("\u0000")
    : "synthetic";
  // The person's ratings are given again to the same catalog learned anew
  // (another learner); another catalog starts without them.
  personal.replay = key === personal.key ? personal.rated.map((r) => [r.item, r.stars]) : [];
  personal.key = key;
  personal.items = [];
  personal.index = new Map();
  personal.order = [];
  personal.known = 0;
  personal.unlisted = 0;
  personal.stars.clear();
  personal.rated = [];
  personal.recs = [];
  personal.cold = true;
  personal.last = null;
  personal.startedAt = performance.now();
  document.getElementById("p-static").hidden = true;
  document.getElementById("p-timing").textContent = "";
  renderPersonalAll();
  if (personal.catalog === "files" && !(personal.ratingsFile && personal.itemsFile)) {
    personal.phase = "files";
    personal.replay = [];
    renderPersonalProgress();
    return;
  }
  personal.phase = "learning";
  const made = pcall(() => occfm.lib.recCreate(personal.learner, 1));
  if (!made) return;
  const rec = personal.rec = made[0];
  const files = personal.catalog === "files";
  if (!pcall(() => files
    ? occfm.lib.recLearnFile(rec, personal.ratingsFile.name, personal.ratingsFile.size)
    : occfm.lib.recLearnSynthetic(rec))) return;
  applyPersonalSnapshot({state: files ? "waiting" : "running", rows: 0, seconds: 0, progress: 0}, true);
  if (files) {
    // The item list first, whole (a few hundred KB); then the ratings,
    // streamed: the core gunzips them itself, so the bytes it has read are
    // the progress.
    let bytes;
    try {
      bytes = await readWhole(personal.itemsFile);
    } catch (err) {
      if (gen === personal.gen) personalFail(readError(personal.itemsFile, err));
      return;
    }
    if (gen !== personal.gen) return;
    if (!pcall(() => occfm.lib.recItemFile(rec, bytes, personal.itemsFile.name))) return;
    feedPersonal(personal.ratingsFile, gen);
  }
  startPersonalPump();
}

/**
 * readWhole returns a file's bytes (gzip or not: Go gunzips the item list).
 * @param {Blob} file
 */
export async function readWhole(file) {
  return new Uint8Array(await file.arrayBuffer());
}

/**
 * feedPersonal streams the ratings file into the core while it asks for
 * bytes (occfm.lib.recWanted > 0), as the Learn view's feeder does. Not
 * gunzipped here: the core gunzips it, so the bytes it has read are the
 * progress against the file's size.
 * @param {File} file
 * @param {number} gen
 */
export function feedPersonal(file, gen) {
  const rec = personal.rec;
  streamFile(file, personal.feeder, {
    current: () => gen === personal.gen,
    wants: personalWants,
    feed: (chunk) => {
      occfm.lib.recFeed(rec, chunk);
      return true;
    },
    fed: startPersonalPump,
    end: () => {
      occfm.lib.recEnd(rec);
      startPersonalPump();
    },
    fail: personalFail,
  });
}

export function personalWants() {
  return personal.rec !== 0 && occfm.lib.recWanted(personal.rec) > 0;
}

// The pump learns one SLICE_MS slice per task while the view is open.
export function startPersonalPump() {
  if (personal.phase === "learning") queueTask(personal.pump, onPersonalPump);
}

export function onPersonalPump() {
  if (!occfm || personal.phase !== "learning" || settings.view !== "personalize") return;
  const snap = pcall(() => occfm.lib.recRun(personal.rec, SLICE_MS));
  if (!snap) return;
  pollFeeder(personal.feeder, personalWants);
  applyPersonalSnapshot(snap);
  // Waiting for bytes: the feeder starts the pump again when it fed some.
  if (personal.phase === "learning" && snap.state === "running") startPersonalPump();
}

/**
 * applyPersonalSnapshot takes the catalog's progress (occfm.lib.recRun):
 * once it is "done", the person can rate.
 * @param {{state: string, rows: number, seconds: number, rmse?: number, progress?: number}} snap
 * @param {boolean} [force] draw the progress now
 */
export function applyPersonalSnapshot(snap, force = false) {
  personal.last = snap;
  if (snap.state === "done" && personal.phase === "learning") {
    personal.phase = "ready";
    onPersonalReady();
    force = true;
  }
  const now = performance.now();
  if (force || now - personal.drawn >= P_PROGRESS_MS) {
    personal.drawn = now;
    renderPersonalProgress();
  }
}

// round3 rounds to 3 decimals, as the view shows and compares predictions.
const round3 = (/** @type {number} */ x) => Math.round(x * 1000) / 1000;

// onPersonalReady lists the items and the first recommendations (the
// cold-start ones, or those after the ratings given again).
export function onPersonalReady() {
  const cat = pcall(() => occfm.lib.recCatalog(personal.rec));
  if (!cat) return;
  personal.index = new Map();
  personal.items = cat.items.map((it, i) => {
    personal.index.set(it.id, i);
    return {id: it.id, title: it.title, genres: it.tags, count: it.count, mean: round3(it.mean), known: it.known,
      index: i, key: fold(`${it.title} ${it.tags.join(" ")}`)};
  });
  personal.scale = cat.scale;
  personal.rankedBy = cat.rankedBy;
  personal.unlisted = cat.items.length - cat.listed;
  personal.known = personal.items.filter((it) => it.known).length;
  const replay = personal.replay;
  personal.replay = [];
  let rated = false;
  for (const [item, stars] of replay) {
    if (item >= personal.items.length || !personal.items[item].known) continue;
    const out = pcall(() => rateInCore(item, stars));
    if (!out) return;
    applyUpdate(out);
    rated = true;
  }
  if (!rated) {
    const out = pcall(topInCore);
    if (!out) return;
    applyUpdate(out);
  }
  sortPersonalItems();
  renderPersonalAll();
  /** @type {HTMLInputElement} */ (document.getElementById("p-search")).disabled = false;
}

/**
 * recOf is a recommendation of the core (occfm.lib's {id, title, score,
 * rank, reasons}) as the view keeps it.
 * @param {{id: string, score: number, rank: number, reasons: string[]}} t
 * @returns {PRec}
 */
const recOf = (t) => ({item: personal.index.get(t.id) ?? -1, score: round3(t.score), rank: t.rank, why: t.reasons});

/**
 * ratedOf is one of the person's ratings in the core (occfm.lib's {id,
 * stars, before}) as the view keeps it.
 * @param {{id: string, stars: number, before: number}} g
 * @returns {PRated}
 */
const ratedOf = (g) => ({item: personal.index.get(g.id) ?? -1, stars: g.stars, before: round3(g.before)});

/**
 * rateInCore gives item (its index) stars in the core and returns the
 * update: the new top P_TOP, the ratings as the core keeps them (each with
 * what the model expected just before it; an item rated again keeps its
 * place) and the time in Go; or {error} (stars off the catalog's scale: the
 * error names the scale).
 * @param {number} item
 * @param {number} stars
 * @returns {PUpdate}
 */
export function rateInCore(item, stars) {
  const it = personal.items[item];
  if (!it) return {error: `item ${item}: not in the catalog`};
  const a = occfm.lib.recRate(personal.rec, it.id, stars, P_TOP);
  if (a.error) return a;
  const rated = occfm.lib.recRated(personal.rec);
  if (rated.error) return rated;
  return {recs: a.top.map(recOf), rated: rated.map(ratedOf), ms: a.ms};
}

/**
 * topInCore returns the top P_TOP as they are, before any rating (the
 * catalog just learned, or after Clear), or {error}.
 * @returns {PUpdate}
 */
function topInCore() {
  const top = occfm.lib.recTop(personal.rec, P_TOP);
  if (top.error) return top;
  return {recs: top.map(recOf), rated: [], ms: 0};
}

/**
 * applyUpdate takes what a rating, Clear or the first list gave.
 * @param {PUpdate} out
 */
export function applyUpdate(out) {
  personal.rated = out.rated || [];
  personal.stars = new Map(personal.rated.map((r) => [r.item, r.stars]));
  personal.recs = out.recs || [];
  personal.cold = personal.rated.length === 0;
}

/**
 * ratePersonal gives item the stars: the person folded in anew (or one
 * online update) and the new top P_TOP, in one task, then the views. The
 * times are kept in personal.timings and shown discreetly.
 * @param {number} item
 * @param {number} stars
 */
export function ratePersonal(item, stars) {
  if (personal.phase !== "ready" || !personal.items[item] || !personal.items[item].known) return;
  const t0 = performance.now();
  const out = pcall(() => rateInCore(item, stars));
  const t1 = performance.now();
  if (!out) return;
  const old = personal.recs;
  const before = old.map((r) => r.item);
  applyUpdate(out);
  renderRecs(before);
  renderRated();
  renderItemStars(item);
  // Said when the rating moved no prediction of the list (a learner that
  // does not personalize a new person: see personal.defaultLearner).
  const moved = personal.recs.some((r) => {
    const o = old.find((x) => x.item === r.item);
    return o && o.score !== r.score;
  });
  const still = document.getElementById("p-static");
  still.hidden = moved;
  still.textContent = moved ? "" : `This rating moved none of these predictions: ${personal.learner} does not ` +
    `adapt to a new person's few ratings. Choose ${personal.defaultLearner} to see the list follow your taste.`;
  const t2 = performance.now();
  const timing = {go: out.ms, call: t1 - t0, dom: t2 - t0, paint: null};
  personal.timings.push(timing);
  requestAnimationFrame(() => {
    timing.paint = performance.now() - t0;
  });
  const el = document.getElementById("p-timing");
  el.textContent = `updated in ${formatMs(t2 - t0)}`;
  el.title = `the model's update and the top ${P_TOP}: ${formatMs(out.ms)} in Go; ` +
    `${formatMs(t1 - t0)} with the call; ${formatMs(t2 - t0)} with the page's update`;
  el.dataset.ms = String(t2 - t0);
}


export function clearPersonal() {
  if (personal.phase !== "ready") return;
  if (!pcall(() => occfm.lib.recClear(personal.rec))) return;
  const out = pcall(topInCore);
  if (!out) return;
  const was = [...personal.stars.keys()];
  applyUpdate(out);
  // The cold-start list again: nothing in it is "new" to the person.
  renderRecs(null);
  renderRated();
  for (const item of was) renderItemStars(item);
  document.getElementById("p-timing").textContent = "";
  document.getElementById("p-static").hidden = true;
}

// ratingsCSV returns the person's ratings as CSV, "item_id,title,stars"
// and a line per rating (from the core), or "" before the catalog is
// learned.
function ratingsCSV() {
  if (!personal.rec) return "";
  const text = occfm.lib.recCSV(personal.rec);
  return typeof text === "string" ? text : "";
}

export function downloadRatings() {
  if (personal.rated.length === 0) return;
  let text = "";
  try {
    text = ratingsCSV();
  } catch (err) {
    personalFail(`occfm: ${err.message}`);
    return;
  }
  download(new Blob([text], {type: "text/csv"}), "my-ratings.csv");
}

/**
 * The view's own calls for the browser's console and the page's tests,
 * set as globalThis.occfm.personal once the core is ready: catalog() (the
 * items as listed, indexed as data-item), rate(item, stars) (as a star
 * click, but an error is answered {error}, not shown) and ratingsCSV().
 * Each is made of the Recommender's calls of occfm.lib above.
 */
export const personalHooks = {
  catalog: () => ({items: personal.items}),
  /**
   * @param {number} item
   * @param {number} stars
   * @returns {PUpdate}
   */
  rate(item, stars) {
    if (personal.phase !== "ready") return {error: "the catalog is not learned yet"};
    const out = rateInCore(item, stars);
    if (out.error) return out;
    const before = personal.recs.map((r) => r.item);
    applyUpdate(out);
    renderRecs(before);
    renderRated();
    renderItemStars(item);
    return out;
  },
  ratingsCSV,
};

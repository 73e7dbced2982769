// The Personalize view's session: learning a catalog in the
// core (occfm.personal), then the person's ratings, each folded in at once
// (occfm-k) or one online update (other learners).

import {SLICE_MS} from "../shared/config.js";
import {download} from "../shared/download.js";
import {pollFeeder, stopFeeder, streamFile} from "../shared/feeder.js";
import {formatMs} from "../shared/format.js";
import {queueTask} from "../shared/queue-task.js";
import {readError} from "../shared/read-error.js";
import {occfm, settings} from "../shared/state.js";
import {P_LEARNER, personal} from "./state.js";
import {fold, renderItemStars, renderPersonalAll, renderPersonalProgress, renderRated, renderRecs, sortPersonalItems} from "./views.js";

// The Personalize view: a catalog (the built-in synthetic one, or the
// person's MovieLens files) is learned online first, in a session of its own
// in the core (occfm.personal, see wasm/doc.go), one 10 ms slice per task as
// the Learn view's pump does, with the progress shown. Then the person, a new
// user in the same model, rates items: each rating folds the person in anew
// (occfm-k) or is one online update (other learners), and the top P_TOP
// refresh in the same call. The ratings live in this page's
// memory only. Titles, genres and reasons come from the files: textContent
// only.

export const P_TOP = 10;              // recommendations shown
export const P_PROGRESS_MS = 100;     // the progress is redrawn at most 10 times a second

// showPersonalize is what the view does when it is shown (../shared/view.js):
// it learns the synthetic catalog the first time, once the core is ready,
// and otherwise goes on learning the catalog it was learning.
export function showPersonalize() {
  if (occfm && !personal.started) startPersonal();
  else if (personal.phase === "learning") startPersonalPump();
}

// pcall runs an occfm.personal method; a thrown error or {"error"} shows in
// the view and gives null.
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

export function personalFail(message) {
  personal.gen++;
  stopFeeder(personal.feeder);
  personal.phase = "error";
  const el = document.getElementById("p-error");
  el.textContent = String(message);
  el.hidden = false;
  renderPersonalProgress();
}

// startPersonal learns the chosen catalog from its first row, with the
// chosen learner; the person's ratings are given again once it is learned
// (replay), when the catalog is the same.
export async function startPersonal() {
  if (!occfm) return;
  personal.started = true;
  const gen = ++personal.gen;
  stopFeeder(personal.feeder);
  document.getElementById("p-error").hidden = true;
  const key = personal.catalog === "files"
    ? ["files", personal.ratingsFile?.name, personal.ratingsFile?.size, personal.itemsFile?.name, personal.itemsFile?.size].join("\u0000")
    : "synthetic";
  // The person's ratings are given again to the same catalog learned anew
  // (another learner); another catalog starts without them.
  personal.replay = key === personal.key ? personal.rated.map((r) => [r.item, r.stars]) : [];
  personal.key = key;
  personal.items = [];
  personal.order = [];
  personal.known = 0;
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
  const cfg = {catalog: personal.catalog, learner: personal.learner, seed: 1};
  if (personal.catalog === "files") {
    cfg.ratings = personal.ratingsFile.name;
    cfg.size = personal.ratingsFile.size;
  }
  const snap = pcall(() => occfm.personal.start(JSON.stringify(cfg)));
  if (!snap) return;
  applyPersonalSnapshot(snap, true);
  if (personal.catalog === "files") {
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
    if (!pcall(() => occfm.personal.items(bytes, personal.itemsFile.name))) return;
    feedPersonal(personal.ratingsFile, gen);
  }
  startPersonalPump();
}

// readWhole returns a file's bytes (gzip or not: Go gunzips the item list).
export async function readWhole(file) {
  return new Uint8Array(await file.arrayBuffer());
}

// feedPersonal streams the ratings file into the core while it asks for
// bytes (personal.wanted() > 0), as the Learn view's feeder does. Not
// gunzipped here: the core gunzips it, so the bytes it has read are the
// progress against the file's size.
export function feedPersonal(file, gen) {
  streamFile(file, personal.feeder, {
    current: () => gen === personal.gen,
    wants: personalWants,
    feed: (chunk) => {
      occfm.personal.feed(chunk);
      return true;
    },
    fed: startPersonalPump,
    end: () => {
      occfm.personal.end();
      startPersonalPump();
    },
    fail: personalFail,
  });
}

export function personalWants() {
  return occfm.personal.wanted() > 0;
}

// The pump learns one SLICE_MS slice per task while the view is open.
export function startPersonalPump() {
  if (personal.phase === "learning") queueTask(personal.pump, onPersonalPump);
}

export function onPersonalPump() {
  if (!occfm || personal.phase !== "learning" || settings.view !== "personalize") return;
  const snap = pcall(() => occfm.personal.run(SLICE_MS));
  if (!snap) return;
  pollFeeder(personal.feeder, personalWants);
  applyPersonalSnapshot(snap);
  // Waiting for bytes: the feeder starts the pump again when it fed some.
  if (personal.phase === "learning" && snap.state === "running") startPersonalPump();
}

export function applyPersonalSnapshot(snap, force = false) {
  personal.last = snap;
  if (snap.state === "error") {
    personalFail(snap.error || "the learner stopped with an error");
    return;
  }
  if (snap.ready && personal.phase === "learning") {
    personal.phase = "ready";
    onPersonalReady(snap);
    force = true;
  }
  const now = performance.now();
  if (force || now - personal.drawn >= P_PROGRESS_MS) {
    personal.drawn = now;
    renderPersonalProgress();
  }
}

// onPersonalReady lists the items and the first recommendations (the
// cold-start ones, or those after the ratings given again).
export function onPersonalReady(snap) {
  const cat = pcall(() => occfm.personal.catalog());
  if (!cat) return;
  personal.items = cat.items.map((it, i) => ({...it, index: i, key: fold(`${it.title} ${it.genres.join(" ")}`)}));
  if (cat.scale) personal.scale = cat.scale;
  personal.known = snap.items || personal.items.filter((it) => it.known).length;
  const replay = personal.replay;
  personal.replay = [];
  let out = null;
  for (const [item, stars] of replay) {
    if (item >= personal.items.length || !personal.items[item].known) continue;
    out = pcall(() => occfm.personal.rate(item, stars, P_TOP));
    if (!out) return;
  }
  if (!out) out = pcall(() => occfm.personal.recommend(P_TOP));
  if (!out) return;
  applyUpdate(out);
  sortPersonalItems();
  renderPersonalAll();
  document.getElementById("p-search").disabled = false;
}

// applyUpdate takes what rate, recommend or clear returned.
export function applyUpdate(out) {
  personal.rated = out.rated || [];
  personal.stars = new Map(personal.rated.map((r) => [r.item, r.stars]));
  personal.recs = out.recs || [];
  personal.rankedBy = out.rankedBy || "stars";
  personal.cold = !!out.coldStart;
}

// ratePersonal gives item the stars: the person folded in anew (or one
// online update) and the new top P_TOP, in one call of the core, then the
// views. The times are kept in
// personal.timings and shown discreetly.
export function ratePersonal(item, stars) {
  if (personal.phase !== "ready" || !personal.items[item] || !personal.items[item].known) return;
  const t0 = performance.now();
  const out = pcall(() => occfm.personal.rate(item, stars, P_TOP));
  const t1 = performance.now();
  if (!out) return;
  const old = personal.recs;
  const before = old.map((r) => r.item);
  applyUpdate(out);
  renderRecs(before);
  renderRated();
  renderItemStars(item);
  // Said when the rating moved no prediction of the list (a learner that
  // does not personalize a new person: see P_LEARNER).
  const moved = personal.recs.some((r) => {
    const o = old.find((x) => x.item === r.item);
    return o && o.score !== r.score;
  });
  const still = document.getElementById("p-static");
  still.hidden = moved;
  still.textContent = moved ? "" : `This rating moved none of these predictions: ${personal.learner} does not ` +
    `adapt to a new person's few ratings. Choose ${P_LEARNER} to see the list follow your taste.`;
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
  const out = pcall(() => occfm.personal.clear(P_TOP));
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

export function downloadRatings() {
  if (personal.rated.length === 0) return;
  let text = "";
  try {
    text = occfm.personal.ratingsCSV();
  } catch (err) {
    personalFail(`occfm: ${err.message}`);
    return;
  }
  download(new Blob([text], {type: "text/csv"}), "my-ratings.csv");
}

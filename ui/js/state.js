// The page's shared state: the settings (what the controls and the hash
// say) and the link that holds them, page (what the page as a whole is
// doing), session (the current run), views (the charts), and the core once
// it is ready.

import {formatHash, parseHash} from "./hash.js";

// settings is what the controls and the hash say (hash.js); page is what the
// page as a whole is doing; session is the current run; views holds the
// charts. One session is one call of occfm.start: a demo, or a file fed by
// the feeder. session.gen counts sessions, so that a file reader left over
// from an earlier one stops instead of feeding the new one.

// linkInvalid lists the parts of the opening link the page could not use.
export const linkInvalid = [];
export const settings = parseHash(location.hash, linkInvalid);
export let occfm = null;        // globalThis.occfm once the core is ready

// writeHash writes settings into the page's link (the URL hash), in place:
// no history entry.
export function writeHash() {
  const hash = formatHash(settings);
  if (hash !== location.hash) history.replaceState(null, "", hash);
}

// setCore makes core (globalThis.occfm) the one every module calls.
export function setCore(core) {
  occfm = core;
}

// document.body.dataset.state mirrors page.phase.
export const page = {
  phase: "loading",      // loading | ready | running | paused | done | error
  catalog: {learners: [], demos: []},  // occfm.learners() and occfm.demos()
  pendingFile: null,     // a file picked before the core was ready
  memory: null,          // the core's WebAssembly.Memory: it never shrinks, so
                         // its buffer.byteLength is the peak (make bench reads it)
  model: null,           // what occfm.loadModel said of the model file every start
                         // continues ({learner, rows, features, task, format, name}),
                         // or null for fresh learners
};

export const session = {
  gen: 0,
  source: "demo",        // "demo" | "file"
  file: null,            // the File being learned
  roles: null,           // column roles sent with a file, or null for the guessed ones
  learners: [],          // names, in the order of the snapshot points' columns
  skipped: 0,            // malformed rows skipped (onError "skip")
  guardSeen: {},         // per learner, the divergences already announced
  skippedFirst: [],      // the first reasons, "file:line: field: message"
  task: "",
  layout: "",
  checkpoints: [],       // every point received, for export
  regret: [],            // every regret point received, for export
  regretStatus: null,    // the last snapshot's regret (pending, lag, slope, …), or null
  last: null,            // the last snapshot
  known: "",
  note: "",              // the note the run started with: cleared when the run ends
  noteAt: 0,             // when it was shown (performance.now())
  firstRowAt: 0,         // performance.now() when the first row was learned
  doneRate: 0,           // rows/s over the whole run, shown once it is done
  run: null,             // what identifies the run (ghosts.js runOf), for the next one's ghosts
  ghosts: [],            // earlier runs' curves on the metric chart (ghosts.js)
};

// AUTO is the learner with no δ, whose checkpoints carry its regret to its
// best expert (wasm/doc.go, "points").
export const AUTO = "occfm-auto";

// hasAuto says whether AUTO is one of the session's learners: then each
// checkpoint ends with that regret and its bound.
export function hasAuto() {
  return session.learners.includes(AUTO);
}

export const views = {
  metric: null,          // LineChart: progressive metric vs rows
  loss: null,            // LineChart: average loss vs learning time
  regret: null,          // RegretChart: regret checkpoints vs T
  stale: false,          // session.last is not drawn yet
  shown: -Infinity,      // when renderViews last ran
  tableShown: -Infinity, // the learner table is redrawn at most 4 times a second
  rateShown: -Infinity,  // rows/s is redrawn at most 4 times a second
  slowSince: 0,          // when the run fell under its set speed, or 0
};

// The Learn view's state: page (what the view as a whole is doing), session
// (the current run) and views (its charts and when they were drawn).

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

// session is the current run: one call of occfm.start, a demo or a file
// fed by the feeder. session.gen counts sessions, so that a file reader
// left over from an earlier one stops instead of feeding the new one.
export const session = {
  gen: 0,
  source: "demo",        // "demo" | "file"
  file: null,            // the File being learned
  roles: null,           // column roles sent with a file, or null for the guessed ones
  config: null,          // the config occfm.start was given (session.js configFor)
  learners: [],          // names, in the order of the snapshot points' columns
  mixture: "",           // the first of them that mixes experts (mixtureOf), or ""
  skipped: 0,            // malformed rows skipped (onError "skip")
  guardSeen: {},         // per learner, the divergences already announced
  skippedFirst: [],      // the first reasons, "file:line: field: message"
  task: "",
  layout: "",
  scaling: "",
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

// mixtureOf returns the first of names whose entry in catalog (the
// registry, occfm.learners()) says it mixes experts (mixture: true), or "".
// That learner's checkpoints carry, after every learner's metric and
// average loss, its regret to its best expert and the bound
// (wasm/doc.go, "points").
export function mixtureOf(names, catalog) {
  return names.find((n) => catalog.some((l) => l.name === n && l.mixture === true)) || "";
}

export const views = {
  metric: null,          // LineChart: progressive metric vs rows
  loss: null,            // LineChart: average loss vs learning time
  regret: null,          // RegretChart: regret checkpoints vs T
  expertRegret: null,    // LineChart: the mixture's regret to its best expert vs rows
  stale: false,          // session.last is not drawn yet
  shown: -Infinity,      // when renderViews last ran
  tableShown: -Infinity, // the learner table is redrawn at most 4 times a second
  rateShown: -Infinity,  // rows/s is redrawn at most 4 times a second
  slowSince: 0,          // when the run fell under its set speed, or 0
};

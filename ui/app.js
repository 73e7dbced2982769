// The OCCFM page. It loads the Go core (occfm.wasm), drives it in time-boxed
// slices (see the scheduler), streams picked files into it
// with backpressure, and draws the progressive metrics with uPlot. The JS API
// it calls, globalThis.occfm, is documented in wasm/doc.go. Go renders the
// predictions table and the model panel itself; this file only provides
// their empty containers.
//
// Sections: settings and the URL hash · LineChart · state · the session
// (start, snapshots) · the file feeder · the scheduler · views · controls ·
// export · boot.
"use strict";

const SLICE_MS = 10;            // learning time per slice (one task of the event loop)
const CHUNK_BYTES = 1 << 20;    // at most 1 MiB per occfm.feed call
const CHART_POINTS = 2000;      // a chart thins itself beyond this
const CHART_INTERVAL_MS = 100;  // at most 10 chart redraws per second
const FULL_SPEED_CHART_MS = 250; // at most 4 while the pump learns at full speed
const VIEW_INTERVAL_MS = 100;   // rows and metrics: at most 10 redraws per second
const TABLE_INTERVAL_MS = 250;  // the learner table and readouts: at most 4

// chartAxis returns a fresh uPlot axis style shared by every chart.
function chartAxis() {
  return {
    font: "14px system-ui, sans-serif", labelFont: "600 14px system-ui, sans-serif",
    stroke: "#334155", grid: {stroke: "#e2e8f0", width: 1}, ticks: {stroke: "#cbd5e1"},
  };
}
const COLORS = ["#2563eb", "#dc2626", "#059669", "#9333ea", "#ea580c", "#0891b2"];

// ---- Settings and the URL hash ----------------------------------------------
//
// settings is the one source of truth for what the controls show and what the
// hash says: #demo=ratings&learners=occfm&delta=10&eta=1&gamma=1/sqrt(t)&seed=1&speed=2000
// delta and eta 0 mean "the learner's default" and are left out of the hash;
// speed 0 is unlimited and written as speed=max.

const GAMMAS = {"1/sqrt(t)": "1/√t", "2/(t+1)": "2/(t+1)", "constant": "constant"};
const LOSSES = ["auto", "squared", "logistic"];
const CLIPS = ["auto", "on", "off"];
const ON_ERROR = ["stop", "skip"];  // a file's malformed rows: stop at the first, or skip and count
const FORMATS = ["auto", "libsvm", "csv", "movielens"];  // "Read as": how a file is read (auto: sniffed)
const DEFAULTS = Object.freeze({
  view: "learn", plearner: "", demo: "ratings", learners: ["occfm-auto"], delta: 0, eta: 0,
  gamma: "1/sqrt(t)", loss: "auto", clip: "auto", seed: 1, speed: 2000, checkpoints: "g1.5", onError: "stop",
  format: "auto",
});

// The speed slider is logarithmic: 1, 1.5, 2, 3, 5, 7 per decade from 1 to
// 100,000 rows/s, then one last position for "max".
const SPEEDS = [];
for (let p = 1; p < 1e5; p *= 10) for (const m of [1, 1.5, 2, 3, 5, 7]) SPEEDS.push(m * p);
SPEEDS.push(1e5);

function parseHash(hash) {
  const s = {...DEFAULTS, learners: [...DEFAULTS.learners]};
  for (const part of hash.replace(/^#/, "").split("&")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    const key = decode(part.slice(0, eq));
    const val = decode(part.slice(eq + 1));
    switch (key) {
      case "view": s.view = val === "personalize" ? "personalize" : "learn"; break;
      case "plearner": s.plearner = val; break;
      case "demo": s.demo = val; break;
      case "learners": s.learners = val.split(",").filter(Boolean); break;
      case "delta": case "eta": s[key] = nonNegative(val, 0); break;
      case "gamma": if (val in GAMMAS) s.gamma = val; break;
      case "loss": if (LOSSES.includes(val)) s.loss = val; break;
      case "clip": if (CLIPS.includes(val)) s.clip = val; break;
      case "seed": s.seed = Math.trunc(nonNegative(val, DEFAULTS.seed)); break;
      case "checkpoints": if (val in CHECKPOINTS) s.checkpoints = val; break;
      case "speed": s.speed = val === "max" ? 0 : nonNegative(val, DEFAULTS.speed); break;
      case "onError": if (ON_ERROR.includes(val)) s.onError = val; break;
      case "format": if (FORMATS.includes(val)) s.format = val; break;
    }
  }
  return s;
}

function formatHash(s) {
  const parts = [["demo", s.demo], ["learners", s.learners.join(",")]];
  if (s.view === "personalize") {
    parts.unshift(["view", "personalize"]);
    if (s.plearner) parts.splice(1, 0, ["plearner", s.plearner]);
  }
  if (s.delta > 0) parts.push(["delta", s.delta]);
  if (s.eta > 0) parts.push(["eta", s.eta]);
  parts.push(["gamma", s.gamma]);
  if (s.loss !== "auto") parts.push(["loss", s.loss]);
  if (s.clip !== "auto") parts.push(["clip", s.clip]);
  parts.push(["seed", s.seed], ["speed", s.speed > 0 ? s.speed : "max"]);
  if (s.checkpoints !== DEFAULTS.checkpoints) parts.push(["checkpoints", s.checkpoints]);
  if (s.onError !== DEFAULTS.onError) parts.push(["onError", s.onError]);
  if (s.format !== DEFAULTS.format) parts.push(["format", s.format]);
  return "#" + parts.map(([k, v]) => `${k}=${encode(String(v))}`).join("&");
}

// encode keeps / , + ( ) readable: they are all legal in a fragment.
function encode(v) {
  return encodeURIComponent(v).replace(/%2F/g, "/").replace(/%2C/g, ",").replace(/%2B/g, "+");
}

function decode(v) {
  try { return decodeURIComponent(v); } catch { return v; }
}

function nonNegative(text, fallback) {
  const v = Number(text);
  return text !== "" && Number.isFinite(v) && v >= 0 ? v : fallback;
}

// learnerSettingsKey is what a run depends on besides its source: a change
// restarts the run, a change of speed alone does not.
function learnerSettingsKey(s) {
  return JSON.stringify([s.learners, s.delta, s.eta, s.gamma, s.loss, s.clip, s.seed, s.checkpoints]);
}

// CHECKPOINTS are the regret checkpoint spacings: "g<ratio>" geometric,
// "e<rows>" every so many rows, or "off": no comparator (all the time to the
// learners).
const CHECKPOINTS = {"g1.5": "×1.5", "g2": "×2", "e500": "every 500 rows", "e2000": "every 2,000 rows", "off": "off"};

function checkpointConfig(c, value) {
  if (value === "off") c.noRegret = true;
  else if (value.startsWith("e")) c.regretEvery = Number(value.slice(1));
  else c.regretGrowth = Number(value.slice(1));
}

// ---- LineChart --------------------------------------------------------------

// A LineChart is one uPlot chart with one series per learner over a shared x.
// addPoints appends; the chart keeps at most maxPoints points by dropping
// every other one, and redraws at most every chartInterval() in flush.
class LineChart {
  constructor(el, {xLabel, yLabel, xFormat = formatNumber, maxPoints = CHART_POINTS, height = 260, colors = COLORS, dash = []}) {
    this.el = el;
    this.colors = colors;  // series i is drawn in colors[i], dashed by dash[i] if set
    this.dash = dash;
    this.xLabel = xLabel;
    this.yLabel = yLabel;
    this.xFormat = xFormat;
    this.maxPoints = maxPoints;
    this.height = height;
    this.names = [];
    this.data = [[]];
    this.plot = null;
    this.dirty = false;
    this.lastDraw = -Infinity;
    new ResizeObserver(() => this.plot?.setSize(this.size())).observe(el);
  }

  size() {
    return {width: Math.max(240, this.el.clientWidth), height: this.height};
  }

  // reset empties the chart and gives it one series per name.
  reset(names, yLabel = this.yLabel) {
    this.names = names;
    this.yLabel = yLabel;
    this.setData([[], ...names.map(() => [])]);
    this.build();
  }

  // setLabel changes the y-axis label (uPlot draws it, so the plot is rebuilt).
  setLabel(yLabel) {
    if (yLabel === this.yLabel) return;
    this.yLabel = yLabel;
    this.build();
  }

  // addPoints appends rows [x, y₁, y₂, …]; missing values become gaps.
  addPoints(rows) {
    for (const row of rows) {
      for (let i = 0; i < this.data.length; i++) {
        const v = row[i];
        this.data[i].push(typeof v === "number" && Number.isFinite(v) ? v : null);
      }
    }
    while (this.data[0].length > this.maxPoints) this.thin();
    this.dirty = true;
  }

  // thin drops every other point, keeping the first and the last.
  thin() {
    const n = this.data[0].length;
    this.data = this.data.map((col) => col.filter((_, i) => i % 2 === 0 || i === n - 1));
    this.dirty = true;
  }

  setData(data) {
    this.data = data;
    this.dirty = true;
  }

  // flush redraws when there is something new and the last redraw is at
  // least chartInterval() old (or force is set).
  flush(now, force = false) {
    if (!this.plot || !this.dirty || (!force && now - this.lastDraw < chartInterval())) return;
    this.plot.setData(this.data);
    this.dirty = false;
    this.lastDraw = now;
  }

  build() {
    this.plot?.destroy();
    const axis = chartAxis();
    this.plot = new uPlot({
      ...this.size(),
      scales: {x: {time: false}},
      cursor: {drag: {x: false, y: false}},
      series: [
        {label: this.xLabel, value: (u, v) => (v == null ? "–" : this.xFormat(v))},
        ...this.names.map((name, i) => ({
          label: name,
          stroke: this.colors[i % this.colors.length],
          width: 2,
          ...(this.dash[i] ? {dash: this.dash[i]} : {}),
          points: {show: false},
          value: (u, v) => (v == null ? "–" : v.toFixed(4)),
        })),
      ],
      axes: [
        {...axis, label: this.xLabel, labelSize: 24},
        {...axis, label: this.yLabel, labelSize: 24, size: 64},
      ],
    }, this.data, this.el);
    this.dirty = false;
    this.lastDraw = -Infinity;
  }
}

// chartInterval is the shortest time between two redraws of a chart.
function chartInterval() {
  return page.phase === "running" && settings.speed === 0 ? FULL_SPEED_CHART_MS : CHART_INTERVAL_MS;
}

// ---- RegretChart ------------------------------------------------------------

// A RegretChart draws the regret checkpoints: x = T, and per learner the
// certified band [lo, hi] (shaded), its middle (a line), then the Theorem 3
// bound (dashed gray). rows are the snapshot's regret points, kept raw so
// that the two toggles (log–log, regret / T) only change how they are drawn.
// In linear mode the y range follows the learners alone: the bound is far
// above them and would flatten every curve; log–log shows it whole.
const REGRET_FIXED = 5;  // T, comparator loss, gap, bound, G; then cum, lo, hi per learner

class RegretChart {
  constructor(el) {
    this.el = el;
    this.height = 300;
    this.names = [];
    this.rows = [];
    this.logLog = true;
    this.perT = false;
    this.plot = null;
    this.dirty = false;
    this.lastDraw = -Infinity;
    new ResizeObserver(() => this.plot?.setSize(this.size())).observe(el);
  }

  size() {
    return {width: Math.max(240, this.el.clientWidth), height: this.height};
  }

  reset(names) {
    this.names = names;
    this.rows = [];
    this.build();
  }

  addPoints(rows) {
    for (const r of rows) this.rows.push(r);
    this.dirty = true;
  }

  setMode({logLog = this.logLog, perT = this.perT}) {
    if (logLog === this.logLog && perT === this.perT) return;
    this.logLog = logLog;
    this.perT = perT;
    this.build();
  }

  // value turns a raw regret figure at T into what is drawn: divided by T
  // for regret / T, and nothing (a gap) where a log scale cannot go.
  value(v, t) {
    if (!finite(v)) return null;
    const y = this.perT ? v / t : v;
    return this.logLog && !(y > 0) ? null : y;
  }

  // data: [T, (hi, lo, mid) per learner, bound].
  data() {
    const cols = [[], ...this.names.flatMap(() => [[], [], []]), []];
    for (const r of this.rows) {
      const t = r[0];
      cols[0].push(t);
      this.names.forEach((_, i) => {
        const lo = r[REGRET_FIXED + 3 * i + 1];
        const hi = r[REGRET_FIXED + 3 * i + 2];
        cols[1 + 3 * i].push(this.value(hi, t));
        cols[2 + 3 * i].push(this.value(lo, t));
        cols[3 + 3 * i].push(this.value(finite(lo) && finite(hi) ? (lo + hi) / 2 : NaN, t));
      });
      cols[cols.length - 1].push(this.value(r[3], t));
    }
    return cols;
  }

  // yRange in linear mode: the learners' bands and 0, not the bound.
  yRange(u) {
    let min = 0;
    let max = 0;
    for (let s = 1; s < u.data.length - 1; s++) {
      for (const v of u.data[s]) {
        if (v == null) continue;
        if (v < min) min = v;
        if (v > max) max = v;
      }
    }
    if (min === max) max = min + 1;
    return uPlot.rangeNum(min, max, 0.1, true);
  }

  flush(now, force = false) {
    if (!this.plot || !this.dirty || (!force && now - this.lastDraw < chartInterval())) return;
    this.plot.setData(this.data());
    this.dirty = false;
    this.lastDraw = now;
  }

  build() {
    this.plot?.destroy();
    const axis = chartAxis();
    const fmt = (u, v) => (v == null ? "–" : formatNumber(v));
    const series = [{label: "T (rows)", value: fmt}];
    const bands = [];
    this.names.forEach((name, i) => {
      const color = COLORS[i % COLORS.length];
      series.push(
        {label: `${name} hi`, stroke: color + "55", width: 1, points: {show: false}, value: fmt},
        {label: `${name} lo`, stroke: color + "55", width: 1, points: {show: false}, value: fmt},
        {label: name, stroke: color, width: 2, points: {show: true, size: 5}, value: fmt},
      );
      bands.push({series: [1 + 3 * i, 2 + 3 * i], fill: color + "2e"});
    });
    series.push({label: "Theorem 3 bound", stroke: "#64748b", width: 2, dash: [6, 5], points: {show: false}, value: fmt});
    const yLabel = this.perT ? "regret / T" : "regret";
    const scales = {x: {time: false}, y: {}};
    if (this.logLog) {
      scales.x.distr = 3;
      scales.x.range = (u, min, max) => (min == null ? [1, 10] : min < max ? [min, max] : [min / 2, max * 2]);
      scales.y.distr = 3;
    } else {
      scales.y.range = (u) => this.yRange(u);
    }
    this.plot = new uPlot({
      ...this.size(),
      scales,
      bands,
      cursor: {drag: {x: false, y: false}},
      series,
      axes: [
        {...axis, label: this.logLog ? "T (rows, log scale)" : "T (rows)", labelSize: 24},
        {...axis, label: this.logLog ? `${yLabel} (log scale)` : yLabel, labelSize: 24, size: 72},
      ],
    }, this.data(), this.el);
    // The band edges stay out of the legend: the middle line names the learner.
    const rows = this.plot.root.querySelectorAll(".u-legend .u-series");
    this.names.forEach((_, i) => {
      for (const s of [1 + 3 * i, 2 + 3 * i]) if (rows[s]) rows[s].hidden = true;
    });
    this.dirty = false;
    this.lastDraw = -Infinity;
  }
}

// ---- State -----------------------------------------------------------------------
//
// settings (above) is what the controls and the hash say; page is what the
// page as a whole is doing; session is the current run; views holds the
// charts. One session is one call of occfm.start: a demo, or a file fed by
// the feeder. session.gen counts sessions, so that a file reader left over
// from an earlier one stops instead of feeding the new one.

const settings = parseHash(location.hash);
let occfm = null;        // globalThis.occfm once the core is ready

// document.body.dataset.state mirrors page.phase.
const page = {
  phase: "loading",      // loading | ready | running | paused | done | error
  catalog: {learners: [], demos: []},  // occfm.learners() and occfm.demos()
  pendingFile: null,     // a file picked before the core was ready
  memory: null,          // the core's WebAssembly.Memory: it never shrinks, so
                         // its buffer.byteLength is the peak (make bench reads it)
  model: null,           // what occfm.loadModel said of the model file every start
                         // continues ({learner, rows, features, task, format, name}),
                         // or null for fresh learners
};

const session = {
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
  firstRowAt: 0,         // performance.now() when the first row was learned
  doneRate: 0,           // rows/s over the whole run, shown once it is done
};

const views = {
  metric: null,          // LineChart: progressive metric vs rows
  loss: null,            // LineChart: average loss vs learning time
  regret: null,          // RegretChart: regret checkpoints vs T
  stale: false,          // session.last is not drawn yet
  shown: -Infinity,      // when renderViews last ran
  tableShown: -Infinity, // the learner table is redrawn at most 4 times a second
  rateShown: -Infinity,  // rows/s is redrawn at most 4 times a second
};

// ---- The session ---------------------------------------------------------------

// call runs an occfm method, turning a thrown error into the error state.
function call(fn) {
  try {
    return fn();
  } catch (err) {
    fail(`occfm: ${err && err.message ? err.message : err}`);
    return null;
  }
}

function configFor(source) {
  const c = {
    source,
    learners: settings.learners,
    task: "auto",
    delta: settings.delta,
    eta: settings.eta,
    gamma: settings.gamma,
    loss: settings.loss,
    clip: settings.clip,
    seed: settings.seed,
  };
  checkpointConfig(c, settings.checkpoints);
  if (source === "demo") {
    c.demo = settings.demo;
  } else {
    c.file = session.file.name;
    c.format = settings.format;
    c.onError = settings.onError;
    if (session.roles) c.roles = session.roles;
  }
  return c;
}

// startSession starts a new run of source ("demo" or "file": session.file)
// from row 0. With keepPaused a paused page stays paused; otherwise it runs.
function startSession(source, {note = "", keepPaused = false} = {}) {
  if (!occfm) return;
  session.gen++;
  stopFeeder(feeder);
  session.source = source;
  session.learners = page.model ? [page.model.learner] : [...settings.learners];
  session.task = "";
  session.layout = "";
  session.checkpoints = [];
  session.regret = [];
  session.regretStatus = null;
  session.firstRowAt = 0;
  session.doneRate = 0;
  session.last = null;
  session.known = "";
  session.skipped = 0;
  session.skippedFirst = [];
  session.guardSeen = {};
  renderSkipped();
  clock.carry = 0;
  rate.clear();
  views.tableShown = -Infinity;
  showError("");
  showNote(note);
  views.metric.reset(session.learners, metricLabel(""));
  views.loss.reset(session.learners);
  views.regret.reset(session.learners);
  resetExpertRegret();
  renderRegret();
  document.getElementById("metric-title").textContent = `progressive ${metricLabel("")} vs rows`;
  if (source === "demo") renderPreview(null);  // a file keeps its preview until the new one arrives
  renderDemoSelect();

  const text = call(() => occfm.start(JSON.stringify(configFor(source))));
  if (text == null) return;
  const paused = keepPaused && page.phase === "paused";
  setPhase(paused ? "paused" : "running");
  applySnapshot(text, true);
  if (source === "file" && page.phase !== "error") feedFile(session.file, session.gen);
}

// restart starts the current source again with the current settings.
function restart(note = "") {
  startSession(session.source, {note, keepPaused: true});
}

// applySnapshot takes a snapshot JSON string from start, run or snapshot and
// updates the session and every view.
function applySnapshot(text, force = false) {
  let snap;
  try {
    snap = JSON.parse(text);
  } catch (err) {
    fail(`occfm: bad snapshot: ${err.message}`);
    return null;
  }
  session.last = snap;
  feeder.fedSinceSnapshot = false;
  if (snap.task && snap.task !== session.task) {
    session.task = snap.task;
    views.metric.setLabel(metricLabel(snap.task));
    document.getElementById("metric-title").textContent = `progressive ${metricLabel(snap.task)} vs rows`;
  }
  if (snap.layout) session.layout = snap.layout;
  if (snap.known) session.known = snap.known;
  if (finite(snap.skipped)) session.skipped = snap.skipped;
  if (Array.isArray(snap.skippedFirst)) session.skippedFirst = snap.skippedFirst.map(String);
  if (snap.decimated) {
    views.metric.thin();
    views.loss.thin();
    views.expertRegret.thin();
  }
  const points = Array.isArray(snap.points) ? snap.points : [];
  if (points.length > 0) {
    for (const p of points) session.checkpoints.push(p);
    const n = session.learners.length;
    views.metric.addPoints(points.map((p) => [p[0], ...Array.from({length: n}, (_, i) => p[2 + 2 * i])]));
    views.loss.addPoints(points.map((p) => [p[1] / 1000, ...Array.from({length: n}, (_, i) => p[3 + 2 * i])]));
    if (hasAuto()) {
      views.expertRegret.addPoints(points.map((p) => [p[0], p[2 + 2 * n], p[3 + 2 * n]]));
      const last = points[points.length - 1], fig = document.getElementById("expert-regret");
      fig.dataset.rows = last[0];
      fig.dataset.regret = last[2 + 2 * n];
      fig.dataset.bound = last[3 + 2 * n];
    }
  }
  if (snap.regret && typeof snap.regret === "object") {
    const fresh = Array.isArray(snap.regret.points) ? snap.regret.points : [];
    if (fresh.length > 0) {
      for (const p of fresh) session.regret.push(p);
      views.regret.addPoints(fresh);
    }
    session.regretStatus = snap.regret;
  } else {
    session.regretStatus = null;
  }
  if (snap.preview) renderPreview(snap.preview);
  if (Array.isArray(snap.warnings)) renderWarnings(snap.warnings);
  const now = performance.now();
  if (!session.firstRowAt && snap.rows > 0) session.firstRowAt = now;
  // While learning, the numbers and tables are drawn at most every
  // VIEW_INTERVAL_MS, in a frame (frame catches up with views.stale): every
  // change of the page costs a style, layout and paint pass in the next
  // frame, time the learner does not get.
  views.stale = true;
  if (force || snap.state !== "running" || page.phase !== "running") renderViews(now);
  if (snap.state === "error") {
    let message = snap.error || "the learner stopped with an error";
    if (snap.badRow) message += ' — choose "Bad rows: skip and count" to pass over such rows.';
    fail(message);
  } else if (snap.state === "done" && page.phase !== "error") {
    // Once done, rows/s shows the average over the whole run.
    if (session.firstRowAt && !session.doneRate) {
      session.doneRate = (snap.rows * 1000) / Math.max(1, now - session.firstRowAt);
    }
    setPhase("done");
    // Shown now: the frame loop that redraws rows/s may have stopped (a
    // small file can be done within one slice).
    document.getElementById("rows-per-second").textContent = String(Math.round(session.doneRate));
    flushCharts(now, true);
  }
  return snap;
}

// renderViews draws the last snapshot: rows and metrics, and at most every
// TABLE_INTERVAL_MS (or at the end) the learner table, stream line and
// regret readout.
function renderViews(now) {
  const snap = session.last;
  views.stale = false;
  views.shown = now;
  if (!snap) return;
  if (occfm) call(() => occfm.render());
  renderNumbers(snap);
  if (snap.state === "done" || snap.state === "error" || now - views.tableShown >= TABLE_INTERVAL_MS) {
    views.tableShown = now;
    renderLearnerTable(snap);
    renderStreamInfo(snap);
    renderSkipped();
    renderRegret();
  }
  renderKnown();
}

function metricLabel(task) {
  if (task === "classification") return "error rate";
  if (task === "regression") return "RMSE";
  return "metric";
}

function setPhase(p) {
  page.phase = p;
  document.body.dataset.state = p;
  renderRunControls();
  // A pause shows the rows learned up to it at once, not at the next frame.
  if (views.stale) renderViews(performance.now());
  if (p === "running" && settings.speed === 0 && occfm) startPump();
}

// fail shows message (plain text) and puts the page in the error state.
function fail(message) {
  session.gen++;  // stops the feeder
  stopFeeder(feeder);
  showError(String(message));
  setPhase("error");
}

// ---- The file feeder ----------------------------------------------------------
//
// feedFile streams the Learn view's file into occfm (streamFile below). It
// reads only while the session asks for bytes (wanted() > 0, or state
// "waiting" in a snapshot newer than the last chunk).

const feeder = {reader: null, resume: null, fedSinceSnapshot: false};

function wantsBytes() {
  const waiting = session.last && session.last.state === "waiting" && !feeder.fedSinceSnapshot;
  return waiting || occfm.wanted() > 0;
}

function feedFile(file, gen) {
  // A pump that stopped on state "waiting" goes on at once, not at the next
  // frame.
  const pump = () => {
    if (page.phase === "running" && settings.speed === 0) startPump();
  };
  streamFile(file, feeder, {
    current: () => gen === session.gen,
    wants: wantsBytes,
    feed: (chunk) => call(() => occfm.feed(chunk)) != null,
    fed: () => {
      feeder.fedSinceSnapshot = true;
      pump();
    },
    end: () => {
      call(() => occfm.end());
      pump();
    },
    fail,
  });
}

// streamFile streams a File's raw bytes into a core session, in chunks of at
// most CHUNK_BYTES: gzip too, since the core gunzips as the command line
// does (a truncated file, trailing padding or several members read the
// same). It reads only while io.wants(); otherwise it parks in
// feeder.resume until pollFeeder sees the session ask again. It stops as
// soon as io.current() is false (a newer run took over) or io.feed(chunk)
// returns false; io.fed() follows each read, io.end() the file's end,
// io.fail(message) a read error of the File itself.
async function streamFile(file, feeder, io) {
  try {
    const reader = file.stream().getReader();
    if (!io.current()) {
      reader.cancel().catch(() => {});
      return;
    }
    feeder.reader = reader;
    for (;;) {
      if (!io.wants()) await new Promise((resolve) => { feeder.resume = resolve; });
      if (!io.current()) return;
      const {value, done} = await reader.read();
      if (!io.current()) return;
      if (done) {
        feeder.reader = null;
        io.end();
        return;
      }
      for (let i = 0; i < value.length; i += CHUNK_BYTES) {
        if (!io.feed(value.subarray(i, i + CHUNK_BYTES))) return;
      }
      io.fed();
    }
  } catch (err) {
    if (!io.current()) return;
    io.fail(`${file.name}: ${err && err.message ? err.message : err}`);
  }
}

// pollFeeder wakes a parked feeder when its session asks for bytes again.
function pollFeeder(feeder, wants) {
  if (feeder.resume && wants()) {
    const resume = feeder.resume;
    feeder.resume = null;
    resume();
  }
}

// stopFeeder lets a feeder's reader go; its loop sees the new gen and ends.
function stopFeeder(feeder) {
  feeder.reader?.cancel().catch(() => {});
  feeder.reader = null;
  const resume = feeder.resume;
  feeder.resume = null;
  resume?.();
}

function pickFile(file) {
  if (!file) return;
  session.file = file;
  session.roles = null;
  renderPreview(null);
  if (!occfm) {
    page.pendingFile = file;
    showNote(`${file.name} will start as soon as the learner is loaded.`);
    return;
  }
  startSession("file", {note: page.model
    ? `Continuing ${page.model.name} (${page.model.learner}) on ${file.name}.`
    : `Learning ${file.name} with the guessed settings.`});
}

// ---- The scheduler ------------------------------------------------------------
//
// Learning runs in slices of at most SLICE_MS, one per task of the event loop,
// so that a click or a frame waits at most one slice.
//
// At a set speed, every animation frame learns the rows the speed allows since
// the last frame (fractions carry over), in one slice.
//
// At full speed ("max"), the pump learns one slice per task and queues the
// next through a MessageChannel: a message task runs as soon as the browser
// has handled the input and rendering that are due, and, unlike
// setTimeout(0), is never clamped to 4 ms; one slice per animation frame
// would leave the learner idle for half of every frame. The frames go on
// between slices: they draw the charts (at most every FULL_SPEED_CHART_MS) and
// rows/s, and start the pump again when it stopped (state "waiting" for a
// file's bytes, or a pause).

const clock = {
  carry: 0,       // rows the speed allows but not learned yet
  lastFrame: 0,
};

const pump = {port: null, queued: false};

// queueTask runs onTask in a task of its own, queued through p's
// MessageChannel (made on first use); at most one is queued at a time. The
// Learn and Personalize views each have their pump p.
function queueTask(p, onTask) {
  if (p.queued) return;
  if (!p.port) {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      p.queued = false;
      onTask();
    };
    p.port = channel.port2;
  }
  p.queued = true;
  p.port.postMessage(null);
}

function startPump() {
  queueTask(pump, onPump);
}

function onPump() {
  if (!occfm || page.phase !== "running" || settings.speed > 0) return;
  if (session.source === "file") pollFeeder(feeder, wantsBytes);
  const text = call(() => occfm.run(SLICE_MS, 0));
  if (text == null) return;
  const snap = applySnapshot(text);
  // Waiting for bytes: the feeder runs on its own promises; the next frame
  // tries again rather than spinning here.
  if (snap && snap.state === "running" && page.phase === "running") startPump();
}

// rate measures rows/s over the last second of frames.
const rate = {
  samples: [],
  clear() { this.samples = []; },
  add(t, rows) {
    this.samples.push([t, rows]);
    while (this.samples.length > 2 && t - this.samples[0][0] > 1000) this.samples.shift();
  },
  value() {
    if (this.samples.length < 2) return 0;
    const [t0, r0] = this.samples[0];
    const [t1, r1] = this.samples[this.samples.length - 1];
    return t1 > t0 ? ((r1 - r0) * 1000) / (t1 - t0) : 0;
  },
};

function frame(now) {
  const dt = Math.min(now - clock.lastFrame, 250);
  clock.lastFrame = now;
  if (occfm && page.phase !== "loading" && page.phase !== "error") {
    if (session.source === "file") pollFeeder(feeder, wantsBytes);
    if (page.phase === "running") {
      if (settings.speed > 0) learnFor(dt);
      else startPump();
    } else if (page.phase === "done" && session.last && session.last.regret && session.last.regret.pending > 0) {
      // After the last row, the comparator may still owe checkpoints: give
      // it slices until it is up to date.
      const text = call(() => occfm.run(SLICE_MS, 1));
      if (text != null) applySnapshot(text);
    }
  }
  rate.add(now, session.last ? session.last.rows || 0 : 0);
  if (now - views.rateShown >= 250) {
    views.rateShown = now;
    const shown = page.phase === "running" ? rate.value() : page.phase === "done" ? session.doneRate : 0;
    document.getElementById("rows-per-second").textContent = String(Math.round(shown));
  }
  if (views.stale && now - views.shown >= VIEW_INTERVAL_MS) renderViews(now);
  if (views.metric) flushCharts(now);
  nextFrame();
}

// nextFrame asks for the next frame: the next animation frame, except while
// the pump learns at full speed. Then the views are drawn every
// VIEW_INTERVAL_MS and no frame is asked for in between: every frame costs
// the learner the browser's rendering work, even when nothing changed.
function nextFrame() {
  if (page.phase === "running" && settings.speed === 0) {
    setTimeout(() => requestAnimationFrame(frame), VIEW_INTERVAL_MS);
  } else {
    requestAnimationFrame(frame);
  }
}

// learnFor learns the rows the speed allows for dt ms of wall time, in one
// slice of at most SLICE_MS (the core checks the deadline before every row).
function learnFor(dt) {
  clock.carry = Math.min(clock.carry + (settings.speed * dt) / 1000, Math.max(1, settings.speed / 4));
  if (clock.carry < 1) return;
  const before = session.last ? session.last.rows || 0 : 0;
  const text = call(() => occfm.run(SLICE_MS, Math.floor(clock.carry)));
  if (text == null) return;
  const snap = applySnapshot(text);
  if (!snap) return;
  clock.carry = Math.max(0, clock.carry - ((snap.rows || 0) - before));
}

function flushCharts(now, force = false) {
  views.metric.flush(now, force);
  views.loss.flush(now, force);
  views.regret.flush(now, force);
  views.expertRegret.flush(now, force);
}

// ---- Views ----------------------------------------------------------------------

const METRICS = ["rmse", "mae", "error_rate", "auc", "logloss", "avg_loss"];

function finite(v) {
  return typeof v === "number" && Number.isFinite(v);
}

function formatNumber(v) {
  if (!finite(v)) return "–";
  if (Math.abs(v) >= 1000) return Math.round(v).toLocaleString("en-US");
  return String(Number(v.toPrecision(4)));
}

// renderNumbers shows rows and the first learner's progressive metrics: the
// text has 4 decimals, data-value the full-precision number.
function renderNumbers(snap) {
  document.getElementById("rows").textContent = String(snap.rows || 0);
  const first = Array.isArray(snap.learners) && snap.learners.length > 0 ? snap.learners[0] : {};
  for (const key of METRICS) {
    const card = document.querySelector(`[data-metric="${key}"]`);
    const value = card.querySelector(".value");
    const v = first[key];
    if (finite(v)) {
      card.hidden = false;
      value.dataset.value = String(v);
      value.textContent = v.toFixed(4);
    } else {
      card.hidden = true;
      delete value.dataset.value;
      value.textContent = "";
    }
  }
}

// renderLearnerTable lists every learner, like the CLI's table.
function renderLearnerTable(snap) {
  const table = document.getElementById("learner-table");
  const learners = Array.isArray(snap.learners) ? snap.learners : [];
  const metricCols = snap.task === "classification"
    ? [["error_rate", "error rate"], ["auc", "AUC"], ["logloss", "log loss"]]
    : [["rmse", "RMSE"], ["mae", "MAE"]];
  const cols = [["rows", "rows"], ["seconds", "seconds"], ["rate", "updates/s"], ["avg_loss", "avg loss"], ...metricCols];
  const head = document.createElement("tr");
  head.append(th("learner"), ...cols.map(([, label]) => th(label)));
  table.tHead.replaceChildren(head);
  renderGuardNotes(learners);
  table.tBodies[0].replaceChildren(...learners.map((l, i) => {
    const tr = document.createElement("tr");
    const name = td(l.name + (l.guard && l.guard.pausedAt ? " (paused)" : l.guard && l.guard.resets ? ` (reset ×${l.guard.resets})` : ""));
    name.style.setProperty("--swatch", COLORS[i % COLORS.length]);
    name.className = "learner-name";
    tr.append(name, ...cols.map(([key]) => {
      if (key === "rows") return td(String(l.rows ?? ""));
      if (key === "seconds") return td(finite(l.seconds) ? l.seconds.toFixed(3) : "");
      if (key === "rate") return td(finite(l.seconds) && l.seconds > 0 ? Math.round(l.rows / l.seconds).toLocaleString("en-US") : "");
      return td(finite(l[key]) ? l[key].toFixed(4) : "");
    }));
    return tr;
  }));
}

// renderGuardNotes says what each learner's guard did: divergences,
// resets, a pause, rows not learned, with the first events; and whether
// predictions are clipped.
function renderGuardNotes(learners) {
  const list = document.getElementById("guard-notes");
  const items = [];
  for (const l of learners) {
    const g = l.guard;
    if (!g) continue;
    if (g.divergences > (session.guardSeen[l.name] || 0)) {
      // Said at the top too, once per divergence: the list below the
      // table may be out of sight.
      session.guardSeen[l.name] = g.divergences;
      showNote(g.pausedAt
        ? `${l.name} diverged and was paused at row ${g.pausedAt.toLocaleString("en-US")}: η is probably too large (details under Learners).`
        : `${l.name} diverged and was reset to a fresh learner (${g.resets} of 3 resets; details under Learners).`);
    }
    const parts = [];
    if (g.divergences) parts.push(`diverged ${g.divergences}×, reset ${g.resets}×`);
    if (g.pausedAt) parts.push(`paused at row ${g.pausedAt.toLocaleString("en-US")}: it stopped learning and predicts the label mean`);
    if (g.refused) parts.push(`${g.refused.toLocaleString("en-US")} row${g.refused === 1 ? "" : "s"} not learned (${g.refusedWhy || "a feature beyond ±1e9"})`);
    const li = document.createElement("li");
    li.className = "warn";
    const head = document.createElement("strong");
    head.textContent = `${l.name}: `;
    li.append(head, parts.join("; ") + (g.advice ? ". " + g.advice[0].toUpperCase() + g.advice.slice(1) : ""));
    const events = document.createElement("ul");
    for (const e of g.events || []) {
      const ei = document.createElement("li");
      ei.textContent = e;
      events.append(ei);
    }
    li.append(events);
    items.push(li);
  }
  for (const l of learners) {
    if (!Array.isArray(l.experts) || l.experts.length === 0) continue;
    // occfm-auto: which δ is winning, by the exponential weights.
    const live = l.experts.filter((e) => !e.retired).sort((a, b) => b.weight - a.weight);
    const gone = l.experts.filter((e) => e.retired).map((e) => e.name);
    const li = document.createElement("li");
    li.className = "experts";
    const head = document.createElement("strong");
    head.textContent = `${l.name}: `;
    li.append(head, `following ${live.map((e) => `${e.name} ${(100 * e.weight).toFixed(e.weight > 0.995 || e.weight < 0.005 ? 0 : 1)} %`).join(", ")}` +
      (gone.length ? `; retired (far behind, stopped learning): ${gone.join(", ")}` : "") +
      (finite(l.expertRegret) ? `; regret to its best expert ${formatNumber(l.expertRegret)} (the exponential weights' bound: ${formatNumber(l.expertBound)})` : "") + ".");
    items.push(li);
  }
  const clipped = learners.filter((l) => l.clip).map((l) => l.name);
  if (clipped.length) {
    const li = document.createElement("li");
    li.textContent = `Predictions clipped to the range of the labels seen (Clip predictions: ${settings.clip}).`;
    items.push(li);
  }
  list.replaceChildren(...items);
  list.hidden = items.length === 0;
}

function th(text) {
  const el = document.createElement("th");
  el.textContent = text;
  return el;
}

function td(text) {
  const el = document.createElement("td");
  el.textContent = text;
  return el;
}

function renderStreamInfo(snap) {
  const parts = [];
  parts.push(session.source === "file" ? session.file.name : demoTitle(settings.demo));
  if (session.layout) parts.push(session.layout);
  if (snap.task) parts.push(snap.task);
  if (finite(snap.features) && snap.features > 0) parts.push(`${snap.features.toLocaleString("en-US")} features`);
  if (snap.state === "waiting") parts.push("waiting for data…");
  document.getElementById("stream-info").textContent = parts.join(" · ");
}

// resetExpertRegret shows the chart of occfm-auto's regret to its best
// expert when it races, and empties it.
function resetExpertRegret() {
  const fig = document.getElementById("expert-regret");
  fig.hidden = !hasAuto();
  if (fig.hidden) return;
  const i = session.learners.indexOf(AUTO);
  views.expertRegret.colors = [COLORS[i % COLORS.length], "#6b7280"];
  views.expertRegret.reset([AUTO, "bound"]);
}

// renderRegret writes the readout under the regret chart: the latest band,
// each learner's log-log slope, D and G, and where the comparator stands.
function renderRegret() {
  const st = session.regretStatus;
  const pts = session.regret;
  const last = pts.length > 0 ? pts[pts.length - 1] : null;
  const latest = document.getElementById("regret-latest");
  const slopes = document.getElementById("regret-slopes");
  const constants = document.getElementById("regret-constants");
  const comparator = document.getElementById("regret-comparator");
  if (!st) {
    latest.textContent = session.last ? "Regret is not tracked for this run." : "";
    for (const k of ["value", "lo", "hi", "t"]) delete latest.dataset[k];
    slopes.replaceChildren();
    constants.textContent = "";
    comparator.textContent = "";
    return;
  }
  if (last) {
    const t = last[0];
    const band = (i) => [last[REGRET_FIXED + 3 * i + 1], last[REGRET_FIXED + 3 * i + 2]];
    const [lo0, hi0] = band(0);
    latest.dataset.value = String((lo0 + hi0) / 2);
    latest.dataset.lo = String(lo0);
    latest.dataset.hi = String(hi0);
    latest.dataset.t = String(t);
    const parts = session.learners.map((name, i) => {
      const [lo, hi] = band(i);
      const text = `[${formatNumber(lo)}, ${formatNumber(hi)}]`;
      return session.learners.length > 1 ? `${name} ${text}` : text;
    });
    latest.textContent = `regret at T = ${t.toLocaleString("en-US")}: ${parts.join(" · ")}`;
  } else {
    for (const k of ["value", "lo", "hi", "t"]) delete latest.dataset[k];
    latest.textContent = "regret: waiting for the first checkpoint";
  }
  const slope = Array.isArray(st.slope) ? st.slope : [];
  slopes.replaceChildren(...session.learners.map((name, i) => {
    const li = document.createElement("li");
    li.style.setProperty("--swatch", COLORS[i % COLORS.length]);
    li.className = "learner-name";
    const v = slope[i];
    let text = "—";
    if (finite(v)) text = `${v.toFixed(2)} — ${v >= 1 ? "linear or worse" : "sub-linear"} (Theorem 3: ≤ ¾ asymptotically)`;
    li.textContent = `${session.learners.length > 1 ? name + ": " : ""}slope of log regret vs log T (last 6 checkpoints): ${text}`;
    if (finite(v)) li.dataset.value = String(v);
    return li;
  }));
  const g = last ? formatNumber(last[4]) : "–";
  constants.textContent = `D = 2δ = ${formatNumber(st.d)}, G = ${g} (largest gradient norm seen)` +
    (st.noDelta ? `. ${session.learners[0]} has no δ: its regret is against the best C in K for δ = ${formatNumber(st.d / 2)}, the comparator's ball, and the dashed bound is OCCFM's at that δ, not its own` : "");
  const pending = st.pending || 0;
  let text = pending > 0
    ? `comparator: ${pending} checkpoint${pending === 1 ? "" : "s"} behind, lag ${(st.lag || 0).toLocaleString("en-US")} rows`
    : last ? "comparator: up to date" : "comparator: no checkpoint yet";
  if (st.truncated) {
    text += ` · comparator keeps at most ${(st.maxRows || 0).toLocaleString("en-US")} rows: later rows are not in the comparison`;
  }
  if (st.leftOut > 0) {
    text += ` · ${st.leftOut.toLocaleString("en-US")} row${st.leftOut === 1 ? "" : "s"} left out (a feature or label beyond ±1e9, or over 1,000 nonzeros)`;
  }
  comparator.textContent = text;
}

function renderKnown() {
  const el = document.getElementById("known");
  if (el.textContent === session.known) return;
  el.hidden = !session.known;
  el.textContent = session.known;
}

// renderPreview shows a file's first lines and, for CSV, a role menu per
// column. Everything from the file goes through textContent.
function renderPreview(preview) {
  const card = document.getElementById("preview");
  card.hidden = !preview;
  if (!preview) return;
  const layout = preview.layout || session.layout || preview.format || "";
  const forced = settings.format !== "auto" ? ` (forced by "Read as")` : "";
  document.getElementById("preview-layout").textContent = layout ? `read as: ${layout}${forced}` : "";
  renderWarnings(Array.isArray(preview.warnings) ? preview.warnings : []);
  document.getElementById("preview-lines").textContent = (preview.lines || []).join("\n");
  const table = document.getElementById("preview-columns");
  const columns = Array.isArray(preview.columns) ? preview.columns : [];
  table.hidden = columns.length === 0;
  table.tBodies[0].replaceChildren(...columns.map((col) => {
    const tr = document.createElement("tr");
    const select = document.createElement("select");
    select.dataset.column = col.name;
    select.setAttribute("data-testid", "role-select");
    select.setAttribute("aria-label", `role of column ${col.name}`);
    for (const role of ["label", "categorical", "numeric", "ignore"]) {
      const opt = document.createElement("option");
      opt.value = role;
      opt.textContent = role;
      select.append(opt);
    }
    select.value = col.role;
    select.addEventListener("change", onRoleChange);
    const cell = document.createElement("td");
    cell.append(select);
    tr.append(td(col.name), cell);
    return tr;
  }));
}

// renderWarnings shows what the reader guessed or read past (plain text,
// role=status: announced, not alerted).
function renderWarnings(warnings) {
  const el = document.getElementById("preview-warnings");
  el.replaceChildren(...warnings.map((w) => {
    const li = document.createElement("li");
    li.textContent = String(w);
    return li;
  }));
  el.hidden = warnings.length === 0;
}

function onRoleChange() {
  const roles = {};
  for (const select of document.querySelectorAll("#preview-columns select")) roles[select.dataset.column] = select.value;
  session.roles = roles;
  const labels = Object.entries(roles).filter(([, r]) => r === "label").map(([c]) => c);
  restart(`Restarted ${session.file.name} with the new column roles (label: ${labels.join(", ") || "none"}).`);
}

function showError(message) {
  const el = document.getElementById("error");
  el.textContent = message;
  el.hidden = !message;
}

// renderSkipped shows the malformed rows skipped, e.g. "312 rows skipped —
// first: u.data:17: field "rating": "abc" is not a number", and the first
// reasons; file content goes through textContent only.
function renderSkipped() {
  const box = document.getElementById("skipped");
  const n = session.skipped;
  if (box.hidden !== !(n > 0)) box.hidden = !(n > 0);
  if (!(n > 0)) return;
  const first = session.skippedFirst;
  const head = `${n.toLocaleString("en-US")} ${n === 1 ? "row" : "rows"} skipped` + (first.length ? ` — first: ${first[0]}` : "");
  const summary = document.getElementById("skipped-summary");
  if (summary.textContent !== head) summary.textContent = head;
  const list = document.getElementById("skipped-reasons");
  const more = first.slice(1);
  if (list.childElementCount === more.length) return;
  list.replaceChildren(...more.map((r) => {
    const li = document.createElement("li");
    li.textContent = r;
    return li;
  }));
}

function showNote(message) {
  const el = document.getElementById("note");
  el.textContent = message;
  el.hidden = !message;
}

function demoTitle(name) {
  const d = page.catalog.demos.find((x) => x.name === name);
  return d ? d.title || d.name : name;
}

// ---- Controls -------------------------------------------------------------------

const STATE_TEXT = {
  loading: "loading the learner…", ready: "ready", running: "learning",
  paused: "paused", done: "done: the stream has ended", error: "stopped by an error",
};

function renderRunControls() {
  const loaded = page.phase !== "loading";
  const play = document.getElementById("play");
  play.textContent = page.phase === "running" ? "Pause" : "Play";
  play.setAttribute("aria-pressed", String(page.phase === "running"));
  play.disabled = !loaded;
  document.getElementById("step").disabled = !loaded || page.phase === "done" || page.phase === "error";
  document.getElementById("reset").disabled = !loaded;
  document.getElementById("export-csv").disabled = !loaded;
  document.getElementById("export-json").disabled = !loaded;
  document.getElementById("model-save").disabled = !loaded;
  document.getElementById("state-text").textContent = STATE_TEXT[page.phase] || page.phase;
}

function renderSpeed() {
  const slider = document.getElementById("speed");
  let pos = SPEEDS.length;  // max
  if (settings.speed > 0) {
    pos = 0;
    for (let i = 0; i < SPEEDS.length; i++) {
      if (Math.abs(Math.log(SPEEDS[i] / settings.speed)) < Math.abs(Math.log(SPEEDS[pos] / settings.speed))) pos = i;
    }
  }
  slider.max = String(SPEEDS.length);
  slider.value = String(pos);
  document.getElementById("speed-out").textContent =
    settings.speed > 0 ? `${settings.speed.toLocaleString("en-US")} rows/s` : "max";
}

// renderControls makes every control show settings.
function renderControls() {
  renderSpeed();
  document.getElementById("delta").value = settings.delta > 0 ? String(settings.delta) : "";
  document.getElementById("eta").value = settings.eta > 0 ? String(settings.eta) : "";
  document.getElementById("gamma").value = settings.gamma;
  document.getElementById("loss").value = settings.loss;
  document.getElementById("clip").value = settings.clip;
  document.getElementById("seed").value = String(settings.seed);
  document.getElementById("regret-checkpoints").value = settings.checkpoints;
  document.getElementById("on-error").value = settings.onError;
  document.getElementById("read-as").value = settings.format;
  for (const box of document.querySelectorAll("#learners input")) box.checked = settings.learners.includes(box.value);
  document.getElementById("delta").placeholder = defaultText("delta");
  document.getElementById("eta").placeholder = defaultText("eta");
  renderDemoSelect();
}

// defaultText names the default of a learner setting: "default", or
// "default (10)" when learners() tells the first learner's default.
function defaultText(key) {
  const first = page.catalog.learners.find((l) => l.name === settings.learners[0]);
  return first && finite(first[key]) ? `default (${first[key]})` : "default";
}

function renderDemoSelect() {
  const select = document.getElementById("demo");
  const fileOption = document.getElementById("demo-file-option");
  if (session.source === "file" && session.file) {
    fileOption.hidden = false;
    fileOption.textContent = `file: ${session.file.name}`;
    select.value = "";
  } else {
    fileOption.hidden = true;
    select.value = settings.demo;
  }
}

function buildCatalogControls() {
  const demo = document.getElementById("demo");
  for (const d of page.catalog.demos) {
    const opt = document.createElement("option");
    opt.value = d.name;
    opt.textContent = d.title || d.name;
    if (d.task) opt.title = d.task;
    demo.append(opt);
  }
  demo.disabled = false;
  const box = document.getElementById("learners");
  for (const l of page.catalog.learners) {
    const label = document.createElement("label");
    label.className = "learner";
    const input = document.createElement("input");
    input.type = "checkbox";
    input.value = l.name;
    input.addEventListener("change", onLearnersChange);
    const name = document.createElement("span");
    name.className = "learner-title";
    name.textContent = l.name;
    const summary = document.createElement("span");
    summary.className = "hint";
    summary.textContent = l.summary || "";
    label.append(input, name, summary);
    box.append(label);
  }
}

// validateSettings drops names the core does not know.
function validateSettings() {
  const names = page.catalog.learners.map((l) => l.name);
  settings.learners = settings.learners.filter((n) => names.includes(n));
  if (settings.learners.length === 0 && names.length > 0) {
    settings.learners = names.includes(DEFAULTS.learners[0]) ? [...DEFAULTS.learners] : [names[0]];
  }
  if (!page.catalog.demos.some((d) => d.name === settings.demo) && page.catalog.demos.length > 0) {
    settings.demo = page.catalog.demos.some((d) => d.name === DEFAULTS.demo) ? DEFAULTS.demo : page.catalog.demos[0].name;
  }
}

function writeHash() {
  const hash = formatHash(settings);
  if (hash !== location.hash) history.replaceState(null, "", hash);
}

function settingsNote() {
  const d = settings.delta > 0 ? settings.delta : defaultText("delta");
  const e = settings.eta > 0 ? settings.eta : defaultText("eta");
  return `Restarted with δ = ${d}, η = ${e}, γ = ${GAMMAS[settings.gamma]}, loss ${settings.loss}, ` +
    `seed ${settings.seed}, regret checkpoints ${CHECKPOINTS[settings.checkpoints]} (${settings.learners.join(", ")}).`;
}

// onLearnerSetting applies a change of a learner setting: new hash, new run.
function onLearnerSetting(update) {
  const before = learnerSettingsKey(settings);
  update();
  renderControls();
  writeHash();
  if (learnerSettingsKey(settings) !== before) restart(settingsNote());
}

function onLearnersChange() {
  const checked = [...document.querySelectorAll("#learners input:checked")].map((b) => b.value);
  if (checked.length === 0) {  // keep at least one learner
    renderControls();
    return;
  }
  onLearnerSetting(() => { settings.learners = checked; });
}

function togglePlay() {
  if (page.phase === "running") setPhase("paused");
  else if (page.phase === "paused" || page.phase === "ready") setPhase("running");
  else if (page.phase === "done" || page.phase === "error") startSession(session.source, {note: "Started again from row 0."});
}

function step() {
  if (!occfm || page.phase === "loading" || page.phase === "done" || page.phase === "error") return;
  if (page.phase !== "paused") setPhase("paused");
  const text = call(() => occfm.run(1000, 1));
  if (text != null) applySnapshot(text, true);
  // run's snapshot may carry metrics up to 250 ms old; a step shows its own.
  const fresh = call(() => occfm.snapshot());
  if (fresh != null) applySnapshot(fresh, true);
  flushCharts(performance.now(), true);
}

function isTyping(target) {
  return target instanceof HTMLElement &&
    (target.isContentEditable || ["INPUT", "SELECT", "TEXTAREA"].includes(target.tagName));
}

function wireControls() {
  const $ = (id) => document.getElementById(id);
  $("play").addEventListener("click", togglePlay);
  $("step").addEventListener("click", step);
  $("reset").addEventListener("click", () => restart("Reset: started again from row 0."));
  $("speed").addEventListener("input", (e) => {
    const pos = Number(e.target.value);
    settings.speed = pos >= SPEEDS.length ? 0 : SPEEDS[pos];
    clock.carry = Math.min(clock.carry, 1);
    renderSpeed();
    writeHash();
  });
  $("delta").addEventListener("change", (e) => onLearnerSetting(() => { settings.delta = nonNegative(e.target.value, 0); }));
  $("eta").addEventListener("change", (e) => onLearnerSetting(() => { settings.eta = nonNegative(e.target.value, 0); }));
  $("gamma").addEventListener("change", (e) => onLearnerSetting(() => { settings.gamma = e.target.value; }));
  $("regret-checkpoints").addEventListener("change", (e) => onLearnerSetting(() => { settings.checkpoints = e.target.value; }));
  $("loss").addEventListener("change", (e) => onLearnerSetting(() => { settings.loss = e.target.value; }));
  $("clip").addEventListener("change", (e) => onLearnerSetting(() => { settings.clip = e.target.value; }));
  $("seed").addEventListener("change", (e) => onLearnerSetting(() => {
    settings.seed = Math.trunc(nonNegative(e.target.value, DEFAULTS.seed));
  }));
  $("on-error").addEventListener("change", (e) => {
    settings.onError = ON_ERROR.includes(e.target.value) ? e.target.value : DEFAULTS.onError;
    writeHash();
    if (session.source === "file" && session.file) {
      const how = settings.onError === "skip" ? "malformed rows are skipped and counted" : "a malformed row stops the run";
      restart(`Restarted ${session.file.name}: ${how}.`);
    }
  });
  $("read-as").addEventListener("change", (e) => {
    settings.format = FORMATS.includes(e.target.value) ? e.target.value : DEFAULTS.format;
    writeHash();
    if (session.source === "file" && session.file) {
      session.roles = null;  // the columns of another reading
      restart(`Restarted ${session.file.name}, read as ${e.target.selectedOptions[0].textContent}.`);
    }
  });
  $("demo").addEventListener("change", (e) => {
    if (!e.target.value) return;
    settings.demo = e.target.value;
    writeHash();
    startSession("demo", {note: `Demo: ${demoTitle(settings.demo)}.`});
  });
  $("file-input").addEventListener("change", (e) => {
    const file = e.target.files && e.target.files[0];
    e.target.value = "";  // picking the same file again starts it again
    pickFile(file);
  });
  const regretMode = () => {
    views.regret.setMode({logLog: $("regret-loglog").checked, perT: $("regret-per-t").checked});
  };
  $("regret-loglog").addEventListener("change", regretMode);
  $("regret-per-t").addEventListener("change", regretMode);
  $("export-csv").addEventListener("click", exportCSV);
  $("export-json").addEventListener("click", exportJSON);
  $("model-save").addEventListener("click", saveModel);
  $("model-input").addEventListener("change", (e) => {
    const file = e.target.files[0];
    e.target.value = "";  // the same file can be loaded again
    if (file) loadModel(file);
  });
  $("model-forget").addEventListener("click", forgetModel);

  document.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey || isTyping(e.target) || settings.view === "personalize") return;
    if (e.key === " ") {
      e.preventDefault();
      togglePlay();
    } else if (e.key === "ArrowRight") {
      e.preventDefault();
      step();
    }
  });

  // Drag and drop anywhere on the page.
  const overlay = $("drop-overlay");
  const hasFiles = (e) => e.dataTransfer && [...e.dataTransfer.types].includes("Files");
  document.addEventListener("dragenter", (e) => {
    if (!hasFiles(e)) return;
    e.preventDefault();
    overlay.hidden = false;
  });
  document.addEventListener("dragover", (e) => {
    if (!hasFiles(e)) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = "copy";
  });
  document.addEventListener("dragleave", (e) => {
    if (e.relatedTarget == null) overlay.hidden = true;
  });
  document.addEventListener("drop", (e) => {
    overlay.hidden = true;
    if (!hasFiles(e)) return;
    e.preventDefault();
    if (settings.view === "personalize") pickPersonalFiles([...e.dataTransfer.files]);
    else pickFile(e.dataTransfer.files[0]);
  });

  // A hash edited by hand (or a pasted link) applies like the controls.
  addEventListener("hashchange", () => {
    const next = parseHash(location.hash);
    const viewChanged = next.view !== settings.view;
    const demoChanged = next.demo !== settings.demo;
    const runChanged = learnerSettingsKey(next) !== learnerSettingsKey(settings);
    Object.assign(settings, next);
    validateSettings();
    renderControls();
    writeHash();
    if (viewChanged) setView(settings.view);
    const plearner = settings.plearner || P_LEARNER;
    if (occfm && settings.view === "personalize" && plearner !== personal.learner && page.catalog.learners.some((l) => l.name === plearner)) {
      personal.learner = plearner;
      document.getElementById("p-learner").value = plearner;
      renderLearnerHint();
      if (personal.started) startPersonal();
    }
    if (!occfm) return;
    if (demoChanged) startSession("demo", {note: `Demo: ${demoTitle(settings.demo)}.`});
    else if (runChanged) restart(settingsNote());
  });
}

// ---- Export ----------------------------------------------------------------------

function exportName(ext) {
  const base = session.source === "file" ? session.file.name : settings.demo;
  return `occfm-${base.replace(/[^A-Za-z0-9._-]+/g, "_")}-${session.last ? session.last.rows || 0 : 0}.${ext}`;
}

function exportColumns() {
  const metric = session.task === "classification" ? "error_rate" : "rmse";
  return ["rows", "ms", ...session.learners.flatMap((n) => [`${n}_${metric}`, `${n}_avg_loss`]),
    ...(hasAuto() ? [`${AUTO}_regret_to_best_expert`, `${AUTO}_expert_bound`] : [])];
}

// AUTO is the learner with no δ, whose checkpoints carry its regret to its
// best expert (wasm/doc.go, "points").
const AUTO = "occfm-auto";

function hasAuto() {
  return session.learners.includes(AUTO);
}

function regretColumns() {
  return ["T", "comparator_loss", "gap", "bound", "G",
    ...session.learners.flatMap((n) => [`${n}_cum_loss`, `${n}_regret_lo`, `${n}_regret_hi`])];
}

// exportCSV writes the checkpoints and, after a blank line, the regret
// checkpoints as a second table.
function exportCSV() {
  const row = (p) => p.map((v) => (finite(v) ? String(v) : "")).join(",");
  const lines = [exportColumns().join(",")];
  for (const p of session.checkpoints) lines.push(row(p));
  if (session.regret.length > 0) {
    lines.push("", regretColumns().join(","));
    for (const p of session.regret) lines.push(row(p));
  }
  download(new Blob([lines.join("\n") + "\n"], {type: "text/csv"}), exportName("csv"));
}

function exportJSON() {
  const run = {
    source: session.source === "file" ? {file: session.file.name, roles: session.roles} : {demo: settings.demo},
    layout: session.layout,
    task: session.task,
    settings: configFor(session.source),
    link: location.href,
    known: session.known,
    learners: session.last ? session.last.learners : [],
    columns: exportColumns(),
    checkpoints: session.checkpoints,
    regret: {columns: regretColumns(), points: session.regret},
  };
  download(new Blob([JSON.stringify(run, null, 1)], {type: "application/json"}), exportName("json"));
}

function download(blob, name) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
}

// ---- Model files ------------------------------------------------------------------
//
// The core saves and loads them (occfm.saveModel, occfm.loadModel); the page
// only moves bytes. A loaded model is kept in the core and continued by every
// later start, so the next file, demo or reset continues it.

function saveModel() {
  const out = call(() => occfm.saveModel());
  if (!out) return;
  if (out.error) {
    showError(`Cannot save the model: ${out.error}`);
    return;
  }
  const name = `occfm-${out.learner}-${out.rows}rows.occfm`;
  download(new Blob([out.bytes], {type: "application/octet-stream"}), name);
  showNote(`Saved ${name} (${out.bytes.length.toLocaleString("en-US")} bytes).`);
}

async function loadModel(file) {
  let bytes;
  try {
    // The header first: a data file or a huge file picked by mistake is
    // refused without being read whole.
    const head = new Uint8Array(await file.slice(0, 64).arrayBuffer());
    const headError = call(() => occfm.modelHead(head, file.size));
    if (headError == null) return;
    if (headError !== "") {
      showError(`${file.name}: ${headError}`);
      return;
    }
    bytes = new Uint8Array(await file.arrayBuffer());
  } catch (err) {
    showError(`${file.name}: cannot read it: ${err && err.message ? err.message : err}`);
    return;
  }
  const text = call(() => occfm.loadModel(bytes));
  if (text == null) return;
  const info = JSON.parse(text);
  if (info.error) {
    // The current run and any model loaded before are left as they were.
    showError(`${file.name}: ${info.error}`);
    return;
  }
  page.model = {...info, name: file.name};
  showError("");
  renderModelInfo();
  showNote(`Loaded ${file.name}: choose a file or a demo, or Reset, to continue it.`);
}

function forgetModel() {
  if (occfm) call(() => occfm.forgetModel());
  page.model = null;
  renderModelInfo();
  showNote("The model is forgotten: the next run starts fresh learners.");
}

function renderModelInfo() {
  const m = page.model;
  const info = document.getElementById("model-info");
  document.getElementById("model-forget").hidden = !m;
  if (!m) {
    info.textContent = "";
    return;
  }
  const from = m.format ? ` from a ${m.format} file` : "";
  info.textContent = `Continuing ${m.name}: ${m.learner}, ${m.task}, ` +
    `${m.rows.toLocaleString("en-US")} rows learned, ${m.features.toLocaleString("en-US")} features${from}.`;
}

// ---- Personalize --------------------------------------------------------------------
//
// The Personalize view: a catalog (the built-in synthetic one, or the
// person's MovieLens files) is learned online first, in a session of its own
// in the core (occfm.personal, see wasm/doc.go), one 10 ms slice per task as
// the Learn view's pump does, with the progress shown. Then the person, a new
// user in the same model, rates items: each rating is one online update, and
// the top P_TOP refresh in the same call. The ratings live in this page's
// memory only. Titles, genres and reasons come from the files: textContent
// only.

const P_TOP = 10;              // recommendations shown
const P_PAGE = 40;             // items listed, and added by "Show more"
const P_PROGRESS_MS = 100;     // the progress is redrawn at most 10 times a second
// P_LEARNER is the learner a catalog is learned with unless the person picks
// another. Not OCCFM: at its defaults OCCFM does not personalize a new row
// (its Frank-Wolfe steps, ≈ 0.005 after the catalog's rows, go toward the
// dominant eigenvector of the whole stream's gradient sum and leave the new
// person's row of C at 0: core/personalize_test.go, TestPersonalPlantedTastes),
// so the recommendations would not follow the ratings. FM-FTRL does.
const P_LEARNER = "fm-ftrl";

const personal = {
  started: false,              // a catalog was started once (the view was opened)
  gen: 0,                      // counts catalogs: a feeder of an old one stops
  phase: "idle",               // idle | files (waiting for them) | learning | ready | error
  catalog: "synthetic",        // "synthetic" | "files"
  learner: settings.plearner || P_LEARNER,  // the hash's plearner= when set
  key: "",                     // the catalog learned: its ratings replay only on the same one
  ratingsFile: null,           // File: u.data, ratings.dat, ratings.csv (gzip or not)
  itemsFile: null,             // File: u.item, movies.dat, movies.csv
  items: [],                   // the catalog's items (index = the core's item index)
  known: 0,                    // items in the ratings
  order: [],                   // item indices listed, in the current sort and search
  query: "",
  sort: "popular",
  shown: P_PAGE,
  stars: new Map(),            // item → the person's stars
  rated: [],                   // [{item, stars, before}], in the order first rated
  recs: [],                    // [{item, score, why}]
  cold: true,
  replay: [],                  // ratings to give again to a catalog learned anew
  last: null,                  // the last snapshot
  drawn: -Infinity,            // when the progress was last drawn
  startedAt: 0,
  pausedLearn: false,          // the Learn run was paused by opening this view
  pump: {port: null, queued: false},
  feeder: {reader: null, resume: null},
  timings: [],                 // per rating: {go, call, dom, paint} in ms (tests read them)
};

// setView shows the Learn or the Personalize view. Opening Personalize pauses
// a running Learn run (both would share the core's time) and starts the
// synthetic catalog the first time; going back resumes the run it paused.
function setView(view, {write = true} = {}) {
  view = view === "personalize" ? "personalize" : "learn";
  settings.view = view;
  document.body.dataset.view = view;
  document.getElementById("learn-view").hidden = view !== "learn";
  document.getElementById("personalize-view").hidden = view !== "personalize";
  for (const tab of document.querySelectorAll('.view-tabs [role="tab"]')) {
    const on = tab.dataset.view === view;
    tab.setAttribute("aria-selected", String(on));
    tab.tabIndex = on ? 0 : -1;
  }
  document.querySelector("#drop-overlay p").textContent = view === "personalize"
    ? "Drop your MovieLens ratings and items files" : "Drop a data file to learn it";
  if (write) writeHash();
  if (view === "personalize") {
    if (page.phase === "running") {
      setPhase("paused");
      personal.pausedLearn = true;
    }
    if (occfm && !personal.started) startPersonal();
    else if (personal.phase === "learning") startPersonalPump();
  } else if (personal.pausedLearn) {
    personal.pausedLearn = false;
    if (page.phase === "paused") setPhase("running");
  }
}

// pcall runs an occfm.personal method returning JSON and parses it; a
// thrown error or {"error"} shows in the view and gives null.
function pcall(fn) {
  let out;
  try {
    out = JSON.parse(fn());
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

function personalFail(message) {
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
async function startPersonal() {
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
      if (gen === personal.gen) personalFail(`${personal.itemsFile.name}: ${err && err.message ? err.message : err}`);
      return;
    }
    if (gen !== personal.gen) return;
    if (!pcall(() => occfm.personal.items(bytes, personal.itemsFile.name))) return;
    feedPersonal(personal.ratingsFile, gen);
  }
  startPersonalPump();
}

// readWhole returns a file's bytes (gzip or not: Go gunzips the item list).
async function readWhole(file) {
  return new Uint8Array(await file.arrayBuffer());
}

// feedPersonal streams the ratings file into the core while it asks for
// bytes (personal.wanted() > 0), as the Learn view's feeder does. Not
// gunzipped here: the core gunzips it, so the bytes it has read are the
// progress against the file's size.
function feedPersonal(file, gen) {
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

function personalWants() {
  return occfm.personal.wanted() > 0;
}

// The pump learns one SLICE_MS slice per task while the view is open.
function startPersonalPump() {
  if (personal.phase === "learning") queueTask(personal.pump, onPersonalPump);
}

function onPersonalPump() {
  if (!occfm || personal.phase !== "learning" || settings.view !== "personalize") return;
  const snap = pcall(() => occfm.personal.run(SLICE_MS));
  if (!snap) return;
  pollFeeder(personal.feeder, personalWants);
  applyPersonalSnapshot(snap);
  // Waiting for bytes: the feeder starts the pump again when it fed some.
  if (personal.phase === "learning" && snap.state === "running") startPersonalPump();
}

function applyPersonalSnapshot(snap, force = false) {
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
function onPersonalReady(snap) {
  const cat = pcall(() => occfm.personal.catalog());
  if (!cat) return;
  personal.items = cat.items.map((it, i) => ({...it, index: i, key: fold(`${it.title} ${it.genres.join(" ")}`)}));
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

// fold is text for search: lower case, accents dropped ("Misérables" is
// found as "miserables").
function fold(text) {
  return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
}

// applyUpdate takes what rate, recommend or clear returned.
function applyUpdate(out) {
  personal.rated = out.rated || [];
  personal.stars = new Map(personal.rated.map((r) => [r.item, r.stars]));
  personal.recs = out.recs || [];
  personal.cold = !!out.coldStart;
}

// ratePersonal gives item the stars: one online update and the new top
// P_TOP, in one call of the core, then the views. The times are kept in
// personal.timings and shown discreetly.
function ratePersonal(item, stars) {
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

function formatMs(ms) {
  return ms < 10 ? `${ms.toFixed(1)} ms` : `${Math.round(ms)} ms`;
}

function clearPersonal() {
  if (personal.phase !== "ready") return;
  const before = personal.recs.map((r) => r.item);
  const out = pcall(() => occfm.personal.clear(P_TOP));
  if (!out) return;
  const was = [...personal.stars.keys()];
  applyUpdate(out);
  renderRecs(before);
  renderRated();
  for (const item of was) renderItemStars(item);
  document.getElementById("p-timing").textContent = "";
  document.getElementById("p-static").hidden = true;
}

function downloadRatings() {
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

// ---- Personalize: files

// pickPersonalFiles takes one or two files picked or dropped: each is
// recognised as the ratings or the item list, by name or else by its first
// line; once both are there, the catalog is learned.
async function pickPersonalFiles(files) {
  const info = document.getElementById("p-files-info");
  const unknown = [];
  for (const file of files) {
    let kind = "";
    try {
      kind = await fileKind(file);
    } catch {
      kind = "";
    }
    if (kind === "ratings") personal.ratingsFile = file;
    else if (kind === "items") personal.itemsFile = file;
    else unknown.push(file.name);
  }
  personal.catalog = "files";
  document.querySelector('input[name="p-catalog"][value="files"]').checked = true;
  const parts = [];
  if (personal.ratingsFile) parts.push(`ratings: ${personal.ratingsFile.name}`);
  if (personal.itemsFile) parts.push(`items: ${personal.itemsFile.name}`);
  if (!personal.ratingsFile) parts.push("now the ratings file (u.data, ratings.dat or ratings.csv)");
  if (!personal.itemsFile) parts.push("now the item list (u.item, movies.dat or movies.csv)");
  if (unknown.length) parts.push(`not recognised: ${unknown.join(", ")}`);
  info.textContent = parts.join(" · ");
  if (occfm) startPersonal();
}

// fileKind says "ratings", "items" or "" for a file: by its name (u.data,
// ratings.*, u.item, movies.*), else by its first line (gunzipped).
async function fileKind(file) {
  const name = file.name.toLowerCase().replace(/\.gz$/, "");
  if (/(^|[^a-z])(u\.data|ratings)/.test(name) || name.endsWith(".data")) return "ratings";
  if (/(^|[^a-z])(u\.item|movies|items)/.test(name) || name.endsWith(".item")) return "items";
  // The first 4 KiB of text: Go decodes a gzip head (occfm.head).
  const head = new Uint8Array(await file.slice(0, 16384).arrayBuffer());
  const gzip = head[0] === 0x1f && head[1] === 0x8b;
  if (gzip && !occfm) return "";
  const text = gzip ? String(occfm.head(head)) : new TextDecoder().decode(head.subarray(0, 4096));
  const line = text.split(/\r?\n/).find((l) => l.trim()) || "";
  if (/^userid,movieid,rating/i.test(line)) return "ratings";
  if (/^movieid,title/i.test(line)) return "items";
  const fields = line.split(/\t|::|,|\|/);
  if (fields.length >= 3 && fields.slice(0, 3).every((f) => /^\s*[0-9.]+\s*$/.test(f))) return "ratings";
  return fields.length >= 3 ? "items" : "";
}

// ---- Personalize: views

function renderPersonalAll() {
  renderPersonalProgress();
  renderItems();
  renderRecs(null);
  renderRated();
}

function renderPersonalProgress() {
  const snap = personal.last;
  const phase = document.getElementById("p-phase");
  const percent = document.getElementById("p-percent");
  const bar = document.getElementById("p-progress");
  const text = document.getElementById("p-progress-text");
  const source = personal.catalog === "files"
    ? (personal.ratingsFile ? personal.ratingsFile.name : "your files") : "the synthetic catalog";
  const p = snap && finite(snap.progress) ? snap.progress : null;
  const parts = [];
  if (snap) {
    parts.push(`${(snap.rows || 0).toLocaleString("en-US")} ratings`);
    if (finite(snap.rmse)) parts.push(`progressive RMSE ${snap.rmse.toFixed(3)}`);
    if (finite(snap.seconds) && snap.seconds > 0) parts.push(`${snap.seconds.toFixed(1)} s`);
    if (snap.skipped) parts.push(`${snap.skipped.toLocaleString("en-US")} rows skipped`);
  }
  let head = "";
  switch (personal.phase) {
    case "idle": head = occfm ? "" : "loading the learner…"; break;
    case "files": head = "Choose your ratings and item files"; break;
    case "learning": head = `Learning ${source} with ${personal.learner}…`; break;
    case "ready": {
      head = `Ready: ${source} learned by ${personal.learner}`;
      parts.push(`${personal.known.toLocaleString("en-US")} items`);
      const never = personal.items.length - personal.known;
      if (never > 0) parts.push(`${never.toLocaleString("en-US")} listed items never rated, left out`);
      if (snap && snap.unlisted) parts.push(`${snap.unlisted.toLocaleString("en-US")} of them missing from the item list`);
      break;
    }
    case "error": head = "Stopped by an error"; break;
  }
  phase.textContent = head;
  document.getElementById("personalize-view").dataset.phase = personal.phase;
  const shown = personal.phase === "ready" ? 1 : p;
  percent.textContent = shown == null ? "" : `${Math.floor(shown * 100)} %`;
  if (shown == null) bar.removeAttribute("value");
  else bar.value = shown;
  bar.hidden = personal.phase === "files" || personal.phase === "idle";
  text.textContent = parts.join(" · ");
}

// sortPersonalItems orders the items of the ratings for the list: by the
// sort chosen, then filtered by the search.
function sortPersonalItems() {
  const items = personal.items.filter((it) => it.known);
  const byTitle = (a, b) => a.title.localeCompare(b.title);
  if (personal.sort === "title") items.sort(byTitle);
  else if (personal.sort === "mean") {
    // Items with few ratings last: their mean says little.
    items.sort((a, b) => (b.count >= 10) - (a.count >= 10) || b.mean - a.mean || byTitle(a, b));
  } else items.sort((a, b) => b.count - a.count || byTitle(a, b));
  const words = fold(personal.query).split(/\s+/).filter(Boolean);
  personal.order = items.filter((it) => words.every((w) => it.key.includes(w))).map((it) => it.index);
}

function starText(stars) {
  const n = Math.round(stars);
  return "★".repeat(n) + "☆".repeat(5 - n);
}

function genreChips(genres) {
  return genres.map((g) => {
    const chip = document.createElement("span");
    chip.className = "p-genre";
    chip.textContent = g;
    return chip;
  });
}

// renderItems lists the first personal.shown items of personal.order, each
// with a 1–5 star control.
function renderItems() {
  const list = document.getElementById("p-items");
  const count = document.getElementById("p-items-count");
  const more = document.getElementById("p-more");
  if (personal.phase !== "ready") {
    list.replaceChildren();
    count.textContent = "";
    more.hidden = true;
    return;
  }
  const order = personal.order;
  const shown = order.slice(0, personal.shown);
  list.replaceChildren(...shown.map(itemRow));
  const total = personal.known;
  count.textContent = order.length === total
    ? `${total.toLocaleString("en-US")} items`
    : `${order.length.toLocaleString("en-US")} of ${total.toLocaleString("en-US")} items`;
  if (order.length === 0) {
    const li = document.createElement("li");
    li.className = "p-empty hint";
    li.textContent = `Nothing matches “${personal.query}”.`;
    list.append(li);
  }
  more.hidden = order.length <= shown.length;
  more.textContent = `Show ${Math.min(P_PAGE, order.length - shown.length)} more`;
}

function itemRow(index) {
  const it = personal.items[index];
  const li = document.createElement("li");
  li.className = "p-item";
  li.dataset.item = String(index);
  li.setAttribute("data-testid", "p-item");
  const title = document.createElement("span");
  title.className = "p-title";
  title.textContent = it.title;
  const meta = document.createElement("span");
  meta.className = "p-meta";
  const stats = document.createElement("span");
  stats.textContent = `${it.count.toLocaleString("en-US")} ratings · average ${it.mean.toFixed(1)}`;
  meta.append(...genreChips(it.genres), stats);
  const group = document.createElement("span");
  group.className = "p-stars";
  group.setAttribute("role", "group");
  group.setAttribute("aria-label", `Your rating of ${it.title}`);
  for (let n = 1; n <= 5; n++) {
    const star = document.createElement("button");
    star.type = "button";
    star.className = "p-star";
    star.dataset.stars = String(n);
    star.textContent = "★";
    star.setAttribute("aria-label", `${n} star${n === 1 ? "" : "s"}: ${it.title}`);
    group.append(star);
  }
  li.append(title, group, meta);
  setStars(li, personal.stars.get(index));
  return li;
}

// setStars shows the stars given in an item's row; the given star (else the
// first) is the one Tab reaches (a roving tabindex).
function setStars(li, given) {
  li.classList.toggle("rated", !!given);
  for (const star of li.querySelectorAll(".p-star")) {
    const n = Number(star.dataset.stars);
    star.classList.toggle("on", !!given && n <= given);
    star.setAttribute("aria-pressed", String(n === given));
    star.tabIndex = n === (given || 1) ? 0 : -1;
  }
}

function renderItemStars(item) {
  const li = document.querySelector(`#p-items .p-item[data-item="${item}"]`);
  if (li) setStars(li, personal.stars.get(item));
}

// renderRecs draws the top P_TOP; before (the items shown until now, or
// null) marks the new ones.
function renderRecs(before) {
  const list = document.getElementById("p-recs");
  const cold = document.getElementById("p-cold");
  const empty = document.getElementById("p-recs-empty");
  const ready = personal.phase === "ready";
  empty.hidden = ready;
  cold.hidden = !ready || !personal.cold;
  cold.textContent = "You have not rated anything yet: these are the items the model rates highest for anyone " +
    "(their bias in the learned model). Rate a few to make them yours.";
  const known = new Set(before || []);
  list.replaceChildren(...(ready ? personal.recs : []).map((r) => {
    const it = personal.items[r.item];
    const li = document.createElement("li");
    li.className = "p-rec";
    li.dataset.item = String(r.item);
    li.setAttribute("data-testid", "p-rec");
    const title = document.createElement("span");
    title.className = "p-title";
    title.textContent = it ? it.title : `item ${r.item}`;
    if (before && !known.has(r.item)) {
      li.classList.add("p-rec-new");
      const badge = document.createElement("span");
      badge.className = "p-new";
      badge.textContent = "new";
      title.append(badge);
    }
    const score = document.createElement("span");
    score.className = "p-score";
    score.textContent = `★ ${r.score.toFixed(1)}`;
    score.title = `predicted rating for you: ${r.score.toFixed(3)}`;
    score.dataset.value = String(r.score);
    const meta = document.createElement("span");
    meta.className = "p-meta";
    meta.append(...genreChips(it ? it.genres : []));
    const why = document.createElement("ul");
    why.className = "p-why";
    why.setAttribute("aria-label", "why");
    why.dataset.label = "why:";
    for (const w of r.why || []) {
      const wl = document.createElement("li");
      wl.textContent = w.text;
      wl.dataset.kind = w.kind;
      why.append(wl);
    }
    li.append(title, score, meta, why);
    return li;
  }));

}

function renderRated() {
  const list = document.getElementById("p-rated");
  const n = personal.rated.length;
  document.getElementById("p-rated-empty").hidden = n > 0;
  document.getElementById("p-rated-count").textContent = n ? `${n} rated` : "";
  document.getElementById("p-clear").disabled = n === 0;
  document.getElementById("p-download").disabled = n === 0;
  list.replaceChildren(...personal.rated.map((r) => {
    const it = personal.items[r.item];
    const li = document.createElement("li");
    li.dataset.item = String(r.item);
    const title = document.createElement("span");
    title.textContent = it ? it.title : `item ${r.item}`;
    const given = document.createElement("span");
    given.className = "p-given";
    given.textContent = starText(r.stars);
    given.setAttribute("aria-label", `${r.stars} stars`);
    const before = document.createElement("span");
    before.className = "p-before";
    before.textContent = `the model expected ★ ${r.before.toFixed(1)} from you`;
    li.append(title, given, before);
    return li;
  }));
}

// ---- Personalize: controls

function buildPersonalControls() {
  const select = document.getElementById("p-learner");
  select.replaceChildren(...page.catalog.learners.map((l) => {
    const opt = document.createElement("option");
    opt.value = l.name;
    opt.textContent = l.name;
    if (l.summary) opt.title = l.summary;
    return opt;
  }));
  const names = page.catalog.learners.map((l) => l.name);
  if (!names.includes(personal.learner) && names.length) {
    personal.learner = names.includes(P_LEARNER) ? P_LEARNER : names[0];
    settings.plearner = "";
    writeHash();
  }
  select.value = personal.learner;
  renderLearnerHint();
  renderPersonalProgress();
}

function renderLearnerHint() {
  const l = page.catalog.learners.find((x) => x.name === personal.learner);
  let text = l && l.summary ? l.summary : "";
  if (personal.learner === "occfm") {
    text = "OCCFM follows the whole stream's gradient: a new person's few ratings barely move it, " +
      `so the list may not change (${P_LEARNER} adapts at once).`;
  } else if (personal.learner === P_LEARNER) {
    text = "Adapts to a new person at once. OCCFM, the Learn view's default, barely moves for a few ratings of a new person.";
  }
  document.getElementById("p-learner-hint").textContent = text;
}

// onStarKey: on a star, 1–5 rate the item, ← → (and Home, End) move between
// its stars; Enter and Space press the star (a button).
function onStarKey(e) {
  const star = e.target.closest(".p-star");
  if (!star || e.ctrlKey || e.metaKey || e.altKey) return;
  const li = star.closest(".p-item");
  const stars = [...li.querySelectorAll(".p-star")];
  const at = stars.indexOf(star);
  let to = -1;
  if (/^[1-5]$/.test(e.key)) {
    e.preventDefault();
    ratePersonal(Number(li.dataset.item), Number(e.key));
    return;
  }
  if (e.key === "ArrowRight" || e.key === "ArrowUp") to = Math.min(4, at + 1);
  else if (e.key === "ArrowLeft" || e.key === "ArrowDown") to = Math.max(0, at - 1);
  else if (e.key === "Home") to = 0;
  else if (e.key === "End") to = 4;
  if (to < 0) return;
  e.preventDefault();
  for (const s of stars) s.tabIndex = -1;
  stars[to].tabIndex = 0;
  stars[to].focus();
}

function wirePersonal() {
  const $ = (id) => document.getElementById(id);
  for (const tab of document.querySelectorAll('.view-tabs [role="tab"]')) {
    tab.addEventListener("click", () => setView(tab.dataset.view));
    tab.addEventListener("keydown", (e) => {
      if (e.key !== "ArrowLeft" && e.key !== "ArrowRight") return;
      e.preventDefault();
      const other = document.querySelector(`.view-tabs [role="tab"]:not([data-view="${tab.dataset.view}"])`);
      other.focus();
      setView(other.dataset.view);
    });
  }
  for (const radio of document.querySelectorAll('input[name="p-catalog"]')) {
    radio.addEventListener("change", () => {
      if (!radio.checked || radio.value === personal.catalog) return;
      personal.catalog = radio.value;
      startPersonal();
    });
  }
  $("p-files").addEventListener("change", (e) => {
    const files = [...(e.target.files || [])];
    e.target.value = "";  // the same files can be picked again
    if (files.length) pickPersonalFiles(files);
  });
  $("p-learner").addEventListener("change", (e) => {
    personal.learner = e.target.value;
    settings.plearner = personal.learner === P_LEARNER ? "" : personal.learner;
    writeHash();
    renderLearnerHint();
    startPersonal();  // the ratings are given again to the new model
  });
  $("p-search").addEventListener("input", (e) => {
    personal.query = e.target.value;
    personal.shown = P_PAGE;
    sortPersonalItems();
    renderItems();
  });
  $("p-sort").addEventListener("change", (e) => {
    personal.sort = e.target.value;
    personal.shown = P_PAGE;
    sortPersonalItems();
    renderItems();
  });
  $("p-more").addEventListener("click", () => {
    personal.shown += P_PAGE;
    renderItems();
  });
  $("p-items").addEventListener("click", (e) => {
    const star = e.target.closest(".p-star");
    if (!star) return;
    const li = star.closest(".p-item");
    ratePersonal(Number(li.dataset.item), Number(star.dataset.stars));
  });
  $("p-items").addEventListener("keydown", onStarKey);
  $("p-clear").addEventListener("click", clearPersonal);
  $("p-download").addEventListener("click", downloadRatings);
}

// ---- Boot --------------------------------------------------------------------------

function onReady() {
  occfm = globalThis.occfm;
  try {
    page.catalog = {learners: occfm.learners(), demos: occfm.demos()};
  } catch (err) {
    fail(`occfm: ${err.message}`);
    return;
  }
  buildCatalogControls();
  validateSettings();
  renderControls();
  writeHash();
  setPhase("ready");
  if (page.pendingFile) {
    page.pendingFile = null;
    startSession("file", {note: `Learning ${session.file.name} with the guessed settings.`});
  } else {
    startSession("demo");
  }
  buildPersonalControls();
  if (settings.view === "personalize") setView("personalize", {write: false});
}

function boot() {
  views.metric = new LineChart(document.getElementById("metric-chart"), {xLabel: "rows", yLabel: metricLabel("")});
  views.loss = new LineChart(document.getElementById("loss-chart"), {
    xLabel: "learning time (s)", yLabel: "average loss", xFormat: (v) => v.toFixed(3),
  });
  views.regret = new RegretChart(document.getElementById("regret-chart"));
  views.expertRegret = new LineChart(document.getElementById("expert-regret-chart"), {
    xLabel: "rows", yLabel: "regret", height: 200, dash: [null, [6, 4]],
  });
  views.regret.setMode({
    logLog: document.getElementById("regret-loglog").checked,
    perT: document.getElementById("regret-per-t").checked,
  });
  views.metric.reset(settings.learners.slice(), metricLabel(""));
  views.regret.reset(settings.learners.slice());
  views.loss.reset(settings.learners.slice());
  wireControls();
  wirePersonal();
  renderControls();
  setView(settings.view, {write: false});
  setPhase("loading");
  nextFrame();

  addEventListener("occfm-ready", onReady, {once: true});
  const go = new Go();
  WebAssembly.instantiateStreaming(fetch("occfm.wasm"), go.importObject)
    .then((result) => {
      page.memory = result.instance.exports.mem;
      return go.run(result.instance);
    })
    .then(() => fail("The learner (Go program) has exited."))
    .catch((err) => fail(`Could not load the learner (occfm.wasm): ${err && err.message ? err.message : err}`));
}

boot();

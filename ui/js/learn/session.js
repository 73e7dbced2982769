// The Learn view's session: starting a run in the core (occfm.start),
// applying its snapshots, and the page's phase.

import {TABLE_INTERVAL_MS} from "../shared/config.js";
import {stopFeeder, streamFile} from "../shared/feeder.js";
import {finite, formatCount} from "../shared/format.js";
import {checkpointConfig} from "../shared/hash.js";
import {occfm, settings, writeHash} from "../shared/state.js";
import {renderDefaults, renderDemoSelect, renderRunControls} from "./controls-view.js";
import {clearCommand} from "./copy-command.js";
import {renderStepView, resetStepView, stepViewWanted} from "./fw-step.js";
import {ghostsNote, nextGhosts, runOf} from "./ghosts.js";
import {renderPicture, resetPicture} from "./model-picture.js";
import {clock, flushCharts, rate, startPump} from "./scheduler.js";
import {mixtureOf, page, session, views} from "./state.js";
import {demoTitle, divergenceNote, followedIndex, renderKnown, renderLearnerTable, renderNumbers, renderOrder, renderPreview, renderRegret, renderSkipped, renderStreamInfo, renderWarnings, resetExpertRegret, showError, showNote} from "./views.js";

// feeder is the Learn view's file feeder (../shared/feeder.js): it reads
// only while the session asks for bytes (wantsBytes).
export const feeder = {reader: null, resume: null, fedSinceSnapshot: false};

// wantsBytes says whether the session asks for bytes: wanted() > 0, or
// state "waiting" in a snapshot newer than the last chunk.
export function wantsBytes() {
  const waiting = session.last && session.last.state === "waiting" && !feeder.fedSinceSnapshot;
  return waiting || occfm.wanted() > 0;
}

// call runs an occfm method, turning a thrown error into the error state.
export function call(fn) {
  try {
    return fn();
  } catch (err) {
    fail(`occfm: ${err && err.message ? err.message : err}`);
    return null;
  }
}

export function configFor(source) {
  const c = {
    source,
    learners: settings.learners,
    follow: settings.follow,
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
    c.shuffle = settings.shuffle;
    if (session.roles) c.roles = session.roles;
  }
  return c;
}

// startSession starts a new run of source ("demo" or "file": session.file)
// from row 0. With keepPaused a paused page stays paused; otherwise it runs.
export function startSession(source, {note = "", keepPaused = false, clean = false} = {}) {
  if (!occfm) return;
  session.gen++;
  stopFeeder(feeder);
  session.source = source;
  session.note = note;
  session.noteAt = performance.now();
  // The link names what runs: the file (to be picked again when the link
  // is opened) or the demo.
  settings.file = source === "file" ? session.file.name : "";
  writeHash();
  session.learners = page.model ? [page.model.learner] : [...settings.learners];
  session.mixture = mixtureOf(session.learners, page.catalog.learners);
  // The last run stays on the metric chart, faded, when this one learns the
  // same data (a δ button, a changed setting), unless the run starts clean
  // (a lesson step: its text speaks of its own curves only).
  const run = runOf(settings, session.learners);
  session.ghosts = clean ? [] : nextGhosts(session.ghosts, session.run, session.checkpoints, run);
  session.run = run;
  session.task = "";
  session.layout = "";
  session.scaling = "";
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
  renderSkipped(session.skipped, session.skippedFirst);
  clock.carry = 0;
  rate.clear();
  views.tableShown = -Infinity;
  showError("");
  showNote(note);
  views.metric.reset(session.learners, metricLabel(""));
  views.metric.setGhosts(session.ghosts);
  document.getElementById("forget-runs").hidden = session.ghosts.length === 0;
  views.loss.reset(session.learners);
  views.regret.reset(session.learners);
  resetExpertRegret(views.expertRegret, session.mixture);
  drawRegret();
  resetPicture();
  resetStepView();
  clearCommand();
  views.metric.setReferences([]);
  views.loss.setReferences([]);
  document.getElementById("metric-title").textContent = `progressive ${metricLabel("")} vs rows${ghostsNote(session.run, session.ghosts)}`;
  if (source === "demo") renderPreview(null);  // a file keeps its preview until the new one arrives
  renderDemoSelect();

  session.config = configFor(source);
  const snap = call(() => occfm.start(JSON.stringify(session.config)));
  if (snap == null) return;
  const paused = keepPaused && page.phase === "paused";
  setPhase(paused ? "paused" : "running");
  applySnapshot(snap, true);
  if (source === "file" && page.phase !== "error") feedFile(session.file, session.gen);
}

// feedFile streams the session's file into occfm while it asks for bytes
// (../shared/feeder.js), until a newer session (gen) takes over.
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

// restart starts the current source again with the current settings.
export function restart(note = "") {
  startSession(session.source, {note, keepPaused: true});
}

// runSlice learns for at most ms and at most rows rows (0: no limit) and
// applies the snapshot; it returns the snapshot, or null after an error.
// The scheduler learns by it.
export function runSlice(ms, rows) {
  const snap = call(() => occfm.run(ms, rows));
  return snap == null ? null : applySnapshot(snap);
}

// applySnapshot takes a snapshot from start, run or snapshot and updates the
// session and every view.
export function applySnapshot(snap, force = false) {
  if (!snap || typeof snap !== "object") {
    fail(`occfm: bad snapshot: ${String(snap)}`);
    return null;
  }
  session.last = snap;
  feeder.fedSinceSnapshot = false;
  if (snap.task && snap.task !== session.task) {
    session.task = snap.task;
    renderDefaults();  // η's default may be the task's
    views.metric.setLabel(metricLabel(snap.task));
    document.getElementById("metric-title").textContent = `progressive ${metricLabel(snap.task)} vs rows${ghostsNote(session.run, session.ghosts)}`;
  }
  if (snap.layout && snap.layout !== session.layout && session.source === "file" && session.note &&
      document.getElementById("note").textContent === session.note) {
    // The file's note says how it was read: presenter mode hides the Data
    // card, and lesson step 7 points at this note.
    session.note = `${session.note.replace(/\.$/, "")}; read as ${snap.layout}.`;
    showNote(session.note);
  }
  if (snap.layout) session.layout = snap.layout;
  if (snap.scaling && snap.scaling !== session.scaling && session.source === "file" && session.note &&
      document.getElementById("note").textContent === session.note) {
    // The note says how the numbers are scaled, the largest |value| as it
    // grows: the previous word of it replaced.
    const base = session.scaling ? session.note.replace(`; ${session.scaling}.`, "") : session.note;
    session.note = `${base.replace(/\.$/, "")}; ${snap.scaling}.`;
    showNote(session.note);
  }
  if (snap.scaling) session.scaling = snap.scaling;
  if (snap.known) session.known = snap.known;
  if (finite(snap.skipped)) session.skipped = snap.skipped;
  if (Array.isArray(snap.skipped_first)) session.skippedFirst = snap.skipped_first.map(String);
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
    if (session.mixture) {
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
  if (snap.preview) renderPreview(snap.preview, {layout: session.layout, forced: settings.format !== "auto", onRole: onRoleChange});
  if (Array.isArray(snap.warnings)) renderWarnings(snap.warnings);
  const now = performance.now();
  const firstRows = !session.firstRowAt && snap.rows > 0;
  if (firstRows) session.firstRowAt = now;
  // While learning, the numbers and tables are drawn at most every
  // VIEW_INTERVAL_MS, in a frame (frame catches up with views.stale): every
  // change of the page costs a style, layout and paint pass in the next
  // frame, time the learner does not get. The first rows learned show at
  // once: a visitor waits for them.
  views.stale = true;
  // A forced snapshot (a Step, a start) redraws the tables too, so that
  // they agree with the numbers above them.
  if (force || firstRows || snap.state !== "running" || page.phase !== "running") renderViews(now, force);
  if (snap.state === "error") {
    let message = snap.error || "the learner stopped with an error";
    if (snap.bad_row) message += ' — choose "Bad rows: skip and count" to pass over such rows.';
    fail(message);
  } else if (snap.state === "done" && page.phase !== "error") {
    // Once done, rows/s shows the average over the whole run.
    if (session.firstRowAt && !session.doneRate) {
      session.doneRate = (snap.rows * 1000) / Math.max(1, now - session.firstRowAt);
    }
    const ended = page.phase !== "done";
    setPhase("done");
    // The note the run started with ("Learning u.data…") is over once read:
    // it goes NOTE_READ_MS after it was shown (a small file is done at once).
    const note = session.note, gen = session.gen;
    if (ended && note) {
      setTimeout(() => {
        if (session.gen === gen && document.getElementById("note").textContent === note) showNote("");
      }, Math.max(0, NOTE_READ_MS - (now - session.noteAt)));
    }
    // Shown now: the frame loop that redraws rows/s may have stopped (a
    // small file can be done within one slice).
    document.getElementById("rows-per-second").textContent = formatCount(session.doneRate);
    flushCharts(now, true);
  }
  return snap;
}

// renderViews draws the last snapshot: rows and metrics, and at most every
// TABLE_INTERVAL_MS (or at the end) the learner table, stream line and
// regret readout.
export function renderViews(now, force = false) {
  const snap = session.last;
  views.stale = false;
  views.shown = now;
  if (!snap) return;
  if (occfm) {
    // The picture first: the Model card (occfm.render) names the C it drew.
    const rows = snap.rows || 0;
    renderPicture(now, rows, {get: () => call(() => occfm.picture()), drawn: () => occfm.pictureDrawn()},
      force || snap.state !== "running" || page.phase !== "running");
    call(() => occfm.render());
    renderStepView(rows, () => call(() => occfm.fwStep()), stepViewWanted(page.phase, settings.speed));
  }
  renderNumbers(snap, followedIndex(session.learners, settings.follow));
  if (force || snap.state === "done" || snap.state === "error" || now - views.tableShown >= TABLE_INTERVAL_MS) {
    views.tableShown = now;
    renderLearnerTable(snap, settings.clip);
    announceDivergences(Array.isArray(snap.learners) ? snap.learners : []);
    renderStreamInfo(snap, session.source === "file" ? session.file.name : demoTitle(page.catalog.demos, settings.demo), session.layout);
    renderOrder(snap, session.source === "file" ? settings.shuffle : 0, settings.seed);
    renderSkipped(session.skipped, session.skippedFirst);
    drawRegret();
    if (occfm) renderReferences();
  }
  renderKnown(session.known);
}

// renderReferences gives the metric and loss charts their reference
// lines: on a demo, what its true model scores (no learner does better on
// average); on any stream, what a constant guess scores (the label mean or
// the majority class, known in hindsight), so that a class sees at once
// what "good" is.
function renderReferences() {
  const ref = call(() => occfm.reference());
  if (!ref) return;
  const cls = session.task === "classification";
  const metric = [], loss = [];
  if (session.source === "demo" && finite(ref.best)) {
    metric.push({value: ref.best, label: cls ? "best possible (the label noise)" : "best possible (the true model)"});
    if (!cls) loss.push({value: ref.best * ref.best, label: "best possible"});
  }
  if (ref.baseline) {
    metric.push({value: ref.metric, label: ref.baseline});
    loss.push({value: ref.loss, label: ref.baseline});
  }
  views.metric.setReferences(metric);
  views.loss.setReferences(loss);
}

// NOTE_READ_MS is how long the note a run started with stays at least.
const NOTE_READ_MS = 4000;

// drawRegret tells the regret readout the run's regret so far.
function drawRegret() {
  renderRegret(session.regretStatus, session.regret, session.learners, page.catalog.learners, !!session.last);
}

// announceDivergences says at the top of the page, once per divergence,
// that a learner diverged: the guard notes below the table may be out of
// sight.
function announceDivergences(learners) {
  for (const l of learners) {
    if (l.divergences > (session.guardSeen[l.learner] || 0)) {
      session.guardSeen[l.learner] = l.divergences;
      showNote(divergenceNote(l));
    }
  }
}

// onRoleChange runs the file again with the column roles the preview's
// menus now say.
function onRoleChange(roles) {
  session.roles = roles;
  const labels = Object.entries(roles).filter(([, r]) => r === "label").map(([c]) => c);
  restart(`Restarted ${session.file.name} with the new column roles (label: ${labels.join(", ") || "none"}).`);
}

export function metricLabel(task) {
  if (task === "classification") return "error rate";
  if (task === "regression") return "RMSE";
  return "metric";
}

export function setPhase(p) {
  page.phase = p;
  document.body.dataset.state = p;
  renderRunControls();
  // A pause shows the rows learned up to it at once, not at the next frame,
  // in the numbers and in the learner table alike.
  if (views.stale || p === "paused") renderViews(performance.now(), p === "paused");
  if (p === "running" && settings.speed === 0 && occfm) startPump();
}

// pausedByView says that hideLearn paused the run, for showLearn to go on
// with it.
let pausedByView = false;

// hideLearn pauses a running run while the other view shows (both would
// share the core's time).
export function hideLearn() {
  if (page.phase !== "running") return;
  setPhase("paused");
  pausedByView = true;
}

// showLearn goes on with the run hideLearn paused, when the page is still
// paused.
export function showLearn() {
  if (!pausedByView) return;
  pausedByView = false;
  if (page.phase === "paused") setPhase("running");
}

// fail shows message (plain text) and puts the page in the error state.
export function fail(message) {
  session.gen++;  // stops the feeder
  stopFeeder(feeder);
  showError(String(message));
  setPhase("error");
}

// forgetRuns takes the earlier runs off the metric chart.
export function forgetRuns() {
  session.ghosts = [];
  views.metric.setGhosts([]);
  document.getElementById("forget-runs").hidden = true;
  const title = document.getElementById("metric-title");
  title.textContent = title.textContent.replace(/ · solid: .*$/, "");
}

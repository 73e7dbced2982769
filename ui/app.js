// The OCCFM page's entry point (a module: <script type="module">). It loads
// the Go core (occfm.wasm), builds the charts and wires the controls; the
// modules in js/ do the rest, one concern each, in a folder per view:
//
//   js/learn/         the Learn view
//     session.js        a run: start (occfm.start), snapshots, phase, its file's feeder
//     state.js          the view's state: page, session, views
//     scheduler.js      time-boxed learning slices, frames, rows/s
//     controls.js, controls-view.js, views.js   its controls and what they show
//     charts.js, regret-chart.js, palette.js    LineChart and RegretChart over uPlot, colours
//     export.js, model-files.js, command.js, copy-command.js   CSV/JSON, model files,
//                       "Copy as command"
//     model-picture.js, fw-step.js, heatmap.js   the model C and the Frank-Wolfe step drawn
//     lesson.js, presenter.js, paint.js, ghosts.js   the guided lesson, presenter mode,
//                       earlier runs on the chart
//   js/personalize/   the Personalize view: session.js, state.js, controls.js,
//                     views.js, files.js
//   js/shared/        what both use: state.js (the settings, the link that holds
//                     them, the core), hash.js (the link, pure), lesson-steps.js
//                     (the lesson's steps, which the link names),
//                     view.js (the tabs, drag and drop), feeder.js (a file
//                     streamed into the core), queue-task.js, download.js,
//                     format.js, read-error.js, config.js
//
// Imports point one way, from this file down to the pure modules; no module
// imports one that imports it (ui/test/imports.test.js), and neither view
// imports the other. Where a module must call up, this file hands it the
// function at startup: the scheduler learns, draws and feeds through
// setSchedulerHooks, the view switch shows, hides and drops files on a view
// through setViewHooks.
//
// The JS API it calls, globalThis.occfm, is documented in wasm/doc.go. Go
// renders the predictions table and the model panel itself.

import {LineChart} from "./js/learn/charts.js";
import {buildCatalogControls, linkReport, pickFile, validateSettings, wireControls} from "./js/learn/controls.js";
import {renderControls} from "./js/learn/controls-view.js";
import {startLesson, wireLesson} from "./js/learn/lesson.js";
import {wirePicture} from "./js/learn/model-picture.js";
import {setPalette} from "./js/learn/palette.js";
import {wirePresenter} from "./js/learn/presenter.js";
import {RegretChart} from "./js/learn/regret-chart.js";
import {chartInterval, nextFrame, setSchedulerHooks} from "./js/learn/scheduler.js";
import {fail, feeder, hideLearn, metricLabel, renderViews, runSlice, setPhase, showLearn, startSession, wantsBytes} from "./js/learn/session.js";
import {page, session, views} from "./js/learn/state.js";
import {showNote} from "./js/learn/views.js";
import {buildPersonalControls, wirePersonal} from "./js/personalize/controls.js";
import {pickPersonalFiles} from "./js/personalize/files.js";
import {showPersonalize} from "./js/personalize/session.js";
import {personal} from "./js/personalize/state.js";
import {pollFeeder} from "./js/shared/feeder.js";
import {DEFAULTS, setDefaultLearner} from "./js/shared/hash.js";
import {linkInvalid, occfm, setCore, settings, writeHash} from "./js/shared/state.js";
import {setView, setViewHooks, wireViews} from "./js/shared/view.js";


// occfmPage is the page's state for the e2e tests and make bench to read
// (session.gen, session.file, page.memory, personal.timings): a test hook,
// not an API. The modules' own bindings stay private.
globalThis.occfmPage = Object.freeze({page, session, personal});

function onReady() {
  setCore(globalThis.occfm);
  try {
    page.catalog = {learners: occfm.learners(), demos: occfm.demos()};
    const runDefault = page.catalog.learners.find((l) => l.runDefault) ?? page.catalog.learners[0];
    setDefaultLearner(runDefault.name, settings);
    setPalette(page.catalog.learners.map((l) => l.name), DEFAULTS.learners[0]);
  } catch (err) {
    fail(`occfm: ${err.message}`);
    return;
  }
  buildCatalogControls();
  const report = linkReport(linkInvalid, validateSettings());
  renderControls();
  writeHash();
  setPhase("ready");
  if (page.pendingFile) {
    page.pendingFile = null;
    startSession("file", {note: `Learning ${session.file.name} with the guessed settings.`});
  } else if (startLesson(report)) {
    // #lesson=N: the step's setup started its run.
  } else if (settings.file) {
    // A link of a file run: the page cannot reopen the file by itself.
    showNote(`${report} This link is a run of ${settings.file} with the settings below. A page cannot open a ` +
      `file by itself: choose ${settings.file} again (or drop it here) to run it, or pick a demo.`.trim());
  } else {
    startSession("demo", {note: report});
  }
  buildPersonalControls(page.catalog.learners);
  if (settings.view === "personalize") setView("personalize", {write: false});
}

// box returns index.html's checkbox of id.
/** @param {string} id */
const box = (id) => /** @type {HTMLInputElement} */ (document.getElementById(id));

function boot() {
  setSchedulerHooks({slice: runSlice, draw: renderViews, poll: () => pollFeeder(feeder, wantsBytes)});
  setViewHooks({
    learn: {show: showLearn, hide: hideLearn, drop: (files) => pickFile(files[0])},
    personalize: {show: showPersonalize, drop: pickPersonalFiles},
  });
  box("metric-logx").checked = settings.logX;
  views.metric = new LineChart(document.getElementById("metric-chart"), {
    xLabel: "rows", yLabel: metricLabel(""), interval: chartInterval, logX: settings.logX,
  });
  views.loss = new LineChart(document.getElementById("loss-chart"), {
    xLabel: "learning time (s)", yLabel: "average loss", xFormat: (v) => v.toFixed(3), interval: chartInterval,
  });
  views.regret = new RegretChart(document.getElementById("regret-chart"), {interval: chartInterval});
  views.expertRegret = new LineChart(document.getElementById("expert-regret-chart"), {
    xLabel: "rows", yLabel: "regret", height: 200, dash: [null, [6, 4]], interval: chartInterval, logX: settings.logX,
  });
  box("regret-loglog").checked = settings.logLog;
  views.regret.setMode({
    logLog: box("regret-loglog").checked,
    perT: box("regret-per-t").checked,
  });
  views.metric.reset(settings.learners.slice(), metricLabel(""));
  views.regret.reset(settings.learners.slice());
  views.loss.reset(settings.learners.slice());
  wireViews();
  wireControls();
  wirePicture();
  wirePersonal();
  wirePresenter();
  wireLesson();
  renderControls();
  setView(settings.view, {write: false});
  setPhase("loading");
  nextFrame();

  addEventListener("occfm-ready", onReady, {once: true});
  const go = new Go();
  const oneFile = document.getElementById("occfm-wasm-gz");
  // wasm-start.js, in the page's head, has most likely started the compile
  // already; if not, it starts here.
  const compiled = oneFile ? WebAssembly.compileStreaming(unpackWasm(oneFile))
    : (globalThis.occfmWasm ??= WebAssembly.compileStreaming(fetch("occfm.wasm")));
  compiled
    .then((module) => WebAssembly.instantiate(module, go.importObject))
    .then((instance) => {
      page.memory = instance.exports.mem;
      if (!oneFile) whenIdle(keepOffline);
      return go.run(instance);
    })
    .then(() => fail("The learner (Go program) has exited."))
    .catch((err) => fail(`Could not load the learner (occfm.wasm): ${err && err.message ? err.message : err}`));
}

// unpackWasm returns occfm.wasm from the one-file page's data block (dist/
// occfm.html, written by internal/onefile: the wasm gzipped, in base64) as a
// Response that compileStreaming compiles while DecompressionStream
// unpacks it. The block's text is dropped once read.
function unpackWasm(block) {
  const text = atob(block.textContent);
  block.remove();
  const gz = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) gz[i] = text.charCodeAt(i);
  return new Response(new Blob([gz]).stream().pipeThrough(new DecompressionStream("gzip")),
    {headers: {"Content-Type": "application/wasm"}});
}

// whenIdle calls f once the page has a moment with nothing to do, or after
// 3 s at the latest (after 1 s where the browser has no requestIdleCallback).
/** @param {() => void} f */
function whenIdle(f) {
  if (typeof requestIdleCallback === "function") requestIdleCallback(f, {timeout: 3000});
  else setTimeout(f, 1000);
}

// keepOffline registers sw.js, which keeps the page's files for a reload with
// no network (see its header). It is called once occfm.wasm has loaded and
// the page is idle (in practice: after the first rows are drawn), so that on
// a first visit the worker's copy comes from the HTTP cache instead of
// competing with the page's own download, and its install (it reads and
// stores every file, the wasm too) does not compete with the page's start
// for the CPU: on a 2-core machine that brought the first row of a cold load
// 0.2 to 0.4 s sooner (docs/performance.md). Without service workers (file://,
// plain http other than localhost, a browser that blocks them) the page works
// as before, online only; a failure goes to the console, nowhere else.
function keepOffline() {
  try {
    if (!("serviceWorker" in navigator)) return;
    navigator.serviceWorker.register("sw.js")
      .catch((err) => console.info(`occfm: no offline copy: ${err && err.message ? err.message : err}`));
  } catch (err) {
    console.info(`occfm: no offline copy: ${err && err.message ? err.message : err}`);
  }
}

boot();

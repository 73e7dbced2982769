// The Learn view's controls: building them from the catalog, validating
// input, and wiring every control's events (controls-view.js draws them
// from the settings).

import {CHECKPOINTS, DEFAULTS, FORMATS, GAMMAS, ON_ERROR, SPEEDS, learnerSettingsKey, parseHash} from "../shared/hash.js";
import {occfm, settings, writeHash} from "../shared/state.js";
import {setView} from "../shared/view.js";
import {defaultText, renderControls, renderDefaults, renderSpeed} from "./controls-view.js";
import {copyCommand} from "./copy-command.js";
import {exportCSV, exportJSON} from "./export.js";
import {forgetModel, loadModel, saveModel} from "./model-files.js";
import {invalidatePicture} from "./model-picture.js";
import {clock, flushCharts} from "./scheduler.js";
import {applySnapshot, call, forgetRuns, renderViews, restart, setPhase, startSession} from "./session.js";
import {page, session, views} from "./state.js";
import {demoTitle, renderPreview, showNote} from "./views.js";

// onFollow makes the numbers, the model panel and Download model follow
// another of the racing learners, without restarting the run.
function onFollow(name) {
  settings.follow = name === settings.learners[0] ? "" : name;
  writeHash();
  if (occfm) call(() => occfm.follow(name));
  renderDefaults();  // δ's and η's defaults are the followed learner's
  invalidatePicture();
  views.stale = true;
  renderViews(performance.now(), true);
}

export function buildCatalogControls() {
  const demo = /** @type {HTMLSelectElement} */ (document.getElementById("demo"));
  for (const d of page.catalog.demos) {
    const opt = document.createElement("option");
    opt.value = d.name;
    // The menu shows the short name ("Ratings"); the whole title is the
    // option's title, and the stream's line under the menu.
    const title = d.title || d.name;
    opt.textContent = d.short || title;
    opt.title = d.task ? `${title} (${d.task})` : title;
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
    // In plain words first; the technical line, with the paper's
    // reference, second.
    const plain = document.createElement("span");
    plain.className = "learner-plain";
    plain.textContent = l.plain || "";
    const summary = document.createElement("span");
    summary.className = "hint learner-ref";
    summary.textContent = l.summary || "";
    label.append(input, name, plain, summary);
    box.append(label);
  }
}

// validateSettings drops names the core does not know.
// validateSettings keeps the learners and the demo the core knows, and
// returns what it dropped ("learner nope", "demo x"), for the page to say.
export function validateSettings() {
  const dropped = [];
  const names = page.catalog.learners.map((l) => l.name);
  for (const n of settings.learners) if (!names.includes(n)) dropped.push(`learner ${n}`);
  settings.learners = settings.learners.filter((n) => names.includes(n));
  if (settings.learners.length === 0 && names.length > 0) {
    settings.learners = names.includes(DEFAULTS.learners[0]) ? [...DEFAULTS.learners] : [names[0]];
  }
  if (!page.catalog.demos.some((d) => d.name === settings.demo) && page.catalog.demos.length > 0) {
    dropped.push(`demo ${settings.demo}`);
    settings.demo = page.catalog.demos.some((d) => d.name === DEFAULTS.demo) ? DEFAULTS.demo : page.catalog.demos[0].name;
  }
  return dropped;
}

// numberSetting reads a number input into settings[key]: empty means the
// default (0: the learner's own); a negative or non-number value is
// answered under the controls and the default used.
/**
 * @param {HTMLInputElement} input
 * @param {"delta" | "eta" | "seed"} key
 * @param {number} fallback
 * @param {boolean} [integer]
 */
function numberSetting(input, key, fallback, integer = false) {
  const text = input.value.trim();
  const v = Number(text);
  const ok = text === "" || (Number.isFinite(v) && v >= 0);
  showControlError(ok ? "" : `${input.dataset.label || key} must be a number ≥ 0 (empty: the default); “${text}” is not, so the default is used.`);
  if (!ok) input.value = "";
  const n = ok && text !== "" ? v : fallback;
  settings[key] = integer ? Math.trunc(n) : n;
}

// linkReport says which parts of a link the page could not use, and that
// the defaults are used instead ("" when every part was used).
export function linkReport(invalid, dropped) {
  const all = [...invalid, ...dropped];
  if (all.length === 0) return "";
  return `This link's ${all.map((p) => `“${p}”`).join(", ")} ${all.length === 1 ? "is" : "are"} not valid here: ` +
    "the default is used instead.";
}

// showControlError shows message (or hides the line when it is empty) right
// under the settings, where the eye is.
export function showControlError(message) {
  const el = document.getElementById("controls-error");
  el.textContent = message;
  el.hidden = !message;
}

export function settingsNote() {
  const d = settings.delta > 0 ? settings.delta : defaultText("delta");
  const e = settings.eta > 0 ? settings.eta : defaultText("eta");
  return `Restarted with δ = ${d}, η = ${e}, γ = ${GAMMAS[settings.gamma]}, loss ${settings.loss}, ` +
    `seed ${settings.seed}, regret checkpoints ${CHECKPOINTS[settings.checkpoints]} (${settings.learners.join(", ")}).`;
}

// onLearnerSetting applies a change of a learner setting: new hash, new run.
export function onLearnerSetting(update) {
  const before = learnerSettingsKey(settings);
  update();
  renderControls();
  writeHash();
  if (learnerSettingsKey(settings) !== before) restart(settingsNote());
}

export function onLearnersChange() {
  const boxes = /** @type {NodeListOf<HTMLInputElement>} */ (document.querySelectorAll("#learners input:checked"));
  const checked = [...boxes].map((b) => b.value);
  if (checked.length === 0) {  // keep at least one learner
    renderControls();
    return;
  }
  // The learners keep the order they were picked in: the first one picked
  // stays the one the numbers follow.
  const kept = settings.learners.filter((n) => checked.includes(n));
  const added = checked.filter((n) => !kept.includes(n));
  onLearnerSetting(() => {
    settings.learners = [...kept, ...added];
    if (!settings.learners.includes(settings.follow)) settings.follow = "";
  });
}

// pickFile learns a file picked or dropped, with the guessed settings (or
// continues the loaded model on it); before the core is ready, it waits for
// it (app.js starts it).
export function pickFile(file) {
  if (!file) return;
  // Another file starts in its own order; the same one (a link's) keeps
  // the link's shuffle.
  if (file.name !== settings.file) settings.shuffle = 0;
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

export function togglePlay() {
  if (page.phase === "running") setPhase("paused");
  else if (page.phase === "paused" || page.phase === "ready") setPhase("running");
  else if (page.phase === "done" || page.phase === "error") startSession(session.source, {note: "Started again from row 0."});
}

// step learns one row (the Step button, →), pausing the run.
export function step() {
  learnRows(1);
}

// learnRows pauses the run and learns n rows at once (the lesson's step 4
// starts 30 rows in).
export function learnRows(n) {
  if (!occfm || page.phase === "loading" || page.phase === "done" || page.phase === "error") return;
  if (page.phase !== "paused") setPhase("paused");
  const snap = call(() => occfm.run(1000, n));
  if (snap != null) applySnapshot(snap, true);
  // run's snapshot may carry metrics up to 250 ms old; a step shows its own.
  const fresh = call(() => occfm.snapshot());
  if (fresh != null) applySnapshot(fresh, true);
  flushCharts(performance.now(), true);
}

export function isTyping(target) {
  return target instanceof HTMLElement &&
    (target.isContentEditable || ["INPUT", "SELECT", "TEXTAREA"].includes(target.tagName));
}

export function wireControls() {
  /** @param {string} id */
  const $ = (id) => document.getElementById(id);
  // The events' targets are index.html's controls, typed for tsc
  // (ui/tsconfig.json) as what they are there.
  /** @param {Event} e */
  const input = (e) => /** @type {HTMLInputElement} */ (e.target);
  /** @param {Event} e */
  const select = (e) => /** @type {HTMLSelectElement} */ (e.target);
  /** @param {string} id */
  const box = (id) => /** @type {HTMLInputElement} */ ($(id));
  $("play").addEventListener("click", togglePlay);
  $("step").addEventListener("click", step);
  $("reset").addEventListener("click", () => restart("Reset: started again from row 0."));
  $("speed").addEventListener("input", (e) => {
    const pos = Number(input(e).value);
    settings.speed = pos >= SPEEDS.length ? 0 : SPEEDS[pos];
    clock.carry = Math.min(clock.carry, 1);
    renderSpeed();
    writeHash();
  });
  $("follow").addEventListener("change", (e) => onFollow(select(e).value));
  $("metric-logx").addEventListener("change", (e) => {
    settings.logX = input(e).checked;
    // Both charts over rows follow it.
    views.metric.setLogX(settings.logX);
    views.expertRegret.setLogX(settings.logX);
    writeHash();
  });
  $("forget-runs").addEventListener("click", () => forgetRuns());
  $("shuffle-file").addEventListener("click", () => {
    settings.shuffle = settings.shuffle > 0 ? 0 : settings.seed || 1;
    restart(settings.shuffle > 0
      ? `Shuffling ${session.file.name} with seed ${settings.shuffle}: its rows are read into memory first.`
      : `Learning ${session.file.name} in its own order again.`);
  });
  // The settings drawer of a narrow screen.
  $("settings-toggle").addEventListener("click", (e) => {
    const open = !document.body.classList.contains("settings-open");
    document.body.classList.toggle("settings-open", open);
    /** @type {HTMLElement} */ (e.target).setAttribute("aria-expanded", String(open));
  });
  $("delta").addEventListener("change", (e) => onLearnerSetting(() => numberSetting(input(e), "delta", 0)));
  $("eta").addEventListener("change", (e) => onLearnerSetting(() => numberSetting(input(e), "eta", 0)));
  $("gamma").addEventListener("change", (e) => onLearnerSetting(() => { settings.gamma = select(e).value; }));
  $("regret-checkpoints").addEventListener("change", (e) => onLearnerSetting(() => { settings.checkpoints = select(e).value; }));
  $("loss").addEventListener("change", (e) => onLearnerSetting(() => { settings.loss = select(e).value; }));
  $("clip").addEventListener("change", (e) => onLearnerSetting(() => { settings.clip = select(e).value; }));
  $("seed").addEventListener("change", (e) => onLearnerSetting(() => numberSetting(input(e), "seed", DEFAULTS.seed, true)));
  $("on-error").addEventListener("change", (e) => {
    const value = select(e).value;
    settings.onError = ON_ERROR.includes(value) ? value : DEFAULTS.onError;
    writeHash();
    if (session.source === "file" && session.file) {
      const how = settings.onError === "skip" ? "malformed rows are skipped and counted" : "a malformed row stops the run";
      restart(`Restarted ${session.file.name}: ${how}.`);
    }
  });
  $("read-as").addEventListener("change", (e) => {
    const value = select(e).value;
    settings.format = FORMATS.includes(value) ? value : DEFAULTS.format;
    writeHash();
    if (session.source === "file" && session.file) {
      session.roles = null;  // the columns of another reading
      restart(`Restarted ${session.file.name}, read as ${select(e).selectedOptions[0].textContent}.`);
    }
  });
  $("demo").addEventListener("change", (e) => {
    const value = select(e).value;
    if (!value) return;
    settings.demo = value;
    writeHash();
    startSession("demo", {note: `Demo: ${demoTitle(page.catalog.demos, settings.demo)}.`});
  });
  $("file-input").addEventListener("change", (e) => {
    const file = input(e).files && input(e).files[0];
    input(e).value = "";  // picking the same file again starts it again
    pickFile(file);
  });
  const regretMode = () => {
    views.regret.setMode({logLog: box("regret-loglog").checked, perT: box("regret-per-t").checked});
    if (settings.logLog !== box("regret-loglog").checked) {
      settings.logLog = box("regret-loglog").checked;
      writeHash();
    }
  };
  $("regret-loglog").addEventListener("change", regretMode);
  $("regret-per-t").addEventListener("change", regretMode);
  $("export-csv").addEventListener("click", exportCSV);
  $("export-json").addEventListener("click", exportJSON);
  $("copy-command").addEventListener("click", copyCommand);
  $("model-save").addEventListener("click", saveModel);
  $("model-input").addEventListener("change", (e) => {
    const file = input(e).files[0];
    input(e).value = "";  // the same file can be loaded again
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

  // A hash edited by hand (or a pasted link) applies like the controls
  // (Personalize's learner, the lesson and presenter mode have listeners of
  // their own, which run after this one).
  addEventListener("hashchange", () => {
    const invalid = [];
    const next = parseHash(location.hash, invalid);
    const viewChanged = next.view !== settings.view;
    const demoChanged = next.demo !== settings.demo;
    const runChanged = learnerSettingsKey(next) !== learnerSettingsKey(settings);
    Object.assign(settings, next);
    const report = linkReport(invalid, validateSettings());
    renderControls();
    writeHash();
    if (viewChanged) setView(settings.view);
    if (occfm && demoChanged) startSession("demo", {note: `Demo: ${demoTitle(page.catalog.demos, settings.demo)}.`});
    else if (occfm && runChanged) restart(settingsNote());
    if (report) showNote(report);
  });
}

// The Learn view's controls drawn from the state: every control shows the
// settings (renderControls), the run controls the page's phase, the demo
// menu the session's source. What the controls do is controls.js's.

import {finite} from "../shared/format.js";
import {SPEEDS} from "../shared/hash.js";
import {settings} from "../shared/state.js";
import {page, session} from "./state.js";

// buttonEl, inputEl and selectEl return index.html's element of id, typed
// as what it is there (for tsc: ui/tsconfig.json).
/** @param {string} id */
const buttonEl = (id) => /** @type {HTMLButtonElement} */ (document.getElementById(id));
/** @param {string} id */
const inputEl = (id) => /** @type {HTMLInputElement} */ (document.getElementById(id));
/** @param {string} id */
const selectEl = (id) => /** @type {HTMLSelectElement} */ (document.getElementById(id));

export const STATE_TEXT = {
  loading: "loading the learner…", ready: "ready", running: "learning",
  paused: "paused", done: "done: the stream has ended", error: "stopped by an error",
};

export function renderRunControls() {
  const loaded = page.phase !== "loading";
  const play = buttonEl("play");
  play.textContent = page.phase === "running" ? "Pause" : "Play";
  play.setAttribute("aria-pressed", String(page.phase === "running"));
  play.disabled = !loaded;
  buttonEl("step").disabled = !loaded || page.phase === "done" || page.phase === "error";
  buttonEl("reset").disabled = !loaded;
  buttonEl("export-csv").disabled = !loaded;
  buttonEl("export-json").disabled = !loaded;
  buttonEl("copy-command").disabled = !loaded;
  buttonEl("model-save").disabled = !loaded;
  document.getElementById("state-text").textContent = STATE_TEXT[page.phase] || page.phase;
}

export function renderSpeed() {
  const slider = inputEl("speed");
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
    settings.speed > 0 ? `${settings.speed.toLocaleString("en-US")} row${settings.speed === 1 ? "" : "s"}/s` : "max";
}

// renderControls makes every control show settings.
export function renderControls() {
  renderSpeed();
  inputEl("delta").value = settings.delta > 0 ? String(settings.delta) : "";
  inputEl("eta").value = settings.eta > 0 ? String(settings.eta) : "";
  selectEl("gamma").value = settings.gamma;
  selectEl("loss").value = settings.loss;
  selectEl("clip").value = settings.clip;
  inputEl("seed").value = String(settings.seed);
  selectEl("regret-checkpoints").value = settings.checkpoints;
  selectEl("on-error").value = settings.onError;
  selectEl("read-as").value = settings.format;
  const boxes = /** @type {NodeListOf<HTMLInputElement>} */ (document.querySelectorAll("#learners input"));
  for (const box of boxes) box.checked = settings.learners.includes(box.value);
  renderDefaults();
  renderDemoSelect();
  renderFollow();
}

// renderFollow offers, when learners race, the choice of the one the
// numbers, the model panel and Download model follow.
function renderFollow() {
  const field = document.getElementById("follow-field");
  const select = selectEl("follow");
  field.hidden = settings.learners.length < 2;
  const names = settings.learners;
  if ([...select.options].map((o) => o.value).join() !== names.join()) {
    select.replaceChildren(...names.map((n) => new Option(n, n)));
  }
  select.value = names.includes(settings.follow) ? settings.follow : names[0] || "";
}

// renderDefaults shows in the δ and η inputs, empty, the defaults they
// stand for (defaultText).
export function renderDefaults() {
  inputEl("delta").placeholder = defaultText("delta");
  inputEl("eta").placeholder = defaultText("eta");
}

// defaultText names the default of a learner setting, "delta" or "eta", as
// learners() gives it for the learner the numbers follow (the first one
// unless another is chosen): "default (10)", "default: 18·√n (grows with
// the features seen)" for a δ set by a rule, η's for classification on a
// classification run; "default" alone when learners() gives none.
export function defaultText(key) {
  const name = settings.learners.includes(settings.follow) ? settings.follow : settings.learners[0];
  const l = page.catalog.learners.find((x) => x.name === name);
  if (!l) return "default";
  if (key === "eta" && session.task === "classification" && finite(l.etaClassification)) return `default (${l.etaClassification})`;
  if (finite(l[key])) return `default (${l[key]})`;
  if (key === "delta" && typeof l.deltaText === "string" && l.deltaText) return `default: ${l.deltaText}`;
  return "default";
}

export function renderDemoSelect() {
  const select = selectEl("demo");
  const fileOption = document.getElementById("demo-file-option");
  const hint = document.getElementById("demo-hint");
  if (session.source === "file" && session.file) {
    fileOption.hidden = false;
    fileOption.textContent = `file: ${session.file.name}`;
    select.value = "";
    hint.textContent = "your file, read in this tab only; choose a demo above to go back";
  } else {
    fileOption.hidden = true;
    select.value = settings.demo;
    hint.textContent = "made-up data whose best model is known";
  }
}

// The guided lesson (data-testid="lesson"): the seven steps of
// lesson-steps.js, which a teacher clicks through (Prev / Next, PageDown /
// PageUp, a presenter's clicker). Each step shows its text and gives the
// page its setup the way the controls do: the settings written, the link
// rewritten (writeHash), a new run started (startSession). The panel is its
// own part of the DOM; settings.lesson (lesson=N in the link) is the step
// shown, 0 when closed.

import {DEFAULTS} from "../shared/hash.js";
import {STEPS, mathParts, setupText, stepAt, stepSettings, supParts} from "../shared/lesson-steps.js";
import {occfm, settings, writeHash} from "../shared/state.js";
import {setView} from "../shared/view.js";
import {isTyping, learnRows, onLearnerSetting, step as learnOneRow, validateSettings} from "./controls.js";
import {renderControls} from "./controls-view.js";
import {afterPaint} from "./paint.js";
import {showChart} from "./presenter.js";
import {setPhase, startSession} from "./session.js";
import {page} from "./state.js";

const $ = (id) => document.getElementById(id);

// shown is the step the panel shows (0: closed); target the element it
// outlines.
let shown = 0;
let target = null;

// wireLesson wires the panel, the header's Lesson button and the keys, and
// shows the step the link names (its text only: startLesson applies its
// setup once the core is ready).
export function wireLesson() {
  $("lesson-open").addEventListener("click", () => (settings.lesson ? closeLesson() : goToStep(1)));
  $("lesson-prev").addEventListener("click", () => goToStep(settings.lesson - 1));
  $("lesson-next").addEventListener("click", () => goToStep(settings.lesson + 1));
  $("lesson-close").addEventListener("click", closeLesson);
  $("lesson-collapse").addEventListener("click", (e) => {
    const open = /** @type {HTMLElement} */ (e.currentTarget).getAttribute("aria-expanded") !== "true";
    setCollapsed(!open);
    // On one column the text, shown again, is above the chart: go to it.
    if (open && matchMedia(ONE_COLUMN).matches) $("lesson").scrollIntoView({block: "start"});
  });
  $("lesson-jump").addEventListener("click", () => {
    setCollapsed(true);
    if (target) jumpTo(target);
  });
  // A presenter's clicker sends PageDown / PageUp. Space (play) and →
  // (one row) stay the controls'.
  document.addEventListener("keydown", (e) => {
    if (!settings.lesson || e.ctrlKey || e.metaKey || e.altKey || isTyping(e.target) || settings.view === "personalize") return;
    if (e.key === "PageDown" || e.key === "PageUp") {
      e.preventDefault();
      goToStep(settings.lesson + (e.key === "PageDown" ? 1 : -1));
    }
  });
  // A link edited by hand: the controls' own listener has read it into
  // settings (wireControls runs first); open the step it names.
  addEventListener("hashchange", () => {
    if (settings.lesson === shown) return;
    if (settings.lesson) goToStep(settings.lesson);
    else closeLesson();
  });
  render();
}

// startLesson gives the page the setup of the step the opening link names,
// once the core is ready, and starts its run. It returns false when there
// is nothing to set up (no lesson, or a step that keeps the page): the
// caller then starts the page as usual. note is said above the charts.
export function startLesson(note = "") {
  const step = stepAt(settings.lesson);
  if (!step) return false;
  render();  // the demos' names are known now
  if (!step.setup) {
    lookAt(step);
    return false;
  }
  applySetup(step, note);
  lookAt(step);  // after the setup: step 4's view shows once its rows are learned
  return true;
}

// goToStep shows step n and applies its setup; there is no step 0 or 8
// (PageUp on step 1 changes nothing, and does not restart its run).
export function goToStep(n) {
  const step = stepAt(n);
  if (!step) return;
  settings.lesson = n;
  render();
  // The step's text shows at once; its run starts after that frame.
  afterPaint("lesson", () => {
    if (settings.lesson !== n) return;
    if (step.setup && occfm) applySetup(step);
    else writeHash();
    lookAt(step);
  });
}

// closeLesson hides the panel and takes lesson=N out of the link.
export function closeLesson() {
  settings.lesson = 0;
  writeHash();
  render();
  lookAt(null);
  $("lesson-open").focus();
}

// applySetup writes step's settings as the controls would, then starts its
// run from row 0 (paused, for a step that says so), clean: no earlier run
// stays on the chart (within a step, its δ buttons keep them).
function applySetup(step, note = "") {
  const fromPersonalize = settings.view === "personalize";
  Object.assign(settings, stepSettings(step, settings, DEFAULTS));
  validateSettings();
  renderControls();
  if (fromPersonalize) setView("learn", {write: false});
  writeHash();
  startSession("demo", {note, clean: true});
  if (step.setup.paused && page.phase === "running") setPhase("paused");
  // A few rows first, so that C is not 0 and the next Step moves it.
  if (step.setup.warmup) learnRows(step.setup.warmup);
}

// setCollapsed folds the step's text to its title (or unfolds it).
function setCollapsed(folded) {
  const b = $("lesson-collapse");
  b.setAttribute("aria-expanded", String(!folded));
  b.textContent = folded ? "Show text" : "Hide text";
  $("lesson").classList.toggle("collapsed", folded);
}

// jumpTo scrolls el to just under the lesson, which one column pins at the
// top of the screen once folded: the step's title and its chart share the
// screen.
function jumpTo(el) {
  const go = () => {
    el.style.scrollMarginTop = `${$("lesson").getBoundingClientRect().height + 12}px`;
    el.scrollIntoView({block: "start"});
  };
  go();
  // The tables above it may still grow with a new run's first rows: go
  // again once they are drawn, and later again for a busy machine, unless
  // the reader has scrolled.
  let at = scrollY;
  for (const k of [1, 2, 4]) {
    setTimeout(() => {
      if (scrollY !== at || target !== el) return;
      go();
      at = scrollY;
    }, k * SETTLE_MS);
  }
}

// render shows settings.lesson's step in the panel, or hides it.
function render() {
  const n = settings.lesson;
  const step = stepAt(n);
  shown = step ? n : 0;
  const panel = $("lesson");
  panel.hidden = !step;
  document.documentElement.classList.toggle("lesson-open", !!step);
  $("lesson-open").setAttribute("aria-expanded", String(!!step));
  if (!step) return;
  $("lesson-count").textContent = `Step ${n} of ${STEPS.length}`;
  $("lesson-title").textContent = step.title;
  $("lesson-text").replaceChildren(...step.text.map((t) => {
    const p = document.createElement("p");
    p.append(...mathParts(t).map(({text, math}) => {
      if (!math) return text;
      const span = document.createElement("span");
      span.className = "math";
      span.append(...supParts(text).map((q) => {
        if (!q.sup) return q.text;
        const sup = document.createElement("sup");
        sup.textContent = q.text;
        return sup;
      }));
      return span;
    }));
    return p;
  }));
  $("lesson-look-text").textContent = step.look;
  $("lesson-jump").textContent = step.chart === "model" ? "Show the model ↓" : "Show the chart ↓";
  $("lesson-actions").replaceChildren(...step.actions.map(actionElement));
  $("lesson-actions").hidden = step.actions.length === 0;
  const demos = page.catalog.demos;
  $("lesson-setup").textContent = setupText(step, (name) => {
    const d = demos.find((x) => x.name === name);
    return d ? d.short || d.title || name : name;
  });
  $("lesson-paper").textContent = step.paper;
  /** @type {HTMLButtonElement} */ ($("lesson-prev")).disabled = n <= 1;
  /** @type {HTMLButtonElement} */ ($("lesson-next")).disabled = n >= STEPS.length;
  renderPressed();
}

// actionElement is a step's button: δ as the δ control sets it, one row as
// Step learns it, or a label of the Data card's own file input.
function actionElement(a) {
  if (a.file) {
    const label = document.createElement("label");
    label.htmlFor = "file-input";
    label.className = "button";
    label.dataset.testid = a.id;
    label.textContent = a.label;
    return label;
  }
  const b = document.createElement("button");
  b.type = "button";
  b.dataset.testid = a.id;
  b.textContent = a.label;
  if ("delta" in a) {
    b.dataset.delta = String(a.delta);
    b.addEventListener("click", () => {
      // Pressed at once; the run at the new δ starts after that frame.
      for (const o of b.parentElement.querySelectorAll("button[data-delta]")) o.setAttribute("aria-pressed", String(o === b));
      afterPaint("lesson-delta", () => {
        onLearnerSetting(() => { settings.delta = a.delta; });
        renderPressed();
      });
    });
  } else if (a.step) {
    b.title = "learn one row (→)";
    b.addEventListener("click", () => {
      learnOneRow();
      lookAt(stepAt(settings.lesson));  // the step view shows once a row is learned
    });
  }
  return b;
}

// renderPressed marks the δ button of the δ the run has.
function renderPressed() {
  for (const b of /** @type {NodeListOf<HTMLButtonElement>} */ (document.querySelectorAll("#lesson-actions button[data-delta]"))) {
    b.setAttribute("aria-pressed", String(Number(b.dataset.delta) === settings.delta));
  }
}

// lookAt outlines the element step is about (the first of its targets the
// page shows, else the first it has), brings it into view and tells
// presenter mode which chart to show; lookAt(null) takes the outline off.
function lookAt(step) {
  if (target) target.classList.remove("lesson-target");
  target = null;
  if (!step) return;
  showChart(step.chart);
  const els = step.targets.map((id) => document.getElementById(id)).filter(Boolean);
  const el = els.find((e) => e.getClientRects().length > 0) || els[0];
  if (!el) return;
  target = el.closest(".card") || el;
  target.classList.add("lesson-target");
  bringIntoView(target);
  // A new run's first rows fill the tables above it, which pushes it down:
  // once they are drawn, bring it back, unless the reader has scrolled.
  const at = scrollY, was = target;
  setTimeout(() => { if (target === was && scrollY === at) bringIntoView(was); }, SETTLE_MS);
}

// SETTLE_MS is how long a new run's first rows take to fill the page's
// tables (the views redraw at least every 250 ms).
const SETTLE_MS = 800;

// ONE_COLUMN is style.css's layout of a narrow screen.
const ONE_COLUMN = "(max-width: 900px)";

// bringIntoView scrolls el into view, unless some of it shows, or the page
// is one column (a phone), where the lesson comes above the charts and
// scrolling to them would hide the step's text (unless the text is folded:
// see jumpTo).
function bringIntoView(el) {
  // Presenter mode shows the step's chart under the numbers, the lesson
  // beside it: the page stays where it is (header and all).
  if (settings.presenter && !matchMedia(ONE_COLUMN).matches) return;
  if (matchMedia(ONE_COLUMN).matches) {
    // Folded, the reader follows the charts: the next step's comes under
    // its title.
    if ($("lesson").classList.contains("collapsed")) jumpTo(el);
    return;
  }
  const r = el.getBoundingClientRect();
  if (r.height > 0 && (r.top < 0 || r.bottom > innerHeight)) {
    el.scrollIntoView({block: r.height < innerHeight ? "center" : "start"});
  }
}

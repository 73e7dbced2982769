// Presenter mode (data-testid="presenter", presenter=1 in the link, key P):
// for a page projected in class, big type, the settings hidden (the Run
// card stays, as a bar), and one chart at a time with small buttons to
// switch; the notices above the charts on one line each, opened by a
// click. The layout is lesson.css's: this
// module sets html.presenter and html[data-chart]; a phone keeps its
// usual layout.

import {isTyping} from "./controls.js";
import {afterPaint} from "./paint.js";
import {settings, writeHash} from "../shared/state.js";

// CHARTS are the views presenter mode can show, one at a time: each
// chart's card (style.css shows the cards that hold these ids). model is
// the model's picture, its spectrum and Frank-Wolfe step when the page has
// them, and the model panel.
export const CHARTS = ["metric", "loss", "regret", "model"];

let chart = "metric";

export function wirePresenter() {
  document.getElementById("presenter").addEventListener("click", () => setPresenter(!settings.presenter));
  for (const b of /** @type {NodeListOf<HTMLButtonElement>} */ (document.querySelectorAll("#presenter-charts button"))) {
    b.addEventListener("click", () => showChart(b.dataset.chart));
  }
  document.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey || isTyping(e.target) || settings.view === "personalize") return;
    if (e.key === "p" || e.key === "P") {
      e.preventDefault();
      setPresenter(!settings.presenter);
    }
  });
  // A notice folded to one line opens (and folds again) on a click.
  for (const id of ["note", "speed-warning", "order-text"]) {
    const el = document.getElementById(id);
    el.addEventListener("click", () => { if (settings.presenter) el.classList.toggle("open"); });
  }
  // A link edited by hand (the controls' listener has read it).
  addEventListener("hashchange", render);
  render();
}

// setPresenter turns presenter mode on or off, and says so in the link.
export function setPresenter(on) {
  settings.presenter = !!on;
  writeHash();
  render();
}

// showChart makes presenter mode show chart (one of CHARTS).
export function showChart(name) {
  chart = CHARTS.includes(name) ? name : "metric";
  render();
}

function render() {
  const on = settings.presenter;
  const root = document.documentElement;
  const was = root.classList.contains("presenter");
  root.classList.toggle("presenter", on);
  root.dataset.chart = chart;
  // The charts' height follows presenter mode (charts.js chartHeight):
  // they are rebuilt after the new layout is on screen.
  if (was !== on) afterPaint("presenter", () => dispatchEvent(new Event("resize")));
  const button = document.getElementById("presenter");
  button.setAttribute("aria-pressed", String(on));
  for (const b of /** @type {NodeListOf<HTMLButtonElement>} */ (document.querySelectorAll("#presenter-charts button"))) {
    b.setAttribute("aria-pressed", String(b.dataset.chart === chart));
  }
}

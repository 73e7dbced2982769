// The Frank-Wolfe step made visible (Algorithm 2, lines 3–7): for the row
// just learned, the prediction and its loss, the gradient's rank-one term
// ∇fₜ = ℓ'·½x̂x̂ᵀ, the LMO's answer Ĉₜ = δ·sign(λ)·qqᵀ (q the top
// eigenvector of −∇Fₜ), γₜ, and C before and after the mix
// Cₜ₊₁ = (1 − γ)Cₜ + γĈₜ, each as a heatmap of the same coordinates
// (occfm.fwStep(), wasm/picture.go). Shown in Step mode (→) and at low
// speeds, where a row at a time can be followed; the module owns the
// fw-step card.

import {page, settings} from "./state.js";
import {drawHeatmap, scalesOf} from "./heatmap.js";
import {formatNumber} from "./format.js";

// SLOW is the speed (rows/s) at or below which the step view shows while
// the run plays.
const SLOW = 20;

const el = (id) => document.getElementById(id);
let shownRound = -1;

// stepViewWanted reports whether the step view belongs on the page now.
function stepViewWanted() {
  return page.phase === "paused" || (page.phase === "running" && settings.speed > 0 && settings.speed <= SLOW);
}

// resetStepView hides the view (a new run).
export function resetStepView() {
  shownRound = -1;
  el("fw-step").hidden = true;
}

// renderStepView shows the last step, from get() (occfm.fwStep(), or
// null), when the view is wanted and a new round was played since.
export function renderStepView(rows, get) {
  const card = el("fw-step");
  if (!stepViewWanted() || rows === 0) {
    card.hidden = true;
    return;
  }
  card.hidden = false;
  if (rows === shownRound) return;
  shownRound = rows;
  const st = get();
  if (!st) return;
  const why = el("fw-why");
  const parts = el("fw-parts");
  if (st.why) {
    why.textContent = st.why;
    why.hidden = false;
    parts.hidden = true;
    card.dataset.round = "0";
    return;
  }
  why.hidden = true;
  parts.hidden = false;
  const k = st.labels.length;
  card.dataset.round = String(st.round);
  card.dataset.gamma = String(st.gamma);
  card.dataset.lambda = String(st.lambda);
  el("fw-row").textContent = `Row ${st.round.toLocaleString("en-US")}: predicted ŷ = ${formatNumber(st.yhat)}, ` +
    `true y = ${formatNumber(st.y)}, loss ${formatNumber(st.loss)}${st.note ? ` (${st.note})` : ""}.`;
  // Before and after share a scale, so that the change shows.
  const both = scalesOf(st.before, k), aft = scalesOf(st.after, k);
  const shared = {inner: Math.max(both.inner, aft.inner), border: Math.max(both.border, aft.border)};
  drawHeatmap(el("fw-before-canvas"), st.before, k, shared);
  drawHeatmap(el("fw-grad-canvas"), st.grad, k);
  drawHeatmap(el("fw-atom-canvas"), st.atom, k);
  drawHeatmap(el("fw-after-canvas"), st.after, k, shared);
  const names = st.labels.slice(0, -1);
  el("fw-coords").textContent = `The squares: ${names.length <= 8 ? names.join(", ") : `${names.slice(0, 6).join(", ")} and ${names.length - 6} more`}` +
    " (the row's own features among them), then the bias.";
  el("fw-lambda").textContent = `λ = ${formatNumber(st.lambda)}`;
  // εₜ is the slack Frank-Wolfe tolerates in the corner's value δ|λ|; it
  // shrinks with γₜ, and early on it is far larger than the value itself.
  el("fw-gap").textContent = `the corner's value δ|λ| = ${formatNumber(st.delta * Math.abs(st.lambda))}, ` +
    `certified within εₜ = ${formatNumber(st.gap)} of the best corner's` +
    (st.refreshed ? " (a Lanczos run found q this row)" : " (no new eigen-solve needed)");
  el("fw-gamma").textContent = `γ = ${formatNumber(st.gamma)}` +
    (st.gamma < st.gammaT * (1 - 1e-12) ? ` (the schedule's γₜ = ${formatNumber(st.gammaT)}; a line search chose less)` : " (the schedule's γₜ)");
  el("fw-delta").textContent = `δ = ${formatNumber(st.delta)}`;
}

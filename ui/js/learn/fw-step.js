// The Frank-Wolfe step made visible (Algorithm 2, lines 3–7): for the row
// just learned, the prediction and its loss, the gradient's rank-one term
// ∇fₜ = ℓ'·½x̂x̂ᵀ, the LMO's answer Ĉₜ = δ·sign(λ)·qqᵀ (q the top
// eigenvector of −∇Fₜ), γₜ, and C before and after the mix
// Cₜ₊₁ = (1 − γ)Cₜ + γĈₜ, each as a heatmap of the same coordinates
// (occfm.fwStep(), wasm/picture.go). Shown in Step mode (→) and at low
// speeds, where a row at a time can be followed; the module owns the
// fw-step card.

import {formatNumber} from "../shared/format.js";
import {drawHeatmap, scalesOf} from "./heatmap.js";

// SLOW is the speed (rows/s) at or below which the step view shows while
// the run plays.
const SLOW = 20;

const el = (id) => document.getElementById(id);
let shownRound = -1;

// stepViewWanted reports whether the step view belongs on the page in
// phase (the page's: paused, running, …) at speed (rows/s; 0: max).
export function stepViewWanted(phase, speed) {
  return phase === "paused" || (phase === "running" && speed > 0 && speed <= SLOW);
}

// resetStepView hides the view (a new run).
export function resetStepView() {
  shownRound = -1;
  el("fw-step").hidden = true;
}

// renderStepView shows the last step, from get() (occfm.fwStep(), or
// null), when the view is wanted (stepViewWanted) and a new round was
// played since; otherwise it hides the view.
export function renderStepView(rows, get, wanted) {
  const card = el("fw-step");
  if (!wanted || rows === 0) {
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
  drawHeatmap(el("fw-atom-canvas"), st.kind === "ftrl" ? st.target : st.atom, k);
  drawHeatmap(el("fw-after-canvas"), st.after, k, shared);
  // The change on its own scale: a small γ leaves before and after alike
  // to the eye, not their difference.
  const change = st.after.map((v, i) => v - st.before[i]);
  const cs = scalesOf(change, k);
  drawHeatmap(el("fw-change-canvas"), change, k, cs);
  const big = Math.max(cs.inner, cs.border);
  card.dataset.change = String(big);
  el("fw-change-scale").textContent = big > 0
    ? `Picture 5: darkest = ±${Number(big.toPrecision(2))} (pictures 1 and 4: darkest = ±${Number(Math.max(shared.inner, shared.border).toPrecision(2))}).`
    : "The step changed nothing.";
  const names = st.labels.slice(0, -1);
  el("fw-coords").textContent = `The squares: ${names.length <= 8 ? names.join(", ") : `${names.slice(0, 6).join(", ")} and ${names.length - 6} more`}` +
    " (the row's own features among them), then the bias.";
  label(st.kind);
  if (st.kind === "ftrl") ftrlNumbers(st);
  else fwNumbers(st);
}

// CAPTIONS are the step view's heading and figure captions for each kind
// of step: Algorithm 2's Frank-Wolfe step (occfm, occfm-lin) and occfm-k's
// follow-the-regularized-leader step.
const CAPTIONS = {
  fw: {
    head: "The Frank-Wolfe step of the last row",
    atomLabel: "the corner of K the step moves towards",
    before: ["1. Cₜ, before.", " The model that just made the prediction."],
    grad: ["2. The row's gradient", " ∇fₜ = ℓ′·½x̂x̂ᵀ: only the row's own features light up. Blue where C should grow, red where it should shrink."],
    atom: ["3. The best corner of K", ", Ĉₜ = δ·sign(λ)·qqᵀ: q is the top eigenvector of −∇Fₜ, the sum of every gradient so far (no projection, one eigenvector)."],
    after: ["4. Cₜ₊₁ = (1 − γ)Cₜ + γĈₜ.", " A small step towards that corner: a mix of two points of K stays in K."],
    change: ["5. The change, Cₜ₊₁ − Cₜ = γ(Ĉₜ − Cₜ)", ", on a scale of its own: what the step did."],
  },
  ftrl: {
    head: "occfm-k's step of the last row: follow the regularized leader",
    atomLabel: "the target −ηG/2 before the projection",
    before: ["1. Cₜ, before.", " The model that just made the prediction."],
    grad: ["2. The row's gradient", " ∇fₜ = ℓ′·½x̂x̂ᵀ (no square of a feature with itself): it joins Gₜ, the sum of every gradient so far."],
    atom: ["3. The target −ηGₜ/2", ": the best C for all the rows so far, were there no budget. The bias row is learned outside the ball, as in 4."],
    after: ["4. Cₜ₊₁ = Π_K(−ηGₜ/2).", " The target pulled into the ball: each eigenvalue moves θ towards 0, so that Σ|λ| ≤ δ."],
    change: ["5. The change, Cₜ₊₁ − Cₜ", ", on a scale of its own: what this row did."],
  },
};

// label sets the heading and captions of the kind of step shown (each
// caption a bold part and the rest, which presenter mode leaves to the
// lesson's text: lesson.css).
function label(kind) {
  const c = CAPTIONS[kind] || CAPTIONS.fw;
  el("fw-h").textContent = c.head;
  el("fw-atom-canvas").setAttribute("aria-label", c.atomLabel);
  for (const part of ["before", "grad", "atom", "after", "change"]) {
    const cap = /** @type {HTMLElement} */ (document.querySelector(`[data-testid="fw-${part}"] figcaption`));
    if (cap.dataset.kind !== kind) {
      const b = document.createElement("b");
      b.textContent = c[part][0];
      const more = document.createElement("span");
      more.className = "fw-more";
      more.textContent = c[part][1];
      cap.replaceChildren(b, more);
      cap.dataset.kind = kind;
    }
  }
}

// fwNumbers writes a Frank-Wolfe step's λ, εₜ, γ and δ.
function fwNumbers(st) {
  el("fw-lambda").textContent = `λ = ${formatNumber(st.lambda)}`;
  // εₜ is the slack Frank-Wolfe tolerates in the corner's value δ|λ|; it
  // shrinks with γₜ, and early on it is far larger than the value itself.
  const value = st.delta * Math.abs(st.lambda);
  el("fw-gap").textContent = st.gap < value
    ? `the corner's value δ|λ| = ${formatNumber(value)}, certified within εₜ = ${formatNumber(st.gap)} of the best corner's` +
      (st.refreshed ? " (a Lanczos run found q this row)" : " (no new eigen-solve needed)")
    : `the corner's value δ|λ| = ${formatNumber(value)}; this early the schedule lets the corner be off by up to ` +
      `εₜ = ${formatNumber(st.gap)}, more than the value itself (εₜ shrinks with γₜ), so a rough eigenvector does` +
      (st.refreshed ? " (a Lanczos run found q this row)" : " (the tracked one, with no new eigen-solve)");
  el("fw-gamma").textContent = `γ = ${formatNumber(st.gamma)}` +
    (st.gamma < st.gammaT * (1 - 1e-12) ? ` (the schedule's γₜ = ${formatNumber(st.gammaT)}; a line search chose less)` : " (the schedule's γₜ)");
  el("fw-delta").textContent = `δ = ${formatNumber(st.delta)}`;
}

// ftrlNumbers writes occfm-k's θ, ε, ηₜ and δ.
function ftrlNumbers(st) {
  el("fw-lambda").textContent = `θ = ${formatNumber(st.theta)}`;
  el("fw-gap").textContent = `Cₜ₊₁ certified within ε = ${formatNumber(st.certified)} of Π_K(−ηGₜ/2) ` +
    `(in ‖·‖_F; ‖Cₜ₊₁‖_F = ${formatNumber(st.normF)}: the subspace holds the directions that matter, not every one)` +
    (st.refreshed ? " (a Lanczos run renewed its subspace this row)" : "");
  el("fw-gamma").textContent = `ηₜ = ${formatNumber(st.eta)}`;
  el("fw-delta").textContent = `δ = ${formatNumber(st.delta)}, rank ${st.rank} of ${st.kept} directions tracked`;
}

// The model as a picture: the followed learner's matrix C as a heatmap
// (occfm.picture(), wasm/picture.go), its eigenvalues as bars, and the
// nuclear-norm budget δ as a gauge of how much of the ball K the model
// uses and by which eigenvalue. The module owns the model-picture card.
// It draws only while the card is on screen, and no more often than its
// cost allows (a twentieth of the time, at most 4 times a second), so the
// picture never slows learning much.

import {formatNumber} from "../shared/format.js";
import {queueTask} from "../shared/queue-task.js";
import {cellAt, drawHeatmap, fillColors, robustScalesOf} from "./heatmap.js";

const MIN_INTERVAL_MS = 250;
const COST_SHARE = 20;  // wait at least 20× the last picture's cost

const state = {pic: null, at: -Infinity, rows: -1, visible: true, observer: null, cost: 0, gen: 0};

// el returns the element of id.
const el = (id) => document.getElementById(id);

// wirePicture sets up the hover readout and the visibility watch.
export function wirePicture() {
  const canvas = el("picture-canvas");
  canvas.addEventListener("pointermove", (e) => hover(e));
  canvas.addEventListener("pointerleave", () => { el("picture-hover").textContent = hoverHint(); });
  if ("IntersectionObserver" in globalThis) {
    state.observer = new IntersectionObserver((entries) => {
      for (const e of entries) state.visible = e.isIntersecting;
    });
    state.observer.observe(el("model-picture"));
  }
  addEventListener("resize", () => { if (state.pic) draw(state.pic); });
}

// resetPicture forgets the last picture (a new run).
export function resetPicture() {
  state.gen++;  // a picture queued for the last run is not drawn
  state.pic = null;
  state.rows = -1;
  state.at = -Infinity;
  el("picture-learner").textContent = "";
  el("spectrum-caption").textContent = "";
  el("picture-scale").textContent = "";
  el("picture-hover").textContent = "";
  el("model-picture").dataset.rows = "0";
}

// invalidatePicture makes the next renderPicture draw (the followed
// learner changed).
export function invalidatePicture() {
  state.rows = -1;
  state.at = -Infinity;
}

// renderPicture redraws the picture, from core.get() (occfm.picture(), or
// null), when rows were learned since the last one, its time has come and
// the card is visible (force: visible or not, whatever the time: after a
// Step, a pause or the end of a run), in tasks of its own that follow the
// caller's; once the picture is on the page it calls core.drawn()
// (occfm.pictureDrawn(): the Model card names it from then on). With no
// new row it draws nothing, forced or not: a finished run's regret
// comparator brings a snapshot every frame, and the ratings demo's
// picture costs tens of ms.
export function renderPicture(now, rows, core, force = false) {
  if (rows === state.rows) return;
  if (!force && (!state.visible || now - state.at < Math.max(MIN_INTERVAL_MS, COST_SHARE * state.cost))) return;
  state.at = now;
  state.rows = rows;
  // In tasks of their own, not in the frame or the click that asked: the
  // ratings demo's picture costs tens of ms in Go and as many to colour on
  // a busy machine, which, added to the frame's learning and charts (or to
  // a Pause click's), made a click wait 550 ms. Its colours are filled
  // ROWS_PER_TASK rows a task.
  const gen = ++state.gen;
  let tasks = 0, most = 0;  // the tasks it takes, and the most rows one colours (for tests)
  const later = (f) => queueTask(task, () => { if (gen === state.gen) { tasks++; f(); } });
  later(() => {
    const t0 = performance.now();
    const pic = core.get();
    if (!pic) return;
    const k = pic.labels.length;
    const job = {scales: null, img: k > 0 ? new ImageData(k, k) : null, sum: 0, ms: performance.now() - t0};
    const fill = (from) => {
      const t = performance.now();
      const to = Math.min(k, from + ROWS_PER_TASK);
      fillColors(job.img.data, pic.cells, k, job.scales, from, to);
      most = Math.max(most, to - from);
      for (let i = from * k; i < to * k; i++) job.sum += Math.abs(pic.cells[i]);
      job.ms += performance.now() - t;
      if (to < k) later(() => fill(to));
      else later(finish);
    };
    const scale = () => {
      const t = performance.now();
      job.scales = robustScalesOf(pic.cells, k);
      job.ms += performance.now() - t;
      later(() => fill(0));
    };
    const finish = () => {
      const t = performance.now();
      state.pic = pic;
      draw(pic, job);
      core.drawn();
      job.ms += performance.now() - t;
      state.cost = job.ms;
      const card = el("model-picture");
      card.dataset.ms = job.ms.toFixed(1);
      card.dataset.tasks = String(tasks);
      card.dataset.rowsPerTask = String(most);
    };
    if (k > 0) later(scale);
    else later(finish);
  });
}

// task queues the picture's steps, each in a task of its own (each step
// queues the next).
const task = {port: null, queued: false};

// ROWS_PER_TASK is how many rows of the picture's colours a task fills:
// 200 of the ratings demo's 801 take a few ms.
const ROWS_PER_TASK = 200;

// draw draws pic, with its scales, colours and Σ|C| when prepared holds
// them ({scales, img, sum}: renderPicture's tasks), else computing them.
function draw(pic, prepared = null) {
  const card = el("model-picture");
  const k = pic.labels.length;
  card.dataset.rows = String(pic.rows);
  card.dataset.k = String(k);
  let sum = prepared ? prepared.sum : 0;
  if (!prepared) for (const v of pic.cells) sum += Math.abs(v);
  card.dataset.sum = sum.toPrecision(8);
  card.dataset.pairs = String(pic.pairs);
  el("picture-learner").textContent = pic.note || `of ${pic.learner}`;
  if (k === 0) return;
  // A model without pairs has nothing to draw in the square: say so.
  const none = el("picture-nopairs");
  none.hidden = pic.pairs;
  el("picture-canvas").hidden = !pic.pairs;
  if (!pic.pairs) {
    const who = pic.note ? `The model drawn, ${pic.note.replace(/^of /, "")},` : pic.learner;
    none.textContent = `${who} has no pairs of features: its C is only a bias row and corner ` +
      "(what each feature adds alone, and the bias), so there is no square of pairs to colour. " +
      "occfm-k, occfm and fm-ftrl learn pairs.";
  }
  const scales = prepared ? prepared.scales : robustScalesOf(pic.cells, k);
  drawHeatmap(el("picture-canvas"), pic.cells, k, scales, prepared && prepared.img);
  el("picture-canvas").setAttribute("aria-label", `heatmap of C, ${k} by ${k}: ${what(pic)}`);
  el("picture-scale").textContent = scales.inner === 0 && scales.border === 0
    ? `${what(pic)}. C = 0: every square is white until the learner's first step.`
    : `${what(pic)}. Colour: red adds to ŷ, blue subtracts; darkest = ±${formatNumber(scales.inner)} ` +
      `for pairs of features${scales.clipped > 0 ? ` (the largest ${pct(scales.clipped)} of them beyond it)` : ""}, ` +
      `±${formatNumber(scales.border)} on the bias row (after the line).`;
  if (!el("picture-hover").dataset.cell) el("picture-hover").textContent = hoverHint();
  drawSpectrum(pic);
}

// pct formats a share as a percentage.
function pct(share) {
  const p = 100 * share;
  return `${p < 1 ? p.toFixed(1) : Math.round(p)} %`;
}

// what says which block of C the picture shows.
function what(pic) {
  const f = pic.labels.length - 1;
  if (pic.whole) return `all ${f} features and the bias`;
  return `the ${f} most frequent features${pic.ordered ? ", ordered by C's leading eigenvector" : ""}, and the bias`;
}

function hoverHint() {
  return "Point at a square to read its entry.";
}

function hover(e) {
  const pic = state.pic;
  if (!pic) return;
  const k = pic.labels.length;
  const c = cellAt(el("picture-canvas"), e, k);
  const out = el("picture-hover");
  if (!c) return;
  const [i, j] = c;
  const v = pic.cells[i * k + j];
  const a = pic.labels[i], b = pic.labels[j];
  let meaning;
  if (i === k - 1 && j === k - 1) meaning = "twice the bias b";
  else if (i === k - 1 || j === k - 1) meaning = `the weight of ${i === k - 1 ? b : a} alone`;
  else if (i === j) meaning = `${a} with itself`;
  else meaning = `half of what ${a} and ${b} add together`;
  out.dataset.cell = `${i},${j}`;
  out.textContent = `C[${a}, ${b}] = ${formatNumber(v)}: ${meaning}.`;
}

// drawSpectrum draws C's eigenvalues as bars (red positive, blue negative)
// and the gauge of ‖C‖* = Σ|λᵢ| against δ.
function drawSpectrum(pic) {
  const canvas = /** @type {HTMLCanvasElement} */ (el("spectrum-canvas"));
  const css = canvas.clientWidth || 300;
  const cssH = canvas.clientHeight || 140;
  const dpr = Math.min(globalThis.devicePixelRatio || 1, 3);
  canvas.width = Math.round(css * dpr);
  canvas.height = Math.round(cssH * dpr);
  const ctx = canvas.getContext("2d");
  if (!ctx) return;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, css, cssH);
  const eig = pic.eig;
  const target = pic.target || [];
  // The text: 12 px, 18 px in presenter mode for the back of a room; the
  // title takes a line above the bars, the gauge's ends one below it.
  const fs = document.documentElement.classList.contains("presenter") ? 18 : 12, line = fs + 2;
  canvas.dataset.font = String(fs);
  const gaugeH = 26, gap = 8, barsH = cssH - gaugeH - gap - line - (fs + 4);
  const top = Math.max(...eig.map(Math.abs), ...target.map(Math.abs), 1e-300);
  const n = Math.max(eig.length, target.length, 12);  // a few eigenvalues: narrow bars all the same
  const w = css / n;
  ctx.font = `${fs}px system-ui, sans-serif`;
  ctx.fillStyle = "#5b6474";
  const zero = !eig.some((v) => v !== 0) && !target.some((v) => v !== 0);
  // The title: the first of its wordings that fits the canvas.
  const titles = zero ? ["no eigenvalues yet: C = 0 before the first step", "C = 0: no eigenvalues yet"]
    : target.length ? ["target −ηG/2 (pale), cut by θ into C (solid)", "target (pale), C (solid)"]
    : [`eigenvalues of C by size (largest ${formatNumber(top)})`, `eigenvalues (largest ${formatNumber(top)})`, "eigenvalues of C"];
  ctx.fillText(titles.find((t) => ctx.measureText(t).width <= css) || titles[titles.length - 1], 0, fs - 1);
  const bar = (v, i, pale) => {
    const h = (Math.abs(v) / top) * barsH;
    ctx.fillStyle = v >= 0 ? (pale ? "#fecaca" : "#dc2626") : (pale ? "#bfdbfe" : "#2563eb");
    ctx.fillRect(i * w + 1, line + barsH - h, Math.max(w - 2, 1), h);
  };
  if (target.length) {
    // occfm-k: each eigenvalue of the target moves θ towards 0 (soft
    // threshold); those within θ of 0 vanish. The solid part is C's.
    target.forEach((v, i) => {
      bar(v, i, true);
      if (Math.abs(v) > pic.theta) bar(v - Math.sign(v) * pic.theta, i, false);
    });
    const ty = line + barsH - (pic.theta / top) * barsH;
    ctx.strokeStyle = "#0f172a";
    ctx.setLineDash([4, 3]);
    ctx.beginPath();
    ctx.moveTo(0, ty + 0.5);
    ctx.lineTo(css, ty + 0.5);
    ctx.stroke();
    ctx.setLineDash([]);
    const label = `θ = ${formatNumber(pic.theta)}`, ly = Math.max(ty - 3, 2 * line - 4), lw = ctx.measureText(label).width;
    ctx.fillStyle = "rgba(255, 255, 255, 0.9)";  // over the bars it names
    ctx.fillRect(css - lw - 4, ly - fs, lw + 4, line);
    ctx.fillStyle = "#0f172a";
    ctx.textAlign = "right";
    ctx.fillText(label, css, ly);
    ctx.textAlign = "left";
  } else {
    eig.forEach((v, i) => bar(v, i, false));
  }
  // The gauge: the ball's budget δ as the full width, each |λᵢ| a segment.
  const gy = line + barsH + gap;
  const total = pic.delta > 0 ? Math.max(pic.delta, pic.nuclear) : pic.nuclear || 1;
  ctx.fillStyle = "#e2e8f0";
  ctx.fillRect(0, gy, css, gaugeH);
  let x = 0;
  eig.forEach((v, i) => {
    const sw = (Math.abs(v) / total) * css;
    ctx.fillStyle = v >= 0 ? (i % 2 ? "#f87171" : "#dc2626") : (i % 2 ? "#60a5fa" : "#2563eb");
    ctx.fillRect(x, gy, sw, gaugeH);
    x += sw;
  });
  ctx.strokeStyle = "#0f172a";
  ctx.lineWidth = 1;
  ctx.strokeRect(0.5, gy + 0.5, css - 1, gaugeH - 1);
  ctx.fillStyle = "#5b6474";
  ctx.textBaseline = "top";
  ctx.fillText("0", 0, gy + gaugeH + 3);
  const end = pic.delta > 0 ? `δ = ${formatNumber(pic.delta)}` : `‖C‖* = ${formatNumber(pic.nuclear)}`;
  ctx.textAlign = "right";
  ctx.fillText(end, css, gy + gaugeH + 3);
  ctx.textAlign = "left";
  ctx.textBaseline = "alphabetic";
  const cap = el("spectrum-caption");
  const card = el("spectrum");
  card.dataset.nuclear = String(pic.nuclear);
  card.dataset.delta = String(pic.delta);
  card.dataset.rank = String(pic.rank);
  card.dataset.theta = String(pic.theta || 0);
  card.dataset.targets = String(target.length);
  const of = pic.blockEig ? " (of the block drawn: this learner's C is only known through its predictions)" : "";
  if (pic.delta > 0) {
    const pct = (100 * pic.nuclear) / pic.delta;
    cap.textContent = `Budget: ‖C‖* = Σ|λ| = ${formatNumber(pic.nuclear)} of δ = ${formatNumber(pic.delta)} ` +
      `(${pct.toFixed(pct >= 99.95 ? 0 : 1)} % used) by ${pic.rank} eigenvalue${pic.rank === 1 ? "" : "s"}${of}. ` +
      "The bar is the ball K: C can never leave it." + largest(eig) + thresholdText(pic);
  } else {
    cap.textContent = `‖C‖* = Σ|λ| = ${formatNumber(pic.nuclear)}, rank ${pic.rank}${of}. ` +
      `${pic.learner} has no budget δ: nothing bounds C.` + largest(eig);
  }
}

// largest lists C's largest eigenvalues (at most 6).
function largest(eig) {
  if (!eig.length) return "";
  const shown = eig.slice(0, 6).map(formatNumber).join(", ");
  return ` Largest eigenvalues: ${shown}${eig.length > 6 ? ", …" : ""}.`;
}

// thresholdText explains occfm-k's soft threshold.
function thresholdText(pic) {
  const target = pic.target || [];
  if (!target.length) return "";
  const bars = pic.targets > target.length ? `largest ${target.length} of the ${pic.targets}` : `${target.length}`;
  const head = ` occfm-k keeps C at Π_K(−ηG/2), the best C for every row so far: the pale bars are the ${bars} ` +
    "eigenvalues of −ηG/2 in its tracked subspace";
  if (!(pic.theta > 0)) return `${head}; their Σ|λ| is within δ, so θ = 0 and C is the target itself.`;
  const cut = target.filter((v) => Math.abs(v) <= pic.theta).length;
  return `${head}; each moves θ = ${formatNumber(pic.theta)} towards 0, so that Σ|λ| fits δ ` +
    `(${cut} of those drawn vanish), and what is left, solid, is C's.`;
}

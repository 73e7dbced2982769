// Heatmaps of a symmetric matrix C over x̂ = [x; 1]: the features first,
// the bias coordinate last (the paper's C = [[Z, w], [wᵀ, 2b]]). Colour
// is linear in the entry: red positive, blue negative, white zero, full
// strength at ±scale. The bias row and column (w and 2b) have their own
// scale, since b and w are often far larger than the interactions Z, and
// are set off by a line. cellColor and scalesOf are pure (ui/test).

const POS = [220, 38, 38];    // #dc2626
const NEG = [37, 99, 235];    // #2563eb
const ZERO = [255, 255, 255];

// cellColor returns [r, g, b] for v on a scale of ±scale (clipped).
export function cellColor(v, scale) {
  if (!(scale > 0) || !Number.isFinite(v) || v === 0) return ZERO;
  const t = Math.min(Math.abs(v) / scale, 1);
  const end = v > 0 ? POS : NEG;
  return [0, 1, 2].map((c) => Math.round(ZERO[c] + (end[c] - ZERO[c]) * t));
}

// scalesOf returns {inner, border}: the largest |entry| off the last row
// and column of the k×k cells, and on them.
export function scalesOf(cells, k) {
  let inner = 0, border = 0;
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < k; j++) {
      const v = Math.abs(cells[i * k + j]);
      if (!Number.isFinite(v)) continue;
      if (i === k - 1 || j === k - 1) border = Math.max(border, v);
      else inner = Math.max(inner, v);
    }
  }
  return {inner, border};
}

// BINS is the resolution of robustScalesOf's histogram.
const BINS = 4096;

// robustScalesOf is scalesOf with the inner scale at the q-quantile of the
// nonzero |entries| off the bias row and column (to 1/BINS of the largest),
// so that a few large pairs do not leave the others white: entries beyond
// it are drawn at full colour. O(k²), no sort.
export function robustScalesOf(cells, k, q = 0.98) {
  const {inner, border} = scalesOf(cells, k);
  if (!(inner > 0)) return {inner, border, clipped: 0};
  const hist = new Uint32Array(BINS);
  let n = 0;
  for (let i = 0; i < k - 1; i++) {
    for (let j = 0; j < k - 1; j++) {
      const v = Math.abs(cells[i * k + j]);
      if (v > 0 && Number.isFinite(v)) {
        hist[Math.min(BINS - 1, Math.floor((v / inner) * BINS))]++;
        n++;
      }
    }
  }
  let seen = 0, b = 0;
  for (; b < BINS && seen + hist[b] < q * n; b++) seen += hist[b];
  const at = Math.min(inner, ((b + 1) / BINS) * inner);
  let over = 0;
  for (let c = b + 1; c < BINS; c++) over += hist[c];
  return {inner: at, border, clipped: n ? over / n : 0};
}

// fillColors writes the k×k cells' colours (cellColor's, row-major RGBA)
// into data, rows from to to (all by default), without an allocation per
// cell: the ratings demo's C has
// 641,601 of them, and a fresh array each made the picture's frame last
// 150–230 ms on a busy 2-core machine.
export function fillColors(data, cells, k, scales, from = 0, to = k) {
  for (let i = from; i < to; i++) {
    for (let j = 0; j < k; j++) {
      const scale = i === k - 1 || j === k - 1 ? scales.border : scales.inner;
      const v = cells[i * k + j];
      const o = 4 * (i * k + j);
      data[o + 3] = 255;
      if (!(scale > 0) || !Number.isFinite(v) || v === 0) {
        data[o] = data[o + 1] = data[o + 2] = 255;
        continue;
      }
      const t = Math.min(Math.abs(v) / scale, 1);
      const end = v > 0 ? POS : NEG;
      data[o] = Math.round(255 + (end[0] - 255) * t);
      data[o + 1] = Math.round(255 + (end[1] - 255) * t);
      data[o + 2] = Math.round(255 + (end[2] - 255) * t);
    }
  }
}

// drawHeatmap draws the k×k cells on canvas at its CSS size (square),
// with the given scales ({inner, border}; default: scalesOf the cells), or
// the colours img already holds (a k×k ImageData filled by fillColors).
export function drawHeatmap(canvas, cells, k, scales = scalesOf(cells, k), img = null) {
  const css = canvas.clientWidth || canvas.width;
  const dpr = Math.min(globalThis.devicePixelRatio || 1, 3);
  const px = Math.max(1, Math.round(css * dpr));
  if (canvas.width !== px || canvas.height !== px) {
    canvas.width = px;
    canvas.height = px;
  }
  const ctx = canvas.getContext("2d");
  if (!ctx || k === 0) return;
  if (!img) {
    img = new ImageData(k, k);
    fillColors(img.data, cells, k, scales);
  }
  const tile = document.createElement("canvas");
  tile.width = k;
  tile.height = k;
  tile.getContext("2d").putImageData(img, 0, 0);
  // Sharp cells while each has at least a pixel; averaged when C has more
  // rows than the canvas has pixels. The bias row and column keep a strip
  // of their own at least BORDER_PX wide, so that they show on the ratings
  // demo's 801 × 801 too.
  ctx.imageSmoothingEnabled = px < k;
  ctx.clearRect(0, 0, px, px);
  const at = innerSize(px, k, BORDER_PX * dpr);
  const bw = px - at, f = k - 1;
  if (f > 0) {
    ctx.drawImage(tile, 0, 0, f, f, 0, 0, at, at);
    ctx.drawImage(tile, f, 0, 1, f, at, 0, bw, at);
    ctx.drawImage(tile, 0, f, f, 1, 0, at, at, bw);
  }
  ctx.drawImage(tile, f, f, 1, 1, at, at, bw, bw);
  ctx.strokeStyle = "#0f172a";
  ctx.lineWidth = Math.max(1, dpr);
  ctx.beginPath();
  ctx.moveTo(at, 0);
  ctx.lineTo(at, px);
  ctx.moveTo(0, at);
  ctx.lineTo(px, at);
  ctx.stroke();
  ctx.strokeRect(0, 0, px, px);
}

// BORDER_PX is the least width, in CSS pixels, of the bias row and column.
const BORDER_PX = 6;

// innerSize returns where the bias row and column start in a heatmap of
// size pixels and k rows: after the k − 1 feature rows, or earlier, so
// that the bias strip is at least minBorder wide. Pure (tested by
// node:test).
export function innerSize(size, k, minBorder) {
  if (k <= 1) return 0;
  return size - Math.max(size / k, Math.min(minBorder, size / 2));
}

// cellAt returns [i, j], the cell of a k×k heatmap under the pointer event
// on canvas, or null outside it.
export function cellAt(canvas, event, k) {
  const r = canvas.getBoundingClientRect();
  const at = innerSize(r.width, k, BORDER_PX);
  const index = (d) => (d < 0 || d >= r.width ? -1 : d >= at ? k - 1 : Math.min(k - 2, Math.floor((d / at) * (k - 1))));
  const i = index(event.clientY - r.top), j = index(event.clientX - r.left);
  return i >= 0 && j >= 0 ? [i, j] : null;
}

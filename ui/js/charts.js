// The chart classes over uPlot (a global, from uPlot.iife.min.js):
// LineChart (one series per learner over a shared x) and RegretChart (the
// certified regret bands). A chart is told its data and when it may redraw
// (its interval function); it reads no page state.

import {CHART_INTERVAL_MS, CHART_POINTS} from "./config.js";
import {finite, formatNumber} from "./format.js";
import {colorOf} from "./palette.js";

// chartAxis returns a fresh uPlot axis style shared by every chart.
export function chartAxis() {
  return {
    font: "14px system-ui, sans-serif", labelFont: "600 14px system-ui, sans-serif",
    stroke: "#334155", grid: {stroke: "#e2e8f0", width: 1}, ticks: {stroke: "#cbd5e1"},
  };
}

// yAxisSize is a y axis's width from its widest tick label as drawn, so that
// the axis title never overlaps the labels ("10,000,000" needs more room
// than "0.5"). uPlot calls it until the sizes settle; from the third call on
// it keeps the last size.
function yAxisSize(u, values, i, cycle) {
  const axis = u.axes[i];
  if (cycle > 1) return axis._size;
  let widest = 0;
  if (values && values.length) {
    u.ctx.font = axis.font[0];
    for (const v of values) widest = Math.max(widest, u.ctx.measureText(String(v)).width);
    widest /= devicePixelRatio || 1;
  }
  return Math.ceil(widest + (axis.ticks && axis.ticks.size || 10) + (axis.gap || 5) + 6);
}

// chartHeight is a chart's height: h, or three quarters of it on a phone,
// where a chart and the numbers share the first screen; in presenter mode
// on a wide screen (one chart at a time, on a projector), the window's
// height less the room of the bars above it and of the chart's legend (540
// px: measured at 1920×1080, where the chart then ends at about 1,050 px),
// and less the speed warning's room while it shows, so that the room sees
// it on a tall screen and it still fits a short one.
function chartHeight(h) {
  if (matchMedia("(max-width: 600px)").matches) return Math.round(0.75 * h);
  if (document.documentElement.classList.contains("presenter") && matchMedia("(min-width: 901px)").matches) {
    const warning = document.getElementById("speed-warning");
    const extra = warning && !warning.hidden ? warning.offsetHeight + 16 : 0;
    return Math.max(h, innerHeight - 540 - extra);
  }
  return h;
}

// chartSummary puts a chart's text alternative right after its element: the
// canvas is a picture, the summary says what it shows (screen readers read
// it; it is visually hidden).
function chartSummary(el) {
  el.setAttribute("aria-hidden", "true");
  const p = document.createElement("p");
  p.className = "visually-hidden chart-summary";
  p.dataset.testid = `${el.dataset.testid || el.id}-summary`;
  el.after(p);
  return p;
}

// ---- LineChart --------------------------------------------------------------

// A LineChart is one uPlot chart with one series per learner over a shared x.
// addPoints appends; the chart keeps at most maxPoints points by dropping
// every other one (thinColumns), and redraws at most every interval() ms in
// flush.
export class LineChart {
  constructor(el, {xLabel, yLabel, xFormat = formatNumber, maxPoints = CHART_POINTS, height = 260, colors = null, dash = [],
    interval = () => CHART_INTERVAL_MS, logX = false}) {
    this.el = el;
    this.logX = logX;  // x on a log scale (x > 0: rows)
    this.interval = interval;
    this.colors = colors;  // series i is drawn in colors[i] (default: its learner's colour), dashed by dash[i] if set
    this.dash = dash;
    this.xLabel = xLabel;
    this.yLabel = yLabel;
    this.xFormat = xFormat;
    this.maxPoints = maxPoints;
    this.height = height;
    this.names = [];
    this.data = [[]];
    this.refs = [];  // reference lines: [{value, label}]
    this.ghosts = [];  // earlier runs: [{name, label, x, y}] (ghosts.js), faded
    this.plot = null;
    this.dirty = false;
    this.lastDraw = -Infinity;
    this.summary = chartSummary(el);
    new ResizeObserver(() => this.plot?.setSize(this.size())).observe(el);
    addEventListener("resize", () => this.plot?.setSize(this.size()));  // the height can follow the window's
  }

  size() {
    return {width: Math.max(240, this.el.clientWidth), height: chartHeight(this.height)};
  }

  // describe writes the chart's text alternative: each series' last value
  // and where it is.
  describe() {
    const x = this.data[0];
    if (!x.length) {
      this.summary.textContent = `${this.yLabel} vs ${this.xLabel}: no points yet.`;
      return;
    }
    const parts = this.names.map((name, i) => {
      const col = this.data[i + 1];
      let j = col.length - 1;
      while (j >= 0 && col[j] == null) j--;
      return j < 0 ? `${name}: no value yet` : `${name} ${formatNumber(col[j])} at ${this.xFormat(x[j])}`;
    });
    const earlier = this.ghosts.map((g) => `${g.label} ended at ${formatNumber(g.y[g.y.length - 1])} at ${this.xFormat(g.x[g.x.length - 1])}`);
    this.summary.textContent = `${this.yLabel} vs ${this.xLabel}, ${x.length} points: ${parts.join("; ")}.` +
      (earlier.length ? ` Earlier runs, faded: ${earlier.join("; ")}.` : "");
  }

  // reset empties the chart and gives it one series per name.
  reset(names, yLabel = this.yLabel) {
    this.names = names;
    this.yLabel = yLabel;
    this.setData([[], ...names.map(() => [])]);
    this.build();
  }

  // setLogX puts x on a log scale or back (the plot is rebuilt).
  setLogX(logX) {
    if (logX === this.logX) return;
    this.logX = logX;
    this.build();
  }

  // setLabel changes the y-axis label (uPlot draws it, so the plot is rebuilt).
  setLabel(yLabel) {
    if (yLabel === this.yLabel) return;
    this.yLabel = yLabel;
    this.build();
  }

  // addPoints appends rows [x, y₁, y₂, …]; missing values become gaps.
  addPoints(rows) {
    for (const row of rows) {
      for (let i = 0; i < this.data.length; i++) {
        const v = row[i];
        this.data[i].push(typeof v === "number" && Number.isFinite(v) ? v : null);
      }
    }
    while (this.data[0].length > this.maxPoints) this.thin();
    this.dirty = true;
  }

  // thin drops every other point, keeping the first and the last.
  thin() {
    this.data = thinColumns(this.data);
    this.dirty = true;
  }

  setData(data) {
    this.data = data;
    this.dirty = true;
  }

  // setGhosts sets the earlier runs drawn faded under the live curves.
  setGhosts(ghosts) {
    this.ghosts = ghosts;
    this.el.dataset.ghosts = ghosts.map((g) => g.label).join(";");
    if (this.plot) this.plot.redraw(true, false);
    this.dirty = true;
  }

  // drawGhosts is uPlot's draw hook: each earlier run as a faded curve in
  // its learner's colour, each with a dash of its own, labelled at its end;
  // the labels are spread apart so that none covers another or a
  // reference line's.
  drawGhosts(u) {
    if (!this.ghosts.length) return;
    const {ctx} = u;
    const {left, top, width, height} = u.bbox;
    const dpr = devicePixelRatio || 1;
    ctx.save();
    ctx.beginPath();
    ctx.rect(left, top, width, height);
    ctx.clip();
    const labels = [];
    this.ghosts.forEach((g, k) => {
      const color = colorOf(g.name);
      ctx.strokeStyle = color + "8c";
      ctx.lineWidth = 2 * dpr;
      ctx.setLineDash(GHOST_DASHES[k % GHOST_DASHES.length].map((d) => d * dpr));
      ctx.beginPath();
      let end = null;
      g.x.forEach((x, i) => {
        const px = u.valToPos(x, "x", true), py = u.valToPos(g.y[i], "y", true);
        if (!Number.isFinite(px) || !Number.isFinite(py)) return;
        if (end) ctx.lineTo(px, py);
        else ctx.moveTo(px, py);
        end = [px, py];
      });
      ctx.stroke();
      if (end) labels.push({text: g.label, color, x: end[0], y: end[1] - 4 * dpr});
    });
    const fixed = this.refs.map((r) => u.valToPos(r.value, "y", true) - 3 * dpr);
    const ys = spreadLabels(labels.map((l) => l.y), fixed, 15 * dpr, top + 12 * dpr, top + height - 2 * dpr);
    ctx.setLineDash([]);
    ctx.font = `${Math.round(12 * dpr)}px system-ui, sans-serif`;
    ctx.textBaseline = "bottom";
    labels.forEach((l, i) => {
      const right = l.x > left + width - 170 * dpr;
      ctx.textAlign = right ? "right" : "left";
      const x = l.x + (right ? -4 : 4) * dpr;
      const w = ctx.measureText(l.text).width;
      ctx.fillStyle = "rgba(255, 255, 255, 0.8)";
      ctx.fillRect(right ? x - w - 2 * dpr : x - 2 * dpr, ys[i] - 13 * dpr, w + 4 * dpr, 14 * dpr);
      ctx.fillStyle = l.color;
      ctx.fillText(l.text, x, ys[i]);
    });
    ctx.restore();
  }

  // setReferences sets the chart's reference lines, [{value, label}]:
  // dashed horizontal lines of what is known to be achievable (a demo's
  // true model) or what a constant guess scores, so that a class sees at
  // once what "good" is. The y range always takes them in.
  setReferences(refs) {
    const clean = refs.filter((r) => finite(r.value));
    if (sameRefs(clean, this.refs)) return;
    this.refs = clean;
    this.el.dataset.refs = clean.map((r) => `${r.label}=${r.value}`).join(";");
    if (this.plot) this.plot.redraw(true, false);
    this.dirty = true;
  }

  // drawRefs is uPlot's draw hook: each reference line, labelled at the
  // right end.
  drawRefs(u) {
    const {ctx} = u;
    const {left, top, width, height} = u.bbox;
    const dpr = devicePixelRatio || 1;
    ctx.save();
    ctx.font = `${Math.round(12 * dpr)}px system-ui, sans-serif`;
    ctx.textAlign = "right";
    ctx.textBaseline = "bottom";
    let prev = -Infinity;
    const lines = this.refs.map((r) => ({r, y: u.valToPos(r.value, "y", true)})).sort((a, b) => a.y - b.y);
    for (const {r, y} of lines) {
      if (!(y >= top - 1 && y <= top + height + 1)) continue;
      // A label too close to the one above goes under its line.
      const below = y - prev < 16 * dpr;
      prev = y;
      ctx.strokeStyle = "#334155";
      ctx.lineWidth = 1.5 * dpr;
      ctx.setLineDash([8 * dpr, 5 * dpr]);
      ctx.beginPath();
      ctx.moveTo(left, y);
      ctx.lineTo(left + width, y);
      ctx.stroke();
      ctx.fillStyle = "#334155";
      ctx.textBaseline = below ? "top" : "bottom";
      ctx.fillText(`${r.label}: ${formatNumber(r.value)}`, left + width - 4 * dpr, below ? y + 3 * dpr : y - 3 * dpr);
    }
    ctx.restore();
  }

  // flush redraws when there is something new and the last redraw is at
  // least interval() old (or force is set).
  flush(now, force = false) {
    if (!this.plot || !this.dirty || (!force && now - this.lastDraw < this.interval())) return;
    this.plot.setData(this.data);
    showLatest(this.plot);
    this.describe();
    this.dirty = false;
    this.lastDraw = now;
  }

  build() {
    this.plot?.destroy();
    const axis = chartAxis();
    this.plot = new uPlot({
      ...this.size(),
      scales: {
        x: this.logX
          ? {time: false, distr: 3, range: (u, min, max) => (min == null ? [1, 10] : min < max ? [min, max] : [min / 2, max * 2])}
          : {time: false},
        y: {range: (u, min, max) => refRange(...withGhosts(min, lateMax(this.data) ?? max, this.ghosts), this.refs)},
      },
      hooks: {draw: [(u) => this.drawGhosts(u), (u) => this.drawRefs(u)]},
      cursor: {drag: {x: false, y: false}},
      series: [
        {label: this.xLabel, value: (u, v) => (v == null ? "–" : this.xFormat(v))},
        ...this.names.map((name, i) => ({
          label: name,
          stroke: this.colors ? this.colors[i % this.colors.length] : colorOf(name),
          width: 2,
          ...(this.dash[i] ? {dash: this.dash[i]} : {}),
          points: {show: false},
          value: (u, v) => (v == null ? "–" : v.toFixed(4)),
        })),
      ],
      axes: [
        {...axis, label: this.logX ? `${this.xLabel} (log scale)` : this.xLabel, labelSize: 24},
        {...axis, label: this.yLabel, labelSize: 24, size: yAxisSize},
      ],
    }, this.data, this.el);
    this.dirty = false;
    this.lastDraw = -Infinity;
  }
}


// showLatest sets the legend to the last point while the cursor is off the
// chart, so that it reads the latest values, not "–" (the cursor, over the
// chart, shows the values under it).
function showLatest(u) {
  const n = u.data[0]?.length ?? 0;
  if (n > 0 && u.cursor.idx == null) u.setLegend({idx: n - 1}, false);
}

// lateMax returns the largest value of the series after their first tenth
// (and first 5 points), or null: the y range follows it, so that the first
// rows' large errors do not flatten the curves a class is watching (they
// run off the top of the chart instead). Pure (tested by node:test).
export function lateMax(cols) {
  const n = cols.length ? cols[0].length : 0;
  const from = Math.max(5, Math.floor(n / 10));
  let hi = null;
  for (let c = 1; c < cols.length; c++) {
    for (let i = from; i < n; i++) {
      const v = cols[c][i];
      if (v != null && Number.isFinite(v) && (hi == null || v > hi)) hi = v;
    }
  }
  return hi;
}

// GHOST_DASHES are the earlier runs' dashes, one per run in turn.
const GHOST_DASHES = [[6, 4], [2, 3], [10, 3, 2, 3], [1, 5]];

// spreadLabels returns label baselines near ys, at least gap apart from one
// another and from the baselines in fixed (other labels), within [lo, hi]:
// each label, from the top down, moves down past what it would cover (or
// up when that runs past hi). Pure (tested by node:test).
export function spreadLabels(ys, fixed, gap, lo, hi) {
  const order = ys.map((y, i) => i).sort((a, b) => ys[a] - ys[b]);
  const taken = [...fixed];
  const out = new Array(ys.length);
  for (const i of order) {
    let y = Math.min(Math.max(ys[i], lo), hi);
    const clash = (v) => taken.some((t) => Math.abs(t - v) < gap);
    let down = y;
    while (clash(down) && down <= hi) down += 1;
    if (down <= hi) y = down;
    else {
      let up = y;
      while (clash(up) && up >= lo) up -= 1;
      y = up >= lo ? up : y;
    }
    out[i] = y;
    taken.push(y);
  }
  return out;
}

// withGhosts widens [min, max] to the earlier runs' values after their first
// tenth (as lateMax), so that their curves stay on the chart. Pure.
export function withGhosts(min, max, ghosts) {
  for (const g of ghosts) {
    const hi = lateMax([g.x, g.y]);
    if (hi != null) max = max == null ? hi : Math.max(max, hi);
    for (const v of g.y.slice(Math.max(5, Math.floor(g.y.length / 10)))) if (Number.isFinite(v)) min = min == null ? v : Math.min(min, v);
  }
  return [min, max];
}

// sameRefs reports whether two lists of reference lines are equal.
function sameRefs(a, b) {
  return a.length === b.length && a.every((r, i) => r.value === b[i].value && r.label === b[i].label);
}

// refRange returns a y range [lo, hi] holding the data's [min, max] and
// every reference line, with 5 % of room above and below (never below 0
// when nothing is negative). Pure (tested by node:test).
export function refRange(min, max, refs) {
  let lo = min, hi = max;
  for (const r of refs) {
    lo = lo == null ? r.value : Math.min(lo, r.value);
    hi = hi == null ? r.value : Math.max(hi, r.value);
  }
  if (lo == null || hi == null) return [0, 1];
  if (lo === hi) return lo === 0 ? [0, 1] : [lo - Math.abs(lo) / 2, hi + Math.abs(hi) / 2];
  const pad = 0.05 * (hi - lo);
  return [lo >= 0 && lo - pad < 0 ? 0 : lo - pad, hi + pad];
}

// thinColumns returns the columns with every other point dropped, the first
// and the last kept: at most ⌈n/2⌉ + 1 of n points. Pure (tested by
// node:test).
export function thinColumns(cols) {
  const n = cols.length ? cols[0].length : 0;
  return cols.map((col) => col.filter((_, i) => i % 2 === 0 || i === n - 1));
}

// ---- RegretChart ------------------------------------------------------------

// A RegretChart draws the regret checkpoints: x = T, and per learner the
// certified band [lo, hi] (shaded), its middle (a line), then the Theorem 3
// bound (dashed gray). rows are the snapshot's regret points, kept raw so
// that the two toggles (log–log, regret / T) only change how they are drawn.
// In linear mode the y range follows the learners alone: the bound is far
// above them and would flatten every curve; log–log shows it whole.
export const REGRET_FIXED = 5;  // T, comparator loss, gap, bound, G; then cum, lo, hi per learner

export class RegretChart {
  constructor(el, {interval = () => CHART_INTERVAL_MS} = {}) {
    this.el = el;
    this.interval = interval;
    this.height = 300;
    this.names = [];
    this.rows = [];
    this.logLog = true;
    this.perT = false;
    this.withNeg = false;  // log–log only: each learner's −regret where it is negative
    this.plot = null;
    this.dirty = false;
    this.lastDraw = -Infinity;
    this.summary = chartSummary(el);
    this.summary.textContent = "Regret checkpoints: the numbers are in the readout under this chart.";
    new ResizeObserver(() => this.plot?.setSize(this.size())).observe(el);
    addEventListener("resize", () => this.plot?.setSize(this.size()));  // the height can follow the window's
  }

  size() {
    return {width: Math.max(240, this.el.clientWidth), height: chartHeight(this.height)};
  }

  reset(names) {
    this.names = names;
    this.rows = [];
    this.withNeg = false;
    this.build();
  }

  addPoints(rows) {
    for (const r of rows) this.rows.push(r);
    this.dirty = true;
  }

  setMode({logLog = this.logLog, perT = this.perT}) {
    if (logLog === this.logLog && perT === this.perT) return;
    this.logLog = logLog;
    this.perT = perT;
    this.build();
  }

  // value turns a raw regret figure at T into what is drawn: divided by T
  // for regret / T, and nothing (a gap) where a log scale cannot go.
  value(v, t) {
    if (!finite(v)) return null;
    const y = this.perT ? v / t : v;
    return this.logLog && !(y > 0) ? null : y;
  }

  // mid returns learner i's regret at row r, the middle of its band.
  mid(r, i) {
    const lo = r[REGRET_FIXED + 3 * i + 1], hi = r[REGRET_FIXED + 3 * i + 2];
    return finite(lo) && finite(hi) ? (lo + hi) / 2 : NaN;
  }

  // negative reports whether a learner's regret is below 0 at a checkpoint:
  // a log scale cannot show it, so log–log draws −regret, dotted.
  negative() {
    return this.rows.some((r) => this.names.some((_, i) => this.mid(r, i) < 0));
  }

  // data: [T, (hi, lo, mid) per learner, bound, and with withNeg −mid per
  // learner where the regret is negative].
  data() {
    const neg = this.logLog && this.withNeg ? this.names.length : 0;
    const cols = [[], ...this.names.flatMap(() => [[], [], []]), [], ...Array.from({length: neg}, () => [])];
    const at = 2 + 3 * this.names.length;
    for (const r of this.rows) {
      const t = r[0];
      cols[0].push(t);
      this.names.forEach((_, i) => {
        const lo = r[REGRET_FIXED + 3 * i + 1];
        const hi = r[REGRET_FIXED + 3 * i + 2];
        cols[1 + 3 * i].push(this.value(hi, t));
        cols[2 + 3 * i].push(this.value(lo, t));
        cols[3 + 3 * i].push(this.value(finite(lo) && finite(hi) ? (lo + hi) / 2 : NaN, t));
      });
      cols[at - 1].push(this.value(r[3], t));
      for (let i = 0; i < neg; i++) {
        const m = this.mid(r, i);
        cols[at + i].push(m < 0 ? this.value(-m, t) : null);
      }
    }
    return cols;
  }

  // yRange in linear mode: the learners' bands and 0, not the bound.
  yRange(u) {
    let min = 0;
    let max = 0;
    for (let s = 1; s < u.data.length - 1; s++) {
      for (const v of u.data[s]) {
        if (v == null) continue;
        if (v < min) min = v;
        if (v > max) max = v;
      }
    }
    if (min === max) max = min + 1;
    return uPlot.rangeNum(min, max, 0.1, true);
  }

  flush(now, force = false) {
    if (!this.plot || !this.dirty || (!force && now - this.lastDraw < this.interval())) return;
    if (this.logLog && !this.withNeg && this.negative()) {
      this.withNeg = true;
      this.build();
    }
    this.plot.setData(this.data());
    showLatest(this.plot);
    this.dirty = false;
    this.lastDraw = now;
  }

  build() {
    this.plot?.destroy();
    const axis = chartAxis();
    const fmt = (u, v) => (v == null ? "–" : formatNumber(v));
    const series = [{label: "T (rows)", value: fmt}];
    const bands = [];
    this.names.forEach((name, i) => {
      const color = colorOf(name);
      series.push(
        {label: `${name} hi`, stroke: color + "55", width: 1, points: {show: false}, value: fmt},
        {label: `${name} lo`, stroke: color + "55", width: 1, points: {show: false}, value: fmt},
        {label: name, stroke: color, width: 2, points: {show: true, size: 5}, value: fmt},
      );
      bands.push({series: [1 + 3 * i, 2 + 3 * i], fill: color + "2e"});
    });
    series.push({label: "Theorem 3 bound", stroke: "#64748b", width: 2, dash: [6, 5], points: {show: false}, value: fmt});
    if (this.logLog && this.withNeg) {
      for (const name of this.names) {
        series.push({label: `${name}: −regret (below 0)`, stroke: colorOf(name), width: 2, dash: [2, 4],
          points: {show: true, size: 5}, value: fmt});
      }
    }
    const yLabel = this.perT ? "regret / T" : "regret";
    const scales = {x: {time: false}, y: {}};
    if (this.logLog) {
      scales.x.distr = 3;
      scales.x.range = (u, min, max) => (min == null ? [1, 10] : min < max ? [min, max] : [min / 2, max * 2]);
      scales.y.distr = 3;
    } else {
      scales.y.range = (u) => this.yRange(u);
    }
    this.plot = new uPlot({
      ...this.size(),
      scales,
      bands,
      cursor: {drag: {x: false, y: false}},
      // A chart built with data (a toggle, the first negative regret) shows
      // its latest values once uPlot has drawn it: earlier, its first draw
      // would clear them.
      hooks: {ready: [showLatest]},
      series,
      axes: [
        {...axis, label: this.logLog ? "T (rows, log scale)" : "T (rows)", labelSize: 24},
        {...axis, label: this.logLog ? `${yLabel} (log scale)` : yLabel, labelSize: 24, size: yAxisSize},
      ],
    }, this.data(), this.el);
    // The band edges stay out of the legend: the middle line names the learner.
    const rows = this.plot.root.querySelectorAll(".u-legend .u-series");
    this.names.forEach((_, i) => {
      for (const s of [1 + 3 * i, 2 + 3 * i]) if (rows[s]) rows[s].hidden = true;
    });
    this.dirty = false;
    this.lastDraw = -Infinity;
  }
}

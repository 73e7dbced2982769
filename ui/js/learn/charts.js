// LineChart over uPlot (a global, from uPlot.iife.min.js): one series per
// learner over a shared x; and what every chart shares (RegretChart's too,
// regret-chart.js): the axes' style and width, the height, the text
// alternative and the legend's latest values. A chart is told its data and
// when it may redraw (its interval function); it reads no page state.

import {CHART_INTERVAL_MS, CHART_POINTS} from "../shared/config.js";
import {finite, formatNumber} from "../shared/format.js";
import {colorOf} from "./palette.js";

// presenting reports whether the page is in presenter mode (presenter.js).
export function presenting() {
  return document.documentElement.classList.contains("presenter");
}

// chartAxis returns a fresh uPlot axis style shared by every chart.
export function chartAxis() {
  const px = presenting() ? 20 : 14;  // for the back of a room
  return {
    font: `${px}px system-ui, sans-serif`, labelFont: `600 ${px}px system-ui, sans-serif`,
    stroke: "#334155", grid: {stroke: "#e2e8f0", width: 1}, ticks: {stroke: "#cbd5e1"},
  };
}

// yAxisSize is a y axis's width from its widest tick label as drawn, so that
// the axis title never overlaps the labels ("10,000,000" needs more room
// than "0.5"). uPlot calls it until the sizes settle; from the third call on
// it keeps the last size.
export function yAxisSize(u, values, i, cycle) {
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

// tickLabels returns an x axis' values hook: each tick's label as uPlot
// writes it ("1,000"; on a log axis only the powers of 10), less those that
// would come within 8 px of the last label kept, so that labels never touch
// ("1,00010,000" on a narrow projected chart).
export function tickLabels(log) {
  return (u, splits, i) => {
    u.ctx.font = u.axes[i].font[0];
    const dpr = devicePixelRatio || 1;
    let last = -Infinity;
    const boxes = [];  // the labels' extents in CSS px, for tests
    const out = splits.map((v) => {
      if (v == null || (log && Math.abs(Math.log10(v) - Math.round(Math.log10(v))) > 1e-9)) return "";
      const text = v.toLocaleString("en-US");
      const half = u.ctx.measureText(text).width / dpr / 2, x = u.valToPos(v, "x");
      if (x - half < last + 8) return "";
      last = x + half;
      boxes.push([Math.round(x - half), Math.round(x + half)]);
      return text;
    });
    u.root.dataset.xTicks = JSON.stringify(boxes);
    return out;
  };
}

// chartHeight is a chart's height: h, or three quarters of it on a phone,
// where a chart and the numbers share the first screen; in presenter mode
// on a wide screen (one chart at a time, on a projector), the window's
// height below the chart's top (el's) less below, the room under it (its
// legend), and less the speed warning's room while it shows, so that the
// room sees it on a tall screen and it still fits a short one (before the
// chart shows: the window less 540 px, its room at 1920×1080).
export function chartHeight(h, el = null, below = 0) {
  if (matchMedia("(max-width: 600px)").matches) return Math.round(0.75 * h);
  if (document.documentElement.classList.contains("presenter") && matchMedia("(min-width: 901px)").matches) {
    const warning = document.getElementById("speed-warning");
    const extra = warning && !warning.hidden ? warning.offsetHeight + 16 : 0;
    // The chart takes the screen from its top down, less what goes under
    // it (its legend, the card's padding), once it shows.
    const r = el && el.getBoundingClientRect();
    if (r && r.width > 0) return Math.max(h, Math.floor(innerHeight - (r.top + scrollY) - below - 24 - extra));
    return Math.max(h, innerHeight - 540 - extra);
  }
  return h;
}

// chartSummary puts a chart's text alternative right after its element: the
// canvas is a picture, the summary says what it shows (screen readers read
// it; it is visually hidden).
export function chartSummary(el) {
  el.setAttribute("aria-hidden", "true");
  const p = document.createElement("p");
  p.className = "visually-hidden chart-summary";
  p.dataset.testid = `${el.dataset.testid || el.id}-summary`;
  el.after(p);
  return p;
}

// showLatest sets the legend to the last point while the cursor is off the
// chart, so that it reads the latest values, not "–" (the cursor, over the
// chart, shows the values under it).
export function showLatest(u) {
  const n = u.data[0]?.length ?? 0;
  if (n > 0 && u.cursor.idx == null) u.setLegend({idx: n - 1}, false);
}

// ---- LineChart --------------------------------------------------------------

// A LineChart is one uPlot chart with one series per learner over a shared x.
// addPoints appends; the chart keeps at most maxPoints points by dropping
// every other one (thinColumns), and redraws at most every interval() ms in
// flush.
export class LineChart {
  /**
   * @param {HTMLElement} el
   * @param {{xLabel: string, yLabel: string, xFormat?: (v: number) => string, maxPoints?: number, height?: number,
   *   colors?: string[] | null, dash?: (number[] | null)[], interval?: () => number, logX?: boolean}} opts
   */
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
    el.classList.add("line-chart");
    new ResizeObserver(() => this.plot?.setSize(this.size())).observe(el);
    addEventListener("resize", () => this.resized());  // the height can follow the window's
  }

  // resized follows the window: a new size, or a new plot when presenter
  // mode, whose type is larger, turned on or off.
  resized() {
    if (!this.plot) return;
    if (this.built !== presenting()) this.build();
    else this.plot.setSize(this.size());
  }

  size() {
    // Presenter mode hides a line chart's legend: its lines are labelled at
    // their ends.
    return {width: Math.max(240, this.el.clientWidth), height: chartHeight(this.height, this.el, 8)};
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
    this.relabel();
  }

  // relabel redraws the labels, rebuilding the plot when their room right
  // of it must change.
  relabel() {
    if (this.plot && this.gutterWidth() !== this.gutter) this.build();
    else if (this.plot) this.plot.redraw(true, false);
    this.dirty = true;
  }

  // drawGhosts is uPlot's draw hook: each earlier run as a faded curve in
  // its learner's colour, each with a dash of its own (drawLabels labels
  // them).
  drawGhosts(u) {
    if (!this.ghosts.length) return;
    const {ctx} = u;
    const dpr = devicePixelRatio || 1;
    ctx.save();
    clipPlot(u);
    this.ghosts.forEach((g, k) => {
      ctx.strokeStyle = colorOf(g.name) + "8c";
      ctx.lineWidth = 2 * dpr;
      ctx.setLineDash(GHOST_DASHES[k % GHOST_DASHES.length].map((d) => d * dpr));
      ctx.beginPath();
      let started = false;
      g.x.forEach((x, i) => {
        const px = u.valToPos(x, "x", true), py = u.valToPos(g.y[i], "y", true);
        if (!Number.isFinite(px) || !Number.isFinite(py)) return;
        if (started) ctx.lineTo(px, py);
        else ctx.moveTo(px, py);
        started = true;
      });
      ctx.stroke();
    });
    ctx.restore();
  }

  // endLabels returns the label of each line at its last point: the
  // learners' ("fm-ftrl 0.6947") and the earlier runs' ("occfm, δ = 1").
  endLabels(u) {
    const out = [];
    const at = (x, y) => [u.valToPos(x, "x", true), u.valToPos(y, "y", true)];
    this.names.forEach((name, i) => {
      const xs = u.data[0], ys = u.data[i + 1] || [];
      let j = ys.length - 1;
      while (j >= 0 && ys[j] == null) j--;
      if (j < 0) return;
      const [x, y] = at(xs[j], ys[j]);
      // A phone's chart names the line only: its legend, under it, has the
      // value, and the narrow room right of the plot keeps one line each.
      out.push({text: this.phone() ? name : `${name} ${formatNumber(ys[j])}`, color: this.colorAt(i), x, y, bold: true});
    });
    for (const g of this.ghosts) {
      const n = g.x.length - 1;
      const [x, y] = at(g.x[n], g.y[n]);
      out.push({text: g.label, color: colorOf(g.name), x, y, bold: false});
    }
    const {top, height} = u.bbox;
    for (const r of this.refs) {
      const y = u.valToPos(r.value, "y", true);
      if (y >= top - 1 && y <= top + height + 1) {
        // In presenter mode and on a phone without its aside ("best
        // possible", not "best possible (the true model)"): the room is short.
        const label = presenting() || this.phone() ? r.label.replace(/ \(.*\)$/, "") : r.label;
        out.push({text: `${label}: ${formatNumber(r.value)}`, color: "#334155", x: u.bbox.left + u.bbox.width, y, bold: false, ref: true});
      }
    }
    return out.filter((l) => Number.isFinite(l.x) && Number.isFinite(l.y));
  }

  // labelTexts are the line labels endLabels can draw, with room for a
  // value (a reference line's label wraps to the room they leave).
  labelTexts() {
    return [...this.names.map((n) => (this.phone() ? n : `${n} 0.00000`)), ...this.ghosts.map((g) => g.label)];
  }

  // phone reports whether the chart is a phone's: too narrow for labels
  // with values beside the plot (GUTTER_MIN_WIDTH), not in presenter mode.
  phone() {
    return !presenting() && this.el.clientWidth < GUTTER_MIN_WIDTH;
  }

  // gutterWidth is the width of the room right of the plot that holds the
  // labels, in CSS px: the widest label's, at most a quarter of the chart
  // (longer labels wrap), so that the plot keeps 60 % of it beside its y
  // axis; on a phone's chart (under GUTTER_MIN_WIDTH) 30 %, so that no
  // label covers a curve or is cut; 0 only on a chart too narrow to spare
  // any, where the labels go inside the plot.
  gutterWidth() {
    const w = this.el.clientWidth;
    if (w < GUTTER_NONE_WIDTH) return 0;
    const font = `600 ${chartFontPx()}px system-ui, sans-serif`;
    if (w < GUTTER_MIN_WIDTH) return Math.floor(0.3 * w);  // a reference line's label wraps in it
    const widest = Math.max(GUTTER_MIN, ...this.labelTexts().map((t) => textWidth(t, font)));
    return Math.min(Math.ceil(widest + 14), Math.floor(0.25 * w));
  }

  // drawLabels is uPlot's draw hook: endLabels, spread apart so that none
  // covers another: in the gutter right of the plot when it has one (then
  // no label covers a line; a reference line's wraps to it), else inside
  // the plot at the lines' ends.
  drawLabels(u) {
    const labels = this.endLabels(u);
    this.el.dataset.labels = labels.filter((l) => l.bold).map((l) => l.text).join(";");
    this.el.dataset.labelFont = String(chartFontPx());
    if (!labels.length) return;
    const {ctx} = u;
    const {left, top, width, height} = u.bbox;
    const dpr = devicePixelRatio || 1;
    const size = chartFontPx();
    const line = (size + 3) * dpr;
    const gutter = this.gutter > 0;
    ctx.save();
    if (!gutter) clipPlot(u);
    const font = (l) => `${l.bold ? "600 " : ""}${Math.round(size * dpr)}px system-ui, sans-serif`;
    for (const l of labels) {
      ctx.font = font(l);
      l.lines = gutter ? wrapText(l.text, (this.gutter - 10) * dpr, (t) => ctx.measureText(t).width) : [l.text];
    }
    // A label's last line sits on its line's height (a reference line's
    // just above it).
    const base = (l) => l.y + (l.ref ? -3 * dpr : (size / 2 - 1) * dpr);
    const ys = spreadLabels(labels.map(base), [], line, top,
      top + height + (gutter ? size * dpr : -2 * dpr), labels.map((l) => l.lines.length * line));
    ctx.textBaseline = "bottom";
    const boxes = [];
    labels.forEach((l, i) => {
      ctx.font = font(l);
      let x;
      if (gutter) {
        ctx.textAlign = "left";
        x = left + width + 6 * dpr;
        if (Math.abs(ys[i] - base(l)) > 2 * dpr) {
          // Moved off its line's height: a thin leader from the line's end.
          ctx.strokeStyle = l.color;
          ctx.lineWidth = 1 * dpr;
          ctx.setLineDash([]);
          ctx.beginPath();
          ctx.moveTo(left + width, l.y);
          ctx.lineTo(x - 1 * dpr, ys[i] - (size / 2 - 1) * dpr);
          ctx.stroke();
        }
      } else {
        const right = l.ref || l.x > left + width - 170 * dpr;
        ctx.textAlign = right ? "right" : "left";
        x = l.x + (right ? -4 : 4) * dpr;
        const w = ctx.measureText(l.text).width;
        ctx.fillStyle = "rgba(255, 255, 255, 0.85)";
        ctx.fillRect(right ? x - w - 2 * dpr : x - 2 * dpr, ys[i] - (size + 1) * dpr, w + 4 * dpr, (size + 2) * dpr);
      }
      ctx.fillStyle = l.color;
      l.lines.forEach((t, k) => ctx.fillText(t, x, ys[i] - (l.lines.length - 1 - k) * line));
      const w = Math.max(...l.lines.map((t) => ctx.measureText(t).width));
      const x0 = ctx.textAlign === "right" ? x - w : x;
      boxes.push([x0, ys[i] - l.lines.length * line, x0 + w, ys[i]].map((v) => Math.round(v / dpr)));
    });
    ctx.restore();
    // Where the labels are and where the plot ends, in CSS px (for tests).
    this.el.dataset.labelBoxes = JSON.stringify(boxes);
    this.el.dataset.plotRight = String(Math.round((left + width) / dpr));
  }

  // colorAt is series i's colour.
  colorAt(i) {
    return this.colors ? this.colors[i % this.colors.length] : colorOf(this.names[i]);
  }

  // dashAt is series i's dash: the one given, else, in a race, the first
  // learner solid and each other with a dash of its own, so that lines on
  // top of one another still show.
  dashAt(i) {
    if (this.dash[i] !== undefined) return this.dash[i];
    return this.names.length > 1 && i > 0 ? RACE_DASHES[(i - 1) % RACE_DASHES.length] : null;
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
    this.relabel();
  }

  // drawRefs is uPlot's draw hook: each reference line (drawLabels labels
  // them).
  drawRefs(u) {
    const {ctx} = u;
    const {left, top, width, height} = u.bbox;
    const dpr = devicePixelRatio || 1;
    ctx.save();
    for (const r of this.refs) {
      const y = u.valToPos(r.value, "y", true);
      if (!(y >= top - 1 && y <= top + height + 1)) continue;
      ctx.strokeStyle = "#334155";
      ctx.lineWidth = 1.5 * dpr;
      ctx.setLineDash([8 * dpr, 5 * dpr]);
      ctx.beginPath();
      ctx.moveTo(left, y);
      ctx.lineTo(left + width, y);
      ctx.stroke();
    }
    ctx.restore();
  }

  // flush redraws when there is something new and the last redraw is at
  // least interval() old (or force is set).
  flush(now, force = false) {
    if (!this.plot || !this.dirty || (!force && now - this.lastDraw < this.interval())) return;
    this.plot.setData(/** @type {uPlot.AlignedData} */ (this.data));
    showLatest(this.plot);
    this.describe();
    this.dirty = false;
    this.lastDraw = now;
  }

  build() {
    this.plot?.destroy();
    const axis = chartAxis();
    this.gutter = this.gutterWidth();
    this.plot = new uPlot({
      ...this.size(),
      padding: [null, this.gutter || null, null, null],
      scales: {
        x: this.logX
          ? {time: false, distr: 3, range: /** @type {uPlot.Range.Function} */ ((u, min, max) => (min == null ? [1, 10] : min < max ? [min, max] : [min / 2, max * 2]))}
          : {time: false},
        y: {range: (u, min, max) => refRange(...withGhosts(min, lateMax(this.data) ?? max, this.ghosts), this.refs)},
      },
      hooks: {draw: [(u) => this.drawGhosts(u), (u) => this.drawRefs(u), (u) => this.drawLabels(u)]},
      cursor: {drag: {x: false, y: false}},
      series: [
        {label: this.xLabel, value: (u, v) => (v == null ? "–" : this.xFormat(v))},
        ...this.names.map((name, i) => ({
          label: name,
          stroke: this.colorAt(i),
          width: 2,
          ...(this.dashAt(i) ? {dash: this.dashAt(i)} : {}),
          points: {show: false},
          value: (u, v) => (v == null ? "–" : v.toFixed(4)),
        })),
      ],
      axes: [
        {...axis, label: this.logX ? `${this.xLabel} (log scale)` : this.xLabel, labelSize: 24, values: tickLabels(this.logX)},
        {...axis, label: this.yLabel, labelSize: 24, size: yAxisSize},
      ],
    }, /** @type {uPlot.AlignedData} */ (this.data), this.el);
    this.built = presenting();
    this.el.dataset.axisFont = axis.font;
    this.el.dataset.dashes = this.names.map((_, i) => JSON.stringify(this.dashAt(i) || [])).join(";");
    this.el.dataset.colors = this.names.map((_, i) => this.colorAt(i)).join(";");
    this.dirty = false;
    this.lastDraw = -Infinity;
  }
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

// RACE_DASHES are the dashes of a race's learners after the first.
const RACE_DASHES = [[10, 5], [3, 4], [14, 4, 3, 4], [6, 3, 1, 3]];

// GUTTER_MIN_WIDTH is the narrowest chart (CSS px) that keeps a room for
// its labels right of the plot.
const GUTTER_MIN_WIDTH = 560;
// GUTTER_NONE_WIDTH is the narrowest chart with a room for its labels at all.
const GUTTER_NONE_WIDTH = 240;
// GUTTER_MIN is the least room for the labels (CSS px).
const GUTTER_MIN = 110;

// textWidth measures text in font, in CSS px.
let measurer = null;
function textWidth(text, font) {
  measurer ??= document.createElement("canvas").getContext("2d");
  if (!measurer) return 8 * text.length;
  measurer.font = font;
  return measurer.measureText(text).width;
}

// chartFontPx is the size of the charts' own text (labels at the lines'
// ends): larger in presenter mode, for the back of a room.
function chartFontPx() {
  return presenting() ? 18 : 14;
}

// clipPlot clips the canvas to the plot area.
function clipPlot(u) {
  const {left, top, width, height} = u.bbox;
  u.ctx.beginPath();
  u.ctx.rect(left, top, width, height);
  u.ctx.clip();
}

// GHOST_DASHES are the earlier runs' dashes, one per run in turn.
const GHOST_DASHES = [[6, 4], [2, 3], [10, 3, 2, 3], [1, 5]];

// spreadLabels returns label baselines near ys, within [lo, hi] (the
// labels' top edge and their baselines' bottom), such that no two labels
// overlap: label i spans [y − heights[i], y] (gap for each when heights is
// not given), and the labels in fixed (baselines, gap
// high) stay where they are. The labels keep the order of ys: each, from
// the top down, moves down past what it would cover, then, from the bottom
// up, those past hi move up. Pure (tested by node:test).
export function spreadLabels(ys, fixed, gap, lo, hi, heights = null) {
  const h = (i) => (heights ? heights[i] : gap);
  const order = ys.map((y, i) => i).sort((a, b) => ys[a] - ys[b] || a - b);
  const blocks = fixed.map((y) => [y - gap, y]).sort((a, b) => a[0] - b[0]);
  const out = new Array(ys.length);
  // Down: each label at its height, or just under the label above it, and
  // past a fixed one it would cover.
  let floor = lo;
  for (const i of order) {
    let y = Math.max(Math.min(ys[i], hi), floor + h(i));
    for (const [a, b] of blocks) if (y - h(i) < b && a < y) y = b + h(i);
    out[i] = floor = y;
  }
  // Up: from the bottom, a label past hi (or over a fixed one) moves up and
  // pushes those above it, so that the labels keep their lines' order.
  let ceil = hi;
  for (const i of [...order].reverse()) {
    out[i] = Math.min(out[i], ceil);
    for (const [a, b] of [...blocks].reverse()) if (out[i] - h(i) < b && a < out[i]) out[i] = a;
    ceil = out[i] - h(i);
  }
  // Labels that do not fit in [lo, hi] run past hi rather than above lo.
  const over = order.length ? lo - (out[order[0]] - h(order[0])) : 0;
  if (over > 0) for (const i of order) out[i] += over;
  return out;
}

// wrapText breaks text into lines no wider than width in the context's
// font, at spaces, at most three (the last one then ends the text).
export function wrapText(text, width, measure) {
  const lines = [];
  let line = "";
  for (const word of text.split(" ")) {
    const next = line ? `${line} ${word}` : word;
    if (line && measure(next) > width && lines.length < 2) {
      lines.push(line);
      line = word;
    } else {
      line = next;
    }
  }
  if (line) lines.push(line);
  return lines;
}

// withGhosts widens [min, max] to the earlier runs' values after their first
// tenth (as lateMax), so that their curves stay on the chart. Pure.
/**
 * @param {number | null} min
 * @param {number | null} max
 * @param {{x: number[], y: number[]}[]} ghosts
 * @returns {[number | null, number | null]}
 */
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
/**
 * @param {number | null} min
 * @param {number | null} max
 * @param {{value: number}[]} refs
 * @returns {[number, number]}
 */
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

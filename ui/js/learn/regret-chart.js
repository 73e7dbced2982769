// RegretChart over uPlot (a global, from uPlot.iife.min.js): the certified
// regret bands of the learners against the Theorem 3 bound. It is told its
// data and when it may redraw (its interval function); it reads no page
// state.

import {CHART_INTERVAL_MS} from "../shared/config.js";
import {chartAxis, chartHeight, chartSummary, presenting, showLatest, tickLabels, yAxisSize} from "./charts.js";
import {finite, formatNumber} from "../shared/format.js";
import {colorOf} from "./palette.js";

// A RegretChart draws the regret checkpoints: x = T, and per learner the
// certified band [lo, hi] (shaded), its middle (a line), then the Theorem 3
// bound (dashed gray). rows are the snapshot's regret points, kept raw so
// that the two toggles (log–log, regret / T) only change how they are drawn.
// In linear mode the y range follows the learners alone: the bound is far
// above them and would flatten every curve; log–log shows it whole.
export const REGRET_FIXED = 5;  // T, comparator loss, gap, bound, G; then cum, lo, hi per learner

export class RegretChart {
  /**
   * @param {HTMLElement} el
   * @param {{interval?: () => number}} [opts]
   */
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
    addEventListener("resize", () => this.resized());  // the height can follow the window's
  }

  // resized follows the window, as LineChart's.
  resized() {
    if (!this.plot) return;
    if (this.built !== presenting()) this.build();
    else this.plot.setSize(this.size());
  }

  // size leaves room under the chart for its legend and, in presenter
  // mode, for the latest regret and the slopes, which a lesson step points
  // at: they share the screen with it.
  size() {
    let below = 48, h = this.height;
    if (presenting()) {
      for (const id of ["regret-latest", "regret-slopes"]) below += document.getElementById(id)?.offsetHeight || 0;
      h = 200;
    }
    return {width: Math.max(240, this.el.clientWidth), height: chartHeight(h, this.el, below)};
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
  /** @returns {uPlot.AlignedData} */
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
    return /** @type {uPlot.AlignedData} */ (cols);
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
        {...axis, label: this.logLog ? (presenting() ? "T (rows), log–log" : "T (rows, log scale)") : "T (rows)", labelSize: 24, values: tickLabels(this.logLog)},
        // In presenter mode the chart is short: the axis says "(log scale)"
        // once, on T.
        {...axis, label: this.logLog && !presenting() ? `${yLabel} (log scale)` : yLabel, labelSize: 24, size: yAxisSize},
      ],
    }, this.data(), this.el);
    this.built = presenting();
    this.el.dataset.axisFont = axis.font;
    // The band edges stay out of the legend: the middle line names the learner.
    const rows = this.plot.root.querySelectorAll(".u-legend .u-series");
    this.names.forEach((_, i) => {
      for (const s of [1 + 3 * i, 2 + 3 * i]) if (rows[s]) /** @type {HTMLElement} */ (rows[s]).hidden = true;
    });
    this.dirty = false;
    this.lastDraw = -Infinity;
  }
}

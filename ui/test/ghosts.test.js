import {test} from "node:test";
import assert from "node:assert/strict";

import {MAX_GHOSTS, ghostsNote, nextGhosts, runLabel, runOf} from "../js/learn/ghosts.js";
import {spreadLabels, withGhosts, wrapText} from "../js/learn/charts.js";

const base = {demo: "planted-regression", file: "", delta: 0, eta: 0, gamma: "1/sqrt(t)", loss: "auto", clip: "auto", seed: 1, shuffle: 0};

test("runLabel names the settings that differ", () => {
  const a = runOf({...base, delta: 1}, ["occfm"]);
  const b = runOf({...base, delta: 100}, ["occfm"]);
  assert.equal(runLabel(a, b), "δ = 1");
  assert.equal(runLabel(runOf(base, ["occfm"]), b), "δ = default");
  assert.equal(runLabel(a, a), "earlier run");
  assert.equal(runLabel(runOf({...base, eta: 2, seed: 3}, []), runOf(base, [])), "η = 2, seed = 3");
  assert.equal(runLabel(runOf(base, []), runOf({...base, shuffle: 1}, [])), "file order");
});

test("nextGhosts keeps the last run's curves on the same data", () => {
  const old = runOf({...base, delta: 1}, ["occfm", "bias"]);
  const now = runOf({...base, delta: 10}, ["occfm"]);
  // [rows, seconds, then per learner metric, loss]
  const pts = [[100, 0, 0.5, 1, 0.6, 1], [200, 0, 0.4, 1, 0.6, 1], [300, 0, 0.3, 1, NaN, 1]];
  const g = nextGhosts([], old, pts, now);
  assert.deepEqual(g.map((x) => x.label), ["occfm, δ = 1", "bias, δ = 1"]);
  assert.deepEqual(g[0].x, [100, 200, 300]);
  assert.deepEqual(g[0].y, [0.5, 0.4, 0.3]);
  assert.deepEqual(g[1].y, [0.6, 0.6]);
  // Another data set: none; too few points: left out; at most MAX_GHOSTS.
  assert.deepEqual(nextGhosts(g, old, pts, runOf({...base, demo: "ratings"}, ["occfm"])), []);
  assert.equal(nextGhosts([], old, pts.slice(0, 1), now).length, 0);
  let many = [];
  for (let i = 0; i < 10; i++) many = nextGhosts(many, old, pts, now);
  assert.equal(many.length, MAX_GHOSTS);
  // The same settings again: no ghost but of a learner that left the race.
  const same = nextGhosts([], runOf(base, ["occfm", "bias"]), pts, runOf(base, ["occfm"]));
  assert.deepEqual(same.map((x) => x.label), ["bias, earlier run"]);
  // A long run keeps about 400 points, its last among them.
  const long = Array.from({length: 5000}, (_, i) => [i + 1, 0, 1 / (i + 1), 0]);
  const one = nextGhosts([], runOf({...base, seed: 2}, ["occfm"]), long, runOf(base, ["occfm"]))[0];
  assert.ok(one.x.length <= 401 && one.x.length >= 300, `${one.x.length} points`);
  assert.equal(one.x[one.x.length - 1], 5000);
});

test("withGhosts widens the y range to the earlier runs", () => {
  const g = [{x: [1, 2, 3, 4, 5, 6, 7], y: [9, 9, 9, 9, 9, 0.2, 3]}];
  assert.deepEqual(withGhosts(1, 2, g), [0.2, 3]);
  assert.deepEqual(withGhosts(1, 2, []), [1, 2]);
});

test("spreadLabels keeps labels a gap apart and within bounds", () => {
  const ys = spreadLabels([100, 101, 102], [110], 15, 0, 300);
  const all = [...ys, 110].sort((a, b) => a - b);
  for (let i = 1; i < all.length; i++) assert.ok(all[i] - all[i - 1] >= 15, `${all}`);
  assert.ok(ys.every((y) => y >= 0 && y <= 300));
  // At the bottom edge, a label goes up instead.
  const up = spreadLabels([295, 296], [], 15, 0, 300);
  assert.ok(Math.abs(up[0] - up[1]) >= 15 && Math.max(...up) <= 300, `${up}`);
  assert.deepEqual(spreadLabels([50], [], 15, 0, 300), [50]);
});

test("ghostsNote names this run's differing settings", () => {
  const old = runOf({...base, delta: 1}, ["occfm"]);
  const now = runOf({...base, delta: 100}, ["occfm"]);
  const g = nextGhosts([], old, [[1, 0, 1, 1], [2, 0, 1, 1]], now);
  assert.equal(ghostsNote(now, g), " · solid: this run (δ = 100); faded: earlier runs");
  assert.equal(ghostsNote(now, []), "");
});

test("spreadLabels keeps the lines' order when the labels crowd", () => {
  // Six labels of 45 px in 300 px, two near the bottom: the bottom one stays
  // the lowest, the others stacked above it.
  const ys = spreadLabels([60, 80, 100, 120, 290, 299], [], 15, 0, 300, [45, 45, 45, 45, 45, 45]);
  for (let i = 1; i < ys.length; i++) assert.ok(ys[i] - ys[i - 1] >= 45, `${ys}`);
  assert.ok(ys[5] <= 300, `${ys}`);
  // Too many for the room: none above its top, the last past its bottom.
  const many = spreadLabels([10, 20, 30, 40, 50, 60, 70, 80], [], 15, 0, 300, Array(8).fill(45));
  assert.ok(many[0] - 45 >= 0 && many[7] > 300, `${many}`);
  for (let i = 1; i < many.length; i++) assert.ok(many[i] - many[i - 1] >= 45, `${many}`);
});

test("spreadLabels keeps labels of several lines apart", () => {
  const ys = spreadLabels([100, 100], [], 15, 0, 300, [45, 15]);
  const spans = ys.map((y, i) => [y - [45, 15][i], y]).sort((a, b) => a[0] - b[0]);
  assert.ok(spans[0][1] <= spans[1][0], `${JSON.stringify(spans)}`);
});

test("wrapText breaks at spaces into at most three lines", () => {
  const m = (t) => t.length;
  assert.deepEqual(wrapText("always the label mean: 0.9435", 12, m), ["always the", "label mean:", "0.9435"]);
  assert.deepEqual(wrapText("short", 12, m), ["short"]);
  assert.equal(wrapText("a b c d e f g h", 1, m).length, 3);
});

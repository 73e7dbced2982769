// Unit tests of heatmap.js's pure parts (node:test).
import {test} from "node:test";
import assert from "node:assert/strict";
import {cellColor, fillColors, innerSize, robustScalesOf, scalesOf} from "../js/learn/heatmap.js";

test("cellColor is white at 0, full red or blue at ±scale, clipped beyond", () => {
  assert.deepEqual(cellColor(0, 1), [255, 255, 255]);
  assert.deepEqual(cellColor(1, 1), [220, 38, 38]);
  assert.deepEqual(cellColor(-5, 1), [37, 99, 235]);
  assert.deepEqual(cellColor(0.5, 0), [255, 255, 255]);  // no scale: all white
  assert.deepEqual(cellColor(NaN, 1), [255, 255, 255]);
});

test("scalesOf splits the bias row and column from the rest", () => {
  // [[1, -7], [-7, 3]]: the inner block is [1], the border holds −7 and 3.
  assert.deepEqual(scalesOf([1, -7, -7, 3], 2), {inner: 1, border: 7});
});

test("innerSize gives the bias strip a cell, or at least the minimum", () => {
  assert.equal(innerSize(400, 41, 6), 400 - 400 / 41);  // cells wider than 6 px
  assert.equal(innerSize(400, 801, 6), 394);            // sub-pixel cells: the minimum strip
  assert.equal(innerSize(400, 1, 6), 0);                // the bias alone
});

test("robustScalesOf puts full colour at the 98th percentile of the pairs", () => {
  // 3 features and the bias: 9 inner entries, one of them 100, the rest 1
  // or 0; the bias row keeps its largest entry.
  const k = 4;
  const cells = new Array(k * k).fill(1);
  cells[0] = 100;
  cells[5] = 0;
  cells[3] = 50;  // bias column
  const s = robustScalesOf(cells, k, 0.5);
  assert.ok(s.inner > 0.9 && s.inner < 1.1, `inner ${s.inner}`);
  assert.equal(s.border, 50);
  assert.ok(Math.abs(s.clipped - 1 / 8) < 1e-12, `clipped ${s.clipped}`);
  assert.deepEqual(robustScalesOf([0, 0, 0, 2], 2), {inner: 0, border: 2, clipped: 0});
  // Every pair equal: the scale is that value.
  const flat = robustScalesOf([3, 3, 1, 3, 3, 1, 1, 1, 1], 3);
  assert.ok(Math.abs(flat.inner - 3) < 1e-9, `flat ${flat.inner}`);
});

test("fillColors writes cellColor's colours for every cell", () => {
  const k = 5;
  const cells = Array.from({length: k * k}, (_, i) => [0, 0.3, -2, NaN, 7, -0.01][i % 6]);
  const scales = {inner: 1, border: 5};
  const data = new Uint8ClampedArray(4 * k * k);
  fillColors(data, cells, k, scales);
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < k; j++) {
      const want = cellColor(cells[i * k + j], i === k - 1 || j === k - 1 ? scales.border : scales.inner);
      const o = 4 * (i * k + j);
      assert.deepEqual([data[o], data[o + 1], data[o + 2], data[o + 3]], [...want, 255], `cell ${i},${j}`);
    }
  }
});

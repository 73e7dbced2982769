// Unit tests of the pure parts of the chart and format modules (node:test).
import {test} from "node:test";
import assert from "node:assert/strict";
import {thinColumns} from "../js/learn/charts.js";
import {finite, formatNumber} from "../js/shared/format.js";

test("thinColumns keeps the even points and the last, in every column", () => {
  assert.deepEqual(thinColumns([[0, 1, 2, 3, 4, 5], [10, 11, 12, 13, 14, 15]]),
    [[0, 2, 4, 5], [10, 12, 14, 15]]);
  assert.deepEqual(thinColumns([[0, 1, 2, 3, 4]]), [[0, 2, 4]]);
  assert.deepEqual(thinColumns([[7]]), [[7]]);
  assert.deepEqual(thinColumns([[], []]), [[], []]);
  assert.deepEqual(thinColumns([]), []);
});

test("thinning repeatedly bounds the points and keeps both ends", () => {
  let cols = [Array.from({length: 10001}, (_, i) => i)];
  while (cols[0].length > 2000) {
    const n = cols[0].length;
    cols = thinColumns(cols);
    assert.ok(cols[0].length <= Math.ceil(n / 2) + 1);
  }
  assert.equal(cols[0][0], 0);
  assert.equal(cols[0][cols[0].length - 1], 10000);
  for (let i = 1; i < cols[0].length; i++) assert.ok(cols[0][i] > cols[0][i - 1]);
});

test("numbers are written one way", () => {
  assert.equal(formatNumber(200000), "200,000");
  assert.equal(formatNumber(2000), "2,000");
  assert.equal(formatNumber(0.123456), "0.1235");
  assert.equal(formatNumber(-1234.6), "-1,235");
  assert.equal(formatNumber(NaN), "–");
  assert.equal(formatNumber(undefined), "–");
  assert.ok(finite(0) && !finite(Infinity) && !finite("1"));
});

test("refRange takes in the data and every reference line, padded", async () => {
  const {refRange} = await import("../js/learn/charts.js");
  assert.deepStrictEqual(refRange(null, null, []), [0, 1]);
  const [lo, hi] = refRange(0.9, 1.2, [{value: 0.42}]);
  assert.ok(lo <= 0.42 && lo >= 0.42 - 0.05 * 0.78 - 1e-12, `lo ${lo}`);
  assert.ok(hi >= 1.2 && hi <= 1.2 + 0.05 * 0.78 + 1e-12, `hi ${hi}`);
  assert.deepStrictEqual(refRange(0.01, 0.2, [{value: 0}])[0], 0);  // no negative room above 0
  assert.ok(refRange(-1, 1, [{value: 3}])[1] >= 3);
});

test("lateMax skips the first tenth (and first 5 points) of every series", async () => {
  const {lateMax} = await import("../js/learn/charts.js");
  assert.equal(lateMax([[1, 2, 3]]), null);  // no series
  assert.equal(lateMax([[1, 2, 3, 4, 5], [9, 9, 9, 9, 9]]), null);  // too short
  const x = Array.from({length: 100}, (_, i) => i + 1);
  const a = x.map((i) => (i <= 10 ? 40 : 1 + 1 / i));
  const b = x.map((i) => (i === 50 ? null : 0.5));
  assert.equal(lateMax([x, a, b]), a[10]);
});

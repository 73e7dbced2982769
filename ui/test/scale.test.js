// Unit tests of the star control's scale (node:test).
import {test} from "node:test";
import assert from "node:assert/strict";
import {fiveStars, givenText, starLabel, starValues} from "../js/personalize/scale.js";

const whole = {lo: 1, hi: 5, step: 1}, half = {lo: 0.5, hi: 5, step: 0.5}, ten = {lo: 1, hi: 10, step: 1}, cont = {lo: 0, hi: 100, step: 0};

test("starValues offers each step of the scale, or five values", () => {
  assert.deepEqual(starValues(whole), [1, 2, 3, 4, 5]);
  assert.deepEqual(starValues(half), [0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4, 4.5, 5]);
  assert.deepEqual(starValues(ten), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  assert.deepEqual(starValues(cont), [0, 25, 50, 75, 100]);
  assert.deepEqual(starValues({lo: 0, hi: 100, step: 1}), [0, 25, 50, 75, 100]);
});

test("starLabel is a star on 1–5 whole stars, else the rating, halves as ½", () => {
  assert.equal(starLabel(3, whole), "★");
  assert.deepEqual(starValues(half).map((v) => starLabel(v, half)), ["½", "1", "1½", "2", "2½", "3", "3½", "4", "4½", "5"]);
  assert.equal(starLabel(7, ten), "7");
  assert.equal(starLabel(37.5, cont), "37½");
});

test("givenText: stars on 1–5 whole stars, else the rating of the top", () => {
  assert.equal(givenText(4, whole), "★★★★☆");
  assert.equal(givenText(2.5, half), "2½ of 5");
  assert.equal(givenText(7, ten), "7 of 10");
});

test("fiveStars is the 1–5 whole-star scale only", () => {
  assert.equal(fiveStars(whole), true);
  assert.equal([half, ten, cont, {lo: 1, hi: 5, step: 0.5}].some(fiveStars), false);
});

// Unit tests of the lesson's steps (node:test; run by make test-js): the
// steps are whole, short and plain, and their setups are settings the page
// can write to its link and read back.
import {test} from "node:test";
import assert from "node:assert/strict";
import {DEFAULTS, formatHash, learnerSettingsKey, parseHash} from "../js/shared/hash.js";
import {STEPS, mathParts, setupText, stepAt, stepSettings, supParts} from "../js/shared/lesson-steps.js";

// The names the page's core registers (occfm learners, occfm gen -demo):
// a setup must not ask for another.
const LEARNERS = ["bias", "ccfm-ftrl", "ccfm-ogd", "ccfm-pa", "ccfm-pairs", "cfm-ftrl", "fm-ftrl", "linear", "mean",
  "occfm", "occfm-auto", "occfm-lin"];
const DEMOS = ["planted-regression", "planted-classification", "ratings"];
const CHARTS = ["metric", "loss", "regret", "model"];

test("seven steps, each with a title, 3–5 short sentences, a look line and a paper reference", () => {
  assert.equal(STEPS.length, 7);
  for (const [i, s] of STEPS.entries()) {
    const at = `step ${i + 1}`;
    assert.ok(s.title && s.title.length <= 50, `${at}: title ${s.title}`);
    assert.ok(s.text.length >= 3 && s.text.length <= 5, `${at}: ${s.text.length} sentences`);
    for (const t of s.text) {
      // Short and plain: one sentence each, at most 115 characters.
      const shown = t.replaceAll("`", "");
      assert.ok(shown.length <= 115, `${at}: ${shown.length} characters: ${t}`);
      assert.equal(t.split("`").length % 2, 1, `${at}: unbalanced backquotes in ${t}`);
      assert.match(t, /[.:!?]$/, `${at}: "${t}" does not end a sentence`);
    }
    assert.ok(s.look && !/^look at/i.test(s.look), `${at}: look ${s.look}`);
    assert.match(s.paper, /^Paper: /, at);
    assert.ok(CHARTS.includes(s.chart), `${at}: chart ${s.chart}`);
    assert.ok(s.targets.length > 0, `${at}: nothing to look at`);
    assert.ok(Object.isFrozen(s), `${at} is not frozen`);
  }
});

test("every setup names demos and learners the core has, and settings the link keeps", () => {
  for (const [i, s] of STEPS.entries()) {
    if (!s.setup) continue;
    const at = `step ${i + 1}`;
    assert.ok(DEMOS.includes(s.setup.demo), `${at}: demo ${s.setup.demo}`);
    for (const l of s.setup.learners) assert.ok(LEARNERS.includes(l), `${at}: learner ${l}`);
    assert.ok(s.setup.follow === "" || s.setup.learners.includes(s.setup.follow), `${at}: follow ${s.setup.follow}`);
    const next = stepSettings(s, {...DEFAULTS, learners: [...DEFAULTS.learners], lesson: i + 1}, DEFAULTS);
    // The step's settings survive the link: #lesson=N with them opens the same.
    const back = parseHash(formatHash(next));
    assert.deepEqual(back, next, at);
    assert.equal(back.lesson, i + 1, at);
  }
});

test("the steps the brief names have the setups it names", () => {
  const s = (n) => stepAt(n).setup;
  assert.equal(s(1).demo, "ratings");
  assert.deepEqual([...s(1).learners].sort(), ["bias", "occfm"]);
  assert.equal(s(1).speed, 200);
  for (const n of [2, 3, 4, 5]) {
    assert.equal(s(n).demo, "planted-regression", `step ${n}`);
    assert.deepEqual(s(n).learners, ["occfm"], `step ${n}`);
  }
  assert.equal(s(4).paused, true);
  assert.ok(STEPS.filter((x) => x.setup && x.setup.paused).length === 1, "only step 4 pauses");
  assert.equal(s(5).speed, 1000, "step 5 leaves the regret comparator time to keep up");
  assert.deepEqual([...s(6).learners].sort(), ["bias", "fm-ftrl", "occfm", "occfm-auto"]);
  assert.equal(stepAt(7).setup, null);
  assert.deepEqual(stepAt(3).actions.map((a) => a.delta), [1, 0, 100]);
  assert.ok(stepAt(4).actions.some((a) => a.step));
  assert.ok(stepAt(7).actions.some((a) => a.file));
});

test("action ids are unique", () => {
  const ids = STEPS.flatMap((s) => s.actions.map((a) => a.id));
  assert.equal(new Set(ids).size, ids.length, ids.join());
});

test("stepAt is 1-based and null outside 1..7", () => {
  assert.equal(stepAt(1), STEPS[0]);
  assert.equal(stepAt(7), STEPS[6]);
  for (const n of [0, 8, -1, 1.5, NaN, "2", null]) assert.equal(stepAt(n), null, String(n));
});

test("a setup resets the other learner settings and keeps the view preferences", () => {
  const current = {...DEFAULTS, learners: ["ccfm-ogd"], eta: 3, gamma: "constant", loss: "squared", clip: "off", seed: 9,
    checkpoints: "off", logLog: false, logX: false, presenter: true, lesson: 2, file: "u.data", view: "personalize",
    onError: "skip", format: "csv"};
  const next = stepSettings(stepAt(3), current, DEFAULTS);
  assert.deepEqual(
    {eta: next.eta, gamma: next.gamma, loss: next.loss, clip: next.clip, seed: next.seed, checkpoints: next.checkpoints},
    {eta: 0, gamma: DEFAULTS.gamma, loss: "auto", clip: "auto", seed: DEFAULTS.seed, checkpoints: DEFAULTS.checkpoints});
  assert.equal(next.demo, "planted-regression");
  assert.equal(next.file, "", "a step runs its demo, not a file");
  assert.equal(next.view, "learn");
  assert.deepEqual(next.learners, ["occfm"]);
  assert.equal(next.follow, "", "following the only learner is the default");
  assert.equal(next.speed, 2000);
  for (const k of ["logLog", "logX", "presenter", "lesson", "onError", "format"]) assert.equal(next[k], current[k], k);
  assert.deepEqual(current.learners, ["ccfm-ogd"], "current is not changed");
  // A step without a setup keeps everything.
  assert.deepEqual(stepSettings(stepAt(7), current, DEFAULTS), current);
  // Going from one step to the next restarts the run when its learner settings differ.
  const one = stepSettings(stepAt(1), current, DEFAULTS);
  const six = stepSettings(stepAt(6), one, DEFAULTS);
  assert.notEqual(learnerSettingsKey(one), learnerSettingsKey(six));
});

test("setupText says what a step sets", () => {
  assert.equal(setupText(stepAt(1), (d) => ({ratings: "Ratings"})[d]), "Set up: Ratings · occfm, bias · 200 rows/s.");
  assert.equal(setupText(stepAt(4)), "Set up: planted-regression · occfm · 200 rows/s · paused after 30 rows.");
  assert.equal(setupText(stepAt(5)), "Set up: planted-regression · occfm · 1,000 rows/s.");
  assert.equal(setupText({setup: {...stepAt(5).setup, speed: 0}}), "Set up: planted-regression · occfm · max speed.");
  assert.match(setupText(stepAt(7)), /keeps the page/);
});

test("mathParts marks the formulas between backquotes", () => {
  assert.deepEqual(mathParts("With `x̂ = [x; 1]` the model predicts `ŷ`."), [
    {text: "With ", math: false}, {text: "x̂ = [x; 1]", math: true}, {text: " the model predicts ", math: false},
    {text: "ŷ", math: true}, {text: ".", math: false}]);
  assert.deepEqual(mathParts("plain"), [{text: "plain", math: false}]);
  assert.deepEqual(mathParts("`a`"), [{text: "a", math: true}]);
});

test("supParts raises the exponents written ^{…}", () => {
  assert.deepEqual(supParts("12·T^{¾} + T^{¼}"), [
    {text: "12·T", sup: false}, {text: "¾", sup: true}, {text: " + T", sup: false}, {text: "¼", sup: true},
  ]);
  assert.deepEqual(supParts("plain"), [{text: "plain", sup: false}]);
});

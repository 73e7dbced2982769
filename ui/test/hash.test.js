// Unit tests of the pure URL-hash module (node:test; run by make test-js).
import {test} from "node:test";
import assert from "node:assert/strict";
import {DEFAULTS, SPEEDS, checkpointConfig, formatHash, learnerSettingsKey, parseHash, setDefaultLearner} from "../js/shared/hash.js";

test("an empty hash gives the defaults", () => {
  for (const h of ["", "#", "#nonsense", "#=x&&y"]) {
    assert.deepEqual(parseHash(h), {...DEFAULTS, learners: [...DEFAULTS.learners]}, h);
  }
});

test("every setting survives formatHash then parseHash", () => {
  const cases = [
    {...DEFAULTS, learners: ["occfm", "bias"], delta: 30, eta: 0.5, gamma: "2/(t+1)", loss: "logistic",
      clip: "off", seed: 7, speed: 0, checkpoints: "e500", onError: "skip", format: "csv"},
    {...DEFAULTS, view: "personalize", plearner: "occfm", demo: "planted-regression", learners: ["fm-ftrl"]},
    {...DEFAULTS, learners: ["occfm-auto"], speed: 1.5},
    {...DEFAULTS, learners: ["occfm", "bias"], lesson: 3, presenter: true},
    {...DEFAULTS, learners: ["occfm"], lesson: 7},
  ];
  for (const s of cases) {
    const h = formatHash(s);
    assert.deepEqual(parseHash(h), s, h);
    assert.equal(formatHash(parseHash(h)), h);
  }
});

test("defaults are left out of the hash, delta and eta 0 too, and speed 0 is max", () => {
  setDefaultLearner("occfm-auto", {...DEFAULTS, learners: []});
  const h = formatHash({...DEFAULTS, learners: [...DEFAULTS.learners], speed: 0});
  assert.equal(h, "#demo=ratings&learners=occfm-auto&gamma=1/sqrt(t)&seed=1&speed=max");
});

test("a link that names no learner plays the core's default, once the core names it", () => {
  const early = {...parseHash("#demo=ratings"), learners: []}; // parsed before the core was ready
  const named = parseHash("#demo=ratings&learners=bias,occfm");
  setDefaultLearner("occfm-k", early);
  setDefaultLearner("occfm-k", named);
  assert.deepEqual(early.learners, ["occfm-k"]);
  assert.deepEqual(named.learners, ["bias", "occfm"]);
  assert.deepEqual(DEFAULTS.learners, ["occfm-k"]);
  assert.deepEqual(parseHash("#demo=ratings").learners, ["occfm-k"]);
  setDefaultLearner("occfm-auto", early);
});

test("invalid values fall back to the defaults", () => {
  const s = parseHash("#delta=-5&eta=abc&seed=-1&gamma=x&loss=hinge&clip=maybe&speed=&checkpoints=g9&onError=x&format=xml&view=other");
  assert.equal(s.delta, 0);
  assert.equal(s.eta, 0);
  assert.equal(s.seed, DEFAULTS.seed);
  for (const k of ["gamma", "loss", "clip", "speed", "checkpoints", "onError", "format", "view"]) {
    assert.equal(s[k], DEFAULTS[k], k);
  }
});

test("names are decoded, and a malformed escape is kept as written", () => {
  assert.deepEqual(parseHash("#learners=occfm%2Cbias").learners, ["occfm", "bias"]);
  assert.equal(parseHash("#demo=a%ZZb").demo, "a%ZZb");
  assert.equal(parseHash("#demo=" + encodeURIComponent("my demo&x")).demo, "my demo&x");
});

test("a change of speed alone keeps the learner settings key", () => {
  const a = {...DEFAULTS, learners: ["occfm"]};
  assert.equal(learnerSettingsKey(a), learnerSettingsKey({...a, speed: 5}));
  assert.notEqual(learnerSettingsKey(a), learnerSettingsKey({...a, delta: 3}));
});

test("the speed positions are increasing, from 1 to 100,000", () => {
  assert.equal(SPEEDS[0], 1);
  assert.equal(SPEEDS[SPEEDS.length - 1], 1e5);
  for (let i = 1; i < SPEEDS.length; i++) assert.ok(SPEEDS[i] > SPEEDS[i - 1]);
});

test("checkpoint spacings map onto the core's settings", () => {
  const c = (v) => { const o = {}; checkpointConfig(o, v); return o; };
  assert.deepEqual(c("off"), {noRegret: true});
  assert.deepEqual(c("e2000"), {regretEvery: 2000});
  assert.deepEqual(c("g1.5"), {regretGrowth: 1.5});
});

test("the parts a link cannot use are reported", () => {
  const invalid = [];
  const s = parseHash("#delta=-5&loss=hinge&colour=red&seed=1&speed=max&view=other&junk", invalid);
  assert.deepEqual(invalid, ["delta=-5", "loss=hinge", "colour=red", "view=other", "junk"]);
  assert.equal(s.delta, 0);
  assert.equal(s.speed, 0);
  const none = [];
  parseHash(formatHash({...DEFAULTS, learners: ["occfm"], delta: 3, logLog: false, file: "u.data"}), none);
  assert.deepEqual(none, []);
});

test("a file run's link names the file, and log-log off is kept", () => {
  const h = formatHash({...DEFAULTS, learners: ["occfm"], file: "ijcnn1.gz", logLog: false});
  assert.ok(h.startsWith("#file=ijcnn1.gz&learners=occfm"), h);
  assert.ok(h.includes("loglog=0"), h);
  const s = parseHash(h);
  assert.equal(s.file, "ijcnn1.gz");
  assert.equal(s.logLog, false);
});

test("the lesson's step and presenter mode are in the link, and left out when off", () => {
  const h = formatHash({...DEFAULTS, learners: ["occfm"], lesson: 3, presenter: true});
  assert.ok(h.endsWith("&lesson=3&presenter=1"), h);
  const s = parseHash("#lesson=3&presenter=1");
  assert.equal(s.lesson, 3);
  assert.equal(s.presenter, true);
  const off = formatHash({...DEFAULTS, learners: ["occfm"], lesson: 0, presenter: false});
  assert.ok(!off.includes("lesson") && !off.includes("presenter"), off);
  assert.equal(parseHash("#presenter=0").presenter, false);
  // Closing the lesson (lesson 0) removes the key: the link opens no lesson.
  assert.equal(parseHash(off).lesson, 0);
});

test("a lesson step that does not exist is reported", () => {
  const invalid = [];
  const s = parseHash("#lesson=8&presenter=2", invalid);
  assert.deepEqual(invalid, ["lesson=8", "presenter=2"]);
  assert.equal(s.lesson, 0);
  assert.equal(s.presenter, false);
  for (const bad of ["0", "-1", "2.5", "x", "", "07"]) {
    const inv = [];
    assert.equal(parseHash(`#lesson=${bad}`, inv).lesson, 0, bad);
    assert.deepEqual(inv, [`lesson=${bad}`], bad);
  }
  assert.equal(parseHash("#lesson=7").lesson, 7);
});

test("the lesson and presenter mode do not restart a run", () => {
  const a = {...DEFAULTS, learners: ["occfm"]};
  assert.equal(learnerSettingsKey(a), learnerSettingsKey({...a, lesson: 4, presenter: true}));
});

test("shuffle=N is kept in a file's link, left out of a demo's", () => {
  const s = parseHash("#file=sorted.svm&learners=occfm-auto&shuffle=7");
  assert.equal(s.shuffle, 7);
  assert.match(formatHash(s), /&shuffle=7/);
  assert.doesNotMatch(formatHash({...s, file: ""}), /shuffle/);
  assert.doesNotMatch(formatHash({...s, shuffle: 0}), /shuffle/);
  const bad = [];
  parseHash("#shuffle=-1", bad);
  assert.deepEqual(bad, ["shuffle=-1"]);
});

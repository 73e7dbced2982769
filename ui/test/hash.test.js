// Unit tests of the pure URL-hash module (node:test; run by make test-js).
import {test} from "node:test";
import assert from "node:assert/strict";
import {DEFAULTS, SPEEDS, checkpointConfig, formatHash, learnerSettingsKey, parseHash} from "../js/hash.js";

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
  ];
  for (const s of cases) {
    const h = formatHash(s);
    assert.deepEqual(parseHash(h), s, h);
    assert.equal(formatHash(parseHash(h)), h);
  }
});

test("defaults are left out of the hash, delta and eta 0 too, and speed 0 is max", () => {
  const h = formatHash({...DEFAULTS, learners: [...DEFAULTS.learners], speed: 0});
  assert.equal(h, "#demo=ratings&learners=occfm-auto&gamma=1/sqrt(t)&seed=1&speed=max");
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

// The page's settings and the URL hash that holds them: parsing,
// formatting and the registry of allowed values. Pure: no DOM, tested by
// node:test (ui/test/hash.test.js).

// settings is the one source of truth for what the controls show and what the
// hash says: #demo=ratings&learners=occfm&delta=10&eta=1&gamma=1/sqrt(t)&seed=1&speed=2000
// shuffle=N (a file only) plays the file's rows in the order of occfm run
// -shuffle N.
// delta and eta 0 mean "the learner's default" and are left out of the hash;
// speed 0 is unlimited and written as speed=max. lesson=N (1-based) opens
// the guided lesson on step N (0: closed, left out); presenter=1 is
// presenter mode.

import {STEPS} from "./lesson-steps.js";

export const GAMMAS = {"1/sqrt(t)": "1/√t", "2/(t+1)": "2/(t+1)", "constant": "constant"};
export const LOSSES = ["auto", "squared", "logistic"];
export const CLIPS = ["auto", "on", "off"];
export const ON_ERROR = ["stop", "skip"];  // a file's malformed rows: stop at the first, or skip and count
export const FORMATS = ["auto", "libsvm", "csv", "movielens"];  // "Read as": how a file is read (auto: sniffed)

/**
 * Settings are what the controls show and the link says (parseHash,
 * formatHash); DEFAULTS gives each its default.
 * @typedef {object} Settings
 * @property {string} view          "learn" | "personalize"
 * @property {string} plearner      Personalize's learner ("": the first)
 * @property {string} demo
 * @property {string[]} learners
 * @property {number} delta         0: the learner's default
 * @property {number} eta           0: the learner's default
 * @property {string} gamma         a key of GAMMAS
 * @property {string} loss          one of LOSSES
 * @property {string} clip          one of CLIPS
 * @property {number} seed
 * @property {number} speed         rows/s; 0: unlimited ("max")
 * @property {string} checkpoints   a key of CHECKPOINTS
 * @property {string} onError       one of ON_ERROR
 * @property {string} format        one of FORMATS
 * @property {string} file          the name of the file a run learns, or ""
 * @property {number} shuffle       0: the file's own order
 * @property {boolean} logLog
 * @property {string} follow        the learner the numbers follow ("": the first)
 * @property {boolean} logX
 * @property {number} lesson        1-based step of the guided lesson; 0: closed
 * @property {boolean} presenter
 */

// DEFAULTS.learners is the learner a run plays when the link names none:
// the core's (core.DefaultLearner, which occfm.learners() marks runDefault),
// which setDefaultLearner puts there once the core is ready; empty until
// then, as is a link's settings.learners when it names none.
/** @type {Readonly<Settings>} */
export const DEFAULTS = Object.freeze({
  view: "learn", plearner: "", demo: "ratings", learners: [], delta: 0, eta: 0,
  gamma: "1/sqrt(t)", loss: "auto", clip: "auto", seed: 1, speed: 2000, checkpoints: "g1.5", onError: "stop",
  format: "auto", file: "", shuffle: 0, logLog: true, follow: "", logX: true, lesson: 0, presenter: false,
});

// setDefaultLearner makes name the learner of DEFAULTS.learners, and of
// settings' when its link named none.
/**
 * @param {string} name
 * @param {Settings} settings
 */
export function setDefaultLearner(name, settings) {
  DEFAULTS.learners.splice(0, DEFAULTS.learners.length, name);
  if (settings.learners.length === 0) settings.learners = [name];
}

// The speed slider is logarithmic: 1, 1.5, 2, 3, 5, 7 per decade from 1 to
// 100,000 rows/s, then one last position for "max".
export const SPEEDS = [];
for (let p = 1; p < 1e5; p *= 10) for (const m of [1, 1.5, 2, 3, 5, 7]) SPEEDS.push(m * p);
SPEEDS.push(1e5);

// parseHash returns the settings a hash gives, the defaults where it says
// nothing. Each part it cannot use ("delta=-5", "loss=hinge", "colour=red")
// is pushed onto invalid, when given, so that the page can say so.
/**
 * @param {string} hash
 * @param {string[] | null} [invalid]
 * @returns {Settings}
 */
export function parseHash(hash, invalid = null) {
  const s = {...DEFAULTS, learners: [...DEFAULTS.learners]};
  const bad = (part) => { if (invalid) invalid.push(part); };
  for (const part of hash.replace(/^#/, "").split("&")) {
    if (part === "") continue;
    const eq = part.indexOf("=");
    if (eq < 0) {
      bad(decode(part));
      continue;
    }
    const key = decode(part.slice(0, eq));
    const val = decode(part.slice(eq + 1));
    const shown = `${key}=${val}`;
    const pick = (ok, set) => (ok ? set() : bad(shown));
    switch (key) {
      case "view": pick(val === "personalize" || val === "learn", () => { s.view = val; }); break;
      case "plearner": s.plearner = val; break;
      case "demo": s.demo = val; break;
      case "learners": s.learners = val.split(",").filter(Boolean); break;
      case "delta": case "eta": pick(nonNegative(val, -1) >= 0, () => { s[key] = nonNegative(val, 0); }); break;
      case "gamma": pick(val in GAMMAS, () => { s.gamma = val; }); break;
      case "loss": pick(LOSSES.includes(val), () => { s.loss = val; }); break;
      case "clip": pick(CLIPS.includes(val), () => { s.clip = val; }); break;
      case "seed": pick(nonNegative(val, -1) >= 0, () => { s.seed = Math.trunc(nonNegative(val, DEFAULTS.seed)); }); break;
      case "checkpoints": pick(val in CHECKPOINTS, () => { s.checkpoints = val; }); break;
      case "speed": pick(val === "max" || nonNegative(val, -1) >= 0, () => { s.speed = val === "max" ? 0 : nonNegative(val, DEFAULTS.speed); }); break;
      case "onError": pick(ON_ERROR.includes(val), () => { s.onError = val; }); break;
      case "format": pick(FORMATS.includes(val), () => { s.format = val; }); break;
      case "file": s.file = val; break;
      case "shuffle": pick(/^[0-9]+$/.test(val), () => { s.shuffle = Number(val); }); break;
      case "follow": s.follow = val; break;
      case "loglog": pick(val === "0" || val === "1", () => { s.logLog = val === "1"; }); break;
      case "logx": pick(val === "0" || val === "1", () => { s.logX = val === "1"; }); break;
      case "lesson": pick(/^[1-9][0-9]*$/.test(val) && Number(val) <= STEPS.length, () => { s.lesson = Number(val); }); break;
      case "presenter": pick(val === "0" || val === "1", () => { s.presenter = val === "1"; }); break;
      default: bad(shown);
    }
  }
  return s;
}

// formatHash returns the hash of settings s: a file run names its file
// (file=…) in place of the demo, which the page cannot reopen by itself.
export function formatHash(s) {
  const parts = [s.file ? ["file", s.file] : ["demo", s.demo], ["learners", s.learners.join(",")]];
  if (s.view === "personalize") {
    parts.unshift(["view", "personalize"]);
    if (s.plearner) parts.splice(1, 0, ["plearner", s.plearner]);
  }
  if (s.delta > 0) parts.push(["delta", s.delta]);
  if (s.eta > 0) parts.push(["eta", s.eta]);
  parts.push(["gamma", s.gamma]);
  if (s.loss !== "auto") parts.push(["loss", s.loss]);
  if (s.clip !== "auto") parts.push(["clip", s.clip]);
  parts.push(["seed", s.seed], ["speed", s.speed > 0 ? s.speed : "max"]);
  if (s.checkpoints !== DEFAULTS.checkpoints) parts.push(["checkpoints", s.checkpoints]);
  if (s.onError !== DEFAULTS.onError) parts.push(["onError", s.onError]);
  if (s.format !== DEFAULTS.format) parts.push(["format", s.format]);
  if (s.file && s.shuffle > 0) parts.push(["shuffle", s.shuffle]);
  if (s.logLog !== DEFAULTS.logLog) parts.push(["loglog", s.logLog ? 1 : 0]);
  if (s.logX !== DEFAULTS.logX) parts.push(["logx", s.logX ? 1 : 0]);
  if (s.follow && s.learners.includes(s.follow) && s.follow !== s.learners[0]) parts.push(["follow", s.follow]);
  if (s.lesson > 0) parts.push(["lesson", s.lesson]);
  if (s.presenter) parts.push(["presenter", 1]);
  return "#" + parts.map(([k, v]) => `${k}=${encode(String(v))}`).join("&");
}

// encode keeps / , + ( ) readable: they are all legal in a fragment.
export function encode(v) {
  return encodeURIComponent(v).replace(/%2F/g, "/").replace(/%2C/g, ",").replace(/%2B/g, "+");
}

export function decode(v) {
  try { return decodeURIComponent(v); } catch { return v; }
}

export function nonNegative(text, fallback) {
  const v = Number(text);
  return text !== "" && Number.isFinite(v) && v >= 0 ? v : fallback;
}

// learnerSettingsKey is what a run depends on besides its source: a change
// restarts the run, a change of speed alone does not.
export function learnerSettingsKey(s) {
  return JSON.stringify([s.learners, s.delta, s.eta, s.gamma, s.loss, s.clip, s.seed, s.checkpoints]);
}

// CHECKPOINTS are the regret checkpoint spacings: "g<ratio>" geometric,
// "e<rows>" every so many rows, or "off": no comparator (all the time to the
// learners).
export const CHECKPOINTS = {"g1.5": "×1.5", "g2": "×2", "e500": "every 500 rows", "e2000": "every 2,000 rows", "off": "off"};

export function checkpointConfig(c, value) {
  if (value === "off") c.noRegret = true;
  else if (value.startsWith("e")) c.regretEvery = Number(value.slice(1));
  else c.regretGrowth = Number(value.slice(1));
}

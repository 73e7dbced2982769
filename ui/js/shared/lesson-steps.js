// The guided lesson's steps, as data: what each step says, what to look at
// on the page, and the settings it gives the page. Pure: no DOM, tested by
// node:test (ui/test/lesson.test.js); ../learn/lesson.js shows them, and the
// link (hash.js, lesson=N) names one.
//
// A step is
//
//   title     a few words
//   text      3–5 short plain sentences, for a first-year student;
//             `backquotes` mark a formula, which is not broken across lines
//   look      what to watch on the page ("Look at: …")
//   paper     where the paper says it (shown second, in small type)
//   targets   ids of the page's elements the step is about, the first that
//             exists is scrolled into view and outlined
//   chart     the one chart presenter mode shows: metric, loss, regret, model
//   setup     the settings the step writes before it starts its run from
//             row 0 (null: the page is kept as it is):
//               demo, learners, follow ("" = the first), delta (0 = the
//               learner's default), speed (rows/s, 0 = max), paused
//   actions   buttons of the step: {id, label, delta} sets δ and restarts
//             (as the δ control does); {id, label, step: true} learns one
//             row (as Step does); {id, label, file: true} is the Data card's
//             file button
//
// The numbers quoted were read off the page itself (seed 1, the defaults
// otherwise): see e2e/lesson_test.go.

export const STEPS = Object.freeze([
  {
    title: "Online learning: predict, score, learn",
    text: [
      "The learner reads the data as a stream, one row at a time.",
      "For each row it predicts, then sees the true rating and is scored, and only then learns from it.",
      "So every score is earned on an unseen row: progressive validation, an honest test with no test set.",
      "The curve is the average score so far (RMSE: lower is better).",
      "bias learns only how generous each user and item is; occfm also how users and items interact.",
    ],
    look: "the RMSE curves falling toward the dashed line of the best possible model, 200 rows a second.",
    paper: "Paper: §2.2 (online convex optimization), §4.1 (each instance is predicted, then the model is updated).",
    targets: ["metric-chart"],
    chart: "metric",
    setup: {demo: "ratings", learners: ["occfm", "bias"], follow: "", delta: 0, speed: 200, paused: false},
  },
  {
    title: "The model is one matrix C",
    text: [
      "Each row is a vector x of 40 features: two categories (a 1 for each) and one or two numbers.",
      "With `x̂ = [x; 1]` the model predicts `ŷ = ½ x̂ᵀ C x̂`, with one symmetric matrix C.",
      "The entry Cᵢⱼ says how much features i and j together push ŷ up (red) or down (blue).",
      "The last row and column hold the weights w of single features, and the corner 2w₀, twice the bias.",
    ],
    look: "the model picture: the coloured square is C; its last row and column, set off by a line, are w and 2w₀.",
    paper: "Paper: §2.1 (factorization machines), §3.1 (C = [[Z, w], [wᵀ, 2w₀]]).",
    targets: ["model-picture", "model-panel"],
    chart: "model",
    setup: {demo: "planted-regression", learners: ["occfm"], follow: "occfm", delta: 0, speed: 300, paused: false},
  },
  {
    title: "The convex set K and its size δ",
    text: [
      "C must stay in a ball K: the sum of the sizes of its eigenvalues, `‖C‖* = Σ|λᵢ|`, is at most δ.",
      "This demo's true C* has `‖C*‖* = 5`, so the default `δ = 10` can hold it.",
      "Try `δ = 1`: the ball is too small for C*, and the error stops falling near 0.15 (underfitting).",
      "Try `δ = 100`: it learns faster at first, but its steps are coarser; after about 20,000 rows `δ = 10` is ahead.",
    ],
    look: "the spectrum gauge (how much of δ C uses), and the RMSE curve after each button.",
    paper: "Paper: §3.1 (K = {C : ‖C‖* ≤ δ}) and Lemma 1 (K is convex).",
    targets: ["spectrum", "model-picture", "model-panel"],
    chart: "model",
    setup: {demo: "planted-regression", learners: ["occfm"], follow: "occfm", delta: 0, speed: 2000, paused: false},
    actions: [
      {id: "lesson-delta-1", label: "δ = 1", delta: 1},
      {id: "lesson-delta-10", label: "δ = 10", delta: 0},
      {id: "lesson-delta-100", label: "δ = 100", delta: 100},
    ],
  },
  {
    title: "The Frank-Wolfe step: no projection",
    text: [
      "After each row OCCFM asks which direction lowers the loss of all rows so far the most.",
      "Inside K the answer is a corner, `Ĉ = ±δ·qqᵀ`, with q the top eigenvector of −∇F.",
      "C moves a small step γ toward it, `Cₜ₊₁ = (1 − γ)Cₜ + γĈ`, so it never leaves K: no projection needed.",
      "The run is paused after 30 rows: press “Step one row” and watch C move.",
    ],
    look: "the Frank-Wolfe step view: Cₜ, the corner Ĉₜ, and the new Cₜ₊₁.",
    paper: "Paper: §3.2, Algorithm 2; Theorem 1 (the corner is δ·u₁v₁ᵀ) and Theorem 2 (C stays in K).",
    targets: ["fw-step", "model-picture", "model-panel"],
    chart: "model",
    setup: {demo: "planted-regression", learners: ["occfm"], follow: "occfm", delta: 0, speed: 200, paused: true, warmup: 30},
    actions: [{id: "lesson-step-row", label: "Step one row", step: true}],
  },
  {
    title: "Regret and Theorem 3",
    text: [
      "Regret is our total loss minus that of the best single C in K, picked afterwards knowing every row.",
      "If it grows slower than the rows T, our extra loss per row goes to 0.",
      "Theorem 3 bounds it by `12·D·G·T^{¾} + D·G·T^{¼}` (dashed gray): it grows at most like `T^{¾}`.",
      "On a log–log chart `T^{a}` is a line of slope a: OCCFM's ends at or below 0.75 (\"not yet\" until then).",
      "Here the best C fits every row (loss 0), so the regret is our total loss.",
    ],
    look: "the slope under the chart (once T spans a decade). At δ = 1, C* leaves the ball: a comparator finds the best C.",
    paper: "Paper: §2.2 (regret), §3.2 Theorem 3 (D = 2δ, G the largest gradient).",
    targets: ["regret-chart"],
    chart: "regret",
    // At full speed the learner leaves the comparator little time: the
    // chart would reach T = 1,000 only once the 200,000 rows are done.
    setup: {demo: "planted-regression", learners: ["occfm"], follow: "occfm", delta: 0, speed: 1000, paused: false},
    actions: [
      {id: "lesson-regret-delta-1", label: "δ = 1 (a comparator)", delta: 1},
      {id: "lesson-regret-delta-10", label: "δ = 10 (loss 0 known)", delta: 0},
    ],
  },
  {
    title: "A race, and why a baseline can win",
    text: [
      "occfm, occfm-auto, bias and fm-ftrl read the same ratings in the same order.",
      "bias has the fewest numbers to learn, so it leads at first, with occfm-auto, which leans on it.",
      "The ratings' true C has `‖C‖* ≈ 700`, far outside occfm's ball at `δ = 10`: occfm falls behind.",
      "occfm-auto needs no δ: it mixes experts (bias, linear, all-pairs, OCCFM at three δ, tastes) by past loss.",
      "fm-ftrl, with no ball, and occfm-auto lead the long run together: a regret bound does not promise the lowest error.",
    ],
    look: "who leads the RMSE curve, and when the lead changes.",
    paper: "Paper: §4.2 and Table 2 (on MovieLens, with δ tuned by grid search, OCCFM has the lowest RMSE).",
    targets: ["metric-chart"],
    chart: "metric",
    setup: {demo: "ratings", learners: ["occfm", "occfm-auto", "bias", "fm-ftrl"], follow: "", delta: 0, speed: 2000, paused: false},
  },
  {
    title: "Your own data",
    text: [
      "Try your own file: a CSV with a header row, LibSVM, or MovieLens u.data (gzip works too).",
      "Choose it with “Choose a file…” below, or drop it on the page.",
      "It is read and learned inside this page: nothing leaves your computer.",
      "The learners, δ and speed stay; the note above the chart says how the file was read, a CSV's label column too.",
    ],
    look: "the curves as your rows stream in, and the note above them: how the file was read.",
    paper: "Paper: §4.1 (the paper's data: MovieLens, IJCNN1, Spam, Epsilon).",
    targets: ["metric-chart"],
    chart: "metric",
    setup: null,
    actions: [{id: "lesson-file", label: "Choose a file…", file: true}],
  },
].map((s) => Object.freeze({actions: [], ...s})));

// stepAt returns step n (1-based), or null when there is none.
export function stepAt(n) {
  return Number.isInteger(n) && n >= 1 && n <= STEPS.length ? STEPS[n - 1] : null;
}

// stepSettings returns the settings step gives the page: current, with the
// step's setup written over it and the other learner settings (η, γ, loss,
// clip, seed, regret checkpoints) at their defaults, so that the step runs
// as its text says. A step without a setup keeps current. The view
// preferences (log axes, presenter mode, the lesson itself) are kept.
export function stepSettings(step, current, defaults) {
  const next = {...current, learners: [...current.learners]};
  const setup = step && step.setup;
  if (!setup) return next;
  for (const k of ["eta", "gamma", "loss", "clip", "seed", "checkpoints"]) next[k] = defaults[k];
  Object.assign(next, {
    view: "learn",
    file: "",
    demo: setup.demo,
    learners: [...setup.learners],
    follow: setup.follow === setup.learners[0] ? "" : setup.follow,
    delta: setup.delta,
    speed: setup.speed,
  });
  return next;
}

// setupText says in a line what a step's setup is, for the panel:
// "Set up: Ratings · occfm, bias · 200 rows/s". demoName gives a demo's
// menu name.
export function setupText(step, demoName = (d) => d) {
  const s = step && step.setup;
  if (!s) return "This step keeps the page as it is.";
  const parts = [demoName(s.demo), s.learners.join(", ")];
  if (s.delta > 0) parts.push(`δ = ${s.delta}`);
  parts.push(s.speed > 0 ? `${s.speed.toLocaleString("en-US")} rows/s` : "max speed");
  if (s.paused) parts.push(s.warmup ? `paused after ${s.warmup} rows` : "paused");
  return `Set up: ${parts.join(" · ")}.`;
}

// mathParts splits a step's sentence into its parts: [{text, math}], math
// for a `formula` (the backquotes dropped).
export function mathParts(sentence) {
  return sentence.split("`").map((text, i) => ({text, math: i % 2 === 1})).filter((p) => p.text !== "");
}

// supParts splits a formula into its parts: [{text, sup}], sup for an
// exponent written "^{…}" ("T^{¾}" is T with ¾ raised).
export function supParts(formula) {
  return formula.split(/\^\{([^}]*)\}/).map((text, i) => ({text, sup: i % 2 === 1})).filter((p) => p.text !== "");
}

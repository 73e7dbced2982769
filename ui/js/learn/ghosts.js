// Earlier runs on the metric chart: when a run starts again on the same
// data with other settings (a δ button, a lesson step, a changed η), the
// last run's curves stay on the chart, faded, dashed and labelled with
// what differed ("occfm, δ = 1"), so that a class sees δ = 1, 10 and 100
// side by side. Pure: no DOM, tested by node:test (ui/test/ghosts.test.js).

// MAX_GHOSTS is how many earlier curves the chart keeps (the oldest go).
export const MAX_GHOSTS = 6;
// GHOST_POINTS is how many points an earlier curve keeps.
const GHOST_POINTS = 400;

// KEYS are the settings a run's label names when they differ, with their
// symbols; 0 for δ and η is the learner's default.
const KEYS = [["delta", "δ"], ["eta", "η"], ["gamma", "γ"], ["loss", "loss"], ["clip", "clip"], ["seed", "seed"], ["shuffle", "rows"]];

// setting writes setting k of value v as a label says it.
function setting(k, sym, v) {
  if (k === "shuffle") return v > 0 ? `rows shuffled (${v})` : "file order";
  return `${sym} = ${(k === "delta" || k === "eta") && v === 0 ? "default" : v}`;
}

// runOf returns what identifies a run for its label: its data and the
// settings in KEYS.
export function runOf(settings, learners) {
  const run = {data: settings.file ? `file:${settings.file}` : `demo:${settings.demo}`, learners: [...learners]};
  for (const [k] of KEYS) run[k] = settings[k];
  return run;
}

// runLabel says how the run old differs from now ("δ = 1"), or "earlier
// run" when only a reset parts them.
export function runLabel(old, now) {
  const parts = KEYS.filter(([k]) => old[k] !== now[k]).map(([k, sym]) => setting(k, sym, old[k]));
  return parts.length ? parts.join(", ") : "earlier run";
}

// nextGhosts returns the earlier curves to draw once run now starts after
// run old, whose metric checkpoints were points ([rows, …, then per learner
// i its metric at 2 + 2i]): none when the data changed, else ghosts plus
// one per learner of old with at least two points (but none for a learner
// that races again with the same settings), at most MAX_GHOSTS.
export function nextGhosts(ghosts, old, points, now) {
  if (!old || old.data !== now.data) return [];
  const label = runLabel(old, now);
  const out = [...ghosts];
  old.learners.forEach((name, i) => {
    // The same settings give the same curve again (a reset, a lesson step
    // that keeps them): only a learner that leaves the race stays.
    if (label === "earlier run" && now.learners.includes(name)) return;
    const x = [], y = [];
    const step = Math.max(1, Math.ceil(points.length / GHOST_POINTS));
    points.forEach((p, j) => {
      const v = p[2 + 2 * i];
      if ((j % step === 0 || j === points.length - 1) && Number.isFinite(v) && p[0] > 0) {
        x.push(p[0]);
        y.push(v);
      }
    });
    if (x.length >= 2) out.push({name, label: `${name}, ${label}`, x, y, run: old});
  });
  return out.slice(-MAX_GHOSTS);
}

// ghostsNote says, for the chart's title, which curve is this run and which
// are earlier ones: the settings that differ between them, at this run's
// values ("solid: this run (δ = 100); dashed, faded: earlier runs"), or ""
// without earlier runs.
export function ghostsNote(now, ghosts) {
  if (!ghosts.length) return "";
  const keys = KEYS.filter(([k]) => ghosts.some((g) => g.run && g.run[k] !== now[k]));
  const here = keys.map(([k, sym]) => setting(k, sym, now[k])).join(", ");
  return ` · solid: this run${here ? ` (${here})` : ""}; faded: earlier runs`;
}

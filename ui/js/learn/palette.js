// The learners' colours: one per registered learner, the default learner
// first, then the others in the core's registry order (occfm.learners()), so
// that a learner keeps its colour in every race and no two learners share
// one. Fourteen distinct colours; a registry longer than that reuses them.

// In the registry's order (occfm-auto, then bias, ccfm-ftrl, ccfm-ogd,
// ccfm-pa, ccfm-pairs, cfm-ftrl, fm-ftrl, linear, mean, occfm, occfm-k,
// occfm-lin), the learners a class races together (occfm-auto, occfm,
// bias, fm-ftrl, occfm-k) get blue, green, orange, purple and near-black:
// no two of them alike.
const PALETTE = [
  "#2563eb", "#ea580c", "#92400e", "#dc2626", "#0891b2", "#ca8a04",
  "#db2777", "#9333ea", "#475569", "#65a30d", "#059669", "#0f172a",
  "#4338ca", "#0f766e",
];

let order = [];

// setPalette fixes the learners' order: first, then the registry's other
// names.
export function setPalette(names, first) {
  order = [first, ...names.filter((n) => n !== first)];
}

// colorOf returns the colour of learner name (the first colour for a name
// not in the registry).
export function colorOf(name) {
  const i = Math.max(0, order.indexOf(name));
  return PALETTE[i % PALETTE.length];
}

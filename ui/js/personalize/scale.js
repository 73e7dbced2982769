// The star control's ratings on a catalog's scale ({lo, hi, step}, as
// the core's catalog gives it, occfm.lib.recCatalog): pure functions, no DOM.

// starValues returns the ratings a star control offers on scale: each step
// from lo to hi (whole stars, half stars, 1 to 10), or, on a scale with no
// step or too many of them, five evenly spaced values.
export function starValues(scale) {
  const {lo, hi, step} = scale;
  const n = step > 0 ? Math.round((hi - lo) / step) + 1 : 0;
  if (n >= 2 && n <= 20) return Array.from({length: n}, (_, k) => lo + k * step);
  return Array.from({length: 5}, (_, k) => lo + (k * (hi - lo)) / 4);
}

// fiveStars reports whether scale is 1 to 5 whole stars, shown as stars;
// a control on any other shows its ratings as numbers.
export function fiveStars(scale) {
  return scale.lo === 1 && scale.hi === 5 && scale.step === 1;
}

// starLabel is a star button's text: ★ on the 1–5 whole-star scale, else
// the rating itself, halves as ½ ("3½").
export function starLabel(v, scale) {
  if (fiveStars(scale)) return "★";
  const whole = Math.trunc(v);
  if (v - whole === 0.5) return whole === 0 ? "½" : `${whole}½`;
  return String(Math.round(v * 100) / 100);
}

// givenText shows a rating given: ★★★☆☆ on the 1–5 whole-star scale, else
// the rating and the scale's top ("2½ of 5", "7 of 10").
export function givenText(stars, scale) {
  if (fiveStars(scale)) {
    const n = Math.round(stars);
    return "★".repeat(n) + "☆".repeat(5 - n);
  }
  return `${starLabel(stars, scale)} of ${scale.hi}`;
}

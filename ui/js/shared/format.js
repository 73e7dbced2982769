// Number formatting shared by every view: one way to write a number.

export function finite(v) {
  return typeof v === "number" && Number.isFinite(v);
}

export function formatNumber(v) {
  if (!finite(v)) return "–";
  if (Math.abs(v) >= 1000) return Math.round(v).toLocaleString("en-US");
  return String(Number(v.toPrecision(4)));
}

export function formatMs(ms) {
  return ms < 10 ? `${ms.toFixed(1)} ms` : `${Math.round(ms)} ms`;
}

// formatCount writes a count or a rate as a whole number with separators:
// "200,000", "1,234".
export function formatCount(v) {
  return finite(v) ? Math.round(v).toLocaleString("en-US") : "–";
}

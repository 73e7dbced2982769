// afterPaint runs fn in a task of its own after the next frame is painted,
// so that a click's own visible change (a pressed button, the next step's
// text) reaches the screen before the heavy work it starts (a new run, the
// charts rebuilt). Calls made with the same key before their turn come
// replace each other: only the last one runs (two quick clicks on Next start
// one run, the last step's).

const pending = new Map();

export function afterPaint(key, fn) {
  const token = {};
  pending.set(key, token);
  requestAnimationFrame(() => setTimeout(() => {
    if (pending.get(key) !== token) return;
    pending.delete(key);
    fn();
  }, 0));
}

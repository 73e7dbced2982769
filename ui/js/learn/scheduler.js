// The scheduler: learning in time-boxed slices, per animation frame at a
// set speed or by a MessageChannel pump at full speed, and rows/s. It knows
// when to learn, draw and feed, not how: app.js tells it what to call
// (setSchedulerHooks), so that it imports none of the modules that use it.

import {CHART_INTERVAL_MS, FULL_SPEED_CHART_MS, SLICE_MS, VIEW_INTERVAL_MS} from "../shared/config.js";
import {formatCount} from "../shared/format.js";
import {queueTask} from "../shared/queue-task.js";
import {occfm, settings} from "../shared/state.js";
import {page, session, views} from "./state.js";

// hooks are what the scheduler calls, set once by app.js before the first
// frame:
//
//   slice(ms, rows)  learns for at most ms and at most rows rows (0: no
//                    limit), applies the snapshot and returns it; null
//                    after an error (session.js runSlice)
//   draw(now)        draws the last snapshot (session.js renderViews)
//   poll()           wakes a file's feeder parked while the session asked
//                    for no bytes (../shared/feeder.js pollFeeder)
const hooks = {slice: null, draw: null, poll: null};

// setSchedulerHooks sets the hooks above.
export function setSchedulerHooks({slice, draw, poll}) {
  Object.assign(hooks, {slice, draw, poll});
}

// Learning runs in slices of at most SLICE_MS, one per task of the event loop,
// so that a click or a frame waits at most one slice.
//
// At a set speed, every animation frame learns the rows the speed allows since
// the last frame (fractions carry over), in one slice.
//
// At full speed ("max"), the pump learns one slice per task and queues the
// next through a MessageChannel: a message task runs as soon as the browser
// has handled the input and rendering that are due, and, unlike
// setTimeout(0), is never clamped to 4 ms; one slice per animation frame
// would leave the learner idle for half of every frame. The frames go on
// between slices: they draw the charts (at most every FULL_SPEED_CHART_MS) and
// rows/s, and start the pump again when it stopped (state "waiting" for a
// file's bytes, or a pause).

// chartInterval is the shortest time between two redraws of a chart: longer
// while the pump learns at full speed.
export function chartInterval() {
  return page.phase === "running" && settings.speed === 0 ? FULL_SPEED_CHART_MS : CHART_INTERVAL_MS;
}

export const clock = {
  carry: 0,       // rows the speed allows but not learned yet
  lastFrame: 0,
};

// pump queues the full-speed slices (../shared/queue-task.js).
export const pump = {port: null, queued: false};

export function startPump() {
  queueTask(pump, onPump);
}

export function onPump() {
  if (!occfm || page.phase !== "running" || settings.speed > 0) return;
  if (session.source === "file") hooks.poll();
  const snap = hooks.slice(SLICE_MS, 0);
  // Waiting for bytes: the feeder runs on its own promises; the next frame
  // tries again rather than spinning here.
  if (snap && snap.state === "running" && page.phase === "running") startPump();
}

// rate measures rows/s over the last second of frames.
export const rate = {
  samples: [],
  clear() { this.samples = []; },
  add(t, rows) {
    this.samples.push([t, rows]);
    while (this.samples.length > 2 && t - this.samples[0][0] > 1000) this.samples.shift();
  },
  value() {
    if (this.samples.length < 2) return 0;
    const [t0, r0] = this.samples[0];
    const [t1, r1] = this.samples[this.samples.length - 1];
    return t1 > t0 ? ((r1 - r0) * 1000) / (t1 - t0) : 0;
  },
};

export function frame(now) {
  const dt = Math.min(now - clock.lastFrame, 250);
  clock.lastFrame = now;
  if (occfm && page.phase !== "loading" && page.phase !== "error") {
    if (session.source === "file") hooks.poll();
    if (page.phase === "running") {
      if (settings.speed > 0) learnFor(dt);
      else startPump();
    } else if (page.phase === "done" && session.last && session.last.regret && session.last.regret.pending > 0) {
      // After the last row, the comparator may still owe checkpoints: give
      // it slices until it is up to date.
      hooks.slice(SLICE_MS, 1);
    }
  }
  rate.add(now, session.last ? session.last.rows || 0 : 0);
  if (now - views.rateShown >= 250) {
    views.rateShown = now;
    const shown = page.phase === "running" ? rate.value() : page.phase === "done" ? session.doneRate : 0;
    document.getElementById("rows-per-second").textContent = formatCount(shown);
    renderSpeedWarning(now);
  }
  if (views.stale && now - views.shown >= VIEW_INTERVAL_MS) hooks.draw(now);
  if (views.metric) flushCharts(now);
  nextFrame();
}

// SLOW_RATIO and SLOW_MS: a run at a set speed that learns under SLOW_RATIO
// of it for SLOW_MS says so (its learners take all the time there is).
const SLOW_RATIO = 0.8;
const SLOW_MS = 2000;

// renderSpeedWarning shows, under the numbers, that the run learns slower
// than its set speed, once that has lasted SLOW_MS; it hides it otherwise.
function renderSpeedWarning(now) {
  const el = document.getElementById("speed-warning");
  const r = rate.value();
  const slow = page.phase === "running" && settings.speed > 0 && session.last && session.last.state === "running" &&
    rate.samples.length > 2 && now - rate.samples[0][0] >= 900 && r < SLOW_RATIO * settings.speed;
  if (!slow) {
    views.slowSince = 0;
    setWarning(el, false);
    return;
  }
  if (!views.slowSince) views.slowSince = now;
  if (now - views.slowSince < SLOW_MS) return;
  const n = session.learners.length;
  el.textContent = `Learning ${formatCount(r)} rows/s, below the set speed of ${formatCount(settings.speed)}: ` +
    (n > 1 ? `the ${n} learners take` : "the learner takes") + " all the time there is. " +
    (n > 1 ? "Untick some learners, or set a lower speed." : "Set a lower speed to watch it at an even pace.");
  el.dataset.rate = String(r);
  setWarning(el, true);
}

// setWarning shows or hides the speed warning; a change resizes the charts,
// whose height in presenter mode leaves it room (charts.js).
function setWarning(el, show) {
  if (el.hidden !== show) return;
  el.hidden = !show;
  dispatchEvent(new Event("resize"));
}

// nextFrame asks for the next frame: the next animation frame, except while
// the pump learns at full speed. Then the views are drawn every
// VIEW_INTERVAL_MS and no frame is asked for in between: every frame costs
// the learner the browser's rendering work, even when nothing changed.
export function nextFrame() {
  if (page.phase === "running" && settings.speed === 0) {
    setTimeout(() => requestAnimationFrame(frame), VIEW_INTERVAL_MS);
  } else {
    requestAnimationFrame(frame);
  }
}

// learnFor learns the rows the speed allows for dt ms of wall time, in one
// slice of at most SLICE_MS (the core checks the deadline before every row).
export function learnFor(dt) {
  clock.carry = Math.min(clock.carry + (settings.speed * dt) / 1000, Math.max(1, settings.speed / 4));
  if (clock.carry < 1) return;
  const before = session.last ? session.last.rows || 0 : 0;
  const snap = hooks.slice(SLICE_MS, Math.floor(clock.carry));
  if (!snap) return;
  clock.carry = Math.max(0, clock.carry - ((snap.rows || 0) - before));
}

export function flushCharts(now, force = false) {
  views.metric.flush(now, force);
  views.loss.flush(now, force);
  views.regret.flush(now, force);
  views.expertRegret.flush(now, force);
}

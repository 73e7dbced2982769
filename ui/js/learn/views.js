// The Learn view's readouts: numbers, the learner table, guard notes,
// the stream's info, the regret readout, the preview, notes and errors.
// Each owns its part of the DOM and is told what to draw (a snapshot, the
// run's learners, its regret…) by the session (session.js), which holds the
// state; none reads the page's state itself.

import {finite, formatCount, formatNumber} from "../shared/format.js";
import {colorOf} from "./palette.js";
import {REGRET_FIXED} from "./regret-chart.js";

export const METRICS = ["rmse", "mae", "error_rate", "auc", "logloss", "avg_loss"];



// followedIndex is the index in learners of the one the numbers, the model
// panel and Download model follow: follow, else the first.
export function followedIndex(learners, follow) {
  return Math.max(0, learners.indexOf(follow));
}

// renderNumbers shows rows and the progressive metrics of learner number
// follow: the text has 4 decimals, data-value the full-precision number.
export function renderNumbers(snap, follow) {
  document.getElementById("rows").textContent = formatCount(snap.rows || 0);
  const all = Array.isArray(snap.learners) ? snap.learners : [];
  const first = all[follow] || all[0] || {};
  const caption = document.getElementById("numbers-caption");
  const text = `Progressive metrics of ${first.learner || "the first learner"}: every row is scored before the learner is updated on it.`;
  if (caption.textContent !== text) caption.textContent = text;
  for (const key of METRICS) {
    const card = /** @type {HTMLElement} */ (document.querySelector(`[data-metric="${key}"]`));
    const value = /** @type {HTMLElement} */ (card.querySelector(".value"));
    const v = first[key];
    if (finite(v)) {
      card.hidden = false;
      value.dataset.value = String(v);
      value.textContent = v.toFixed(4);
    } else {
      card.hidden = true;
      delete value.dataset.value;
      value.textContent = "";
    }
  }
}

// renderLearnerTable lists every learner, like the CLI's table, and the
// guard notes under it (clip: the "Clip predictions" setting, to name).
export function renderLearnerTable(snap, clip) {
  const table = /** @type {HTMLTableElement} */ (document.getElementById("learner-table"));
  const learners = Array.isArray(snap.learners) ? snap.learners : [];
  const metricCols = snap.task === "classification"
    ? [["error_rate", "error rate"], ["auc", "AUC"], ["logloss", "log loss"]]
    : [["rmse", "RMSE"], ["mae", "MAE"]];
  const cols = [["rows", "rows"], ["seconds", "seconds"], ["rate", "updates/s"], ["avg_loss", "avg loss"], ...metricCols];
  const head = document.createElement("tr");
  head.append(th("learner"), ...cols.map(([, label]) => th(label)));
  table.tHead.replaceChildren(head);
  renderGuardNotes(learners, clip);
  table.tBodies[0].replaceChildren(...learners.map((l, i) => {
    const tr = document.createElement("tr");
    const name = td(l.learner + (l.paused_at ? " (paused)" : l.resets ? ` (reset ×${l.resets})` : ""));
    name.style.setProperty("--swatch", colorOf(l.learner));
    name.className = "learner-name";
    tr.append(name, ...cols.map(([key]) => {
      if (key === "rows") return td(finite(l.rows) ? formatCount(l.rows) : "");
      if (key === "seconds") return td(finite(l.seconds) ? l.seconds.toFixed(3) : "");
      if (key === "rate") return td(finite(l.seconds) && l.seconds > 0 ? Math.round(l.rows / l.seconds).toLocaleString("en-US") : "");
      return td(finite(l[key]) ? l[key].toFixed(4) : "");
    }));
    return tr;
  }));
}

// divergenceNote is what the top of the page says when learner l of a
// snapshot has diverged again (the guard notes below the table may be out
// of sight).
export function divergenceNote(l) {
  return l.paused_at
    ? `${l.learner} diverged and was paused at row ${l.paused_at.toLocaleString("en-US")}: η is probably too large (details under Learners).`
    : `${l.learner} diverged and was reset to a fresh learner (${l.resets} of 3 resets; details under Learners).`;
}

// renderGuardNotes says what each learner's guard did: divergences,
// resets, a pause, rows not learned, with the first events; and whether
// predictions are clipped (clip: the setting, to name).
export function renderGuardNotes(learners, clip) {
  const list = document.getElementById("guard-notes");
  const items = [];
  for (const l of learners) {
    if (!l.divergences && !l.refused) continue;
    const parts = [];
    if (l.divergences) parts.push(`diverged ${l.divergences}×, reset ${l.resets}×`);
    if (l.paused_at) parts.push(`paused at row ${l.paused_at.toLocaleString("en-US")}: it stopped learning and predicts the label mean`);
    if (l.refused) parts.push(`${l.refused.toLocaleString("en-US")} row${l.refused === 1 ? "" : "s"} not learned (${l.refused_why || "a feature beyond ±1e9"})`);
    const li = document.createElement("li");
    li.className = "warn";
    const head = document.createElement("strong");
    head.textContent = `${l.learner}: `;
    li.append(head, parts.join("; ") + (l.guard_advice ? ". " + l.guard_advice[0].toUpperCase() + l.guard_advice.slice(1) : ""));
    const events = document.createElement("ul");
    for (const e of l.guard_events || []) {
      const ei = document.createElement("li");
      ei.textContent = e;
      events.append(ei);
    }
    li.append(events);
    items.push(li);
  }
  for (const l of learners) {
    if (!Array.isArray(l.experts) || l.experts.length === 0) continue;
    // occfm-auto: which δ is winning, by the exponential weights.
    const live = l.experts.filter((e) => !e.retired).sort((a, b) => b.weight - a.weight);
    const gone = l.experts.filter((e) => e.retired).map((e) => e.name);
    const li = document.createElement("li");
    li.className = "experts";
    const head = document.createElement("strong");
    head.textContent = `${l.learner}: `;
    li.append(head, `following ${live.map((e) => `${e.name} ${(100 * e.weight).toFixed(e.weight > 0.995 || e.weight < 0.005 ? 0 : 1)} %`).join(", ")}` +
      (gone.length ? `; retired (far behind, stopped learning): ${gone.join(", ")}` : "") +
      (finite(l.expert_regret) ? `; regret to its best expert ${formatNumber(l.expert_regret)} (the forecaster's bound: ${formatNumber(l.expert_regret_bound)})` : "") + ".");
    items.push(li);
  }
  const clipped = learners.filter((l) => l.clip).map((l) => l.learner);
  if (clipped.length) {
    const li = document.createElement("li");
    li.textContent = `Predictions clipped to the range of the labels seen (Clip predictions: ${clip}).`;
    items.push(li);
  }
  list.replaceChildren(...items);
  list.hidden = items.length === 0;
}

export function th(text) {
  const el = document.createElement("th");
  el.textContent = text;
  return el;
}

export function td(text) {
  const el = document.createElement("td");
  el.textContent = text;
  return el;
}

// renderOrder says when a file's labels look sorted (snap.order, from
// data.LabelOrder) and offers to shuffle its rows, or, when they are
// shuffled (shuffle: the seed, 0 for the file's order), says so, with the
// rows read so far while the file is read into memory.
export function renderOrder(snap, shuffle, seed) {
  const box = document.getElementById("order-note");
  const text = document.getElementById("order-text");
  const button = document.getElementById("shuffle-file");
  box.classList.toggle("shuffled", shuffle > 0);
  if (shuffle > 0) {
    box.hidden = false;
    text.textContent = `Rows shuffled with seed ${shuffle}, in the order of occfm run -shuffle ${shuffle}` +
      (snap.held > 0 ? `: reading the file into memory first, ${snap.held.toLocaleString("en-US")} rows so far…` : ".");
    button.textContent = "Keep the file's order";
  } else if (snap.order) {
    box.hidden = false;
    text.textContent = `⚠ In this file ${snap.order}.`;
    button.textContent = `Shuffle the rows (seed ${seed || 1})`;
  } else {
    box.hidden = true;
  }
}

// renderStreamInfo names the stream (name: the file or the demo's title),
// its layout, task and features.
export function renderStreamInfo(snap, name, layout) {
  const parts = [name];
  if (layout) parts.push(layout);
  if (snap.task) parts.push(snap.task);
  if (finite(snap.features) && snap.features > 0) parts.push(`${snap.features.toLocaleString("en-US")} features`);
  if (snap.state === "waiting") parts.push("waiting for data…");
  document.getElementById("stream-info").textContent = parts.join(" · ");
}

// resetExpertRegret shows chart, the regret of learner auto to its best
// expert, when auto races (a name, or "" when it does not), and empties it.
export function resetExpertRegret(chart, auto) {
  const fig = document.getElementById("expert-regret");
  fig.hidden = !auto;
  if (fig.hidden) return;
  chart.colors = [colorOf(auto), "#6b7280"];
  chart.reset([auto, "bound"]);
}

// lagText says, in the regret headline, how far the comparator is behind
// the learners, and that it stops, or stopped, at its row cap: a chart that
// lags or stops must not read as the end of the run.
function lagText(st, any) {
  const pending = st.pending || 0;
  const cap = `T = ${formatCount(st.max_rows)}, its row cap`;
  const parts = [];
  if (pending > 0) {
    const behind = `${pending} checkpoint${pending === 1 ? "" : "s"} (${formatCount(st.lag || 0)} rows) behind the learners`;
    parts.push(any ? `the comparator is ${behind}` : `the comparator is working, ${behind}`);
    if (st.truncated) parts.push(`it stops at ${cap}`);
  } else if (st.truncated) {
    parts.push(`the comparator stopped at ${cap}; later rows are not compared`);
  }
  return parts.length ? " — " + parts.join("; ") : "";
}

// renderRegret writes the readout under the regret chart: the latest band,
// each learner's log-log slope (with its guarantee from the registry
// catalog), D and G, and where the comparator stands. st is the last
// snapshot's regret status (null: not tracked), pts the checkpoints so far,
// learners the run's, started whether a snapshot came yet.
export function renderRegret(st, pts, learners, catalog, started) {
  const last = pts.length > 0 ? pts[pts.length - 1] : null;
  const latest = document.getElementById("regret-latest");
  const slopes = document.getElementById("regret-slopes");
  const constants = document.getElementById("regret-constants");
  const comparator = document.getElementById("regret-comparator");
  if (!st) {
    latest.textContent = started ? "Regret is not tracked for this run." : "";
    for (const k of ["value", "lo", "hi", "t", "pending", "truncated"]) delete latest.dataset[k];
    slopes.replaceChildren();
    constants.textContent = "";
    comparator.textContent = "";
    return;
  }
  if (last) {
    const t = last[0];
    const band = (i) => [last[REGRET_FIXED + 3 * i + 1], last[REGRET_FIXED + 3 * i + 2]];
    const [lo0, hi0] = band(0);
    latest.dataset.value = String((lo0 + hi0) / 2);
    latest.dataset.lo = String(lo0);
    latest.dataset.hi = String(hi0);
    latest.dataset.t = String(t);
    const parts = learners.map((name, i) => {
      const [lo, hi] = band(i);
      const text = `[${formatNumber(lo)}, ${formatNumber(hi)}]`;
      return learners.length > 1 ? `${name} ${text}` : text;
    });
    const below = learners.some((_, i) => band(i)[0] + band(i)[1] < 0)
      ? " — below 0: better than the best fixed C in K, which a learner that changes over time can be (log–log draws −regret, dotted)" : "";
    latest.textContent = `regret at T = ${t.toLocaleString("en-US")}: ${parts.join(" · ")}${below}` + lagText(st, true);
    latest.dataset.pending = String(st.pending || 0);
    latest.dataset.truncated = String(!!st.truncated);
  } else {
    for (const k of ["value", "lo", "hi", "t"]) delete latest.dataset[k];
    latest.textContent = "regret: waiting for the first checkpoint" + lagText(st, false);
    latest.dataset.pending = String(st.pending || 0);
    latest.dataset.truncated = String(!!st.truncated);
  }
  const slope = Array.isArray(st.slope) ? st.slope : [];
  slopes.replaceChildren(...learners.map((name, i) => {
    const li = document.createElement("li");
    li.style.setProperty("--swatch", colorOf(name));
    li.className = "learner-name";
    const v = slope[i];
    // The slope is over the last decade of T (core.DecadeSlope), and none
    // until the checkpoints span one: earlier it reads a learner still far
    // from its long run, which the theorem does not speak of.
    const m = last ? (last[REGRET_FIXED + 3 * i + 1] + last[REGRET_FIXED + 3 * i + 2]) / 2 : NaN;
    let text = m <= 0 ? "— (the regret is at or below 0: a log–log slope cannot describe it)"
      : "— (waiting until the checkpoints span a decade of T: before, the slope means little)";
    if (finite(v)) text = `${v.toFixed(2)} — ${v >= 1 ? "linear or worse" : "sub-linear"}${guarantee(catalog, name, v)}`;
    li.textContent = `${learners.length > 1 ? name + ": " : ""}slope of log regret vs log T (over the last decade of T): ${text}`;
    if (finite(v)) li.dataset.value = String(v);
    return li;
  }));
  const g = last ? formatNumber(last[4]) : "–";
  constants.textContent = `D = 2δ = ${formatNumber(st.d)}, G = ${g} (largest gradient norm seen)` +
    (st.no_delta ? `. ${learners[0]} has no δ: its regret is against the best C in K for δ = ${formatNumber(st.d / 2)}, the comparator's ball, and the dashed bound is OCCFM's at that δ, not its own` : "");
  const pending = st.pending || 0;
  let text = st.zero_best
    ? "comparator: none needed — the demo's C* fits the ball (‖C*‖* ≤ δ) with loss 0 on every row, so the regret is the total loss, exact at each checkpoint"
    : pending > 0
    ? `comparator: ${pending} checkpoint${pending === 1 ? "" : "s"} behind, lag ${(st.lag || 0).toLocaleString("en-US")} rows`
    : last ? "comparator: up to date" : "comparator: no checkpoint yet";
  if (st.truncated) {
    text += ` · comparator keeps at most ${(st.max_rows || 0).toLocaleString("en-US")} rows: later rows are not in the comparison`;
  }
  if (st.left_out > 0) {
    text += ` · ${st.left_out.toLocaleString("en-US")} row${st.left_out === 1 ? "" : "s"} left out (a feature or label beyond ±1e9, or over 1,000 nonzeros)`;
  }
  comparator.textContent = text;
}

// guarantee names learner name's regret bound against the best C in K, from
// the registry (occfm.learners()), or says it has none. A slope v above the
// bound's exponent is "not yet" within it: the theorem speaks of the long
// run, and the page never claims more than the numbers show.
function guarantee(catalog, name, v) {
  const l = catalog.find((x) => x.name === name);
  if (!l || !(l.regretExponent > 0)) return " (no bound against this comparator)";
  const p = {0.5: "½", 0.75: "¾"}[l.regretExponent] || String(l.regretExponent);
  if (v > l.regretExponent) return ` (not yet ≤ ${p}: ${l.regretSource} bounds it by ${p} asymptotically)`;
  return ` (${l.regretSource}: ≤ ${p} asymptotically)`;
}

// renderKnown shows what is known about the demo's optimum (known: "" for
// nothing).
export function renderKnown(known) {
  const el = document.getElementById("known");
  if (el.textContent === known) return;
  el.hidden = !known;
  el.textContent = known;
}

// renderPreview shows a file's first lines and, for CSV, a role menu per
// column whose change calls onRole(roles). layout is the layout known so
// far, forced whether "Read as" chose it. Everything from the file goes
// through textContent.
export function renderPreview(preview, {layout = "", forced = false, onRole = null} = {}) {
  const card = document.getElementById("preview");
  card.hidden = !preview;
  if (!preview) return;
  layout = preview.layout || layout || preview.format || "";
  const forcedText = forced ? ` (forced by "Read as")` : "";
  document.getElementById("preview-layout").textContent = layout ? `read as: ${layout}${forcedText}` : "";
  renderWarnings(Array.isArray(preview.warnings) ? preview.warnings : []);
  document.getElementById("preview-lines").textContent = (preview.lines || []).join("\n");
  const table = /** @type {HTMLTableElement} */ (document.getElementById("preview-columns"));
  const columns = Array.isArray(preview.columns) ? preview.columns : [];
  table.hidden = columns.length === 0;
  table.tBodies[0].replaceChildren(...columns.map((col) => {
    const tr = document.createElement("tr");
    const select = document.createElement("select");
    select.dataset.column = col.name;
    select.setAttribute("data-testid", "role-select");
    select.setAttribute("aria-label", `role of column ${col.name}`);
    for (const role of ["label", "categorical", "numeric", "ignore"]) {
      const opt = document.createElement("option");
      opt.value = role;
      opt.textContent = role;
      select.append(opt);
    }
    select.value = col.role;
    select.addEventListener("change", () => onRole && onRole(previewRoles()));
    const cell = document.createElement("td");
    cell.append(select);
    tr.append(td(col.name), cell);
    return tr;
  }));
}

// renderWarnings shows what the reader guessed or read past (plain text,
// role=status: announced, not alerted).
export function renderWarnings(warnings) {
  const el = document.getElementById("preview-warnings");
  el.replaceChildren(...warnings.map((w) => {
    const li = document.createElement("li");
    li.textContent = String(w);
    return li;
  }));
  el.hidden = warnings.length === 0;
}

// previewRoles reads the role menus: column → role.
function previewRoles() {
  const roles = {};
  for (const select of /** @type {NodeListOf<HTMLSelectElement>} */ (document.querySelectorAll("#preview-columns select"))) roles[select.dataset.column] = select.value;
  return roles;
}

export function showError(message) {
  const el = document.getElementById("error");
  el.textContent = message;
  el.hidden = !message;
}

// renderSkipped shows the malformed rows skipped, e.g. "312 rows skipped —
// first: u.data:17: field "rating": "abc" is not a number", and the first
// reasons; file content goes through textContent only.
export function renderSkipped(n, first) {
  const box = document.getElementById("skipped");
  if (box.hidden !== !(n > 0)) box.hidden = !(n > 0);
  if (!(n > 0)) return;
  const head = `${n.toLocaleString("en-US")} ${n === 1 ? "row" : "rows"} skipped` + (first.length ? ` — first: ${first[0]}` : "");
  const summary = document.getElementById("skipped-summary");
  if (summary.textContent !== head) summary.textContent = head;
  const list = document.getElementById("skipped-reasons");
  const more = first.slice(1);
  if (list.childElementCount === more.length) return;
  list.replaceChildren(...more.map((r) => {
    const li = document.createElement("li");
    li.textContent = r;
    return li;
  }));
}

export function showNote(message) {
  const el = document.getElementById("note");
  el.textContent = message;
  el.hidden = !message;
}

// demoTitle returns demo name's title from the registry's demos.
export function demoTitle(demos, name) {
  const d = demos.find((x) => x.name === name);
  return d ? d.title || d.name : name;
}

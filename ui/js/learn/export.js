// Export of a run: its checkpoints and regret checkpoints as CSV or JSON.

import {download} from "../shared/download.js";
import {finite} from "../shared/format.js";
import {settings} from "../shared/state.js";
import {configFor} from "./session.js";
import {session} from "./state.js";


export function exportName(ext) {
  const base = session.source === "file" ? session.file.name : settings.demo;
  return `occfm-${base.replace(/[^A-Za-z0-9._-]+/g, "_")}-${session.last ? session.last.rows || 0 : 0}.${ext}`;
}

export function exportColumns() {
  const metric = session.task === "classification" ? "error_rate" : "rmse";
  return ["rows", "ms", ...session.learners.flatMap((n) => [`${n}_${metric}`, `${n}_avg_loss`]),
    ...(session.mixture ? [`${session.mixture}_regret_to_best_expert`, `${session.mixture}_expert_bound`] : [])];
}

export function regretColumns() {
  return ["T", "comparator_loss", "gap", "bound", "G",
    ...session.learners.flatMap((n) => [`${n}_cum_loss`, `${n}_regret_lo`, `${n}_regret_hi`])];
}

// exportCSV writes the checkpoints and, after a blank line, the regret
// checkpoints as a second table.
export function exportCSV() {
  const row = (p) => p.map((v) => (finite(v) ? String(v) : "")).join(",");
  const lines = [exportColumns().join(",")];
  for (const p of session.checkpoints) lines.push(row(p));
  if (session.regret.length > 0) {
    lines.push("", regretColumns().join(","));
    for (const p of session.regret) lines.push(row(p));
  }
  download(new Blob([lines.join("\n") + "\n"], {type: "text/csv"}), exportName("csv"));
}

export function exportJSON() {
  const run = {
    source: session.source === "file" ? {file: session.file.name, roles: session.roles} : {demo: settings.demo},
    layout: session.layout,
    task: session.task,
    settings: configFor(session.source),
    link: location.href,
    known: session.known,
    learners: session.last ? session.last.learners : [],
    columns: exportColumns(),
    checkpoints: session.checkpoints,
    regret: {columns: regretColumns(), points: session.regret},
  };
  download(new Blob([JSON.stringify(run, null, 1)], {type: "application/json"}), exportName("json"));
}

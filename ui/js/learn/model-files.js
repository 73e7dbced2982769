// Model files: Download model (occfm.saveModel) and Load model
// (occfm.loadModel), and the model's line under the controls.

import {download} from "../shared/download.js";
import {readError} from "../shared/read-error.js";
import {occfm} from "../shared/state.js";
import {call, startSession} from "./session.js";
import {page, session} from "./state.js";
import {showError, showNote} from "./views.js";

// The core saves and loads them (occfm.saveModel, occfm.loadModel); the page
// only moves bytes. A loaded model is kept in the core and continued by every
// later start, so the next file, demo or reset continues it.

export function saveModel() {
  const out = call(() => occfm.saveModel());
  if (!out) return;
  if (out.error) {
    showError(`Cannot save the model: ${out.error}`);
    return;
  }
  const name = `occfm-${out.learner}-${out.rows}rows.occfm`;
  download(new Blob([out.bytes], {type: "application/octet-stream"}), name);
  showNote(`Saved ${name} (${out.bytes.length.toLocaleString("en-US")} bytes).`);
}

export async function loadModel(file) {
  let bytes;
  try {
    // The header first: a data file or a huge file picked by mistake is
    // refused without being read whole.
    const head = new Uint8Array(await file.slice(0, 64).arrayBuffer());
    const headError = call(() => occfm.modelHead(head, file.size));
    if (headError == null) return;
    if (headError !== "") {
      showError(`${file.name}: ${headError}`);
      return;
    }
    bytes = new Uint8Array(await file.arrayBuffer());
  } catch (err) {
    showError(readError(file, err));
    return;
  }
  const info = call(() => occfm.loadModel(bytes));
  if (info == null) return;
  if (info.error) {
    // The current run and any model loaded before are left as they were.
    showError(`${file.name}: ${info.error}`);
    return;
  }
  page.model = {...info, name: file.name};
  showError("");
  renderModelInfo();
  // Applied at once: the current run starts again from row 0 with the
  // loaded model, when its task is the model's. The line beside the button
  // says what happened.
  const sameTask = !session.task || session.task === info.task;
  const source = session.source === "file" && session.file ? session.file.name : "the demo";
  if (sameTask && (session.source === "demo" || session.file)) {
    startSession(session.source, {note: `Loaded ${file.name}: continuing it on ${source} from row 0.`});
    setModelStatus(`Loaded: ${source} runs again with this model.`);
  } else {
    showNote(`Loaded ${file.name} (${info.task}): choose a ${info.task} file or demo to continue it.`);
    setModelStatus(`Loaded, not applied: this run is ${session.task}, the model ${info.task}. Choose a ${info.task} file or demo.`);
  }
}

// setModelStatus says, beside the model buttons, what Load model did.
function setModelStatus(text) {
  const el = document.getElementById("model-status");
  el.textContent = text;
  el.hidden = !text;
}

export function forgetModel() {
  if (occfm) call(() => occfm.forgetModel());
  page.model = null;
  renderModelInfo();
  setModelStatus("");
  showNote("The model is forgotten: the next run starts fresh learners.");
}

export function renderModelInfo() {
  const m = page.model;
  const info = document.getElementById("model-info");
  document.getElementById("model-forget").hidden = !m;
  if (!m) {
    info.textContent = "";
    return;
  }
  const from = m.format ? ` from a ${m.format} file` : "";
  info.textContent = `Continuing ${m.name}: ${m.learner}, ${m.task}, ` +
    `${m.rows.toLocaleString("en-US")} rows learned, ${m.features.toLocaleString("en-US")} features${from}.`;
}

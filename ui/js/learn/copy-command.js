// "Copy as command" (the Export card): the occfm commands that replay the
// run (command.js), copied to the clipboard where the browser allows it,
// and always shown, selectable, under the button. The module owns the
// button's output and status line.

import {commandLine} from "./command.js";
import {page, session} from "./state.js";

const el = (id) => document.getElementById(id);

// copyCommand writes the commands of the current run (the config it was
// started with, session.config, and the rows played so far) into the
// output and copies them.
export function copyCommand() {
  const snap = session.last;
  if (!session.config || !snap) {
    showCommand("", "No run yet: start one, then copy its command.");
    return;
  }
  const first = Array.isArray(snap.learners) && snap.learners.length > 0 ? snap.learners[0] : {};
  let text;
  try {
    text = commandLine(session.config, {rows: snap.rows || 0, task: session.task, done: snap.state === "done", clip: !!first.clip,
      model: page.model && session.config.source === "file" ? page.model.name : ""});
  } catch (err) {
    showCommand("", `Cannot write the command: ${err && err.message ? err.message : err}`);
    return;
  }
  showCommand(text, "");
  if (!navigator.clipboard || typeof navigator.clipboard.writeText !== "function") {
    showCommand(text, "Select it and copy it: this browser gives the page no clipboard.");
    return;
  }
  // Said once the clipboard answers, unless another command is shown by then.
  const said = (status) => { if (el("command").textContent === text) showCommand(text, status); };
  navigator.clipboard.writeText(text).then(
    () => said("Copied to the clipboard."),
    (err) => said(`Select it and copy it: the clipboard refused (${err && err.message ? err.message : err}).`));
}

// clearCommand takes the command off: a new run started, and the command
// shown replays the last one.
export function clearCommand() {
  showCommand("", "");
}

// showCommand shows text in the output (hidden when empty) and says status.
function showCommand(text, status) {
  const out = el("command");
  out.replaceChildren(...argNodes(text));
  out.hidden = !text;
  const line = el("command-status");
  line.textContent = status;
  line.hidden = !status;
}

// LONG_ARG is the length beyond which an argument (a file's name) may
// break anywhere; a shorter one is kept whole on its line.
const LONG_ARG = 24;

// argNodes returns text as nodes whose text is text: each argument of a
// command short enough is a span kept on one line (a narrow screen breaks
// "-seed 1" between arguments, never after its "-"); spaces, line ends,
// long arguments and comment lines stay plain text.
function argNodes(text) {
  const nodes = [];
  for (const [i, line] of text.split("\n").entries()) {
    if (i > 0) nodes.push("\n");
    if (line.startsWith("#")) {
      nodes.push(line);
      continue;
    }
    for (const [j, arg] of line.split(" ").entries()) {
      if (j > 0) nodes.push(" ");
      if (arg.length > LONG_ARG || arg === "") {
        nodes.push(arg);
        continue;
      }
      const span = document.createElement("span");
      span.className = "arg";
      span.textContent = arg;
      nodes.push(span);
    }
  }
  return nodes;
}

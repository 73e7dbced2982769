// A classic script, not a module, so that it runs where the page's modules
// cannot. Opened from the disk (file://), a browser refuses ES modules and
// fetch, and the page would say "loading the learner…" for ever: this says
// why, and what to do instead. The one-file page (dist/occfm.html, which
// opens from the disk) has no module script, and shows nothing of it.
(function () {
  if (location.protocol !== "file:" || !document.querySelector('script[type="module"]')) return;
  var note = document.getElementById("start-note");
  var state = document.getElementById("state-text");
  if (!note || !state) return;
  note.textContent = "This page cannot start from the disk: on a file:// page the browser blocks its modules " +
    "and its learner (occfm.wasm). Open occfm.html instead, beside this file: the whole page in one file, " +
    "made to open from the disk. Or serve this folder: make serve in the OCCFM project, or " +
    "python3 -m http.server in this folder, then open http://localhost:8000/.";
  note.hidden = false;
  state.textContent = "cannot start from a file";
  document.body.setAttribute("data-state", "error");
})();

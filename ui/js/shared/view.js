// The page's two views, Learn and Personalize: the tabs that switch them,
// the switch itself (view= in the link), and a file dropped anywhere on the
// page, which goes to the view shown. What a view does when it is shown,
// hidden or given files is its own: app.js hands those functions over
// (setViewHooks), so that this module imports neither view.

import {settings, writeHash} from "./state.js";

// hooks, per view, set once by app.js before the first setView:
//
//   show()        the view is shown
//   hide()        the view is hidden (optional)
//   drop(files)   files were dropped on the page while it shows
const hooks = {learn: null, personalize: null};

// setViewHooks sets the hooks above: {learn: {show, hide, drop},
// personalize: {show, hide, drop}}.
export function setViewHooks(h) {
  Object.assign(hooks, h);
}

// setView shows the Learn or the Personalize view, says so in the link
// (unless write is false), hides the other view and shows this one
// (hooks): Learn pauses a running run while Personalize shows, since both
// would share the core's time, and goes on with it when it is back.
export function setView(view, {write = true} = {}) {
  view = view === "personalize" ? "personalize" : "learn";
  settings.view = view;
  document.body.dataset.view = view;
  document.getElementById("learn-view").hidden = view !== "learn";
  document.getElementById("personalize-view").hidden = view !== "personalize";
  for (const tab of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('.view-tabs [role="tab"]'))) {
    const on = tab.dataset.view === view;
    tab.setAttribute("aria-selected", String(on));
    tab.tabIndex = on ? 0 : -1;
  }
  document.querySelector("#drop-overlay p").textContent = view === "personalize"
    ? "Drop your MovieLens ratings and items files" : "Drop a data file to learn it";
  if (write) writeHash();
  hooks[view === "learn" ? "personalize" : "learn"].hide?.();
  hooks[view].show();
}

// wireViews wires the tabs (a click, ← and →) and drag and drop anywhere on
// the page.
export function wireViews() {
  for (const tab of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('.view-tabs [role="tab"]'))) {
    tab.addEventListener("click", () => setView(tab.dataset.view));
    tab.addEventListener("keydown", (e) => {
      if (e.key !== "ArrowLeft" && e.key !== "ArrowRight") return;
      e.preventDefault();
      const other = /** @type {HTMLElement} */ (document.querySelector(`.view-tabs [role="tab"]:not([data-view="${tab.dataset.view}"])`));
      other.focus();
      setView(other.dataset.view);
    });
  }
  const overlay = document.getElementById("drop-overlay");
  const hasFiles = (e) => e.dataTransfer && [...e.dataTransfer.types].includes("Files");
  document.addEventListener("dragenter", (e) => {
    if (!hasFiles(e)) return;
    e.preventDefault();
    overlay.hidden = false;
  });
  document.addEventListener("dragover", (e) => {
    if (!hasFiles(e)) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = "copy";
  });
  document.addEventListener("dragleave", (e) => {
    if (e.relatedTarget == null) overlay.hidden = true;
  });
  document.addEventListener("drop", (e) => {
    overlay.hidden = true;
    if (!hasFiles(e)) return;
    e.preventDefault();
    hooks[settings.view === "personalize" ? "personalize" : "learn"].drop([...e.dataTransfer.files]);
  });
}

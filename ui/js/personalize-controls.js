// Personalize: its controls (catalog, learner, search, sort, stars by
// keyboard) and their events.

import {pickPersonalFiles} from "./personalize-files.js";
import {renderItems, renderPersonalProgress, sortPersonalItems} from "./personalize-views.js";
import {P_LEARNER, P_PAGE, personal} from "./personalize-state.js";
import {clearPersonal, downloadRatings, ratePersonal, setView, startPersonal} from "./personalize.js";
import {page, settings, writeHash} from "./state.js";

export function buildPersonalControls() {
  const select = document.getElementById("p-learner");
  select.replaceChildren(...page.catalog.learners.map((l) => {
    const opt = document.createElement("option");
    opt.value = l.name;
    opt.textContent = l.name;
    if (l.summary) opt.title = l.summary;
    return opt;
  }));
  const names = page.catalog.learners.map((l) => l.name);
  if (!names.includes(personal.learner) && names.length) {
    personal.learner = names.includes(P_LEARNER) ? P_LEARNER : names[0];
    settings.plearner = "";
    writeHash();
  }
  select.value = personal.learner;
  renderLearnerHint();
  renderPersonalProgress();
}

export function renderLearnerHint() {
  const l = page.catalog.learners.find((x) => x.name === personal.learner);
  // The registry's plain words first (item-lift's say how it recommends).
  let text = l ? l.plain || l.summary || "" : "";
  if (personal.learner === "occfm" || personal.learner === "occfm-auto") {
    text = `${personal.learner} follows the whole stream: a new person's few ratings barely move it, ` +
      `so the list may not change (${P_LEARNER} adapts at once).`;
  } else if (personal.learner === "occfm-k") {
    text = "Folds you in from all your ratings after each one, so the list follows your taste at once. " +
      "occfm-auto, the Learn view's default, and OCCFM barely move for a few ratings of a new person.";
  } else if (personal.learner === "fm-ftrl") {
    text = "Adapts to a new person at once: each rating is one online step of your factor vector.";
  }
  document.getElementById("p-learner-hint").textContent = text;
}

// onStarKey: on a star, 1–5 rate the item, ← → (and Home, End) move between
// its stars; Enter and Space press the star (a button).
export function onStarKey(e) {
  const star = e.target.closest(".p-star");
  if (!star || e.ctrlKey || e.metaKey || e.altKey) return;
  const li = star.closest(".p-item");
  const stars = [...li.querySelectorAll(".p-star")];
  const at = stars.indexOf(star);
  let to = -1;
  if (/^[1-5]$/.test(e.key)) {
    e.preventDefault();
    ratePersonal(Number(li.dataset.item), Number(e.key));
    return;
  }
  if (e.key === "ArrowRight" || e.key === "ArrowUp") to = Math.min(4, at + 1);
  else if (e.key === "ArrowLeft" || e.key === "ArrowDown") to = Math.max(0, at - 1);
  else if (e.key === "Home") to = 0;
  else if (e.key === "End") to = 4;
  if (to < 0) return;
  e.preventDefault();
  for (const s of stars) s.tabIndex = -1;
  stars[to].tabIndex = 0;
  stars[to].focus();
}

export function wirePersonal() {
  const $ = (id) => document.getElementById(id);
  for (const tab of document.querySelectorAll('.view-tabs [role="tab"]')) {
    tab.addEventListener("click", () => setView(tab.dataset.view));
    tab.addEventListener("keydown", (e) => {
      if (e.key !== "ArrowLeft" && e.key !== "ArrowRight") return;
      e.preventDefault();
      const other = document.querySelector(`.view-tabs [role="tab"]:not([data-view="${tab.dataset.view}"])`);
      other.focus();
      setView(other.dataset.view);
    });
  }
  for (const radio of document.querySelectorAll('input[name="p-catalog"]')) {
    radio.addEventListener("change", () => {
      if (!radio.checked || radio.value === personal.catalog) return;
      personal.catalog = radio.value;
      startPersonal();
    });
  }
  $("p-files").addEventListener("change", (e) => {
    const files = [...(e.target.files || [])];
    e.target.value = "";  // the same files can be picked again
    if (files.length) pickPersonalFiles(files);
  });
  $("p-learner").addEventListener("change", (e) => {
    personal.learner = e.target.value;
    settings.plearner = personal.learner === P_LEARNER ? "" : personal.learner;
    writeHash();
    renderLearnerHint();
    startPersonal();  // the ratings are given again to the new model
  });
  $("p-search").addEventListener("input", (e) => {
    personal.query = e.target.value;
    personal.shown = P_PAGE;
    sortPersonalItems();
    renderItems();
  });
  $("p-sort").addEventListener("change", (e) => {
    personal.sort = e.target.value;
    personal.shown = P_PAGE;
    sortPersonalItems();
    renderItems();
  });
  $("p-more").addEventListener("click", () => {
    personal.shown += P_PAGE;
    renderItems();
  });
  $("p-items").addEventListener("click", (e) => {
    const star = e.target.closest(".p-star");
    if (!star) return;
    const li = star.closest(".p-item");
    ratePersonal(Number(li.dataset.item), Number(star.dataset.stars));
  });
  $("p-items").addEventListener("keydown", onStarKey);
  $("p-clear").addEventListener("click", clearPersonal);
  $("p-download").addEventListener("click", downloadRatings);
}

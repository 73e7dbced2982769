// Personalize: its controls (catalog, learner, search, sort, stars by
// keyboard) and their events.

import {occfm, settings, writeHash} from "../shared/state.js";
import {pickPersonalFiles} from "./files.js";
import {clearPersonal, downloadRatings, personalHooks, ratePersonal, startPersonal} from "./session.js";
import {P_PAGE, personal} from "./state.js";
import {renderItems, renderPersonalProgress, sortPersonalItems} from "./views.js";

/**
 * buildPersonalControls fills the learner menu from learners (the
 * registry, occfm.learners()) once the core is ready, and chooses the
 * link's learner (plearner=), else the core's default for a recommender
 * (occfm.lib.defaults(): personal.DefaultLearner in Go). It sets the view's
 * own calls on the core, occfm.personal (session.js personalHooks).
 * @param {{name: string, summary?: string, plain?: string, personal?: string}[]} learners
 */
export function buildPersonalControls(learners) {
  personal.learners = learners;
  const defaults = occfm.lib.defaults();
  personal.defaultLearner = Array.isArray(defaults) ? defaults[1] : "";
  Object.assign(occfm, {personal: personalHooks});
  personal.learner = settings.plearner || personal.defaultLearner;
  const select = /** @type {HTMLSelectElement} */ (document.getElementById("p-learner"));
  select.replaceChildren(...learners.map((l) => {
    const opt = document.createElement("option");
    opt.value = l.name;
    opt.textContent = l.name;
    if (l.summary) opt.title = l.summary;
    return opt;
  }));
  const names = learners.map((l) => l.name);
  if (!names.includes(personal.learner) && names.length) {
    personal.learner = names.includes(personal.defaultLearner) ? personal.defaultLearner : names[0];
    settings.plearner = "";
    writeHash();
  }
  select.value = personal.learner;
  renderLearnerHint();
  renderPersonalProgress();
}

// renderLearnerHint says, under the menu, how the chosen learner takes a
// new person's ratings: the registry's words for Personalize (personal),
// else its plain words, else its summary.
export function renderLearnerHint() {
  const l = personal.learners.find((x) => x.name === personal.learner);
  document.getElementById("p-learner-hint").textContent = l ? l.personal || l.plain || l.summary || "" : "";
}

/**
 * onStarKey: on a star, a digit rates the item that many stars when its
 * control offers it, ← → (and Home, End) move between its stars; Enter and
 * Space press the star (a button).
 * @param {KeyboardEvent} e
 */
export function onStarKey(e) {
  const star = /** @type {HTMLElement | null} */ (/** @type {Element} */ (e.target).closest(".p-star"));
  if (!star || e.ctrlKey || e.metaKey || e.altKey) return;
  const li = /** @type {HTMLElement} */ (star.closest(".p-item"));
  const stars = [.../** @type {NodeListOf<HTMLElement>} */ (li.querySelectorAll(".p-star"))];
  const at = stars.indexOf(star);
  let to = -1;
  if (/^[0-9]$/.test(e.key)) {
    if (stars.some((s) => Number(s.dataset.stars) === Number(e.key))) {
      e.preventDefault();
      ratePersonal(Number(li.dataset.item), Number(e.key));
    }
    return;
  }
  const last = stars.length - 1;
  if (e.key === "ArrowRight" || e.key === "ArrowUp") to = Math.min(last, at + 1);
  else if (e.key === "ArrowLeft" || e.key === "ArrowDown") to = Math.max(0, at - 1);
  else if (e.key === "Home") to = 0;
  else if (e.key === "End") to = last;
  if (to < 0) return;
  e.preventDefault();
  for (const s of stars) s.tabIndex = -1;
  stars[to].tabIndex = 0;
  stars[to].focus();
}

export function wirePersonal() {
  const $ = (/** @type {string} */ id) => document.getElementById(id);
  for (const radio of /** @type {NodeListOf<HTMLInputElement>} */ (document.querySelectorAll('input[name="p-catalog"]'))) {
    radio.addEventListener("change", () => {
      if (!radio.checked || radio.value === personal.catalog) return;
      personal.catalog = radio.value;
      startPersonal();
    });
  }
  $("p-files").addEventListener("change", (e) => {
    const input = /** @type {HTMLInputElement} */ (e.target);
    const files = [...(input.files || [])];
    input.value = "";  // the same files can be picked again
    if (files.length) pickPersonalFiles(files);
  });
  $("p-learner").addEventListener("change", (e) => {
    personal.learner = /** @type {HTMLSelectElement} */ (e.target).value;
    settings.plearner = personal.learner === personal.defaultLearner ? "" : personal.learner;
    writeHash();
    renderLearnerHint();
    startPersonal();  // the ratings are given again to the new model
  });
  $("p-search").addEventListener("input", (e) => {
    personal.query = /** @type {HTMLInputElement} */ (e.target).value;
    personal.shown = P_PAGE;
    sortPersonalItems();
    renderItems();
  });
  $("p-sort").addEventListener("change", (e) => {
    personal.sort = /** @type {HTMLSelectElement} */ (e.target).value;
    personal.shown = P_PAGE;
    sortPersonalItems();
    renderItems();
  });
  $("p-more").addEventListener("click", () => {
    personal.shown += P_PAGE;
    renderItems();
  });
  $("p-items").addEventListener("click", (e) => {
    const star = /** @type {HTMLElement | null} */ (/** @type {Element} */ (e.target).closest(".p-star"));
    if (!star) return;
    const li = /** @type {HTMLElement} */ (star.closest(".p-item"));
    ratePersonal(Number(li.dataset.item), Number(star.dataset.stars));
  });
  $("p-items").addEventListener("keydown", onStarKey);
  $("p-clear").addEventListener("click", clearPersonal);
  $("p-download").addEventListener("click", downloadRatings);
  // A link edited by hand: the Learn controls' listener has read it into
  // settings (wireControls runs first); a learner it names learns the
  // catalog anew, with the person's ratings.
  addEventListener("hashchange", () => {
    const plearner = settings.plearner || personal.defaultLearner;
    if (settings.view !== "personalize" || plearner === personal.learner || !personal.learners.some((l) => l.name === plearner)) return;
    personal.learner = plearner;
    /** @type {HTMLSelectElement} */ ($("p-learner")).value = plearner;
    renderLearnerHint();
    if (personal.started) startPersonal();
  });
}

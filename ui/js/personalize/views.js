// Personalize: the progress, the item list with its stars, the
// recommendations and the ratings given.

import {finite} from "../shared/format.js";
import {occfm} from "../shared/state.js";
import {P_PAGE, personal} from "./state.js";
import {fiveStars, givenText, starLabel, starValues} from "./scale.js";

export function renderPersonalAll() {
  renderPersonalProgress();
  renderItems();
  renderRecs(null);
  renderRated();
}

export function renderPersonalProgress() {
  const snap = personal.last;
  const phase = document.getElementById("p-phase");
  const percent = document.getElementById("p-percent");
  const bar = /** @type {HTMLProgressElement} */ (document.getElementById("p-progress"));
  const text = document.getElementById("p-progress-text");
  const source = personal.catalog === "files"
    ? (personal.ratingsFile ? personal.ratingsFile.name : "your files") : "the synthetic catalog";
  const p = snap && finite(snap.progress) ? snap.progress : null;
  const parts = [];
  if (snap) {
    parts.push(`${(snap.rows || 0).toLocaleString("en-US")} ratings`);
    if (finite(snap.rmse)) parts.push(`progressive RMSE ${snap.rmse.toFixed(3)}`);
    if (finite(snap.seconds) && snap.seconds > 0) parts.push(`${snap.seconds.toFixed(1)} s`);
  }
  let head = "";
  switch (personal.phase) {
    case "idle": head = occfm ? "" : "loading the learner…"; break;
    case "files": head = "Choose your ratings and item files"; break;
    case "learning": head = `Learning ${source} with ${personal.learner}…`; break;
    case "ready": {
      head = `Ready: ${source} learned by ${personal.learner}`;
      parts.push(`${personal.known.toLocaleString("en-US")} items`);
      const never = personal.items.length - personal.known;
      if (never > 0) parts.push(`${never.toLocaleString("en-US")} listed items never rated, left out`);
      if (personal.unlisted) parts.push(`${personal.unlisted.toLocaleString("en-US")} of them missing from the item list`);
      break;
    }
    case "error": head = "Stopped by an error"; break;
  }
  phase.textContent = head;
  document.getElementById("personalize-view").dataset.phase = personal.phase;
  const shown = personal.phase === "ready" ? 1 : p;
  percent.textContent = shown == null ? "" : `${Math.floor(shown * 100)} %`;
  if (shown == null) bar.removeAttribute("value");
  else bar.value = shown;
  bar.hidden = personal.phase === "files" || personal.phase === "idle";
  text.textContent = parts.join(" · ");
}

/**
 * fold is text for search: lower case, accents dropped ("Misérables" is
 * found as "miserables").
 * @param {string} text
 */
export function fold(text) {
  return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
}

// sortPersonalItems orders the items of the ratings for the list: by the
// sort chosen, then filtered by the search.
export function sortPersonalItems() {
  const items = personal.items.filter((it) => it.known);
  const byTitle = (a, b) => a.title.localeCompare(b.title);
  if (personal.sort === "title") items.sort(byTitle);
  else if (personal.sort === "mean") {
    // Items with few ratings last: their mean says little.
    items.sort((a, b) => Number(b.count >= 10) - Number(a.count >= 10) || b.mean - a.mean || byTitle(a, b));
  } else items.sort((a, b) => b.count - a.count || byTitle(a, b));
  const words = fold(personal.query).split(/\s+/).filter(Boolean);
  personal.order = items.filter((it) => words.every((w) => it.key.includes(w))).map((it) => it.index);
}

/** @param {string[]} genres */
export function genreChips(genres) {
  return genres.map((g) => {
    const chip = document.createElement("span");
    chip.className = "p-genre";
    chip.textContent = g;
    return chip;
  });
}

// renderItems lists the first personal.shown items of personal.order, each
// with a star control on the catalog's scale.
export function renderItems() {
  const list = document.getElementById("p-items");
  const count = document.getElementById("p-items-count");
  const more = document.getElementById("p-more");
  if (personal.phase !== "ready") {
    list.replaceChildren();
    count.textContent = "";
    more.hidden = true;
    return;
  }
  const order = personal.order;
  const shown = order.slice(0, personal.shown);
  list.replaceChildren(...shown.map(itemRow));
  const total = personal.known;
  document.querySelector(".p-keys").textContent = fiveStars(personal.scale)
    ? "Click a star, or focus an item's stars and press 1–5 (← → to move, Enter to rate)."
    : "Click a rating, or focus an item's ratings and press a digit (← → to move, Enter to rate).";
  count.textContent = (order.length === total
    ? `${total.toLocaleString("en-US")} items`
    : `${order.length.toLocaleString("en-US")} of ${total.toLocaleString("en-US")} items`) +
    ` · rate ${personal.scale.text}`;
  if (order.length === 0) {
    const li = document.createElement("li");
    li.className = "p-empty hint";
    li.textContent = `Nothing matches “${personal.query}”.`;
    list.append(li);
  }
  more.hidden = order.length <= shown.length;
  more.textContent = `Show ${Math.min(P_PAGE, order.length - shown.length)} more`;
}

/** @param {number} index */
export function itemRow(index) {
  const it = personal.items[index];
  const li = document.createElement("li");
  li.className = "p-item";
  li.dataset.item = String(index);
  li.setAttribute("data-testid", "p-item");
  const title = document.createElement("span");
  title.className = "p-title";
  title.textContent = it.title;
  const meta = document.createElement("span");
  meta.className = "p-meta";
  const stats = document.createElement("span");
  stats.textContent = `${it.count.toLocaleString("en-US")} ratings · average ${it.mean.toFixed(1)}`;
  meta.append(...genreChips(it.genres), stats);
  const group = document.createElement("span");
  group.className = "p-stars";
  group.setAttribute("role", "group");
  group.setAttribute("aria-label", `Your rating of ${it.title}`);
  const scale = personal.scale;
  const numbers = !fiveStars(scale);
  if (numbers) group.classList.add("p-stars-num");
  for (const n of starValues(scale)) {
    const star = document.createElement("button");
    star.type = "button";
    star.className = "p-star";
    star.dataset.stars = String(n);
    star.textContent = starLabel(n, scale);
    if (numbers) star.classList.add("p-star-num");
    star.setAttribute("aria-label", `${n} star${n === 1 ? "" : "s"}: ${it.title}`);
    group.append(star);
  }
  li.append(title, group, meta);
  setStars(li, personal.stars.get(index));
  return li;
}

/**
 * setStars shows the stars given in an item's row; the given star (else
 * the first) is the one Tab reaches (a roving tabindex).
 * @param {HTMLElement} li
 * @param {number | undefined} given
 */
export function setStars(li, given) {
  li.classList.toggle("rated", !!given);
  for (const star of /** @type {NodeListOf<HTMLElement>} */ (li.querySelectorAll(".p-star"))) {
    const n = Number(star.dataset.stars);
    // Stars light up to the one given; numbers, the one given.
    star.classList.toggle("on", !!given && (star.classList.contains("p-star-num") ? n === given : n <= given));
    star.setAttribute("aria-pressed", String(n === given));
    star.tabIndex = n === (given || personal.scale.lo) ? 0 : -1;
  }
}

/** @param {number} item */
export function renderItemStars(item) {
  const li = /** @type {HTMLElement | null} */ (document.querySelector(`#p-items .p-item[data-item="${item}"]`));
  if (li) setStars(li, personal.stars.get(item));
}

/**
 * renderRecs draws the top P_TOP; before (the items shown until now, or
 * null) marks the new ones.
 * @param {number[] | null} before
 */
export function renderRecs(before) {
  const list = document.getElementById("p-recs");
  const cold = document.getElementById("p-cold");
  const empty = document.getElementById("p-recs-empty");
  const ready = personal.phase === "ready";
  empty.hidden = ready;
  cold.hidden = !ready || !personal.cold;
  cold.textContent = "You have not rated anything yet: these are the films the model puts first for anyone. " +
    "Rate a few to make them yours.";
  const known = new Set(before || []);
  list.replaceChildren(...(ready ? personal.recs : []).map((r) => {
    const it = personal.items[r.item];
    const li = document.createElement("li");
    li.className = "p-rec";
    li.dataset.item = String(r.item);
    li.setAttribute("data-testid", "p-rec");
    const title = document.createElement("span");
    title.className = "p-title";
    title.textContent = it ? it.title : `item ${r.item}`;
    if (before && !known.has(r.item)) {
      li.classList.add("p-rec-new");
      const badge = document.createElement("span");
      badge.className = "p-new";
      badge.textContent = "new";
      title.append(badge);
    }
    // The predicted stars, labelled; with a learner that ranks by its own
    // score (item-lift), that score too, which the list is in the order of.
    li.dataset.rank = String(r.rank);
    const score = document.createElement("span");
    score.className = "p-score";
    score.dataset.value = String(r.score);
    const stars = document.createElement("span");
    stars.textContent = `★ ${r.score.toFixed(1)}`;
    stars.title = `predicted rating for you: ${r.score.toFixed(3)}`;
    const label = document.createElement("span");
    label.className = "p-score-label";
    label.textContent = "predicted";
    score.append(stars, label);
    if (personal.rankedBy === "match") {
      const match = document.createElement("span");
      match.className = "p-score-label p-match";
      match.textContent = `match ${r.rank.toFixed(2)}`;
      match.title = "what the list is ranked by: how much people who rated your films as you did rated this one, with your genre taste";
      score.append(match);
    }
    const meta = document.createElement("span");
    meta.className = "p-meta";
    meta.append(...genreChips(it ? it.genres : []));
    const why = document.createElement("ul");
    why.className = "p-why";
    why.setAttribute("aria-label", "why");
    why.dataset.label = "why:";
    for (const w of r.why || []) {
      const wl = document.createElement("li");
      wl.textContent = w;
      why.append(wl);
    }
    li.append(title, score, meta, why);
    return li;
  }));

}

export function renderRated() {
  const list = document.getElementById("p-rated");
  const n = personal.rated.length;
  document.getElementById("p-rated-empty").hidden = n > 0;
  document.getElementById("p-rated-count").textContent = n ? `${n} rated` : "";
  /** @type {HTMLButtonElement} */ (document.getElementById("p-clear")).disabled = n === 0;
  /** @type {HTMLButtonElement} */ (document.getElementById("p-download")).disabled = n === 0;
  list.replaceChildren(...personal.rated.map((r) => {
    const it = personal.items[r.item];
    const li = document.createElement("li");
    li.dataset.item = String(r.item);
    const title = document.createElement("span");
    title.textContent = it ? it.title : `item ${r.item}`;
    const given = document.createElement("span");
    given.className = "p-given";
    given.textContent = givenText(r.stars, personal.scale);
    given.setAttribute("aria-label", `${r.stars} stars`);
    const before = document.createElement("span");
    before.className = "p-before";
    before.textContent = `the model expected ★ ${r.before.toFixed(1)} from you`;
    li.append(title, given, before);
    return li;
  }));
}

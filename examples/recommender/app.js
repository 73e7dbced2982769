// The whole example: a Recommender learns the shop's ratings (in a Worker,
// so the page never waits), then turns each of your ratings into a new top 10.
import {Recommender} from "../../lib/occfm.js";

const $ = (id) => document.getElementById(id);
const el = (tag, text, cls) => Object.assign(document.createElement(tag), {textContent: text, className: cls || ""});
const [items, ratings] = await Promise.all(["items.json", "ratings.json"].map((f) => fetch(f).then((r) => r.json())));

const rec = await Recommender.create({worker: true});
await rec.items(items);
const fit = await rec.learn(ratings, {onProgress: (p) => ($("status").textContent = `Learning ${p.rows.toLocaleString("en")} of ${p.of.toLocaleString("en")} ratings…`)});
$("status").textContent = `Learned ${fit.rows.toLocaleString("en")} ratings of ${items.length} products. Rate a few to change your top 10.`;

// The list shows the most rated first, filtered by a product's group (its first tag).
const count = new Map();
for (const r of ratings) count.set(r.item, (count.get(r.item) || 0) + 1);
const popular = [...items].sort((a, b) => (count.get(b.id) || 0) - (count.get(a.id) || 0));
for (const g of new Set(items.map((it) => it.tags[0]))) $("tag").append(new Option(g, g));
const stars = new Map();

function showItems() {
	const g = $("tag").value;
	$("items").replaceChildren(...popular.filter((it) => !g || it.tags[0] === g).slice(0, 12).map((it) => {
		const li = el("li");
		li.append(el("span", it.title + " "), el("span", it.tags.join(", "), "tags"), el("br"));
		for (let s = 1; s <= 5; s++) {
			const b = el("button", "★" + s);
			b.type = "button";
			b.setAttribute("aria-label", `Give ${it.title} ${s} stars`);
			b.setAttribute("aria-pressed", String(stars.get(it.id) === s));
			b.onclick = async () => { stars.set(it.id, s); showItems(); showTop(await rec.rate(it.id, s)); };
			li.append(b);
		}
		return li;
	}));
}

function showTop(top) {
	$("top").replaceChildren(...top.map((t) => {
		const li = el("li");
		li.dataset.id = t.id;
		li.append(el("strong", t.title), el("span", ` predicted ★${t.score.toFixed(1)} · match ${t.rank.toFixed(2)}`), el("br"), el("span", t.reasons.join("; "), "why"));
		return li;
	}));
}

$("tag").onchange = showItems;
$("clear").onclick = async () => { stars.clear(); await rec.clear(); showItems(); showTop(await rec.top(10)); };
showItems();
showTop(await rec.top(10));

// Every call of occfm.js, typed against occfm.d.ts: make test runs
// tsc --noEmit --strict on it (it is never run). Its rows are typed by an
// interface of the user's own, as a page's would be.
import {
	Learner, Recommender, learners,
	type Catalog, type CatalogItem, type ClassificationMetrics, type Features, type Item, type LearnerInfo, type LearnerName,
	type Metrics, type Progress, type Rating, type Recommendation, type RegressionMetrics, type Row, type Settings, type VisitorRating,
} from "../occfm.js";

/** A click as a shop logs it: an interface, with no index signature. */
interface Impression {
	device: string;
	hour: number;
	returning: boolean;
	coupon?: string;
}

export async function uses(): Promise<number> {
	const list: LearnerInfo[] = await learners({ wasmURL: "/lib/occfm.wasm" });
	const name: LearnerName = list[0].name;
	const info = list.map((l) => l.plain + l.summary + l.tasks.join() + (l.settings.delta?.rule ?? "") + (l.settings.eta?.regression ?? 0) +
		Number(l.abilities.pairs) + Number(l.abilities.ball) + Number(l.abilities.regret) + Number(l.abilities.mixture) +
		Number(l.defaultFor.learner) + Number(l.defaultFor.recommender)).join();
	const s: Settings<"classification"> = {
		learner: name, task: "classification", delta: 0, eta: 0, seed: 1, maxMemory: 64 << 20, worker: false,
		wasmURL: new URL("https://example.org/lib/occfm.wasm"), workerURL: "/lib/occfm-worker.js",
	};
	const clicks: Learner<"classification"> = await Learner.create(s);
	const shown: Impression = { device: "phone", hour: 9, returning: true };
	const impressions: Row<Impression>[] = [{ x: shown, y: 1 }, { x: { ...shown, coupon: "spring" }, y: false }];
	const ac = new AbortController();
	const cm: ClassificationMetrics = await clicks.learn(impressions, { signal: ac.signal, onProgress: (p) => { ac.abort(p.metrics.auc); } });
	const pClick: number = await clicks.predict({ x: shown });

	const l: Learner<"regression"> = await Learner.create({ learner: "occfm-k" });
	const x: Features = { user: "ann", film: "alien", year: 1979, liked: true };
	const rows: Row[] = [{ x, y: 1 }, { x, y: false }];
	let seen = 0;
	const m: RegressionMetrics = await l.learn(rows, { onProgress: (p: Progress<RegressionMetrics>) => { seen = p.rows + p.of + p.metrics.rmse; } });
	const y: number = await l.predict({ x });
	const ys: number[] = await l.predictMany([{ x }, { x: {} }]);
	const csv = new TextEncoder().encode("y,user,year\n1,ann,1979\n");
	const fromFile: Metrics = await l.learn(csv, { name: "films.csv", onProgress: (p) => { seen += p.rows; } });
	const fromBlob: number[] = await l.predictMany(new Blob([csv]), { name: "films.csv" });
	const fromStream: number[] = await l.predictMany(new Response(csv).body!);
	seen += fromFile.rows + fromBlob.length + fromStream.length;
	const file: Uint8Array = await l.save();
	const again: Learner = await Learner.load(file, { worker: true });
	const fromBuffer: Learner = await Learner.load(file.slice().buffer, { workerURL: "/lib/occfm-worker.js" });
	const kind: "regression" | "classification" = again.task;
	l.close();
	again.close();
	fromBuffer.close();
	clicks.close();

	const r: Recommender = await Recommender.create({ learner: "item-lift", seed: 2, worker: true });
	const items: Item[] = [{ id: "p1", title: "Trail Lantern", tags: ["outdoor"] }, { id: 2 }];
	const ratings: Rating[] = [{ user: "s1", item: "p1", rating: 5 }, { user: 7, item: 2, rating: 3 }];
	const count: number = await r.items(items);
	const fit = await r.learn(ratings, { signal: ac.signal, onProgress: (p) => { seen += p.metrics.rmse; } });
	const top: Recommendation[] = await r.rate("p1", 5);
	const more: Recommendation[] = await r.top(20);
	await r.clear();
	r.close();
	const why: string = top.map((t) => t.id + t.title + (t.score + t.rank) + t.reasons.join(", ")).join() + r.learner;

	// A catalog of MovieLens files, and the synthetic one.
	const films = await Recommender.create({ worker: false });
	const itemList: number = await films.items(new Blob(["1|Toy Story (1995)|…"]), { name: "u.item" });
	const learned = await films.learn(new Uint8Array(), { name: "u.data", onProgress: (p) => { seen += p.rows + p.of; }, signal: ac.signal });
	const cat: Catalog = await films.catalog();
	const first: CatalogItem = cat.items[0];
	const given: VisitorRating[] = await films.rated();
	const csvText: string = await films.ratingsCSV();
	const synthetic = await (await Recommender.create()).learnSynthetic({ onProgress: (p) => { seen += p.metrics.scale.hi; } });
	seen += itemList + learned.rows + cat.listed + cat.scale.text.length + (cat.rankedBy === "match" ? 1 : 0) + first.count + first.mean +
		Number(first.known) + first.tags.length + given.reduce((s, g) => s + g.stars + g.before + g.id.length, 0) + csvText.length + synthetic.rmse;
	films.close();
	return cm.rows + cm.errorRate + cm.logLoss + pClick + m.rows + m.mae + y + ys.length + kind.length + (fromFile.errorRate ?? fromFile.rmse ?? 0) +
		seen + count + fit.rows + fit.rmse + fit.scale.lo + fit.scale.hi + fit.scale.step + more.length + why.length + info.length;
}

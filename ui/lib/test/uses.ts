// Every call of occfm.js, typed against occfm.d.ts: make test runs
// tsc --noEmit --strict on it (it is never run).
import {
	Learner, Recommender, learners,
	type Features, type Item, type Metrics, type Progress, type Rating, type Recommendation, type Row, type Settings,
} from "../occfm.js";

export async function uses(): Promise<number> {
	const list = await learners();
	const names: string[] = list.map((l) => l.name + l.plain + l.summary);
	const s: Settings = { learner: names[0], task: "classification", delta: 0, eta: 0, seed: 1, worker: false };
	const l: Learner = await Learner.create(s);
	const x: Features = { user: "ann", film: "alien", year: 1979, liked: true };
	const rows: Row[] = [{ x, y: 1 }, { x, y: false }];
	let seen = 0;
	const m: Metrics = await l.learn(rows, { onProgress: (p: Progress<Metrics>) => { seen = p.rows + p.of + p.metrics.rows; } });
	const y: number = await l.predict({ x });
	const ys: number[] = await l.predictMany([{ x }, { x: {} }]);
	const csv = new TextEncoder().encode("y,user,year\n1,ann,1979\n");
	const fromFile: Metrics = await l.learn(csv, { name: "films.csv", onProgress: (p) => { seen += p.rows; } });
	const fromBlob: number[] = await l.predictMany(new Blob([csv]), { name: "films.csv" });
	const fromStream: number[] = await l.predictMany(new Response(csv).body!);
	seen += fromFile.rows + fromBlob.length + fromStream.length;
	const file: Uint8Array = await l.save();
	const again: Learner = await Learner.load(file, { worker: true });
	const kind: "regression" | "classification" = again.task;
	l.close();
	again.close();

	const r: Recommender = await Recommender.create({ learner: "item-lift", seed: 2, worker: true });
	const items: Item[] = [{ id: "p1", title: "Trail Lantern", tags: ["outdoor"] }, { id: 2 }];
	const ratings: Rating[] = [{ user: "s1", item: "p1", rating: 5 }, { user: 7, item: 2, rating: 3 }];
	const count: number = await r.items(items);
	const fit = await r.learn(ratings, { onProgress: (p) => { seen += p.metrics.rmse; } });
	const top: Recommendation[] = await r.rate("p1", 5);
	const more: Recommendation[] = await r.top(20);
	await r.clear();
	r.close();
	const why: string = top.map((t) => t.id + t.title + t.reasons.join(", ")).join() + r.learner;
	return m.rows + y + ys.length + kind.length + (m.errorRate ?? m.rmse ?? 0) + seen + count + fit.rows + fit.rmse + more.length + why.length;
}

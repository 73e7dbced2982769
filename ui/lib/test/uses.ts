// Every call of occfm.js, typed against occfm.d.ts: make test runs
// tsc --noEmit --strict on it (it is never run).
import { Learner, learners, type Features, type Metrics, type Row, type Settings } from "../occfm.js";

export async function uses(): Promise<number> {
	const list = await learners();
	const names: string[] = list.map((l) => l.name + l.plain + l.summary);
	const s: Settings = { learner: names[0], task: "classification", delta: 0, eta: 0, seed: 1 };
	const l: Learner = await Learner.create(s);
	const x: Features = { user: "ann", film: "alien", year: 1979, liked: true };
	const rows: Row[] = [{ x, y: 1 }, { x, y: false }];
	const m: Metrics = await l.learn(rows);
	const y: number = await l.predict({ x });
	const ys: number[] = await l.predictMany([{ x }, { x: {} }]);
	const file: Uint8Array = await l.save();
	const again: Learner = await Learner.load(file);
	const kind: "regression" | "classification" = again.task;
	l.close();
	again.close();
	return m.rows + y + ys.length + kind.length + (m.errorRate ?? m.rmse ?? 0);
}

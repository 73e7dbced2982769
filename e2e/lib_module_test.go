//go:build e2e

package e2e

import (
	"encoding/json"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// rejectsJS defines rejects(f): the message of the Error that f's promise
// rejects with, "no error", or what it rejected with that is not an Error.
const rejectsJS = `const rejects = async (f) => { try { await f(); return "no error"; } catch (e) { return e instanceof Error ? e.message : "not an Error: " + e; } };`

// libModuleScenarioJS uses dist/lib/occfm.js as another developer's page
// would, on the main thread or in a module Worker: the registry, two
// occfm-k learners with other settings (one learning a planted regression
// of 20 named features in chunks, the other other rows in between), 200
// fresh rows predicted, a save and a load, a bad row, a classifier, an
// unknown learner, and a closed one; the same learner in a Worker of the
// module ({worker: true}) learning the same rows at once, with progress;
// a Recommender on a small catalog of two planted taste groups, with its
// bad inputs (the objects of this thread made with {worker: false}: on
// a page the default is the module's Worker). Every failure must reject with an Error.
const libModuleScenarioJS = `import {Learner, Recommender, learners} from "/lib/occfm.js";
export async function scenario() {
	` + plantedRowsJS + `
	` + rejectsJS + `
	const names = (await learners({worker: false})).map((l) => l.name);
	const a = await Learner.create({learner: "occfm-k", worker: false}), b = await Learner.create({learner: "occfm-k", eta: 1, worker: false});
	let m;
	for (let c = 0; c < 8; c++) {
		m = await a.learn(Array.from({length: 500}, row));
		await b.learn(Array.from({length: 300}, row));
	}
	const fresh = Array.from({length: 200}, row);
	const p = await a.predictMany(fresh);
	const mean = fresh.reduce((t, r) => t + r.y, 0) / fresh.length;
	const mse = fresh.reduce((t, r, i) => t + (p[i] - r.y) ** 2, 0) / fresh.length;
	const meanMse = fresh.reduce((t, r) => t + (mean - r.y) ** 2, 0) / fresh.length;
	const file = await a.save();
	const c = await Learner.load(file, {worker: false});
	const q = await c.predictMany(fresh);
	const badError = await rejects(() => a.learn([fresh[0], {x: fresh[1].x, y: NaN}]));
	const again = await a.predictMany(fresh);
	const one = await a.predict(fresh[0]);
	const cls = await Learner.create({task: "classification", worker: false});
	const crow = () => { const x = {a: gauss(), b: gauss(), shop: ["n", "s"][unif() < 0.5 ? 0 : 1]}; return {x, y: x.a * x.b > 0 ? 1 : 0}; };
	await cls.learn(Array.from({length: 4000}, crow));
	const test = Array.from({length: 300}, crow);
	const pr = await cls.predictMany(test);
	const right = test.filter((r, i) => (pr[i] > 0.5) === (r.y === 1)).length;
	const unknown = await rejects(() => Learner.create({learner: "no-such-learner", worker: false}));
	const badLoad = await rejects(() => Learner.load(new TextEncoder().encode("not a model file"), {worker: false}));
	const badSetting = await rejects(() => Learner.create({delta: "big", worker: false}));
	a.close();
	const closed = await rejects(() => a.predict(fresh[0]));

	// The same learner in the module's Worker, all 4,000 rows at once.
	s = 12345;
	w.splice(0, 20, ...Array.from({length: 20}, () => 0.3 * gauss()));
	const all = [];
	for (let c = 0; c < 8; c++) { all.push(...Array.from({length: 500}, row)); Array.from({length: 300}, row); }
	const d = await Learner.create({learner: "occfm-k", worker: true});
	const reports = [];
	const dm = await d.learn(all, {onProgress: (r) => reports.push(r.rows + "/" + r.of + ":" + r.metrics.rows)});
	const dp = await d.predictMany(fresh);
	const late = all.slice(0, 600).map((r, i) => i === 550 ? {x: r.x, y: "3"} : r);
	const lateError = await rejects(() => d.learn(late));
	const dp2 = await d.predictMany(fresh); // none of it learned: as before
	const dFile = await d.save();
	d.close();
	const dl = await Learner.load(dFile, {worker: true});
	const dlp = await dl.predictMany(fresh);
	dl.close();

	// The same rows as a CSV file: learned from bytes, predicted from a
	// file and from named rows alike; a malformed file names its line.
	const head = "y," + Array.from({length: 20}, (_, i) => "f" + i).join(",");
	const csv = (rows) => new TextEncoder().encode(head + "\n" + rows.map((r) => [r.y, ...Array.from({length: 20}, (_, i) => r.x["f" + i])].join(",")).join("\n") + "\n");
	const f = await Learner.create({learner: "occfm-k", worker: false});
	const fm = await f.learn(new Response(csv(all)).body, {name: "train.csv"});
	const fp = await f.predictMany(csv(fresh), {name: "fresh.csv"});
	const fq = await f.predictMany(fresh);
	const fileMse = fresh.reduce((t, r, i) => t + (fp[i] - r.y) ** 2, 0) / fresh.length;
	const badFile = await rejects(() => f.learn(new TextEncoder().encode(new TextDecoder().decode(csv(fresh.slice(0, 3))) + "1,x\n"), {name: "bad.csv"}));
	f.close();

	// A catalog of 40 items in two groups and 120 people who like one.
	const items = Array.from({length: 40}, (_, i) => ({id: "p" + i, title: "Product " + i, tags: [i < 20 ? "red" : "blue"]}));
	const ratings = [];
	for (let u = 0; u < 120; u++) {
		const likes = u % 2 === 0 ? "red" : "blue";
		for (let k = 0; k < 12; k++) {
			const it = items[Math.floor(unif() * 40)];
			ratings.push({user: "u" + u, item: it.id, rating: it.tags[0] === likes ? 4 + (unif() < 0.5 ? 1 : 0) : 1 + (unif() < 0.5 ? 1 : 0)});
		}
	}
	const same = (a, b) => a.length === b.length && a.every((t, i) => t.id === b[i].id && t.score === b[i].score && t.reasons.join() === b[i].reasons.join());
	const rec = await Recommender.create({worker: false});
	const recBefore = await rejects(() => rec.top(10));
	await rec.items(items);
	const fit = await rec.learn(ratings);
	let top;
	for (const id of ["p0", "p1", "p2"]) top = await rec.rate(id, 5);
	for (const id of ["p20", "p21"]) top = await rec.rate(id, 1);
	const red = top.filter((t) => Number(t.id.slice(1)) < 20).length;
	const recBad = [await rejects(() => rec.rate("p3", 9)), await rejects(() => rec.rate("nope", 4)),
		await rejects(() => rec.learn([{user: "u", item: "p1", rating: NaN}])), await rejects(() => rec.items([{id: "p1"}]))];
	const topAfter = await rec.top(10);
	await rec.clear();
	const cold = await rec.top(10);
	const wrec = await Recommender.create({worker: true});
	await wrec.items(items);
	await wrec.learn(ratings);
	const wtop = await wrec.rate("p0", 5);
	rec.close();
	wrec.close();

	return {names: names.length, rows: m.rows, mse, meanMse, fileBytes: file.length, sameAfterLoad: p.every((v, i) => v === q[i]),
		badError, sameAfterBad: p.every((v, i) => v === again[i]) && one === p[0], right, probs: pr.every((v) => v >= 0 && v <= 1),
		unknown, badLoad, badSetting, closed, task: cls.task, learner: c.learner,
		workerRows: dm.rows, workerSame: dp.every((v, i) => v === p[i]) && dp2.every((v, i) => v === dp[i]) && dp2.every((v, i) => v === dlp[i]), reports, lateError, workerFileBytes: dFile.length,
		fileRows: fm.rows, fileMse, fileSame: fp.every((v, i) => Math.abs(v - fq[i]) <= 1e-12), badFile,
		recBefore, recRows: fit.rows, recTop: top.map((t) => t.id), red, reasons: top.every((t) => t.reasons.length > 0 && t.title.startsWith("Product")),
		recBad, recSame: same(topAfter, top), coldLen: cold.length, workerRec: same(wtop, await (async () => {
			const r2 = await Recommender.create({worker: false}); await r2.items(items); await r2.learn(ratings); const t2 = await r2.rate("p0", 5); r2.close(); return t2; })())};
}`

const libModuleHostHTML = `<!doctype html><meta charset="utf-8"><title>host</title><link rel="icon" href="data:,">
<script type="module">
import {scenario} from "/scenario.js";
scenario().then((r) => { window.__mainResult = JSON.stringify(r); },
	(e) => { window.__mainResult = JSON.stringify({error: String((e && e.stack) || e)}); });
const w = new Worker("/mod-worker.js", {type: "module"});
w.onmessage = (e) => { window.__workerResult = JSON.stringify(e.data); w.terminate(); };
w.onerror = (e) => { window.__workerResult = JSON.stringify({error: "worker error: " + e.message}); };
</script>`

const libModuleWorkerJS = `import {scenario} from "/scenario.js";
scenario().then((r) => postMessage(r), (e) => postMessage({error: String((e && e.stack) || e)}));`

// TestE2ELibModule runs dist/lib/occfm.js (the ES module over occfm.lib) in
// a host page of its own on the main thread and in a module Worker (see
// libModuleScenarioJS), and counts the wasm's downloads: one per thread,
// for its three learners.
func TestE2ELibModule(t *testing.T) {
	t.Parallel()
	var wasmGets atomic.Int32
	dist := e2eHandler(e2eDist)
	h := hostPage(libModuleHostHTML, map[string]string{"/scenario.js": libModuleScenarioJS, "/mod-worker.js": libModuleWorkerJS},
		http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/lib/occfm.wasm" {
				wasmGets.Add(1)
			}
			dist.ServeHTTP(w, r)
		}))
	s := newSessionWith(t, time.Minute, h)
	s.open()
	s.waitJS("the main thread's answer", "window.__mainResult !== undefined", e2eHang)
	s.waitJS("the Worker's answer", "window.__workerResult !== undefined", e2eHang)
	for _, where := range []string{"main", "worker"} {
		var r struct {
			Error, BadError, Unknown, Closed, Task, Learner    string
			Names, Rows, FileBytes, Right                      int
			MSE, MeanMSE                                       float64
			SameAfterLoad, SameAfterBad, Probs                 bool
			WorkerRows, WorkerFileBytes, RecRows, Red, ColdLen int
			WorkerSame, Reasons, RecSame, WorkerRec            bool
			Reports, RecTop, RecBad                            []string
			LateError, RecBefore, BadFile, BadLoad, BadSetting string
			FileRows                                           int
			FileMSE                                            float64
			FileSame                                           bool
		}
		v := evalJS[string](s, "window.__"+where+"Result")
		if err := json.Unmarshal([]byte(v), &r); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %+v", where, r)
		if r.Error != "" {
			t.Fatalf("%s: %s", where, r.Error)
		}
		if r.Names < 10 || r.Rows != 4000 || !(r.MSE < 0.5*r.MeanMSE) {
			t.Errorf("%s: %d learners listed, %d rows learned, fresh MSE %.3f against the mean's %.3f", where, r.Names, r.Rows, r.MSE, r.MeanMSE)
		}
		if !r.SameAfterLoad || r.FileBytes < 1000 || r.Learner != "occfm-k" {
			t.Errorf("%s: a model file of %d bytes loads as %q and predicts the same: %v", where, r.FileBytes, r.Learner, r.SameAfterLoad)
		}
		if !strings.Contains(r.BadError, "row 1: y is NaN") || !r.SameAfterBad {
			t.Errorf("%s: a bad row rejects with %q; predictions unchanged after it: %v", where, r.BadError, r.SameAfterBad)
		}
		if r.Task != "classification" || !r.Probs || r.Right < 200 {
			t.Errorf("%s: a %s learner: %d of 300 right, probabilities in [0, 1]: %v", where, r.Task, r.Right, r.Probs)
		}
		if r.BadLoad == "no error" || r.BadLoad == "" || !strings.Contains(r.BadSetting, "delta is string") {
			t.Errorf("%s: a file that is no model rejects with %q, a setting of the wrong kind with %q", where, r.BadLoad, r.BadSetting)
		}
		if !strings.Contains(r.Unknown, "no-such-learner") || !strings.Contains(r.Closed, "closed") {
			t.Errorf("%s: an unknown learner rejects with %q, a closed one with %q", where, r.Unknown, r.Closed)
		}
		// {worker: true}: the same rows give bit-identical predictions; the
		// progress ends at every row; a bad row deep in a long learn is
		// named by its place in the whole list.
		if r.WorkerRows != 4000 || !r.WorkerSame || r.WorkerFileBytes != r.FileBytes {
			t.Errorf("%s: the Worker learner learned %d rows, predicts as the thread's: %v, file of %d bytes (the thread's %d)",
				where, r.WorkerRows, r.WorkerSame, r.WorkerFileBytes, r.FileBytes)
		}
		if len(r.Reports) < 1 || r.Reports[len(r.Reports)-1] != "4000/4000:4000" {
			t.Errorf("%s: progress reports %v, want the last 4000/4000:4000", where, r.Reports)
		}
		if !strings.Contains(r.LateError, "row 550: y is string") {
			t.Errorf("%s: a bad row 550 of 600 rejects with %q", where, r.LateError)
		}
		if r.FileRows != 4000 || !r.FileSame || !(r.FileMSE < 0.5*r.MeanMSE) || !strings.Contains(r.BadFile, "bad.csv:5") {
			t.Errorf("%s: a CSV file: %d rows learned, fresh MSE %.3f (the mean's %.3f), file and named rows agree: %v; a bad file: %q",
				where, r.FileRows, r.FileMSE, r.MeanMSE, r.FileSame, r.BadFile)
		}
		// The Recommender: a visitor who likes red gets red items, with
		// reasons; bad inputs reject and change nothing; clear goes back
		// to the cold list; the Worker's gives the same list.
		if !strings.Contains(r.RecBefore, "no ratings") || r.RecRows != 1440 || len(r.RecTop) != 10 || r.Red < 8 || !r.Reasons {
			t.Errorf("%s: before learning %q; %d ratings learned; top %v holds %d red items, reasons for all: %v", where, r.RecBefore, r.RecRows, r.RecTop, r.Red, r.Reasons)
		}
		for k, want := range []string{"9 stars: off this catalog's scale, 1 to 5 in whole stars", `item "nope"`, "ratings[0]: rating is NaN", `id "p1" is given twice`} {
			if k >= len(r.RecBad) || !strings.Contains(r.RecBad[k], want) {
				t.Errorf("%s: bad recommender input %d rejects with %q, want %q", where, k, r.RecBad, want)
			}
		}
		if !r.RecSame || r.ColdLen != 10 || !r.WorkerRec {
			t.Errorf("%s: top unchanged by bad inputs: %v; %d after clear; the Worker's recommender agrees: %v", where, r.RecSame, r.ColdLen, r.WorkerRec)
		}
	}
	if n := wasmGets.Load(); n != 4 {
		t.Errorf("occfm.wasm fetched %d times, want 4: once by each thread (the page, its Worker, and the module's Worker of each)", n)
	}
}

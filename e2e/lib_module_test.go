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

// libModuleScenarioJS uses dist/lib/occfm.js as another developer's page
// would, on the main thread or in a module Worker: the registry, two
// occfm-k learners with other settings (one learning a planted regression
// of 20 named features in chunks, the other other rows in between), 200
// fresh rows predicted, a save and a load, a bad row, a classifier, an
// unknown learner, and a closed one. Every failure must reject with an
// Error.
const libModuleScenarioJS = `import {Learner, learners} from "/lib/occfm.js";
export async function scenario() {
	` + plantedRowsJS + `
	const rejects = async (f) => { try { await f(); return "no error"; } catch (e) { return e instanceof Error ? e.message : "not an Error: " + e; } };
	const names = (await learners()).map((l) => l.name);
	const a = await Learner.create({learner: "occfm-k"}), b = await Learner.create({learner: "occfm-k", eta: 1});
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
	const c = await Learner.load(file);
	const q = await c.predictMany(fresh);
	const badError = await rejects(() => a.learn([fresh[0], {x: fresh[1].x, y: NaN}]));
	const again = await a.predictMany(fresh);
	const one = await a.predict(fresh[0]);
	const cls = await Learner.create({task: "classification"});
	const crow = () => { const x = {a: gauss(), b: gauss(), shop: ["n", "s"][unif() < 0.5 ? 0 : 1]}; return {x, y: x.a * x.b > 0 ? 1 : 0}; };
	await cls.learn(Array.from({length: 4000}, crow));
	const test = Array.from({length: 300}, crow);
	const pr = await cls.predictMany(test);
	const right = test.filter((r, i) => (pr[i] > 0.5) === (r.y === 1)).length;
	const unknown = await rejects(() => Learner.create({learner: "no-such-learner"}));
	a.close();
	const closed = await rejects(() => a.predict(fresh[0]));
	return {names: names.length, rows: m.rows, mse, meanMse, fileBytes: file.length, sameAfterLoad: p.every((v, i) => v === q[i]),
		badError, sameAfterBad: p.every((v, i) => v === again[i]) && one === p[0], right, probs: pr.every((v) => v >= 0 && v <= 1),
		unknown, closed, task: cls.task, learner: c.learner};
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
			if r.URL.Path == "/occfm.wasm" {
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
			Error, BadError, Unknown, Closed, Task, Learner string
			Names, Rows, FileBytes, Right                   int
			MSE, MeanMSE                                    float64
			SameAfterLoad, SameAfterBad, Probs              bool
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
		if !strings.Contains(r.Unknown, "no-such-learner") || !strings.Contains(r.Closed, "closed") {
			t.Errorf("%s: an unknown learner rejects with %q, a closed one with %q", where, r.Unknown, r.Closed)
		}
	}
	if n := wasmGets.Load(); n != 2 {
		t.Errorf("occfm.wasm fetched %d times for two threads of three learners each, want 2", n)
	}
}

//go:build e2e

package e2e

import (
	"encoding/json"
	"net/url"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// libContractHostHTML holds the library to its contract, on the main
// thread and with {worker: true}: a learn is all or nothing (a NaN at row
// 5,000 of 6,000 leaves the predictions of probe rows as they were, three
// times out of three), a list whose new features cannot fit the memory
// budget is refused whole, naming memory, and the page goes on, an aborted
// learn names the rows it learned, a predict made during a long learn
// answers before the learn ends, close() lets a learn under way settle,
// each bad input of docs/js-api.md's table rejects with an Error, and
// when the Worker's Go program stops its objects' calls say so and a new
// object starts a new Worker.
const libContractHostHTML = `<!doctype html><meta charset="utf-8"><title>host</title><link rel="icon" href="data:,">
<script type="module">
import {Learner, Recommender, learners} from "/lib/occfm.js";
let s = 7;
const unif = () => { s = (Math.imul(s, 1103515245) + 12345) >>> 0; return (s + 0.5) / 4294967296; };
const click = () => {
	const d = Math.floor(3 * unif()), ad = Math.floor(30 * unif()), hour = Math.floor(24 * unif());
	return {x: {device: "d" + d, ad: "a" + ad, hour: hour / 23}, y: unif() < (d === ad % 3 ? 0.7 : 0.2) ? 1 : 0};
};
` + rejectsJS + `
const probes = Array.from({length: 50}, click);
async function contract(worker) {
	const out = {};
	// 1. All or nothing: a NaN at row 5,000 of 6,000, three times.
	const l = await Learner.create({task: "classification", worker, ...(worker ? {workerURL: "/exit-worker.js"} : {})});
	await l.learn(Array.from({length: 2000}, click));
	const before = await l.predictMany(probes);
	out.nan = [];
	for (let k = 0; k < 3; k++) {
		const rows = Array.from({length: 6000}, click);
		rows[5000] = {x: rows[5000].x, y: NaN};
		const error = await rejects(() => l.learn(rows));
		const after = await l.predictMany(probes);
		out.nan.push({error, same: after.every((v, i) => v === before[i])});
	}
	// 2. Abort: stopped at its first progress report.
	const ac = new AbortController();
	let reports = 0;
	out.abort = await rejects(() => l.learn(Array.from({length: 20000}, click), {signal: ac.signal, onProgress: () => { if (++reports === 1) ac.abort(); }}));
	// 3. A predict made during a long learn answers before the learn ends.
	const order = [];
	const long = l.learn(Array.from({length: 20000}, click)).then(() => order.push("learn"));
	await new Promise((r) => setTimeout(r, 30));
	const quick = l.predict(probes[0]).then(() => order.push("predict"));
	await Promise.all([long, quick]);
	out.order = order;
	// 4. close() during a learn lets it settle; later calls reject.
	const c = await Learner.create({worker});
	const closing = c.learn(Array.from({length: 3000}, () => ({x: {a: unif()}, y: unif()})));
	c.close();
	out.closeLearn = await closing.then((m) => "learned " + m.rows, (e) => "rejected: " + e.message);
	out.afterClose = await rejects(() => c.predict({x: {a: 1}}));
	// 5. Memory: rows of 100 new features each, past a budget of 24 MiB.
	const big = await Learner.create({worker, maxMemory: 24 << 20});
	let n = 0;
	const wide = () => { const x = {}; for (let j = 0; j < 100; j++) x["f" + n++] = 1; return {x, y: unif()}; };
	out.memory = await rejects(() => big.learn(Array.from({length: 4000}, wide)));
	out.bigAfter = (await big.learn([{x: {a: 1}, y: 1}])).rows;
	big.close();
	const fresh = await Learner.create({worker});
	await fresh.learn(Array.from({length: 500}, () => ({x: {a: unif()}, y: 1})));
	out.afterMemory = await fresh.predict({x: {a: 0.5}});
	// 6. Bad inputs: each rejects with an Error.
	const r = await Learner.create({worker});
	const fn = () => 1;
	out.bad = {
		"eta: NaN": await rejects(() => Learner.create({eta: NaN, worker})),
		"seed: 1.5": await rejects(() => Learner.create({seed: 1.5, worker})),
		"learnr: …": await rejects(() => Learner.create({learnr: "occfm-k", worker})),
		"x: a Map": await rejects(() => r.learn([{x: new Map([["a", 1]]), y: 1}])),
		"a function as a value": await rejects(() => r.learn([{x: {a: fn}, y: 1}])),
		"a name of 10⁸ characters": await rejects(() => r.learn([{x: {["n".repeat(1e8)]: 1}, y: 1}])),
		"learn options {nam: …}": await rejects(() => r.learn([{x: {a: 1}, y: 1}], {nam: "x"})),
		"signal: 1": await rejects(() => r.learn([{x: {a: 1}, y: 1}], {signal: 1})),
		"Learner.load(a string)": await rejects(() => Learner.load("model", {worker})),
		"Recommender seed −1": await rejects(() => Recommender.create({seed: -1, worker})),
	};
	// 7. Learner.load takes an ArrayBuffer as well as a Uint8Array.
	const now = await l.predictMany(probes), file = await l.save();
	const back = await Learner.load(file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength), {worker});
	out.loadBuffer = (await back.predictMany(probes)).every((v, i) => v === now[i]) ? "same" : "differs";
	return out;
}
(async () => {
	const main = await contract(false), worker = await contract(true);
	// 8. The Go program in the Worker stops, as a crash stops it: the call
	// under way and every call of its objects reject saying so, and a new
	// object starts a new Worker (the default one) that learns.
	const a = await Learner.create({worker: true}), b = await Learner.create({worker: true});
	await a.learn([{x: {a: 1}, y: 1}]);
	const exit = {stop: await rejects(() => a.predict({x: {"stop-go": 1}})), other: await rejects(() => b.predict({x: {a: 1}}))};
	const c = await Learner.create({worker: true});
	await c.learn(Array.from({length: 300}, () => ({x: {a: unif()}, y: 1})));
	exit.after = await c.predict({x: {a: 0.5}});
	window.__result = JSON.stringify({main, worker, exit, globals: ["occfm", "Go"].filter((k) => Object.hasOwn(globalThis, k)), registry: await learners()});
})().catch((e) => { window.__result = JSON.stringify({error: String((e && e.stack) || e)}); });
</script>`

// exitWorkerJS is the library's Worker with a way to stop its Go program
// as a crash does (exitPatchJS, evaluated between Go's loader and the
// Worker's module, in import order): a predict of a row with the feature
// "stop-go" first runs the loader's own exit (runtime.wasmExit, what the
// runtime calls as it dies), so the library meets an exited program
// mid-call.
const exitWorkerJS = `import "/lib/wasm_exec.js";
import "/exit-patch.js";
import "/lib/occfm-worker.js";
`

const exitPatchJS = `const Go = globalThis.Go;
let go;
globalThis.Go = class extends Go { constructor() { super(); go = this; } };
self.addEventListener("message", (e) => {
	const m = e.data, row = m && m.op === "predict" && m.args && m.args[0];
	if (row && row.x && "stop-go" in row.x) go.importObject.gojs["runtime.wasmExit"](0);
});
`

// TestE2ELibContract runs libContractHostHTML and checks its findings
// (issue items 1 to 4: all or nothing, memory, the main thread, bad
// inputs), and that importing the library in Node rejects with its words.
func TestE2ELibContract(t *testing.T) {
	t.Parallel()
	s := newSessionWith(t, 3*time.Minute, hostPage(libContractHostHTML, map[string]string{"/exit-worker.js": exitWorkerJS, "/exit-patch.js": exitPatchJS}, e2eHandler(e2eDist)))
	s.open()
	s.waitJS("the contract's findings", "window.__result !== undefined", e2eHang)
	type findings struct {
		NaN []struct {
			Error string
			Same  bool
		}
		Abort, CloseLearn, AfterClose, Memory, LoadBuffer string
		Order                                             []string
		AfterMemory                                       float64
		BigAfter                                          int
		Bad                                               map[string]string
	}
	var r struct {
		Error        string
		Main, Worker findings
		Exit         struct {
			Stop, Other string
			After       float64
		}
		Globals  []string
		Registry []struct {
			Name, Plain, Summary string
			Tasks                []string
			Settings             struct {
				Delta *struct {
					Default float64
					Rule    string
				}
				Eta *struct{ Regression, Classification float64 }
			}
			Abilities map[string]bool
		}
	}
	if err := json.Unmarshal([]byte(evalJS[string](s, "window.__result")), &r); err != nil {
		t.Fatal(err)
	}
	if r.Error != "" {
		t.Fatal(r.Error)
	}
	for _, c := range []struct {
		where string
		f     findings
	}{{"main thread", r.Main}, {"Worker", r.Worker}} {
		f := c.f
		for k, n := range f.NaN {
			t.Logf("%s: NaN at row 5,000, run %d: %q, predictions the same: %v", c.where, k+1, n.Error, n.Same)
			if !n.Same || !strings.Contains(n.Error, "row 5000") || !strings.Contains(n.Error, "NaN") {
				t.Errorf("%s: NaN at row 5,000, run %d: error %q, probes the same: %v; want an error naming row 5000 and the probes as before", c.where, k+1, n.Error, n.Same)
			}
		}
		t.Logf("%s: abort: %q; order %v; close during a learn: %q, then %q; memory: %q, then a new learner predicts %.3f; load(ArrayBuffer): %s",
			c.where, f.Abort, f.Order, f.CloseLearn, f.AfterClose, f.Memory, f.AfterMemory, f.LoadBuffer)
		if !strings.Contains(f.Abort, "AbortSignal") || !strings.Contains(f.Abort, "of 20000 rows learned (rows 0 to") {
			t.Errorf("%s: an aborted learn says %q; want the rows it learned", c.where, f.Abort)
		}
		if len(f.Order) != 2 || f.Order[0] != "predict" {
			t.Errorf("%s: a predict made during a learn of 20,000 rows settled in the order %v; want before the learn", c.where, f.Order)
		}
		if f.CloseLearn != "learned 3000" || !strings.Contains(f.AfterClose, "closed") {
			t.Errorf("%s: close() during a learn: the learn %q, a later predict %q; want the learn settled, then closed", c.where, f.CloseLearn, f.AfterClose)
		}
		if !strings.Contains(f.Memory, "over the memory budget of 24 MiB") || !strings.Contains(f.Memory, "none of these rows was learned") || f.BigAfter != 1 || !(f.AfterMemory > 0.5) {
			t.Errorf("%s: past the memory budget: %q, then %d rows learned in all after one more, and a new learner predicts %v; want an error naming memory, the list refused whole, then learners that learn", c.where, f.Memory, f.BigAfter, f.AfterMemory)
		}
		if f.LoadBuffer != "same" {
			t.Errorf("%s: Learner.load(an ArrayBuffer) predicts %s", c.where, f.LoadBuffer)
		}
		for input, msg := range f.Bad {
			t.Logf("%s: %-26s → %s", c.where, input, msg)
			if msg == "no error" || strings.HasPrefix(msg, "not an Error") || strings.Contains(msg, "DOMException") || strings.Contains(msg, "could not be cloned") {
				t.Errorf("%s: %s: %q; want an Error in the library's words", c.where, input, msg)
			}
		}
	}
	t.Logf("the Worker's Go program stopped: the call under way: %q; another object's: %q; a new learner predicts %.3f", r.Exit.Stop, r.Exit.Other, r.Exit.After)
	for _, msg := range []string{r.Exit.Stop, r.Exit.Other} {
		if !strings.Contains(msg, "Go program stopped") {
			t.Errorf("after the Worker's Go program stopped, a call rejects with %q; want an Error that says so", msg)
		}
	}
	if !(r.Exit.After > 0.5) {
		t.Errorf("a new Worker learner after the Go program stopped predicts %v for a label of 1", r.Exit.After)
	}
	if len(r.Globals) != 1 || r.Globals[0] != "Go" {
		t.Errorf("globalThis keeps %v of occfm and Go; want Go only (Go's loader)", r.Globals)
	}
	// learners(): each learner's tasks, settings with defaults, and abilities.
	byName := map[string]int{}
	for i, l := range r.Registry {
		byName[l.Name] = i
		if l.Plain == "" || l.Summary == "" || len(l.Tasks) == 0 || len(l.Abilities) != 4 {
			t.Errorf("learners(): %+v; want plain words, a summary, its tasks and four abilities", l)
		}
	}
	if i, ok := byName["occfm-k"]; !ok {
		t.Errorf("learners() has no occfm-k: %+v", r.Registry)
	} else if k := r.Registry[i]; k.Settings.Delta == nil || k.Settings.Delta.Rule == "" || k.Settings.Eta == nil || k.Settings.Eta.Regression != 5 ||
		!k.Abilities["pairs"] || !k.Abilities["ball"] || len(k.Tasks) != 2 {
		t.Errorf("learners(): occfm-k is %+v; want its growing δ's rule, η 5 for regression, pairs in a ball, both tasks", k)
	}
	if i, ok := byName["bias"]; !ok || r.Registry[i].Abilities["pairs"] || r.Registry[i].Settings.Delta != nil {
		t.Errorf("learners(): bias is %+v; want no pairs and no δ", r.Registry[byName["bias"]])
	}
	s.checkExceptions()

	// Node: the import rejects with the library's words. A file: URL, so
	// that an OCCFM_E2E_DIST given as an absolute path imports too.
	lib, err := filepath.Abs(filepath.Join(e2eDist, "lib", "occfm.js"))
	if err != nil {
		t.Fatal(err)
	}
	spec, _ := json.Marshal((&url.URL{Scheme: "file", Path: filepath.ToSlash(lib)}).String())
	out, err := exec.Command("node", "--input-type=module", "-e",
		`import(`+string(spec)+`).then(() => console.log("imported"), (e) => console.log(e.message))`).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "occfm: this library runs in a browser") {
		t.Errorf("importing the library in Node: %v, %q; want our message", err, out)
	}
}

// TestE2ELibMainThread traces the page's main thread (Chromium's trace)
// while it loads the library and learns 20,000 click rows with the
// defaults, a predict sent right after the learn: no task may take more
// than 100 ms of the main thread's CPU time, the learn reports its
// progress, and the predict settles first.
func TestE2ELibMainThread(t *testing.T) {
	t.Parallel()
	s := newSessionWith(t, 2*time.Minute, hostPage(`<!doctype html><meta charset="utf-8"><title>host</title><link rel="icon" href="data:,">`, nil, e2eHandler(e2eDist)))
	s.open()
	var out string
	tasks := s.mainThreadTasks(func() {
		out = awaitJS[string](s, `(async () => {
			const {Learner} = await import("/lib/occfm.js");
			let s = 11;
			const unif = () => { s = (Math.imul(s, 1103515245) + 12345) >>> 0; return (s + 0.5) / 4294967296; };
			const rows = Array.from({length: 20000}, () => ({x: {device: "d" + Math.floor(3 * unif()), ad: "a" + Math.floor(30 * unif()), hour: Math.floor(24 * unif()) / 23}, y: unif() < 0.3 ? 1 : 0}));
			const l = await Learner.create({task: "classification"});
			const order = [];
			let reports = 0;
			const learning = l.learn(rows, {onProgress: () => reports++}).then((m) => order.push("learn " + m.rows));
			const quick = l.predict(rows[0]).then(() => order.push("predict"));
			await Promise.all([learning, quick]);
			return order.join(", ") + "; " + (reports > 1 ? "progress" : "no progress");
		})()`)
	})
	if len(tasks) == 0 {
		t.Fatal("the trace holds no task of the page's main thread")
	}
	t.Logf("settled: %s; %d main-thread tasks, the longest %.1f ms of CPU, then %v", out, len(tasks), tasks[0], tasks[1:min(6, len(tasks))])
	if tasks[0] > 100 {
		t.Errorf("a main-thread task took %.1f ms of CPU while the library loaded and learned 20,000 rows: want ≤ 100 ms", tasks[0])
	}
	if out != "predict, learn 20000; progress" {
		t.Errorf("settled in the order %q; want the predict (sent right after the learn) before the learn of 20,000 rows, and progress reports", out)
	}
}

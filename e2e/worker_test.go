//go:build e2e

package e2e

import (
	"encoding/json"
	"net/http"
	"slices"
	"testing"
	"time"
)

// workerHostHTML is another developer's page: no Content-Security-Policy
// of ours, and a Worker of its own that runs occfm.wasm.
const workerHostHTML = `<!doctype html><meta charset="utf-8"><title>host</title><link rel="icon" href="data:,">
<script>
const w = new Worker("worker.js");
w.onmessage = (e) => { window.__workerResult = JSON.stringify(e.data); w.terminate(); };
w.onerror = (e) => { window.__workerResult = JSON.stringify({error: "worker error: " + e.message}); };
</script>`

// workerJS runs in a classic Web Worker, which has no document and no
// window: it loads the page's wasm_exec.js and occfm.wasm, learns the
// planted-regression demo with occfm-k for 2,000 rows, takes a snapshot
// (which draws the Go-owned views in a page, and nothing here) and saves
// the model, then posts what it saw.
const workerJS = `importScripts("wasm_exec.js");
const go = new Go();
self.addEventListener("occfm-ready", () => {
	try {
		const names = occfm.learners().map((l) => l.name);
		let snap = occfm.start(JSON.stringify({source: "demo", demo: "planted-regression", learners: ["occfm-k"]}));
		for (let i = 0; i < 400 && snap.state !== "error" && snap.rows < 2000; i++) snap = occfm.run(50, 2000 - snap.rows);
		const full = occfm.snapshot();
		const model = occfm.saveModel();
		postMessage({names, rows: snap.rows, state: snap.state, error: snap.error || full.error || model.error || "",
			rmse: full.learners ? full.learners[0].rmse : -1, modelBytes: model.bytes ? model.bytes.length : 0,
			hasDocument: typeof document !== "undefined"});
	} catch (e) {
		postMessage({error: String((e && e.stack) || e)});
	}
});
WebAssembly.instantiateStreaming(fetch("occfm.wasm"), go.importObject)
	.then((r) => go.run(r.instance)).catch((e) => postMessage({error: String(e)}));
`

// plantedRowsJS defines, in a page's or a Worker's script, gauss (N(0, 1)
// from a seeded linear congruential generator, the same draws everywhere)
// and row(), a row {x, y} of a planted regression of 20 named features:
// y = 1 + Σ wᵢxᵢ + 2x₀x₁ − 1.5x₂x₃ + N(0, 0.1²).
const plantedRowsJS = `let s = 12345;
	const unif = () => { s = (Math.imul(s, 1103515245) + 12345) >>> 0; return (s + 0.5) / 4294967296; };
	const gauss = () => Math.sqrt(-2 * Math.log(unif())) * Math.cos(2 * Math.PI * unif());
	const w = Array.from({length: 20}, () => 0.3 * gauss());
	const row = () => {
		const x = {};
		let y = 1;
		for (let i = 0; i < 20; i++) { const v = gauss(); x["f" + i] = v; y += w[i] * v; }
		return {x, y: y + 2 * x.f0 * x.f1 - 1.5 * x.f2 * x.f3 + 0.1 * gauss()};
	};`

// hostPage serves another developer's page: html at /, each script of
// scripts at its path, and every other path by dist (the built page's
// files). No Content-Security-Policy of ours applies to it.
func hostPage(html string, scripts map[string]string, dist http.Handler) *http.ServeMux {
	mux := http.NewServeMux()
	serve := func(path, kind, body string) {
		mux.HandleFunc(path, func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", kind+"; charset=utf-8")
			w.Write([]byte(body))
		})
	}
	serve("/{$}", "text/html", html)
	for path, js := range scripts {
		serve(path, "text/javascript", js)
	}
	mux.Handle("/", dist)
	return mux
}

// TestE2EWorker checks that the program runs in a Web Worker, where there
// is no DOM (at start Go used to ask for the window's document, and the
// program died there): the registry, a session that learns a demo, a
// snapshot and a model file (TestE2ELibModule runs the library's module
// there). The Worker belongs to a host page of its own, as another
// developer's would, and loads the page's own files.
func TestE2EWorker(t *testing.T) {
	t.Parallel()
	h := hostPage(workerHostHTML, map[string]string{"/worker.js": workerJS}, e2eHandler(e2eDist))
	s := newSessionWith(t, time.Minute, h)
	s.open()
	s.waitJS("the Worker's answer", "window.__workerResult !== undefined", e2eHang)
	var got struct {
		Names       []string
		Rows        int
		State       string
		Error       string
		RMSE        float64
		ModelBytes  int
		HasDocument bool
	}
	if err := json.Unmarshal([]byte(evalJS[string](s, "window.__workerResult")), &got); err != nil {
		t.Fatal(err)
	}
	t.Logf("in a Worker: %+v", got)
	if got.Error != "" {
		t.Fatalf("in a Worker: %s", got.Error)
	}
	if got.HasDocument {
		t.Fatal("the Worker has a document: the test does not test a thread without the DOM")
	}
	if !slices.Contains(got.Names, "occfm-k") || got.Rows != 2000 || got.State == "error" {
		t.Errorf("in a Worker: learners %v, %d rows learned (want 2000), state %q", got.Names, got.Rows, got.State)
	}
	if !(got.RMSE > 0 && got.RMSE < 1) || got.ModelBytes < 1000 {
		t.Errorf("in a Worker: RMSE %v (want in (0, 1)), model file %d bytes", got.RMSE, got.ModelBytes)
	}
}

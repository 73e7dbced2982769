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

// TestE2EWorker checks that the learner API runs in a Web Worker, where
// there is no DOM (at start Go used to ask for the window's document, and
// the program died there): the registry, a session that learns a demo, a
// snapshot and a model file. The Worker belongs to a host page of its own,
// as another developer's would, and loads the page's own files.
func TestE2EWorker(t *testing.T) {
	t.Parallel()
	mux := http.NewServeMux()
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(workerHostHTML))
	})
	mux.HandleFunc("/worker.js", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
		w.Write([]byte(workerJS))
	})
	mux.Handle("/", e2eHandler(e2eDist))
	s := newSessionWith(t, time.Minute, mux)
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

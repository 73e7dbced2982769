//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// libBenchJS learns ML-100K (u.data, served at /u.data) with occfm-k from
// the library, in its Worker ({worker: true}) or on the main thread, as
// rows {x: {user, item}, y} or as the file's bytes, while a
// PerformanceObserver counts the main thread's long tasks (over 50 ms) and
// a 10 ms interval measures how late its ticks come. It answers the
// seconds, the longest task, the ticks' worst lateness and the RMSE.
const libBenchJS = `import {Learner} from "/lib/occfm.js";
export async function bench(worker, asFile) {
	const text = await (await fetch("/u.data")).text();
	const bytes = new TextEncoder().encode(text);
	const rows = text.trim().split("\n").map((line) => { const f = line.split("\t"); return {x: {user: f[0], item: f[1]}, y: Number(f[2])}; });
	const l = await Learner.create({learner: "occfm-k", worker});
	await l.predict({x: {}}); // the wasm loaded, in the Worker too
	const long = [];
	const obs = new PerformanceObserver((list) => { for (const e of list.getEntries()) long.push(e.duration); });
	obs.observe({type: "longtask"});
	// The observer sees a task it should: 80 ms of work, then a pause.
	for (const end = performance.now() + 80; performance.now() < end; );
	await new Promise((r) => setTimeout(r, 100));
	const seen = long.length;
	long.length = 0;
	let last = performance.now(), late = 0;
	const tick = setInterval(() => { const now = performance.now(); late = Math.max(late, now - last - 10); last = now; }, 10);
	const t0 = performance.now();
	const m = await l.learn(asFile ? bytes : rows, {name: "u.data"});
	const seconds = (performance.now() - t0) / 1000;
	await new Promise((r) => setTimeout(r, 100)); // the last long task reported
	clearInterval(tick);
	obs.disconnect();
	l.close();
	return {seconds, rows: m.rows, rmse: m.rmse, longTasks: long.length, longest: Math.max(0, ...long), late, seen};
}`

// TestBenchLibWorker measures a host page's main thread while the library
// learns ML-100K with occfm-k: in the module's Worker ({worker: true}),
// from rows and from the file's bytes, against the same learn on the main
// thread (in parts of about 25 ms) as the reference of the same run. It
// fails when a Worker run leaves the main thread a task over 50 ms. Part
// of make bench (OCCFM_BENCH names the results folder: lib.md).
func TestBenchLibWorker(t *testing.T) {
	out := os.Getenv("OCCFM_BENCH")
	if out == "" {
		t.Skip("OCCFM_BENCH is not set: run make bench")
	}
	udata, err := os.ReadFile(movielensPath)
	if err != nil {
		t.Skipf("ML-100K is not in ../shared/data (%v)", err)
	}
	page := `<!doctype html><meta charset="utf-8"><title>host</title><link rel="icon" href="data:,">
<script type="module">import {bench} from "/bench.js"; window.bench = bench; window.__ready = true;</script>`
	mux := hostPage(page, map[string]string{"/bench.js": libBenchJS}, e2eHandler(e2eDist))
	mux.HandleFunc("/u.data", func(w http.ResponseWriter, _ *http.Request) { w.Write(udata) })
	s := newSessionWith(t, 10*time.Minute, mux)
	s.open()
	s.waitJS("the bench module", "window.__ready === true", e2eHang)
	md := "| ML-100K, occfm-k from occfm.js | seconds | RMSE | main-thread tasks over 50 ms | longest | worst 10 ms tick late by |\n|---|---|---|---|---|---|\n"
	for _, c := range []struct {
		name         string
		worker, file bool
		mustStayFree bool
	}{
		{"Worker, rows", true, false, true},
		{"Worker, the file's bytes", true, true, true},
		{"main thread, rows (reference)", false, false, false},
	} {
		raw := awaitJS[string](s, fmt.Sprintf("bench(%v, %v).then((r) => JSON.stringify(r))", c.worker, c.file))
		var r struct {
			Seconds, RMSE, Longest, Late float64
			Rows, LongTasks, Seen        int
		}
		if err := json.Unmarshal([]byte(raw), &r); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %+v", c.name, r)
		md += fmt.Sprintf("| %s | %.2f | %.4f | %d | %.0f ms | %.0f ms |\n", c.name, r.Seconds, r.RMSE, r.LongTasks, r.Longest, r.Late)
		if r.Seen != 1 {
			t.Fatalf("%s: the long-task observer saw %d tasks of a deliberate 80 ms one, want 1", c.name, r.Seen)
		}
		if r.Rows != 100000 {
			t.Errorf("%s: %d rows learned, want 100,000", c.name, r.Rows)
		}
		if c.mustStayFree && r.LongTasks > 0 {
			t.Errorf("%s: %d tasks over 50 ms on the main thread (the longest %.0f ms), want none", c.name, r.LongTasks, r.Longest)
		}
	}
	t.Logf("\n%s", md)
	if err := os.WriteFile(filepath.Join(out, "lib.md"), []byte(md), 0o644); err != nil {
		t.Fatal(err)
	}
}

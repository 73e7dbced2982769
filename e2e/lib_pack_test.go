//go:build e2e

package e2e

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestE2ELibPack installs the npm package make lib-pack writes
// (dist/occfm-*.tgz) from the file into a project of its own, as a user
// would, checks its types with tsc against the package's exports (import
// from "occfm"), and runs it in a page that serves the installed folder:
// a learner of planted rows that predicts fresh ones better than their
// mean, and a Recommender, both in a Worker, the package served from a
// second origin (wasmURL, workerURL), and a learner on the main thread.
// The package holds the MIT license and a README.
func TestE2ELibPack(t *testing.T) {
	t.Parallel()
	tgz, _ := filepath.Glob(filepath.Join(e2eDist, "occfm-*.tgz"))
	if len(tgz) != 1 {
		t.Fatalf("want one dist/occfm-*.tgz (make lib-pack), have %v", tgz)
	}
	abs, err := filepath.Abs(tgz[0])
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"name": "user-app", "private": true, "type": "module"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(name string, args ...string) {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
	}
	run("npm", "install", "--offline", "--no-audit", "--no-fund", abs)
	pkg := filepath.Join(dir, "node_modules", "occfm")
	var meta struct {
		Types   string
		License string
		Exports map[string]map[string]string
	}
	raw, err := os.ReadFile(filepath.Join(pkg, "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &meta); err != nil {
		t.Fatal(err)
	}
	if meta.Types != "./occfm.d.ts" || meta.Exports["."]["default"] != "./occfm.js" || meta.License != "MIT" {
		t.Errorf("package.json: types %q, exports %v, license %q (want MIT)", meta.Types, meta.Exports, meta.License)
	}
	// The tarball carries the license and a README (npm packs both beside
	// the files listed).
	for f, want := range map[string]string{"LICENSE": "MIT License", "README.md": "docs/js-api.md"} {
		b, err := os.ReadFile(filepath.Join(pkg, f))
		if err != nil || !strings.Contains(string(b), want) {
			t.Errorf("the installed package's %s: %v; want a file that holds %q", f, err, want)
		}
	}
	for _, f := range []string{"occfm.js", "occfm-input.js", "occfm-worker.js", "occfm.d.ts", "occfm.wasm", "wasm_exec.js"} {
		if _, err := os.Stat(filepath.Join(pkg, f)); err != nil {
			t.Errorf("the installed package lacks %s", f)
		}
	}
	// The user's TypeScript, resolved through the package's exports.
	ts := `import {Learner, Recommender, type Row} from "occfm";
const rows: Row[] = [{x: {a: 1, shop: "north"}, y: 2}];
export async function use(): Promise<number> {
	const l = await Learner.create({learner: "occfm-k", worker: true});
	await l.learn(rows);
	const r = await Recommender.create();
	r.close();
	return l.predict({x: {a: 2}});
}
`
	if err := os.WriteFile(filepath.Join(dir, "use.ts"), []byte(ts), 0o644); err != nil {
		t.Fatal(err)
	}
	tsc, err := filepath.Abs("ui/node_modules/.bin/tsc")
	if err != nil {
		t.Fatal(err)
	}
	run(tsc, "--noEmit", "--strict", "--target", "es2022", "--module", "nodenext", "--moduleResolution", "nodenext", "--lib", "es2022,dom", "use.ts")

	// The package is served from a second origin, as a CDN would serve it
	// (CORS headers), and the wasm from the page's own (wasmURL), as a
	// bundler would put it; the Worker starts from the CDN's
	// occfm-worker.js (workerURL).
	cdn := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Access-Control-Allow-Origin", "*")
		http.FileServer(http.Dir(pkg)).ServeHTTP(w, r)
	}))
	t.Cleanup(cdn.Close)
	page := `<!doctype html><meta charset="utf-8"><title>user app</title><link rel="icon" href="data:,">
<script type="module">
import {Learner, Recommender} from "` + cdn.URL + `/occfm.js";
const where = {wasmURL: "/assets/occfm.wasm", workerURL: "` + cdn.URL + `/occfm-worker.js"};
(async () => {
	` + plantedRowsJS + `
	const l = await Learner.create({learner: "occfm-k", worker: true, ...where});
	await l.learn(Array.from({length: 3000}, row));
	const fresh = Array.from({length: 200}, row);
	const p = await l.predictMany(fresh);
	const mean = fresh.reduce((t, r) => t + r.y, 0) / fresh.length;
	const mse = fresh.reduce((t, r, i) => t + (p[i] - r.y) ** 2, 0) / fresh.length;
	const meanMse = fresh.reduce((t, r) => t + (mean - r.y) ** 2, 0) / fresh.length;
	const rec = await Recommender.create({worker: true, ...where});
	await rec.learn([{user: "a", item: "x", rating: 5}, {user: "a", item: "y", rating: 4}, {user: "b", item: "y", rating: 2}]);
	const top = await rec.rate("x", 5);
	const main = await Learner.create({wasmURL: where.wasmURL, worker: false});
	await main.learn([{x: {a: 1}, y: 2}]);
	window.__result = JSON.stringify({mse, meanMse, top: top.map((t) => t.id), main: await main.predict({x: {a: 1}})});
})().catch((e) => { window.__result = JSON.stringify({error: String((e && e.stack) || e)}); });
</script>`
	var wasmGets atomic.Int32
	own := http.NewServeMux()
	own.HandleFunc("/assets/occfm.wasm", func(w http.ResponseWriter, r *http.Request) {
		wasmGets.Add(1)
		http.ServeFile(w, r, filepath.Join(pkg, "occfm.wasm"))
	})
	own.Handle("/", e2eHandler(e2eDist))
	h := hostPage(page, nil, own)
	s := newSessionWith(t, time.Minute, h)
	s.open()
	s.waitJS("the installed package's answer", "window.__result !== undefined", e2eHang)
	var r struct {
		Error        string
		MSE, MeanMSE float64
		Top          []string
		Main         float64
	}
	if err := json.Unmarshal([]byte(evalJS[string](s, "window.__result")), &r); err != nil {
		t.Fatal(err)
	}
	t.Logf("installed package, from a second origin: %+v; the page's own wasm fetched %d times", r, wasmGets.Load())
	if r.Error != "" || !(r.MSE < 0.5*r.MeanMSE) || len(r.Top) != 1 || r.Top[0] != "y" || r.Main == 0 {
		t.Errorf("installed package: %+v; want fresh MSE under half the mean's, the top [y] and a main-thread learner", r)
	}
	if n := wasmGets.Load(); n != 2 {
		t.Errorf("the wasm was fetched from wasmURL %d times; want twice (the Worker, the main thread)", n)
	}
	s.checkExceptions()
}

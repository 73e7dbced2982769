//go:build e2e

package e2e

import (
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestE2ELibPack installs the npm package make lib-pack writes
// (dist/occfm-*.tgz) from the file into a project of its own, as a user
// would, checks its types with tsc against the package's exports (import
// from "occfm"), and runs it in a page that serves the installed folder:
// a learner of planted rows that predicts fresh ones better than their
// mean, and a Recommender.
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
		Exports map[string]map[string]string
	}
	raw, err := os.ReadFile(filepath.Join(pkg, "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &meta); err != nil {
		t.Fatal(err)
	}
	if meta.Types != "./occfm.d.ts" || meta.Exports["."]["default"] != "./occfm.js" {
		t.Errorf("package.json: types %q, exports %v", meta.Types, meta.Exports)
	}
	for _, f := range []string{"occfm.js", "occfm-worker.js", "occfm.d.ts", "occfm.wasm", "wasm_exec.js"} {
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

	page := `<!doctype html><meta charset="utf-8"><title>user app</title><link rel="icon" href="data:,">
<script type="module">
import {Learner, Recommender} from "/node_modules/occfm/occfm.js";
(async () => {
	` + plantedRowsJS + `
	const l = await Learner.create({learner: "occfm-k"});
	await l.learn(Array.from({length: 3000}, row));
	const fresh = Array.from({length: 200}, row);
	const p = await l.predictMany(fresh);
	const mean = fresh.reduce((t, r) => t + r.y, 0) / fresh.length;
	const mse = fresh.reduce((t, r, i) => t + (p[i] - r.y) ** 2, 0) / fresh.length;
	const meanMse = fresh.reduce((t, r) => t + (mean - r.y) ** 2, 0) / fresh.length;
	const rec = await Recommender.create({worker: true});
	await rec.learn([{user: "a", item: "x", rating: 5}, {user: "a", item: "y", rating: 4}, {user: "b", item: "y", rating: 2}]);
	const top = await rec.rate("x", 5);
	window.__result = JSON.stringify({mse, meanMse, top: top.map((t) => t.id)});
})().catch((e) => { window.__result = JSON.stringify({error: String((e && e.stack) || e)}); });
</script>`
	h := hostPage(page, nil, http.StripPrefix("/node_modules/occfm/", http.FileServer(http.Dir(pkg))))
	s := newSessionWith(t, time.Minute, h)
	s.open()
	s.waitJS("the installed package's answer", "window.__result !== undefined", e2eHang)
	var r struct {
		Error        string
		MSE, MeanMSE float64
		Top          []string
	}
	if err := json.Unmarshal([]byte(evalJS[string](s, "window.__result")), &r); err != nil {
		t.Fatal(err)
	}
	t.Logf("installed package: %+v", r)
	if r.Error != "" || !(r.MSE < 0.5*r.MeanMSE) || len(r.Top) != 1 || r.Top[0] != "y" {
		t.Errorf("installed package: %+v; want fresh MSE under half the mean's, and the top [y]", r)
	}
	s.checkExceptions()
}

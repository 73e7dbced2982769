//go:build e2e

package e2e

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

// subPathHostHTML is another site's page on the same host that imports the
// library from where the page is deployed, /a/b/lib/, and learns on the
// main thread and in the library's Worker.
const subPathHostHTML = `<!doctype html><meta charset="utf-8"><title>host</title><link rel="icon" href="data:,">
<script type="module">
import {Learner} from "/a/b/lib/occfm.js";
const rows = [];
for (let i = 0; i < 400; i++) rows.push({x: {a: i % 7, b: i % 3}, y: (i % 7) > 3 ? 1 : 0});
async function run(worker) {
	const l = await Learner.create({task: "classification", worker});
	await l.learn(rows);
	const p = await l.predict({x: {a: 6, b: 1}});
	l.close();
	return p;
}
Promise.all([run(false), run(true)]).then(([main, worker]) => { window.__result = JSON.stringify({main, worker}); },
	(e) => { window.__result = JSON.stringify({error: String((e && e.stack) || e)}); });
</script>`

// TestE2ESubPath: dist/ deployed under /a/b/ of a plain static server that
// knows nothing of the page (Go's file server: no special header, .wasm as
// application/wasm) runs the page, whose service worker's scope is /a/b/
// and every request of which stays under /a/b/, and the library, imported
// from /a/b/lib/ by another page of the host.
func TestE2ESubPath(t *testing.T) {
	t.Parallel()
	// The host page at /, dist/ under /a/b/ only (StripPrefix answers 404
	// for any other path).
	mux := hostPage(subPathHostHTML, nil, http.StripPrefix("/a/b", http.FileServer(http.Dir(e2eDist))))
	s := newSessionWith(t, 2*time.Minute, mux)
	requests := s.recordRequests()
	base := s.url
	s.url = base + "a/b/"
	s.openDemo()
	s.waitJS("the demo past 500 rows", jsRows+" > 500", 30*time.Second)
	evalJS[any](s, `(() => { navigator.serviceWorker.ready.then((r) => { window.__scope = r.scope; }); })()`)
	s.waitJS("the service worker ready", "window.__scope !== undefined", 30*time.Second)
	if scope := evalJS[string](s, "window.__scope"); scope != s.url {
		t.Errorf("the service worker's scope is %q, want %q", scope, s.url)
	}
	for _, u := range requests() {
		if strings.HasPrefix(u, base) && !strings.HasPrefix(u, s.url) {
			t.Errorf("the page under /a/b/ asked for %s", u)
		}
	}

	s.url = base
	s.open()
	s.waitJS("the library's answers", "window.__result !== undefined", e2eHang)
	var r struct {
		Error        string
		Main, Worker float64
	}
	if err := json.Unmarshal([]byte(evalJS[string](s, "window.__result")), &r); err != nil {
		t.Fatal(err)
	}
	t.Logf("the library from /a/b/lib/: %+v", r)
	if r.Error != "" || !(r.Main > 0.5) || !(r.Worker > 0.5) {
		t.Errorf("the library from /a/b/lib/: %+v; want the probability of a positive row above 0.5 on the main thread and in the Worker", r)
	}
}

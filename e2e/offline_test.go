//go:build e2e

// The page offline (ui/sw.js, its service worker): loaded once online, it
// boots and learns again with the server gone, from a reload and from a link
// with a #hash; without the worker the same reload fails. A new deploy is
// picked up on the next online reload and then kept for offline.
package e2e

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/occfm/occfm/internal/server"
)

// pageServer is a server of the page that a test can stop: the network lost.
// It counts the responses per path and status.
type pageServer struct {
	*httptest.Server
	mu      sync.Mutex
	status  map[string]int // "GET /occfm.wasm 200" → count
	stalled []string       // the paths asked while stalled
	stall   chan struct{}  // not nil: requests wait until it is closed
}

// servePage serves the page through h (e2eHandler(dir): as serve.go does) on
// a server of its own and points the session at it instead of newSession's.
func servePage(s *session, h http.Handler) *pageServer {
	s.t.Helper()
	ps := &pageServer{status: map[string]int{}}
	ps.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ps.mu.Lock()
		stall := ps.stall
		if stall != nil {
			ps.stalled = append(ps.stalled, r.URL.Path)
		}
		ps.mu.Unlock()
		if stall != nil {
			<-stall
			return
		}
		rec := &statusRecorder{ResponseWriter: w, code: http.StatusOK}
		h.ServeHTTP(rec, r)
		ps.mu.Lock()
		ps.status[fmt.Sprintf("%s %s %d", r.Method, r.URL.Path, rec.code)]++
		ps.mu.Unlock()
	}))
	s.t.Cleanup(ps.Close) // Close twice is fine
	u, err := url.Parse(ps.URL)
	if err != nil {
		s.t.Fatal(err)
	}
	s.url, s.origin = ps.URL+"/", u.Scheme+"://"+u.Host
	return ps
}

func (ps *pageServer) count(key string) int {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	return ps.status[key]
}

type statusRecorder struct {
	http.ResponseWriter
	code int
}

func (r *statusRecorder) WriteHeader(code int) {
	r.code = code
	r.ResponseWriter.WriteHeader(code)
}

// stallFrom now on leaves every request unanswered until the test ends: a
// network that is up but useless.
func (ps *pageServer) stallFromNow(t *testing.T) {
	ps.mu.Lock()
	ps.stall = make(chan struct{})
	t.Cleanup(func() { close(ps.stall) }) // before servePage's Close, which waits for them
	ps.mu.Unlock()
}

func (ps *pageServer) stalledPaths() []string {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	return slices.Clone(ps.stalled)
}

// stop closes the server and checks that it is gone: a request from here
// fails.
func (ps *pageServer) stop(t *testing.T) {
	t.Helper()
	ps.Close()
	c := &http.Client{Timeout: 5 * time.Second}
	if res, err := c.Get(ps.URL + "/"); err == nil {
		res.Body.Close()
		t.Fatalf("the server still answers after Close: HTTP %d", res.StatusCode)
	} else {
		t.Logf("server stopped: %v", err)
	}
}

// awaitJS evaluates expr in the page and waits for the promise it returns.
func awaitJS[T any](s *session, expr string) T {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(s.ctx, e2eHang)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		s.t.Fatalf("evaluate %s: %v", expr, err)
	}
	return v
}

var swVersionRe = regexp.MustCompile(`(?m)^const VERSION = "([0-9a-f]{16})";`)

// swVersion is the VERSION make dist wrote into dir/sw.js.
func swVersion(t *testing.T, dir string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "sw.js"))
	if err != nil {
		t.Fatalf("%v (run make dist)", err)
	}
	m := swVersionRe.FindSubmatch(b)
	if m == nil {
		t.Fatalf("%s/sw.js has no VERSION written by make dist", dir)
	}
	return string(m[1])
}

// waitWorker waits until a service worker controls the page and the cache
// occfm-<version> is the only one and holds all files, and returns how long it
// waited.
func (s *session) waitWorker(version string, files int, timeout time.Duration) time.Duration {
	s.t.Helper()
	start := time.Now()
	s.waitJS("the service worker to control the page", `navigator.serviceWorker && navigator.serviceWorker.controller !== null`, timeout)
	cond := fmt.Sprintf(`(() => {
		const w = window.__cacheCheck ??= {busy: false, ok: false, seen: ""};
		if (!w.busy) {
			w.busy = true;
			caches.keys().then(async (names) => {
				const n = names.length === 1 && names[0] === %q ? (await (await caches.open(names[0])).keys()).length : -1;
				w.seen = names.join(",") + " (" + n + " entries)";
				w.ok = n === %d;
			}).finally(() => { w.busy = false; });
		}
		return w.ok;
	})()`, "occfm-"+version, files)
	s.waitJS(fmt.Sprintf("the cache occfm-%s alone, with %d files", version, files), cond, timeout)
	evalJS[chromedp.Void](s, `delete window.__cacheCheck`)
	return time.Since(start)
}

// distFiles counts the files of dir that sw.js keeps: the page's, all but
// itself, the one-file page (occfm.html), the .gz and .br copies serve.go sends for
// them, the library (lib/, its npm package *.tgz) and its example
// (examples/), which the page never loads.
func distFiles(t *testing.T, dir string) int {
	t.Helper()
	n := 0
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.IsDir() && (p == filepath.Join(dir, "lib") || p == filepath.Join(dir, "examples")) {
			return filepath.SkipDir
		}
		if err == nil && !d.IsDir() && p != filepath.Join(dir, "sw.js") && p != filepath.Join(dir, "occfm.html") &&
			!strings.HasSuffix(p, ".gz") && !strings.HasSuffix(p, ".br") && !strings.HasSuffix(p, ".tgz") {
			n++
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// learnsAgain waits for the page, just loaded, to learn the demo.
func (s *session) learnsAgain(what string) {
	s.t.Helper()
	s.waitState("running", 20*time.Second)
	s.waitJS(what+": first rows", jsRows+" > 0", 10*time.Second)
	r0 := s.rows()
	s.waitJS(what+": rows increase", fmt.Sprintf("%s > %d", jsRows, r0), 5*time.Second)
	s.t.Logf("%s: the demo learns (%d → %d rows)", what, r0, s.rows())
	s.checkExceptions()
}

func TestE2EOffline(t *testing.T) {
	t.Parallel()
	s := newSession(t, 3*time.Minute)
	srv := servePage(s, e2eHandler(e2eDist))
	version, files := swVersion(t, e2eDist), distFiles(t, e2eDist)

	s.openDemo()
	// Chromium accepts Brotli: the wasm crossed the network as the .br copy
	// make dist wrote, not as its gzip copy or whole.
	br, err := os.Stat(filepath.Join(e2eDist, "occfm.wasm.br"))
	if err != nil {
		t.Fatal(err)
	}
	got := evalJS[float64](s, `Math.max(0, ...performance.getEntriesByType("resource").filter((r) => r.name.endsWith("/occfm.wasm")).map((r) => r.encodedBodySize))`)
	if int64(got) != br.Size() {
		t.Errorf("occfm.wasm arrived as %.0f bytes, want the %d of occfm.wasm.br", got, br.Size())
	}
	d := s.waitWorker(version, files, 30*time.Second)
	t.Logf("service worker in control, its cache full, %v later", d.Round(time.Millisecond))
	// The worker copies the files through the HTTP cache: the wasm's
	// megabytes cross the network once (then a 304).
	if n := srv.count("GET /occfm.wasm 200"); n != 1 {
		t.Errorf("occfm.wasm sent whole %d times during the first visit, want 1 (304s: %d)", n, srv.count("GET /occfm.wasm 304"))
	} else {
		t.Logf("occfm.wasm: sent once, revalidated %d times (304)", srv.count("GET /occfm.wasm 304"))
	}

	srv.stop(t)
	// The offline emulation is real for the page too: a path the worker does
	// not keep fails.
	probe := awaitJS[string](s, `fetch("not-cached-" + Date.now()).then((r) => "HTTP " + r.status, (e) => "failed: " + e)`)
	if !strings.HasPrefix(probe, "failed: ") {
		t.Fatalf("server stopped, yet an uncached path answered: %s", probe)
	}
	t.Logf("uncached path with the server stopped: %s", probe)

	s.do("reload with the server stopped", chromedp.Reload())
	s.learnsAgain("offline reload")
	if !evalJS[bool](s, `navigator.serviceWorker.controller !== null`) {
		t.Error("the offline reload is not controlled by the service worker")
	}
	// The cached page keeps serve.go's headers, its policy among them.
	if csp := awaitJS[string](s, `fetch("./").then((r) => r.headers.get("Content-Security-Policy") || "")`); csp != server.ContentSecurityPolicy+"; frame-ancestors 'none'" {
		t.Errorf("the cached page's Content-Security-Policy header: %q", csp)
	}

	// A link with a hash, opened offline: the page and its settings.
	s.do("leave the page", chromedp.Navigate("about:blank"))
	s.do("open a link offline", chromedp.Navigate(s.url+"#demo=planted-classification&learners=fm-ftrl"))
	s.learnsAgain("offline link #demo=planted-classification&learners=fm-ftrl")
	if demo := evalJS[string](s, `document.querySelector('[data-testid="demo"]').value`); demo != "planted-classification" {
		t.Errorf("offline link: demo %q, want planted-classification", demo)
	}
	if !evalJS[bool](s, `document.querySelector('[data-testid="learners"] input[value="fm-ftrl"]')?.checked === true`) {
		t.Errorf("offline link: fm-ftrl is not ticked (learners: %s)",
			evalJS[string](s, `[...document.querySelectorAll('[data-testid="learners"] input:checked')].map((e) => e.value).join(",")`))
	}
	s.screenshot("offline")

	// Without the worker the same load fails: what the test above relies on.
	if !awaitJS[bool](s, `navigator.serviceWorker.getRegistration().then((r) => r ? r.unregister() : false)`) {
		t.Fatal("no service worker registration to unregister")
	}
	ctx, cancel := context.WithTimeout(s.ctx, 20*time.Second)
	defer cancel()
	err = chromedp.Do(ctx, chromedp.Navigate(s.url))
	var loadErr *chromedp.LoadError
	switch {
	case errors.As(err, &loadErr):
		t.Logf("without the worker, offline: %v (as expected)", err)
	case err != nil:
		t.Fatalf("without the worker, offline: %v", err)
	default:
		href := evalJS[string](s, `location.href`)
		state := evalJS[string](s, `document.body && document.body.dataset.state || ""`)
		if state != "" {
			t.Errorf("without the worker, offline, the page still loads (%s, state %q): the test cannot tell the worker's work", href, state)
		} else {
			t.Logf("without the worker, offline: %s (an error page, as expected)", href)
		}
	}
}

// TestE2EOfflineStalled: with a network that takes the requests but never
// answers, a reload shows the cached page after sw.js's NAV_TIMEOUT_MS, and
// takes the rest of that load from the cache without asking the network.
func TestE2EOfflineStalled(t *testing.T) {
	t.Parallel()
	s := newSession(t, 3*time.Minute)
	srv := servePage(s, e2eHandler(e2eDist))
	s.openDemo()
	s.waitWorker(swVersion(t, e2eDist), distFiles(t, e2eDist), 30*time.Second)

	srv.stallFromNow(t)
	start := time.Now()
	s.do("reload with the network stalled", chromedp.Reload())
	s.learnsAgain("reload with the network stalled")
	took := time.Since(start)
	t.Logf("reload with the network stalled: learning %v after the reload; the server was asked for %v", took.Round(time.Millisecond), srv.stalledPaths())
	if took < 4*time.Second {
		t.Errorf("the page came back in %v, before sw.js's NAV_TIMEOUT_MS (4 s): from where?", took)
	}
	for _, p := range srv.stalledPaths() {
		if p != "/" && p != "/sw.js" { // the page itself, and the browser's update check
			t.Errorf("a page load answered from the cache asked the network for %s", p)
		}
	}
}

// TestE2EOfflineDeploy: a new deploy (a changed index.html, and so a new
// sw.js) shows on the next online reload, and then offline.
func TestE2EOfflineDeploy(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "dist")
	copyDir(t, e2eDist, dir)
	s := newSession(t, 3*time.Minute)
	srv := servePage(s, e2eHandler(dir))
	v1, files := swVersion(t, dir), distFiles(t, dir)
	s.openDemo()
	s.waitWorker(v1, files, 30*time.Second)

	// Deploy 2: the title changes, and make dist would write a new VERSION.
	const v2 = "0123456789abcdef"
	edit(t, filepath.Join(dir, "index.html"), "<title>OCCFM", "<title>Deploy 2: OCCFM")
	edit(t, filepath.Join(dir, "sw.js"), `const VERSION = "`+v1+`"`, `const VERSION = "`+v2+`"`)
	s.do("reload online after the deploy", chromedp.Reload())
	s.learnsAgain("online reload after the deploy")
	if title := evalJS[string](s, `document.title`); !strings.HasPrefix(title, "Deploy 2: ") {
		t.Errorf("online reload after a deploy: title %q, want the new deploy's", title)
	}
	// Chromium checks sw.js some seconds after the reload's fetches end (3 s
	// with the page paused, 9 s while it learns, on this machine); until the
	// new worker takes over, an offline reload gives the previous deploy.
	d := s.waitWorker(v2, files, 90*time.Second) // the old cache deleted
	t.Logf("the new deploy's worker in control, the old cache gone, %v after the reload had loaded", d.Round(time.Millisecond))

	srv.stop(t)
	s.do("reload with the server stopped", chromedp.Reload())
	s.learnsAgain("offline reload after the deploy")
	if title := evalJS[string](s, `document.title`); !strings.HasPrefix(title, "Deploy 2: ") {
		t.Errorf("offline reload after a deploy: title %q, want the new deploy's", title)
	}
}

func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		out := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(out, 0o755)
		}
		in, err := os.Open(p)
		if err != nil {
			return err
		}
		defer in.Close()
		f, err := os.Create(out)
		if err != nil {
			return err
		}
		if _, err := io.Copy(f, in); err != nil {
			f.Close()
			return err
		}
		return f.Close()
	})
	if err != nil {
		t.Fatal(err)
	}
}

// edit replaces the first old with new in the file (which must hold old).
// The modification time moves on, as a deploy's would, and the gzip copy
// beside it, if any, is written again.
func edit(t *testing.T, path, old, new string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), old) {
		t.Fatalf("%s holds no %q", path, old)
	}
	text := []byte(strings.Replace(string(b), old, new, 1))
	if err := os.WriteFile(path, text, 0o644); err != nil {
		t.Fatal(err)
	}
	future := time.Now().Add(2 * time.Second) // Last-Modified has 1 s resolution
	if err := os.Chtimes(path, future, future); err != nil {
		t.Fatal(err)
	}
	// make dist writes a gzip and a Brotli copy beside each text file, which
	// the server sends instead: the gzip copy is written again, and the
	// Brotli one, now older than the file, is passed over (the browser
	// accepts both).
	if _, err := os.Stat(path + ".gz"); err == nil {
		var gz bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
		zw.Write(text)
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path+".gz", gz.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(path+".gz", future, future); err != nil {
			t.Fatal(err)
		}
	}
}

//go:build e2e

// End-to-end tests of the page built by `make dist`: chromedp drives Debian's
// headless Chromium against an httptest.Server that serves dist/ as serve.go
// does. Run them with `make test-e2e` (or
// `go test -tags e2e -count=1 -v -run E2E ./e2e` after `make dist`). They
// run from the repository's root (see TestMain).
//
// E2E_SHOTS=/some/dir keeps a copy of every screenshot there.
package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/occfm/occfm/core"
	"github.com/occfm/occfm/internal/server"
)

const (
	e2eDist       = "dist"
	movielensPath = "../shared/data/movielens-100k/u.data"
	ijcnnPath     = "../shared/data/ijcnn1/ijcnn1.t.gz"
)

// e2eHandler serves dir as serve.go does, with the page's security headers
// (Content-Security-Policy and the rest): newHandler.
func e2eHandler(dir string) http.Handler { return server.Handler(dir) }

// TestMain runs the page's tests from the repository's root, as make does:
// the paths they name (dist/, testdata/, ui/node_modules/, ../shared/data,
// ./cmd/occfm) are the root's.
func TestMain(m *testing.M) {
	if err := os.Chdir(".."); err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		os.Exit(1)
	}
	os.Exit(m.Run())
}

// chromiumPath is Debian's /usr/bin/chromium, or the first chromium-like
// browser on PATH.
func chromiumPath(t *testing.T) string {
	t.Helper()
	if _, err := os.Stat("/usr/bin/chromium"); err == nil {
		return "/usr/bin/chromium"
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Fatal("no chromium: install it (apt-get install -y chromium), or run make test-e2e, which does")
	return ""
}

// session is one headless browser with one tab on the page.
type session struct {
	t      *testing.T
	ctx    context.Context // the tab; ends at the test's deadline
	url    string          // the test server, with a trailing slash
	origin string          // scheme://host:port of the test server

	mu         sync.Mutex
	ended      bool     // the test is over: no more t.Log
	exceptions []string // uncaught exceptions and Go runtime panics
	logged     int
}

// e2eHang is the least time a wait (waitJS) polls, and hangGuard(timeout)
// the least a test runs, before either calls the page hung. The timeouts the
// tests give are how long a wait takes at most on a quiet machine; a busy
// one stretches them (make test-busy runs every test beside two busy loops),
// so they are logged when exceeded, and only a page that would never get
// there fails, after minutes. What a user must see in time (a click
// answered in 100 ms, a model saved in 250 ms) is measured by make bench.
const e2eHang = 2 * time.Minute

// e2eFreezeMS is the bound the tests put on what a user waits for (a click
// handled, a main-thread task, a rating's update): "the page never
// freezes", which holds on any machine, however busy. The promise on a quiet
// machine, 100 ms, is measured by make bench (TestBench's clicks,
// TestBenchPersonal's ratings), where it fails when missed.
const e2eFreezeMS = 1000

// hangGuard is the deadline of a test that runs for timeout on a quiet
// machine: three times as long, and at least 10 minutes.
func hangGuard(timeout time.Duration) time.Duration { return max(3*timeout, 10*time.Minute) }

// newSession checks dist/, starts the server and the browser (not yet on the
// page: call open). Everything stops after hangGuard(timeout).
func newSession(t *testing.T, timeout time.Duration) *session {
	t.Helper()
	timeout = hangGuard(timeout)
	if _, err := os.Stat(filepath.Join(e2eDist, "occfm.wasm")); err != nil {
		t.Fatalf("%s/occfm.wasm is missing (%v): run make dist first", e2eDist, err)
	}
	exe := chromiumPath(t)

	srv := httptest.NewServer(e2eHandler(e2eDist))
	t.Cleanup(srv.Close)
	u, err := url.Parse(srv.URL)
	if err != nil {
		t.Fatal(err)
	}

	profile := t.TempDir() // removed after the browser is gone (cleanups run LIFO)
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		// Keep rAF and timers at full rate although nobody looks at the window.
		chromedp.Flag("disable-renderer-backgrounding", true),
		chromedp.Flag("disable-background-timer-throttling", true),
		chromedp.Flag("disable-backgrounding-occluded-windows", true),
		chromedp.UserDataDir(profile),
		chromedp.WindowSize(1280, 1000),
	}
	base, cancelBase := context.WithTimeout(context.Background(), timeout)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(base, opts...)
	ctx, cancelTab := chromedp.NewContext(allocCtx, chromedp.WithErrorf(func(f string, a ...any) {
		t.Logf("chromedp: "+f, a...) // only until the test ends: see cleanup
	}))
	s := &session{t: t, ctx: ctx, url: srv.URL + "/", origin: u.Scheme + "://" + u.Host}
	t.Cleanup(func() {
		s.mu.Lock()
		s.ended = true
		exc := slices.Clone(s.exceptions)
		s.mu.Unlock()
		for _, e := range exc {
			t.Errorf("page error: %s", e)
		}
		cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		_ = chromedp.Cancel(cctx)
		cancel()
		cancelTab()
		cancelAlloc() // waits for the browser process to exit
		cancelBase()
	})

	// Start the browser on about:blank, then listen to the console before the
	// page exists so that nothing it says is lost.
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("starting %s: %v", exe, err)
	}
	// Every document reports Content-Security-Policy violations as a console
	// error, which console records as fatal: a test fails on any.
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: cspReporterJS}); err != nil {
		t.Fatalf("Page.addScriptToEvaluateOnNewDocument: %v", err)
	}
	msgs := chromedp.Console(ctx)
	go func() {
		for m, err := range msgs {
			if err != nil {
				return
			}
			s.console(m)
		}
	}()
	return s
}

// cspReporterJS runs before any script of each document: it logs every
// securitypolicyviolation event as a console error starting with "CSP
// violation: ".
const cspReporterJS = `document.addEventListener("securitypolicyviolation", (e) => {
	console.error("CSP violation: " + e.effectiveDirective + " blocked " + (e.blockedURI || "inline") +
		" (" + e.sourceFile + ":" + e.lineNumber + ")" + (e.sample ? " sample " + JSON.stringify(e.sample) : ""));
});`

// console logs a message of the page and records the fatal ones: uncaught
// exceptions, Content-Security-Policy violations (see cspReporterJS), and
// the Go runtime's panics, which wasm_exec.js prints with
// console.log/console.error.
func (s *session) console(m chromedp.ConsoleMessage) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ended {
		return
	}
	text := m.Text
	if m.IsException() && m.Exception != nil && m.Exception.Exception != nil && m.Exception.Exception.Description != "" {
		text = m.Exception.Exception.Description
	}
	fatal := m.IsException() || strings.HasPrefix(text, "CSP violation: ") ||
		strings.HasPrefix(text, "panic: ") || strings.HasPrefix(text, "fatal error: ") ||
		strings.Contains(text, "Go program has already exited")
	if fatal {
		s.exceptions = append(s.exceptions, fmt.Sprintf("%s (%s:%d)", text, m.URL, m.Line+1))
	}
	// The page may log a lot while it learns: keep the log readable.
	if s.logged < 200 || fatal {
		s.t.Logf("console.%s: %s", m.Type, text)
	} else if s.logged == 200 {
		s.t.Logf("console: more messages left out")
	}
	s.logged++
}

// checkExceptions fails the test now if the page threw.
func (s *session) checkExceptions() {
	s.t.Helper()
	s.mu.Lock()
	exc := slices.Clone(s.exceptions)
	s.exceptions = nil
	s.mu.Unlock()
	if len(exc) > 0 {
		s.t.Fatalf("page error: %s", strings.Join(exc, "; "))
	}
}

// open loads the page.
func (s *session) open() {
	s.t.Helper()
	if err := chromedp.Do(s.ctx, chromedp.Navigate(s.url)); err != nil {
		s.t.Fatalf("navigate %s: %v", s.url, err)
	}
}

// do runs actions, failing the test on an error.
func (s *session) do(what string, steps ...chromedp.Action[chromedp.Void]) {
	s.t.Helper()
	if err := chromedp.Do(s.ctx, steps...); err != nil {
		s.t.Fatalf("%s: %v (page: %s)", what, err, s.status())
	}
}

// evalJS evaluates expr in the page, failing the test on an error.
func evalJS[T any](s *session, expr string) T {
	s.t.Helper()
	v, err := chromedp.Run(s.ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		s.t.Fatalf("evaluate %s: %v", expr, err)
	}
	return v
}

// pageStatus is what a failing wait shows about the page.
type pageStatus struct {
	State string `json:"state"`
	Rows  string `json:"rows"`
	Error string `json:"error"`
}

const statusJS = `(() => {
	const q = (id) => document.querySelector('[data-testid="' + id + '"]');
	const e = q("error");
	return {
		state: (document.body && document.body.dataset.state) || "",
		rows: q("rows") ? q("rows").textContent : "",
		error: e && !e.hidden ? e.textContent.trim() : "",
	};
})()`

func (s *session) readStatus() (pageStatus, error) {
	ctx, cancel := context.WithTimeout(s.ctx, e2eHang)
	defer cancel()
	return chromedp.Run(ctx, chromedp.Evaluate[pageStatus](statusJS))
}

// status describes the page in one line, for messages.
func (s *session) status() string {
	st, err := s.readStatus()
	if err != nil {
		return fmt.Sprintf("(status unknown: %v)", err)
	}
	msg := fmt.Sprintf("state=%q rows=%q", st.State, st.Rows)
	if st.Error != "" {
		msg += fmt.Sprintf(" error=%q", st.Error)
	}
	return msg
}

// waitJS polls the boolean JS expression cond every 25 ms until it holds. It
// logs a wait longer than timeout, what it takes on a quiet machine, and
// fails the test when the page is hung (no cond after max(timeout, e2eHang)),
// when the page enters state "error" (unless cond is about that), or when
// the page threw. It returns how long it waited.
func (s *session) waitJS(what, cond string, timeout time.Duration) time.Duration {
	s.t.Helper()
	start := time.Now()
	hang := max(timeout, e2eHang)
	deadline := start.Add(hang)
	expr := "!!(" + cond + ")"
	for {
		ok, err := chromedp.Run(s.ctx, chromedp.Evaluate[bool](expr))
		if err != nil {
			s.t.Fatalf("waiting for %s: %v", what, err)
		}
		if ok {
			took := time.Since(start)
			if took > timeout {
				s.t.Logf("waiting for %s took %v, over the %v it takes on a quiet machine", what, took.Round(time.Millisecond), timeout)
			}
			return took
		}
		s.checkExceptions()
		if st, err := s.readStatus(); err == nil && st.State == "error" && !strings.Contains(cond, `"error"`) {
			s.t.Fatalf("waiting for %s: the page is in state error: %q (rows %s)", what, st.Error, st.Rows)
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("waiting for %s: not within %v, a hang (page: %s)", what, hang, s.status())
		}
		select {
		case <-s.ctx.Done():
			s.t.Fatalf("waiting for %s: %v (test timeout)", what, s.ctx.Err())
		case <-time.After(25 * time.Millisecond):
		}
	}
}

// waitState waits for document.body.dataset.state == state.
func (s *session) waitState(state string, timeout time.Duration) time.Duration {
	s.t.Helper()
	return s.waitJS("state "+state, fmt.Sprintf("document.body.dataset.state === %q", state), timeout)
}

func (s *session) state() string {
	s.t.Helper()
	return evalJS[string](s, "document.body.dataset.state")
}

// rows reads the integer in data-testid="rows" (any thousands separators
// dropped).
func (s *session) rows() int {
	s.t.Helper()
	text := evalJS[string](s, `document.querySelector('[data-testid="rows"]').textContent`)
	n, err := parseRows(text)
	if err != nil {
		s.t.Fatalf("rows: %v", err)
	}
	return n
}

func parseRows(text string) (int, error) {
	digits := strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, text)
	if digits == "" {
		return 0, fmt.Errorf("%q holds no integer", text)
	}
	return strconv.Atoi(digits)
}

// jsRows is a JS expression for the rows count.
const jsRows = `parseInt(document.querySelector('[data-testid="rows"]').textContent.replace(/[^0-9]/g, "") || "0", 10)`

// metric reads data-value (full precision) and the text (4 decimals) of a
// data-testid="metric-…" element.
func (s *session) metric(testid string) (float64, string) {
	s.t.Helper()
	type m struct {
		Value *string `json:"value"`
		Text  string  `json:"text"`
	}
	v := evalJS[m](s, fmt.Sprintf(`(() => {
		const e = document.querySelector('[data-testid=%q]');
		return e ? {value: e.dataset.value ?? null, text: e.textContent.trim()} : {value: null, text: ""};
	})()`, testid))
	if v.Value == nil {
		s.t.Fatalf("%s: no data-value (text %q; page: %s)", testid, v.Text, s.status())
	}
	f, err := strconv.ParseFloat(*v.Value, 64)
	if err != nil {
		s.t.Fatalf("%s: data-value %q: %v", testid, *v.Value, err)
	}
	return f, v.Text
}

func sel(testid string) chromedp.CSS {
	return chromedp.CSS(fmt.Sprintf(`[data-testid=%q]`, testid))
}

// click clicks the element with the data-testid (a real mouse click).
func (s *session) click(testid string) {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(s.ctx, e2eHang)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Click(sel(testid))); err != nil {
		s.t.Fatalf("click %s: %v (page: %s)", testid, err, s.status())
	}
}

// upload gives the file to the page's file input, as a user who chose it.
func (s *session) upload(path string) {
	s.t.Helper()
	abs, err := filepath.Abs(path)
	if err != nil {
		s.t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(s.ctx, e2eHang)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.SetUploadFiles(sel("file-input"), []string{abs})); err != nil {
		s.t.Fatalf("file input %s: %v", abs, err)
	}
}

// maxSpeed sets data-testid="speed" (a range input) to its maximum, as a user
// who drags it to the end. It reports false when the page has no such control.
func (s *session) maxSpeed() bool {
	s.t.Helper()
	v := evalJS[string](s, `(() => {
		const e = document.querySelector('[data-testid="speed"]');
		if (!e) return "";
		e.value = e.max || e.value;
		e.dispatchEvent(new Event("input", {bubbles: true}));
		e.dispatchEvent(new Event("change", {bubbles: true}));
		const out = document.querySelector('[data-testid="speed-value"]');
		return e.value + (out ? " (" + out.textContent + ")" : "");
	})()`)
	if v == "" {
		return false
	}
	s.t.Logf("speed set to %s", v)
	return true
}

// screenshot saves a full-page PNG in t.TempDir(), and in $E2E_SHOTS when
// set. It returns the path that a developer can open.
func (s *session) screenshot(name string) string {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(s.ctx, e2eHang)
	defer cancel()
	buf, err := chromedp.Run(ctx, chromedp.FullScreenshot(100)) // 100: PNG
	if err != nil {
		s.t.Errorf("screenshot %s: %v", name, err)
		return ""
	}
	path := filepath.Join(s.t.TempDir(), name+".png")
	if err := os.WriteFile(path, buf, 0o644); err != nil {
		s.t.Fatal(err)
	}
	if dir := os.Getenv("E2E_SHOTS"); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			s.t.Fatal(err)
		}
		path = filepath.Join(dir, name+".png")
		if err := os.WriteFile(path, buf, 0o644); err != nil {
			s.t.Fatal(err)
		}
	}
	s.t.Logf("screenshot: %s", path)
	return path
}

// openDemo opens the page and waits until the demo learns.
func (s *session) openDemo() {
	s.t.Helper()
	start := time.Now()
	s.open()
	s.waitState("running", 20*time.Second)
	s.waitJS("the demo's first rows", jsRows+" > 0", 5*time.Second)
	s.t.Logf("demo learning %v after navigation", time.Since(start).Round(time.Millisecond))
}

// cliResult is one JSON line of `occfm run -json`.
type cliResult struct {
	Learner   string   `json:"learner"`
	Task      string   `json:"task"`
	Rows      int      `json:"rows"`
	RMSE      *float64 `json:"rmse"`
	MAE       *float64 `json:"mae"`
	ErrorRate *float64 `json:"error_rate"`
	AUC       *float64 `json:"auc"`
	LogLoss   *float64 `json:"logloss"`
	Seconds   float64  `json:"seconds"`
	PerSec    float64  `json:"updates_per_sec"`
}

// runCLI runs the CLI on the file, in file order with the defaults, and
// returns the result of the default learner (core.DefaultLearner). With wasm it runs the CLI built
// for GOOS=js GOARCH=wasm under node (go_js_wasm_exec): the same arithmetic
// as the page. Natively built, amd64's assembly math.Exp/math.Log and
// gonum's assembly kernels round differently in the last bits, and online
// learning carries that on: under the logistic loss the metrics move in the
// fifth digit.
func runCLI(t *testing.T, path, learner string, wasm bool) cliResult {
	t.Helper()
	return runCLIShuffled(t, path, learner, wasm, 0)
}

// runCLIShuffled is runCLI with -shuffle seed (0: file order).
func runCLIShuffled(t *testing.T, path, learner string, wasm bool, seed uint64) cliResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	args := []string{"run"}
	env := os.Environ()
	if wasm {
		goroot, err := exec.CommandContext(ctx, "go", "env", "GOROOT").Output()
		if err != nil {
			t.Fatalf("go env GOROOT: %v", err)
		}
		args = append(args, "-exec="+filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", "go_js_wasm_exec"))
		env = append(env, "GOOS=js", "GOARCH=wasm")
	}
	args = append(args, "./cmd/occfm", "run", "-data", path, "-learner", learner, "-shuffle", strconv.FormatUint(seed, 10), "-json", "-quiet")
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Env = env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	out, err := cmd.Output()
	name := "CLI (native)"
	if wasm {
		name = "CLI (js/wasm under node)"
	}
	if err != nil {
		t.Fatalf("%s: %s: %v\n%s", name, strings.Join(cmd.Args, " "), err, stderr.String())
	}
	for _, line := range strings.Split(string(out), "\n") {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "{") {
			continue
		}
		var r cliResult
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("%s output %q: %v", name, line, err)
		}
		if r.Learner == learner {
			t.Logf("%s, %v: %s", name, time.Since(start).Round(time.Millisecond), line)
			return r
		}
	}
	t.Fatalf("%s: %s: no JSON line of learner %s in %q", name, strings.Join(cmd.Args, " "), learner, out)
	return cliResult{}
}

// needFile skips the test when the data file is absent.
func needFile(t *testing.T, path string) {
	t.Helper()
	if _, err := os.Stat(path); err != nil {
		t.Skipf("data file %s is absent (%v): skipping", path, err)
	}
}

// sameValue fails unless got is within tol relative of want.
func sameValue(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	rel := math.Abs(got-want) / math.Max(math.Abs(want), 1e-300)
	if !(rel <= tol) {
		t.Errorf("%s: browser %.12g, want %.12g (relative difference %.3g > %g)", what, got, want, rel, tol)
	} else {
		t.Logf("%s: browser %.12g, want %.12g (relative difference %.3g ≤ %g)", what, got, want, rel, tol)
	}
}

// checkMetric compares the browser's metric (data-value and 4-decimal text)
// with the CLI built for js/wasm, within 1e-6 relative, and with the native
// CLI within native.
func checkMetric(s *session, testid, what string, wasmCLI, nativeCLI *float64, native float64) {
	s.t.Helper()
	if wasmCLI == nil || nativeCLI == nil {
		s.t.Fatalf("%s: the CLI gave no value", what)
	}
	v, text := s.metric(testid)
	sameValue(s.t, what+" vs CLI js/wasm", v, *wasmCLI, 1e-6)
	sameValue(s.t, what+" vs CLI native", v, *nativeCLI, native)
	if want := strconv.FormatFloat(*wasmCLI, 'f', 4, 64); text != want {
		s.t.Errorf("%s shows %q, want %q", testid, text, want)
	}
}

// learnFile gives the file to a page that runs the demo, at full speed, and
// waits until the page has learned all wantRows rows of it. It returns the
// browser's rows/s: rows over the time from the first row of the file shown
// to state "done", measured in the page.
func (s *session) learnFile(path string, wantRows int, timeout time.Duration) float64 {
	s.t.Helper()
	// In-page clock. The file's run shows as the rows count dropping (or
	// starting again from 0) after the upload; first is the first moment it
	// then shows a row, done the moment the body's state becomes "done".
	evalJS[chromedp.Void](s, `(() => {
		const rowsEl = document.querySelector('[data-testid="rows"]');
		const n = () => parseInt(rowsEl.textContent.replace(/[^0-9]/g, "") || "0", 10);
		const clk = window.__e2eClock = {armed: performance.now(), last: n(), restarted: false, first: null, done: null, doneRows: 0};
		const check = () => {
			const now = performance.now(), r = n();
			if (!clk.restarted && (r < clk.last || r === 0)) clk.restarted = true;
			clk.last = r;
			if (clk.restarted && clk.first === null && r > 0) clk.first = now;
			if (clk.restarted && clk.done === null && document.body.dataset.state === "done") {
				clk.done = now;
				clk.doneRows = r;
			}
		};
		new MutationObserver(check).observe(rowsEl, {childList: true, characterData: true, subtree: true});
		new MutationObserver(check).observe(document.body, {attributes: true, attributeFilter: ["data-state"]});
	})()`)
	s.upload(path)
	took := s.waitJS(fmt.Sprintf("%s learned (state done, %d rows)", filepath.Base(path), wantRows),
		fmt.Sprintf(`document.body.dataset.state === "done" && %s === %d`, jsRows, wantRows), timeout)
	s.t.Logf("%s: done %v after the upload", filepath.Base(path), took.Round(time.Millisecond))

	type clock struct {
		Armed     float64  `json:"armed"`
		Restarted bool     `json:"restarted"`
		First     *float64 `json:"first"`
		Done      *float64 `json:"done"`
		DoneRows  int      `json:"doneRows"`
	}
	c := evalJS[clock](s, "window.__e2eClock")
	pageRate := evalJS[string](s, `(document.querySelector('[data-testid="rows-per-second"]') || {}).textContent || ""`)
	if c.First == nil || c.Done == nil {
		// The rows never visibly restarted: time from the upload instead.
		rate := float64(wantRows) / took.Seconds()
		s.t.Logf("browser: %d rows in %v from the upload (no restart of the rows count seen): %.0f rows/s (the page shows %q)",
			wantRows, took.Round(time.Millisecond), rate, pageRate)
		return rate
	}
	ms := *c.Done - *c.First
	rate := float64(wantRows) / (ms / 1000)
	s.t.Logf("browser: %d rows in %.0f ms from the first row shown to done (%.0f ms from the upload): %.0f rows/s (the page shows %q)",
		wantRows, ms, *c.Done-c.Armed, rate, pageRate)
	return rate
}

// 1. The demo starts by itself and shows rows, predictions and the loss chart.
func TestE2EDemo(t *testing.T) {
	s := newSession(t, 2*time.Minute)
	start := time.Now()
	s.open()
	toRunning := s.waitState("running", 20*time.Second)
	t.Logf("state running %v after navigation", time.Since(start).Round(time.Millisecond))
	r0 := s.rows()
	grew := s.waitJS("rows to increase", fmt.Sprintf("%s > %d", jsRows, r0), 2*time.Second)
	t.Logf("rows %d → more within %v of state running (which took %v)", r0, grew.Round(time.Millisecond), toRunning.Round(time.Millisecond))
	s.waitJS("rows in the predictions table",
		`document.querySelectorAll('[data-testid="predictions"] tbody tr').length > 0`, 5*time.Second)
	s.waitJS("a canvas in the loss chart",
		`document.querySelector('[data-testid="loss-chart"] canvas') !== null`, 5*time.Second)
	if v, text := s.metric("metric-rmse"); !(v >= 0) || text == "" {
		t.Errorf("metric-rmse: data-value %v, text %q", v, text)
	}
	time.Sleep(time.Second) // let the charts draw a few checkpoints
	s.checkExceptions()
	if st, _ := s.readStatus(); st.Error != "" || st.State != "running" {
		t.Errorf("after a second of the demo: %s", s.status())
	}
	// The default learner has no δ: its own regret, to its best expert, is
	// plotted with the forecaster's bound.
	s.waitJS("occfm-auto's regret to its best expert past 1,000 rows",
		`(() => { const f = document.getElementById("expert-regret");
			return !f.hidden && Number(f.dataset.rows) >= 1000 &&
				f.querySelector('[data-testid="expert-regret-chart"] canvas') !== null })()`, 20*time.Second)
	reg := evalJS[float64](s, `Number(document.getElementById("expert-regret").dataset.regret)`)
	bound := evalJS[float64](s, `Number(document.getElementById("expert-regret").dataset.bound)`)
	t.Logf("occfm-auto's regret to its best expert %.3f, bound %.3f", reg, bound)
	if !(reg <= bound) || !(bound > 0) {
		t.Errorf("occfm-auto's regret to its best expert %v over its bound %v", reg, bound)
	}
	n := evalJS[int](s, `document.querySelectorAll('[data-testid="predictions"] tbody tr').length`)
	t.Logf("after %v: %d rows learned, %d rows in the predictions table", time.Since(start).Round(time.Millisecond), s.rows(), n)
	s.screenshot("demo")
}

// 2. MovieLens 100K through the file input gives the CLI's RMSE.
func TestE2EMovieLens(t *testing.T) {
	needFile(t, movielensPath)
	native := runCLI(t, movielensPath, core.DefaultLearner, false)
	wasm := runCLI(t, movielensPath, core.DefaultLearner, true)
	s := newSession(t, 4*time.Minute)
	s.openDemo()
	if !s.maxSpeed() {
		t.Log("no speed control (data-testid=speed): the file runs at the page's default speed")
	}
	rate := s.learnFile(movielensPath, native.Rows, 120*time.Second)
	t.Logf("rows/s: browser %.0f; in core.Play only: CLI js/wasm %.0f, CLI native %.0f", rate, wasm.PerSec, native.PerSec)
	// The page equals the CLI built for js/wasm to rounding; the native CLI
	// differs by what occfm-auto's occfm-k expert makes of the kernels'
	// rounding (see TestE2EMovieLensOCCFMK).
	checkMetric(s, "metric-rmse", "RMSE", wasm.RMSE, native.RMSE, 5e-4)
	checkMetric(s, "metric-mae", "MAE", wasm.MAE, native.MAE, 5e-4)
	s.checkExceptions()
	s.screenshot("movielens-100k")
}

// TestE2EMovieLensOCCFMK: occfm-k learns u.data in the page to the CLI's
// RMSE and MAE built for js/wasm (to 1e-6: measured equal) and natively
// to 5e-4 relative: gonum's amd64 assembly and its pure-Go kernels under
// wasm round differently, and occfm-k's discrete decisions (which
// directions a cut keeps, when S is recomputed) carry that on (measured:
// RMSE 0.95293 native, 0.95280 js/wasm, 1.4e-4 apart; MAE 2.7e-4).
func TestE2EMovieLensOCCFMK(t *testing.T) {
	needFile(t, movielensPath)
	native := runCLI(t, movielensPath, "occfm-k", false)
	wasm := runCLI(t, movielensPath, "occfm-k", true)
	s := newSession(t, 4*time.Minute)
	s.url += "#learners=occfm-k&speed=max"
	s.openDemo()
	rate := s.learnFile(movielensPath, native.Rows, 120*time.Second)
	t.Logf("occfm-k rows/s: browser %.0f; in core.Play only: CLI js/wasm %.0f, CLI native %.0f", rate, wasm.PerSec, native.PerSec)
	checkMetric(s, "metric-rmse", "occfm-k RMSE", wasm.RMSE, native.RMSE, 5e-4)
	checkMetric(s, "metric-mae", "occfm-k MAE", wasm.MAE, native.MAE, 5e-4)
	s.checkExceptions()
}

// 3. ijcnn1 (LibSVM, gzip) through the file input gives the CLI's error rate
// and AUC.
func TestE2ELibSVM(t *testing.T) {
	needFile(t, ijcnnPath)
	native := runCLI(t, ijcnnPath, core.DefaultLearner, false)
	wasm := runCLI(t, ijcnnPath, core.DefaultLearner, true)
	s := newSession(t, 4*time.Minute)
	s.openDemo()
	s.maxSpeed()
	rate := s.learnFile(ijcnnPath, native.Rows, 120*time.Second)
	t.Logf("rows/s: browser %.0f; in core.Play only: CLI js/wasm %.0f, CLI native %.0f", rate, wasm.PerSec, native.PerSec)
	// Logistic loss: native amd64 and js/wasm round exp/log (and gonum's
	// kernels) differently, and 91,701 online updates carry that into the
	// fourth digit (see runCLI). The error rate counts sign flips, the
	// coarsest of the three: it moved by 11 of 91,701 rows (1.3·10⁻³
	// relative) with the faster core of OCCFM. occfm-auto
	// adds discrete decisions, its experts' retirements, which such
	// differences can move by a row: its log loss moved by 1.4·10⁻³
	// relative. The page must still equal js/wasm to 10⁻⁶.
	checkMetric(s, "metric-error-rate", "error rate", wasm.ErrorRate, native.ErrorRate, 3e-3)
	checkMetric(s, "metric-auc", "AUC", wasm.AUC, native.AUC, 1e-3)
	checkMetric(s, "metric-logloss", "log loss", wasm.LogLoss, native.LogLoss, 3e-3)
	s.checkExceptions()
	s.screenshot("ijcnn1")
}

// 4. Play pauses and resumes the demo.
func TestE2EPause(t *testing.T) {
	s := newSession(t, 2*time.Minute)
	s.openDemo()
	s.click("play")
	s.waitState("paused", 2*time.Second)
	r1 := s.rows()
	time.Sleep(500 * time.Millisecond)
	if r2 := s.rows(); r2 != r1 {
		t.Errorf("paused: rows went from %d to %d in 500 ms", r1, r2)
	}
	if st := s.state(); st != "paused" {
		t.Errorf("state %q after 500 ms of pause, want paused", st)
	}
	s.click("play")
	s.waitState("running", 2*time.Second)
	d := s.waitJS("rows to grow again", fmt.Sprintf("%s > %d", jsRows, r1), 2*time.Second)
	t.Logf("paused at %d rows; growing again %v after the second click", r1, d.Round(time.Millisecond))
	s.checkExceptions()
}

// 5. Clicks are handled while the page learns at full speed: every
// mousedown and click reaches its handler in state running, the page never
// freezes (no click waits, and no main-thread task runs, e2eFreezeMS or
// more), and it learns on. The waits are logged; make bench's TestBench
// clicks Play/Pause at full speed and holds the wait to 100 ms.
func TestE2EResponsive(t *testing.T) {
	s := newSession(t, 2*time.Minute)
	s.openDemo()
	if !s.maxSpeed() {
		t.Error(`no speed control (data-testid="speed"): measuring at the default speed`)
	}
	// Learn a while at full speed first, as a user lets it run. At full
	// speed the demo's 200,000 rows take only seconds: whenever it is done
	// the test starts it again from row 0 (Reset) before the next click,
	// so that every click comes while it learns, some in its first rows,
	// where OCCFM's rows are dearest (its refreshes). The row count shown
	// lags the learner by up to a few redraws (10 Hz) and the demo can learn
	// 100k rows/s on a quiet machine: past 140,000 rows the demo is started
	// again, so that it cannot end between the check and the click.
	time.Sleep(2 * time.Second)
	restarts := 0
	again := func() {
		if st := s.state(); st == "done" || st == "running" && s.rows() > 140000 {
			s.click("reset")
			s.waitState("running", 5*time.Second)
			restarts++
		}
	}
	again()
	r0 := s.rows()

	// A probe in the top-left corner, above everything, that records for
	// each mousedown and click how long the event waited before its handler
	// ran: performance.now() at the handler minus event.timeStamp, the time
	// the browser created the input event.
	evalJS[chromedp.Void](s, `(() => {
		const p = document.createElement("div");
		p.id = "e2e-probe";
		p.style.cssText = "position:fixed;left:0;top:0;width:24px;height:24px;z-index:2147483647;";
		document.body.appendChild(p);
		window.__e2eLag = [];
		window.__e2eLong = [];
		new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__e2eLong.push([Math.round(e.startTime), Math.round(e.duration)]); }).observe({type: "longtask"});
		for (const type of ["mousedown", "click"]) {
			p.addEventListener(type, (e) => window.__e2eLag.push({type, lag: performance.now() - e.timeStamp, state: document.body.dataset.state}));
		}
	})()`)

	const clicks = 10
	var press []time.Duration // per mousePressed/mouseReleased dispatch
	for i := range clicks {
		time.Sleep(time.Duration(250+17*i) * time.Millisecond) // fall at different points of the frame
		again()
		for _, typ := range []input.DispatchMouseEventType{chromedp.MousePressed, chromedp.MouseReleased} {
			start := time.Now()
			s.do("probe click", chromedp.MouseEvent(typ, 12, 12, chromedp.ButtonLeft, chromedp.ClickCount(1)))
			press = append(press, time.Since(start))
		}
	}

	type lag struct {
		Type  string  `json:"type"`
		Lag   float64 `json:"lag"`
		State string  `json:"state"`
	}
	type probe struct {
		Lags []lag        `json:"lags"`
		Long [][2]float64 `json:"long"`
	}
	p := evalJS[probe](s, "({lags: window.__e2eLag, long: window.__e2eLong})")
	r1 := s.rows()
	if len(p.Lags) != 2*clicks {
		t.Fatalf("the probe saw %d events, want %d (mousedown and click per click): %+v", len(p.Lags), 2*clicks, p.Lags)
	}
	var maxLag, sumLag float64
	for _, l := range p.Lags {
		if l.State != "running" {
			t.Errorf("a %s came in state %q, want running", l.Type, l.State)
		}
		maxLag = math.Max(maxLag, l.Lag)
		sumLag += l.Lag
	}
	maxRT := slices.Max(press)
	var longest float64
	for _, l := range p.Long {
		longest = math.Max(longest, l[1])
	}
	t.Logf("click latency in the page (handler time − event.timeStamp, mousedown and click) over %d clicks: max %.1f ms, mean %.1f ms",
		clicks, maxLag, sumLag/float64(len(p.Lags)))
	t.Logf("click round trip (one CDP mouse event, acknowledged once the page handled it): max %v, all %v",
		maxRT.Round(100*time.Microsecond), press)
	t.Logf("main-thread tasks over 50 ms while clicking: %d, the longest %.0f ms (%v)", len(p.Long), longest, p.Long)
	t.Logf("rows %d → %d during the clicks, with %d restarts from row 0", r0, r1, restarts)
	if maxLag >= e2eFreezeMS {
		t.Errorf("click latency max %.1f ms: the page froze (want < %d ms on any machine; make bench holds it to 100 ms)", maxLag, e2eFreezeMS)
	}
	// The round trip also holds the CDP pipe and the browser process, which a
	// loaded machine delays: it is reported, not asserted.
	// A click that had come during the longest task would have waited for
	// it: fail on that too, so that the test does not pass by luck.
	if longest >= e2eFreezeMS {
		t.Errorf("a main-thread task took %.0f ms while learning at full speed: a click then waits as long, want < %d ms on any machine", longest, e2eFreezeMS)
	}
	if restarts == 0 && r1 <= r0 {
		t.Errorf("rows did not grow during the clicks (%d → %d): not learning", r0, r1)
	}
	s.checkExceptions()
}

// 6. The page asks nothing of any origin but its own, across the demo and a
// picked file (ijcnn1.t.gz, else u.data, else a generated LibSVM file).
func TestE2ENoForeignRequests(t *testing.T) {
	path := ijcnnPath
	if _, err := os.Stat(path); err != nil {
		path = movielensPath
	}
	if _, err := os.Stat(path); err != nil {
		path = filepath.Join(t.TempDir(), "planted.svm")
		writeDemoLibSVM(t, path, 2<<20)
	}
	s := newSession(t, 3*time.Minute)

	var mu sync.Mutex
	var requests, failures []string
	if err := chromedp.Listen(s.ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch ev := ev.(type) {
		case *network.EventRequestWillBeSent:
			requests = append(requests, ev.Request.URL)
		case *network.EventResponseReceived:
			if ev.Response.Status >= 400 {
				failures = append(failures, fmt.Sprintf("%s: HTTP %d", ev.Response.URL, ev.Response.Status))
			}
		case *network.EventLoadingFailed:
			if !ev.Canceled {
				failures = append(failures, fmt.Sprintf("request %s failed: %s %s", ev.RequestID, ev.ErrorText, ev.BlockedReason))
			}
		}
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(s.ctx, network.Enable, network.EnableParams{}); err != nil {
		t.Fatalf("Network.enable: %v", err)
	}

	s.openDemo()
	time.Sleep(time.Second)
	s.maxSpeed()
	s.upload(path)
	s.waitState("done", 120*time.Second)
	t.Logf("%s learned: %d rows", filepath.Base(path), s.rows())
	s.checkExceptions()

	mu.Lock()
	defer mu.Unlock()
	if len(requests) == 0 {
		t.Fatal("no request seen at all: the network listener does not work")
	}
	var own int
	for _, raw := range requests {
		u, err := url.Parse(raw)
		switch {
		case err != nil:
			t.Errorf("request to an unparsable URL %q: %v", raw, err)
		case u.Scheme == "blob" && strings.HasPrefix(u.Opaque, s.origin+"/"):
			own++ // an object URL of the page (a download)
		case u.Scheme+"://"+u.Host != s.origin:
			t.Errorf("request to a foreign origin: %s", raw)
		default:
			own++
		}
	}
	t.Logf("%d requests, %d to %s: %s", len(requests), own, s.origin, strings.Join(requests, " "))
	for _, f := range failures {
		t.Errorf("failed request: %s", f)
	}
}

// 7. The regret chart on the planted regression demo: certified
// bands arrive, the Theorem 3 bound lies above them, and the slope is read
// out. The screenshot is the acceptance picture.
func TestE2ERegret(t *testing.T) {
	s := newSession(t, 3*time.Minute)
	s.url += "#demo=planted-regression&speed=max"
	s.open()
	s.waitState("running", 20*time.Second)
	s.maxSpeed()
	d := s.waitJS("regret checkpoints up to T ≥ 1000",
		`Number((document.querySelector('[data-testid="regret-latest"]')||{}).dataset?.t||0) >= 1000`, 150*time.Second)
	t.Logf("regret checkpoint T ≥ 1000 after %v", d.Round(time.Millisecond))
	lo := evalJS[float64](s, `Number(document.querySelector('[data-testid="regret-latest"]').dataset.lo)`)
	hi := evalJS[float64](s, `Number(document.querySelector('[data-testid="regret-latest"]').dataset.hi)`)
	readout := evalJS[string](s, `document.querySelector('[data-testid="regret-readout"]').textContent`)
	t.Logf("latest band [%v, %v]; readout: %s", lo, hi, readout)
	if !(lo <= hi) || !(lo > 0) {
		t.Errorf("band [%v, %v]: want 0 < lo ≤ hi", lo, hi)
	}
	if !strings.Contains(readout, "slope") || !strings.Contains(readout, "sub-linear") {
		t.Errorf("readout lacks a sub-linear slope: %q", readout)
	}
	if n := evalJS[int](s, `document.querySelectorAll('[data-testid="regret-chart"] canvas').length`); n == 0 {
		t.Error("no regret chart canvas")
	}
	s.screenshot("regret-planted")

	// Fixed spacing, chosen in the page: checkpoints every 500 rows.
	evalJS[bool](s, `(() => { const e = document.getElementById("regret-checkpoints");
		e.value = "e500"; e.dispatchEvent(new Event("change")); return true })()`)
	s.waitJS("a checkpoint at T = 1000 with spacing 500",
		`Number((document.querySelector('[data-testid="regret-latest"]')||{}).dataset?.t||0) >= 1000`, 150*time.Second)
	if T := evalJS[int](s, `Number(document.querySelector('[data-testid="regret-latest"]').dataset.t)`); T%500 != 0 {
		t.Errorf("latest checkpoint T = %d with spacing 500", T)
	}
	if !strings.Contains(evalJS[string](s, `location.hash`), "checkpoints=e500") {
		t.Error("the spacing is not in the URL hash")
	}
	s.checkExceptions()
}

// 8. The paper's baselines in the page: the page offers every
// learner of the core registry, and four of them (OCCFM, the bias
// reference, FM-FTRL and the projected CCFM-OGD) learn the ratings demo
// side by side, each with a regret readout, without a page error.
func TestE2EBaselines(t *testing.T) {
	s := newSession(t, 2*time.Minute)
	race := []string{"occfm", "bias", "fm-ftrl", "ccfm-ogd"}
	s.url += "#demo=ratings&learners=" + strings.Join(race, ",") + "&speed=max"
	s.openDemo()
	var names []string
	for _, sp := range core.Learners() {
		names = append(names, sp.Name)
	}
	offered := evalJS[[]string](s, `[...document.querySelectorAll('[data-testid="learners"] input[type=checkbox]')].map(e => e.value || e.name || e.id)`)
	checked := evalJS[int](s, `document.querySelectorAll('[data-testid="learners"] input[type=checkbox]:checked').length`)
	t.Logf("offered %v, %d checked", offered, checked)
	if len(offered) != len(names) || checked != len(race) {
		t.Errorf("the page offers %d learners with %d checked; the registry has %d (%v), the URL asks for %d", len(offered), checked, len(names), names, len(race))
	}
	if !evalJS[bool](s, `document.getElementById("expert-regret").hidden`) {
		t.Error("the chart of occfm-auto's regret to its best expert shows, and occfm-auto is not racing")
	}
	d := s.waitJS("3,000 rows", jsRows+" >= 3000", 90*time.Second)
	t.Logf("3,000 rows after %v with %d learners", d.Round(time.Millisecond), len(race))
	readout := evalJS[string](s, `document.querySelector('[data-testid="regret-readout"]').textContent`)
	for _, name := range race {
		if !strings.Contains(readout, name) {
			t.Errorf("regret readout lacks %s: %q", name, readout)
		}
	}
	if e := evalJS[string](s, `document.querySelector('[data-testid="error"]').hidden ? "" : document.querySelector('[data-testid="error"]').textContent`); e != "" {
		t.Errorf("the page shows an error: %s", e)
	}
	s.screenshot("baselines-race")
	s.checkExceptions()
}

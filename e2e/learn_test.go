//go:build e2e

package e2e

// The Learn view, numbered as the page's first checks: the demo starts by
// itself (1), MovieLens 100K and ijcnn1 learn to the command line's figures
// (2, 3), Play pauses and resumes (4), clicks are answered while it learns
// at full speed (5), it asks nothing of another origin (6), the regret chart
// (7) and the baselines' race (8). Helpers: e2e_test.go.

import (
	"fmt"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/occfm/occfm/core"
)

// 1. The demo starts by itself and shows rows, predictions and the loss chart.
func TestE2EDemo(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
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
// directions a cut keeps, when Jacobi stops, when S is recomputed) carry
// that on (measured: RMSE 0.952553 native, 0.952561 js/wasm, 8e-6 apart;
// MAE 2.9e-4).
func TestE2EMovieLensOCCFMK(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
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
	t.Parallel()
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
	t.Parallel()
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
	t.Parallel()
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
	// The page's preload of the wasm and wasm-start.js's fetch of it are
	// one download: a fetch that did not match the preload would be a
	// second 1.7 MB.
	wasm := 0
	for _, raw := range requests {
		if u, err := url.Parse(raw); err == nil && u.Path == "/occfm.wasm" {
			wasm++
		}
	}
	if wasm != 1 {
		t.Errorf("occfm.wasm asked for %d times by the page, want once", wasm)
	}
	for _, f := range failures {
		t.Errorf("failed request: %s", f)
	}
}

// 7. The regret chart on the planted regression demo: certified
// bands arrive, the Theorem 3 bound lies above them, and the slope is read
// out. The screenshot is the acceptance picture.
func TestE2ERegret(t *testing.T) {
	t.Parallel()
	s := newSession(t, 3*time.Minute)
	// OCCFM, whose δ is the comparator's, so that Theorem 3's bound applies.
	// At the default speed (2,000 rows/s) the learner leaves most of each
	// slice to the comparator, which at full speed gets 15 % of it and
	// falls thousands of rows behind.
	s.url += "#demo=planted-regression&learners=occfm"
	s.open()
	s.waitState("running", 20*time.Second)
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
	t.Parallel()
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

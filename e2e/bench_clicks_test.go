//go:build e2e

package e2e

// The clicks part of `make bench` (see bench_test.go): Play/Pause clicked
// while OCCFM learns a file at full speed, and in the lesson's race beside
// two busy loops; each click must be answered on screen within the target.

import (
	"fmt"
	"math"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// benchClickJS records, for every click on Play/Pause, the time from the
// click's event.timeStamp (when the browser created the input event) to the
// page's answer: the body's data-state changing (handler), and the next
// animation frame after that (the answer on screen). It also records main-
// thread tasks over 50 ms.
const benchClickJS = `(() => {
	const C = window.__clicks = {down: null, handler: [], frame: [], long: []};
	addEventListener("click", (e) => { C.down = e.timeStamp; }, true);
	new MutationObserver(() => {
		if (C.down === null) return;
		const down = C.down;
		C.down = null;
		C.handler.push(performance.now() - down);
		requestAnimationFrame(() => C.frame.push(performance.now() - down));
	}).observe(document.body, {attributes: true, attributeFilter: ["data-state"]});
	new PerformanceObserver((l) => { for (const e of l.getEntries()) C.long.push(e.duration); }).observe({type: "longtask"});
	return true;
})()`

func benchClickRun(t *testing.T, path string) *benchClicks {
	c := &benchClicks{File: filepath.Base(path), Learner: "occfm", TargetMS: 100}
	s := newSession(t, 10*time.Minute)
	s.url += "?bench=clicks" + benchHash("occfm")
	s.open()
	s.waitState("running", 30*time.Second)
	evalJS[bool](s, fmt.Sprintf("%s(%q, %g)", benchHookJS, filepath.Base(path), 3600e3))
	evalJS[bool](s, benchClickJS)
	s.upload(path)
	s.waitJS("the file's first rows", `window.__bench.first !== null`, 60*time.Second)
	r0 := evalJS[int](s, `(window.__bench.calls.at(-1) || [0, 0, 0])[2]`)
	measureClicks(t, s, c)
	c.Rows = evalJS[int](s, `(window.__bench.calls.at(-1) || [0, 0, 0])[2]`) - r0
	t.Logf("%d clicks on Play/Pause while occfm learns %s at full speed (%d rows meanwhile): state changed within max %.1f ms (mean %.1f), next frame within max %.1f ms (mean %.1f); tasks over 50 ms: %v",
		c.Clicks, c.File, c.Rows, c.HandlerMax, c.HandlerMean, c.FrameMax, c.FrameMean, c.LongTasks)
	s.checkExceptions()
	return c
}

// benchRaceClickRun clicks Play/Pause in the lesson's race (step 6: four
// learners on the ratings demo at 2,000 rows/s, with the model picture of
// occfm's 801 × 801 C on screen) at 1920×1080 while two busy loops take
// the machine's other cores.
func benchRaceClickRun(t *testing.T) *benchClicks {
	c := &benchClicks{File: "the lesson's race (step 6) at 1920×1080, two busy loops beside it", Learner: "occfm, occfm-auto, bias, fm-ftrl", TargetMS: 100}
	busyLoops(t, 2)
	s := newSession(t, 10*time.Minute)
	s.viewport(1920, 1080)
	s.openAt(s.url, "bench=race", "#lesson=6")
	s.waitStep(6)
	s.waitState("running", 30*time.Second)
	evalJS[bool](s, `(scrollTo(0, 0), true)`) // the Run card's Play, and the model picture's top, on screen
	evalJS[bool](s, benchClickJS)
	time.Sleep(2 * time.Second)
	r0 := s.rows()
	measureClicks(t, s, c)
	c.Rows = s.rows() - r0
	t.Logf("%d clicks on Play/Pause in the race (%d rows meanwhile): state changed within max %.1f ms (mean %.1f), next frame within max %.1f ms (mean %.1f); tasks over 50 ms: %v",
		c.Clicks, c.Rows, c.HandlerMax, c.HandlerMean, c.FrameMax, c.FrameMean, c.LongTasks)
	s.checkExceptions()
	return c
}

// busyLoops starts n busy loops that take the machine's cores at the
// page's priority until the test ends.
func busyLoops(t *testing.T, n int) {
	for range n {
		busy := exec.Command("sh", "-c", "while :; do :; done")
		if err := busy.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { busy.Process.Kill(); busy.Wait() })
	}
}

// measureClicks clicks Play/Pause 12 times at points of the page's work
// (benchClickJS records each answer) and fails when the next frame after a
// click comes later than c.TargetMS.
func measureClicks(t *testing.T, s *session, c *benchClicks) {
	const clicks = 12
	type box struct{ X, Y float64 }
	b := evalJS[box](s, `(() => { const r = document.querySelector('[data-testid="play"]').getBoundingClientRect(); return {X: r.x + r.width / 2, Y: r.y + r.height / 2}; })()`)
	for i := 0; i < clicks; i++ {
		if st := s.state(); st != "running" && st != "paused" {
			t.Logf("the run is %s after %d clicks", st, i)
			break
		}
		// Pause clicks come at different points of a slice; a resume
		// follows 60 ms later, so that the page learns most of the time.
		if i%2 == 0 {
			time.Sleep(time.Duration(150+23*i) * time.Millisecond)
		} else {
			time.Sleep(60 * time.Millisecond)
		}
		for _, typ := range []input.DispatchMouseEventType{chromedp.MousePressed, chromedp.MouseReleased} {
			s.do("click play", chromedp.MouseEvent(typ, b.X, b.Y, chromedp.ButtonLeft, chromedp.ClickCount(1)))
		}
		c.Clicks++
	}
	time.Sleep(200 * time.Millisecond)
	if s.state() == "paused" {
		s.click("play")
	}
	type rec struct {
		Handler []float64 `json:"handler"`
		Frame   []float64 `json:"frame"`
		Long    []float64 `json:"long"`
	}
	got := evalJS[rec](s, `window.__clicks`)
	c.Handler, c.Frame, c.LongTasks = got.Handler, got.Frame, got.Long
	c.HandlerMax, c.HandlerMean = maxMean(got.Handler)
	c.FrameMax, c.FrameMean = maxMean(got.Frame)
	if len(got.Handler) < c.Clicks-1 {
		c.Error = fmt.Sprintf("%d clicks, %d answers", c.Clicks, len(got.Handler))
		t.Error(c.Error)
	}
	if c.FrameMax > c.TargetMS {
		t.Errorf("click answered on screen after %.1f ms, want ≤ %g ms", c.FrameMax, c.TargetMS)
	}
}

func maxMean(xs []float64) (mx, mean float64) {
	for _, x := range xs {
		mx = math.Max(mx, x)
		mean += x
	}
	if len(xs) > 0 {
		mean /= float64(len(xs))
	}
	return mx, mean
}

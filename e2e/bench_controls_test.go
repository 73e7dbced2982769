//go:build e2e

package e2e

// The classroom's controls in `make bench` (see bench_test.go): presenter
// mode's toggle, the Lesson button, the lesson's δ buttons and Next/Prev,
// each clicked while the lesson's demo learns at 1920×1080 beside two busy
// loops; each click's visible effect must reach the screen within 100 ms at
// the 95th percentile.

import (
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"testing"
	"time"
)

// benchControlJS records, for each click on a control, the time from the
// click's event.timeStamp to the control's own visible effect (the DOM
// change that shows it: the page's other updates, the numbers of a running
// demo, do not count) and to the next animation frame after it, when that
// change is on screen.
const benchControlJS = `(() => {
	const C = window.__controls = {want: null, id: "", down: 0, out: []};
	const html = document.documentElement, $ = (id) => document.getElementById(id);
	const effect = (b) => {
		const id = b.dataset.testid || b.id;
		if (id === "presenter") { const was = html.classList.contains("presenter"); return () => html.classList.contains("presenter") !== was; }
		if (id === "lesson-open") { const was = $("lesson").hidden; return () => $("lesson").hidden !== was; }
		if (id === "lesson-next" || id === "lesson-prev") { const was = $("lesson-count").textContent; return () => $("lesson-count").textContent !== was; }
		if (b.dataset.delta !== undefined) return () => b.getAttribute("aria-pressed") === "true";
		return null;
	};
	const check = () => {
		if (!C.want || !C.want()) return;
		const down = C.down, id = C.id, handler = performance.now() - down;
		C.want = null;
		requestAnimationFrame(() => C.out.push({id, handler, frame: performance.now() - down}));
	};
	addEventListener("click", (e) => {
		const b = e.target.closest("button");
		if (!b) return;
		C.want = effect(b); C.id = b.dataset.testid || b.id; C.down = e.timeStamp;
	}, true);
	new MutationObserver(check).observe(html, {subtree: true, attributes: true, childList: true, characterData: true});
	return true;
})()`

// benchControl is one control's clicks.
type benchControl struct {
	Control  string    `json:"control"`
	Clicks   int       `json:"clicks"`
	Median   float64   `json:"next_frame_median_ms"`
	P95      float64   `json:"next_frame_p95_ms"`
	Max      float64   `json:"next_frame_max_ms"`
	Handler  float64   `json:"effect_p95_ms"`
	Frames   []float64 `json:"next_frame_ms"`
	TargetMS float64   `json:"target_ms"`
}

// benchControlsRun clicks each control in turn, 10 to 12 times, 700 ms
// apart, on the lesson at 1920×1080 with two busy loops beside the page.
func benchControlsRun(t *testing.T) []benchControl {
	busyLoops(t, 2)
	s := newSession(t, 10*time.Minute)
	s.viewport(1920, 1080)
	s.openAt(s.url, "bench=controls", "#lesson=3")
	s.waitStep(3)
	s.waitState("running", 30*time.Second)
	evalJS[bool](s, benchControlJS)
	time.Sleep(time.Second)
	click := func(id string, n int) {
		for range n {
			s.click(id)
			time.Sleep(700 * time.Millisecond)
		}
	}
	for range 4 { // the δ buttons of step 3, each in turn
		for _, id := range []string{"lesson-delta-1", "lesson-delta-100", "lesson-delta-10"} {
			click(id, 1)
		}
	}
	s.click("lesson-next") // step 4 … 6: the race, the heaviest
	s.click("lesson-next")
	s.click("lesson-next")
	time.Sleep(2 * time.Second)
	for range 6 {
		click("lesson-prev", 1)
		click("lesson-next", 1)
	}
	click("presenter", 12)
	click("lesson-open", 12)
	type rec struct {
		ID      string  `json:"id"`
		Handler float64 `json:"handler"`
		Frame   float64 `json:"frame"`
	}
	recs := evalJS[[]rec](s, `window.__controls.out`)
	byControl := map[string]*benchControl{}
	var order []string
	for _, r := range recs {
		name := r.ID
		if strings.HasPrefix(name, "lesson-delta") {
			name = "lesson's δ buttons"
		} else if name == "lesson-next" || name == "lesson-prev" {
			name = "Next / Prev"
		} else if name == "presenter" {
			name = "Presenter"
		} else if name == "lesson-open" {
			name = "Lesson"
		}
		c := byControl[name]
		if c == nil {
			c = &benchControl{Control: name, TargetMS: 100}
			byControl[name] = c
			order = append(order, name)
		}
		c.Clicks++
		c.Frames = append(c.Frames, r.Frame)
		c.Handler = math.Max(c.Handler, r.Handler)
	}
	var out []benchControl
	for _, name := range order {
		c := byControl[name]
		sorted := slices.Sorted(slices.Values(c.Frames))
		c.Median = sorted[len(sorted)/2]
		c.P95 = sorted[int(math.Ceil(0.95*float64(len(sorted))))-1]
		c.Max = sorted[len(sorted)-1]
		t.Logf("%-20s %2d clicks: on screen after median %.0f ms, 95th percentile %.0f ms, max %.0f ms", name, c.Clicks, c.Median, c.P95, c.Max)
		if c.P95 > c.TargetMS {
			t.Errorf("%s: 95th percentile %.0f ms, want ≤ %g ms", name, c.P95, c.TargetMS)
		}
		out = append(out, *c)
	}
	if len(out) < 4 {
		t.Errorf("answers for %d controls of 4: %v", len(out), order)
	}
	s.checkExceptions()
	return out
}

// controlsMarkdown is the controls' table for bench.md.
func controlsMarkdown(cs []benchControl) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\n## The classroom's controls (the lesson at 1920×1080, two busy loops beside it)\n\n")
	fmt.Fprintf(&b, "From the click (event.timeStamp) to the next frame after the control's own change on screen:\n\n")
	fmt.Fprintf(&b, "| control | clicks | median | 95th percentile | max | target |\n|---|---:|---:|---:|---:|---:|\n")
	for _, c := range cs {
		fmt.Fprintf(&b, "| %s | %d | %.0f ms | %.0f ms | %.0f ms | ≤ %g ms |\n", c.Control, c.Clicks, c.Median, c.P95, c.Max, c.TargetMS)
	}
	return b.String()
}

// TestBenchControls is the controls' part of make bench alone
// (OCCFM_BENCH_CONTROLS=1), for working on one control.
func TestBenchControls(t *testing.T) {
	if os.Getenv("OCCFM_BENCH_CONTROLS") == "" {
		t.Skip("OCCFM_BENCH_CONTROLS is not set (make bench runs it within TestBench)")
	}
	t.Log(controlsMarkdown(benchControlsRun(t)))
}

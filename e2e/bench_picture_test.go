//go:build e2e

package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestBenchPicture measures what the model picture costs the learner
// (the promise: cheap enough to redraw at a few Hz on the demos without
// slowing learning): on each demo, OCCFM at full speed, rows/s while the
// picture is on screen (it redraws, at most 4 times a second and at most a
// twentieth of the time) against rows/s while it is off screen (it does
// not draw): three 2-second phases of each, alternating, each from row 0
// after Reset, so that both learn the same rows;
// and occfm.picture()'s own time, the median of 15 calls. Part of make
// bench (OCCFM_BENCH names the results folder: picture.md is written
// there).
func TestBenchPicture(t *testing.T) {
	out := os.Getenv("OCCFM_BENCH")
	if out == "" {
		t.Skip("OCCFM_BENCH is not set: run make bench")
	}
	var md strings.Builder
	md.WriteString("| demo | C drawn | picture() ms (median of 15) | rows/s, picture on screen | rows/s, off screen | on/off |\n|---|---|---|---|---|---|\n")
	for _, demo := range []string{"planted-regression", "ratings"} {
		s := newSession(t, 5*time.Minute)
		s.url += "#demo=" + demo + "&learners=occfm&speed=max&checkpoints=off"
		s.openDemo()
		pic := `document.getElementById("model-picture")`
		var on, off []float64
		for rep := range 6 {
			visible := rep%2 == 0
			if visible {
				evalJS[bool](s, "("+pic+".scrollIntoView(), true)")
			} else {
				evalJS[bool](s, "(scrollTo(0, 0), true)")
			}
			// Each phase learns the same rows from row 0: only the picture
			// differs.
			gen := evalJS[int](s, "occfmPage.session.gen")
			s.click("reset")
			s.waitJS("the run restarted", "occfmPage.session.gen > "+strconv.Itoa(gen), 10*time.Second)
			if s.state() != "running" {
				s.click("play")
			}
			r0, t0 := s.rows(), time.Now()
			time.Sleep(2 * time.Second)
			rate := float64(s.rows()-r0) / time.Since(t0).Seconds()
			if visible {
				on = append(on, rate)
			} else {
				off = append(off, rate)
			}
		}
		ms := evalJS[float64](s, `(() => { const t = []; for (let i = 0; i < 15; i++) { const a = performance.now(); occfm.picture(); t.push(performance.now() - a); }
			t.sort((a, b) => a - b); return t[7]; })()`)
		k := evalJS[string](s, pic+".dataset.k")
		mOn, mOff := median(on), median(off)
		t.Logf("%s: C %s×%s, picture() %.2f ms; rows/s on screen %.0f (%v), off %.0f (%v): %.3f", demo, k, k, ms, mOn, on, mOff, off, mOn/mOff)
		fmt.Fprintf(&md, "| %s | %s×%s | %.2f | %.0f | %.0f | %.3f |\n", demo, k, k, ms, mOn, mOff, mOn/mOff)
	}
	if err := os.WriteFile(filepath.Join(out, "picture.md"), []byte(md.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

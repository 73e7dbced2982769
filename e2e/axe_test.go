//go:build e2e

package e2e

// Accessibility: axe-core, from npm (ui/package.json's
// devDependencies), run in headless Chromium on both views at a phone, a
// projector and a wide screen, must find no violation of any impact.

import (
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

const axePath = "ui/node_modules/axe-core/axe.min.js"

// axeViolation is one rule axe-core found broken, with where.
type axeViolation struct {
	ID     string   `json:"id"`
	Impact string   `json:"impact"`
	Help   string   `json:"help"`
	Nodes  []string `json:"nodes"`
}

// runAxe injects axe-core into the page (through the DevTools protocol,
// not a script tag: the page's CSP stays) and returns its violations.
func (s *session) runAxe(src string) []axeViolation {
	s.t.Helper()
	evalJS[bool](s, src+";true")
	out, err := chromedp.Run(s.ctx, chromedp.Evaluate[string](`axe.run(document, {resultTypes: ["violations"]}).then((r) =>
		JSON.stringify(r.violations.map((v) => ({id: v.id, impact: v.impact, help: v.help,
			nodes: v.nodes.slice(0, 5).map((n) => n.target.join(" "))}))))`,
		chromedp.EvalAwaitPromise))
	if err != nil {
		s.t.Fatalf("axe.run: %v", err)
	}
	var v []axeViolation
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		s.t.Fatalf("axe.run: %v (%q)", err, out)
	}
	return v
}

func TestE2EAxe(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile(axePath)
	if err != nil {
		t.Fatalf("%v: make dist installs the page's npm packages (ui/package.json)", err)
	}
	sizes := []struct{ w, h int64 }{{390, 844}, {1280, 720}, {1920, 1080}}
	for _, view := range []string{"learn", "personalize"} {
		for _, sz := range sizes {
			name := view + "-" + strconv.FormatInt(sz.w, 10)
			t.Run(name, func(t *testing.T) {
				s := newSession(t, 2*time.Minute)
				if _, err := chromedp.Run(s.ctx, chromedp.EmulateViewport(sz.w, sz.h)); err != nil {
					t.Fatal(err)
				}
				if view == "learn" {
					s.url += "#demo=ratings&learners=occfm-auto,bias"
					s.openDemo()
					time.Sleep(1500 * time.Millisecond) // charts and tables drawn
				} else {
					s.openPersonalize()
					s.waitPersonalReady(90 * time.Second)
				}
				if view == "learn" {
					// Every chart has a text alternative (defect 8).
					sums := evalJS[[]string](s, `[...document.querySelectorAll('#learn-view .chart-summary')].map((p) => p.textContent)`)
					t.Logf("chart summaries: %q", sums)
					if len(sums) < 3 {
						t.Errorf("%d chart summaries, want one per chart", len(sums))
					}
					for _, x := range sums {
						if x == "" {
							t.Error("a chart summary is empty")
						}
					}
				}
				v := s.runAxe(string(src))
				for _, x := range v {
					t.Errorf("%s (%s): %s at %s", x.ID, x.Impact, x.Help, strings.Join(x.Nodes, " | "))
				}
				s.screenshot("axe-" + name)
			})
		}
	}
}

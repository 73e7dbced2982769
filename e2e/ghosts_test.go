//go:build e2e

package e2e

import (
	"strings"
	"testing"
	"time"
)

// Issue 31, item 4: lesson step 3's δ buttons keep the earlier runs on the
// metric chart as faded, labelled curves, so that δ = 1, 10 and 100 share
// the chart; "forget earlier runs" takes them off, and other data starts
// clean.
func TestE2EEarlierRuns(t *testing.T) {
	t.Parallel()
	s := newSession(t, 3*time.Minute)
	s.viewport(1280, 720)
	base := s.url
	s.openAt(base, "ghosts=1", "#lesson=3")
	s.waitStep(3)
	s.waitJS("2,000 rows at δ = 10", jsRows+" >= 2000", 30*time.Second)
	s.click("lesson-delta-1")
	s.waitJS("a new run", jsRows+" < 2000", 10*time.Second)
	s.waitJS("2,000 rows at δ = 1", jsRows+" >= 2000", 30*time.Second)
	s.click("lesson-delta-100")
	s.waitJS("a new run", jsRows+" < 2000", 10*time.Second)
	s.waitJS("2,000 rows at δ = 100", jsRows+" >= 2000", 30*time.Second)
	chart := `document.querySelector('[data-testid="metric-chart"]')`
	ghosts := evalJS[string](s, chart+".dataset.ghosts")
	summary := evalJS[string](s, `document.querySelector('[data-testid="metric-chart-summary"]').textContent`)
	t.Logf("ghosts %q; %s", ghosts, summary)
	if ghosts != "occfm, δ = default;occfm, δ = 1" {
		t.Errorf("earlier runs on the chart: %q, want δ = default (10) and δ = 1", ghosts)
	}
	if !strings.Contains(summary, "Earlier runs, faded: occfm, δ = default ended at") {
		t.Errorf("the chart's summary does not name the earlier runs: %q", summary)
	}
	s.shot("earlier-runs-1280")
	if evalJS[bool](s, `document.getElementById("forget-runs").hidden`) {
		t.Fatal("no forget button with earlier runs on the chart")
	}
	s.click("forget-runs")
	if g := evalJS[string](s, chart+".dataset.ghosts"); g != "" || !evalJS[bool](s, `document.getElementById("forget-runs").hidden`) {
		t.Errorf("after forget: ghosts %q", g)
	}
	// Other data: the last run is not comparable.
	s.click("lesson-delta-10")
	s.waitJS("a new run", jsRows+" < 2000", 10*time.Second)
	if g := evalJS[string](s, chart+".dataset.ghosts"); g != "occfm, δ = 100" {
		t.Errorf("after δ = 10: ghosts %q, want δ = 100", g)
	}
	s.setControl("demo", "ratings")
	s.waitJS("the ratings demo", `occfmPage.session.run && occfmPage.session.run.data === "demo:ratings"`, 10*time.Second)
	if g := evalJS[string](s, chart+".dataset.ghosts"); g != "" {
		t.Errorf("on other data: ghosts %q", g)
	}
	s.checkExceptions()
}

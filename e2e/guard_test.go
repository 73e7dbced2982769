//go:build e2e

package e2e

import (
	"math"
	"strconv"
	"strings"
	"testing"
	"time"
)

// guardView is what the page shows of the learners' guards.
type guardView struct {
	Notes     string   `json:"notes"`
	Hidden    bool     `json:"hidden"`
	Names     []string `json:"names"`
	Cells     []string `json:"cells"` // every number of the learner table
	Preds     []string `json:"preds"` // ŷ column of the predictions table
	ClipValue string   `json:"clipValue"`
}

const guardViewJS = `(() => {
	const q = (id) => document.querySelector('[data-testid="' + id + '"]');
	const notes = q("guard-notes");
	const table = q("learner-table");
	const rows = [...table.tBodies[0].rows];
	const preds = q("predictions");
	const head = [...preds.tHead.rows[0].cells].map((c) => c.textContent.trim());
	const col = head.findIndex((h) => h === "ŷ" || h.startsWith("ŷ"));
	return {
		notes: notes.textContent,
		hidden: notes.hidden,
		names: rows.map((r) => r.cells[0].textContent),
		cells: rows.flatMap((r) => [...r.cells].slice(1).map((c) => c.textContent)),
		preds: col < 0 ? [] : [...preds.tBodies[0].rows].map((r) => r.cells[col].textContent),
		clipValue: q("clip").value,
	};
})()`

// TestE2EGuard: on the ratings demo, FM-FTRL with η = 10 diverges. The page
// says so (diverged, reset 3 times, then paused), no number on the page is
// NaN or infinite, and OCCFM racing beside it learns on. Predictions are
// clipped to the labels' range (Clip predictions auto: on for ratings) and
// the note goes away with Clip off.
func TestE2EGuard(t *testing.T) {
	t.Parallel()
	s := newSession(t, 2*time.Minute)
	s.url += "#demo=ratings&learners=occfm,fm-ftrl&eta=10&speed=max"
	s.openDemo()
	s.waitJS("fm-ftrl paused by its guard",
		`(() => { const n = document.querySelector('[data-testid="guard-notes"]'); return !n.hidden && n.textContent.includes("paused at row"); })()`,
		30*time.Second)
	s.waitJS("5,000 rows", jsRows+" > 5000", 30*time.Second)
	v := evalJS[guardView](s, guardViewJS)
	t.Logf("guard notes: %s", v.Notes)
	for _, want := range []string{"fm-ftrl: diverged 4×, reset 3×", "paused at row", "row ", "a fresh fm-ftrl replaces it", "Predictions clipped to the range of the labels seen"} {
		if !strings.Contains(v.Notes, want) {
			t.Errorf("guard notes lack %q: %s", want, v.Notes)
		}
	}
	if note := evalJS[string](s, `document.getElementById("note").textContent`); !strings.Contains(note, "fm-ftrl diverged and was paused at row") {
		t.Errorf("the note at the top says %q, want that fm-ftrl was paused", note)
	}
	if strings.Contains(v.Notes, "occfm:") {
		t.Errorf("OCCFM (η = 10) tripped its guard: %s", v.Notes)
	}
	if len(v.Names) != 2 || v.Names[1] != "fm-ftrl (paused)" {
		t.Errorf("learner names %q, want fm-ftrl marked paused", v.Names)
	}
	for _, text := range append(v.Cells, v.Preds...) {
		low := strings.ToLower(text)
		if strings.Contains(low, "nan") || strings.Contains(low, "inf") {
			t.Errorf("the page shows %q", text)
		}
	}
	if len(v.Preds) == 0 {
		t.Error("no prediction in the predictions table")
	}
	for _, text := range v.Preds {
		if y, err := strconv.ParseFloat(strings.TrimSpace(text), 64); err == nil && (y < 1-1e-9 || y > 5+1e-9) {
			t.Errorf("clipped prediction %v outside the ratings' range [1, 5]", y)
		}
	}
	if v, text := s.metric("metric-rmse"); math.IsNaN(v) || v > 2 {
		t.Errorf("OCCFM's RMSE %v (%q): the diverging FM-FTRL must not spoil it", v, text)
	}
	s.screenshot("guard-diverged")

	// Clip off restarts the run without the note (and OCCFM's
	// predictions may leave [1, 5]).
	evalJS[bool](s, `(() => {
		const e = document.querySelector('[data-testid="clip"]');
		e.value = "off";
		e.dispatchEvent(new Event("change", {bubbles: true}));
		return true;
	})()`)
	s.waitJS("the run to restart and fm-ftrl to be paused again",
		`(() => { const n = document.querySelector('[data-testid="guard-notes"]'); return n.textContent.includes("paused at row") && !n.textContent.includes("Predictions clipped"); })()`,
		30*time.Second)
	if v := evalJS[guardView](s, guardViewJS); v.ClipValue != "off" {
		t.Errorf("clip select %q after the change", v.ClipValue)
	}
	if h := evalJS[string](s, `location.hash`); !strings.Contains(h, "clip=off") {
		t.Errorf("hash %q lacks clip=off", h)
	}
	s.checkExceptions()
}

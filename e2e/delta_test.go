//go:build e2e

package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestE2EDelta: changing only δ, from 1 to 1000, makes OCCFM
// diverge on none of the three demos in the page. For each demo and δ the
// page learns 10,000 rows (or to the demo's end) at full speed with OCCFM
// alone (with the default η, which for the squared loss is 10/δ above δ =
// 10, at least 0.1), and its guard notes name no divergence, reset or
// pause. A count of rows, not a time, so that a busy machine tests the same
// work; the rows per second between 2,000 and 10,000 rows are logged, for
// reading next to `make bench`'s figures.
func TestE2EDelta(t *testing.T) {
	t.Parallel()
	// Each demo in a page of its own, two at once.
	for _, demo := range []string{"ratings", "planted-regression", "planted-classification"} {
		t.Run(demo, func(t *testing.T) {
			t.Parallel()
			deltaSweep(t, demo)
		})
	}
}

// deltaSweep is TestE2EDelta for one demo: the first δ in a page opened
// on its link, each next one by a change of the link's δ alone, which
// starts a new run in the same page, as a δ typed into the link does.
func deltaSweep(t *testing.T, demo string) {
	s := newSession(t, 10*time.Minute)
	base := s.url
	for i, d := range []float64{1, 3, 10, 30, 100, 300, 1000} {
		hash := fmt.Sprintf("#demo=%s&learners=occfm&delta=%g&speed=max", demo, d)
		if i == 0 {
			s.url = base + hash
			s.openDemo()
		} else {
			gen := evalJS[int](s, "occfmPage.session.gen")
			evalJS[chromedp.Void](s, fmt.Sprintf("location.hash = %q", hash))
			s.waitJS(fmt.Sprintf("%s at δ = %g: a new run", demo, d), fmt.Sprintf(`occfmPage.session.gen > %d && document.body.dataset.state === "running"`, gen), 20*time.Second)
			if got := evalJS[float64](s, `Number(document.querySelector('[data-testid="delta"]').value)`); got != d {
				t.Fatalf("%s: the link asks for δ = %g, the page's δ is %g", demo, d, got)
			}
		}
		s.waitJS(fmt.Sprintf("%s at δ = %g: 2,000 rows", demo, d), jsRows+" >= 2000", 60*time.Second)
		start, r0 := time.Now(), s.rows()
		s.waitJS(fmt.Sprintf("%s at δ = %g: 10,000 rows", demo, d), jsRows+` >= 10000 || document.body.dataset.state === "done"`, 60*time.Second)
		rate := float64(s.rows()-r0) / time.Since(start).Seconds()
		v := evalJS[guardView](s, guardViewJS)
		if strings.Contains(v.Notes, "occfm:") || strings.Contains(v.Notes, "paused") {
			t.Errorf("%s at δ = %g: OCCFM's guard tripped: %s", demo, d, v.Notes)
		}
		for _, text := range v.Cells {
			if low := strings.ToLower(text); strings.Contains(low, "nan") || strings.Contains(low, "inf") {
				t.Errorf("%s at δ = %g: the page shows %q", demo, d, text)
			}
		}
		id := "metric-rmse"
		if demo == "planted-classification" {
			id = "metric-error-rate"
		}
		metric, _ := s.metric(id)
		note := ""
		if s.state() == "done" {
			note = " (reached the demo's end: a lower bound)"
		}
		t.Logf("%-22s δ = %-5g %6d rows, %7.0f rows/s%s, metric %.4f", demo, d, s.rows(), rate, note, metric)
	}
	s.checkExceptions()
}

package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/occfm/occfm/core"
	"github.com/occfm/occfm/core/data"
)

// guardSettings maps -clip, -on-diverge and -scale onto the guard every
// learner of occfm run is wrapped in. -clip auto clips on ratings: a
// MovieLens file learned as regression.
func guardSettings(rs runSettings, format data.Format, task data.Task) core.GuardSettings {
	g := core.GuardFor(rs.clip, rs.onDiverge, format == data.FormatMovieLens && task == data.Regression)
	g.Unscaled = rs.scale == "off"
	return g
}

// guardReport returns the guard's report of a player's learner (the zero
// report for a learner that is not guarded).
func guardReport(p *core.Player) core.GuardReport {
	if g, ok := p.Learner.(*core.Guarded); ok {
		return g.Report()
	}
	return core.GuardReport{}
}

// writeGuard writes, for every learner the guard acted on, what it did:
// divergences, resets, a pause, parts retired (occfm-auto's experts that
// failed), rows not learned, and the first events; then, after a divergence
// or a failure, which flag to change.
func writeGuard(w io.Writer, players []*core.Player) {
	for _, p := range players {
		r := guardReport(p)
		retired := r.Retired()
		if r.Divergences == 0 && r.Refused == 0 && retired == 0 {
			continue
		}
		var parts []string
		if r.Divergences > 0 {
			d := fmt.Sprintf("diverged %d times, reset %d times", r.Divergences, r.Resets)
			if r.Paused {
				d += fmt.Sprintf(", paused at row %s (it stopped learning and predicts the label mean)", commas(r.PausedAt))
			}
			parts = append(parts, d)
		}
		if retired > 0 {
			was := map[bool]string{true: "was", false: "were"}[retired == 1]
			parts = append(parts, plural(retired, "expert")+" failed and "+was+" retired (the others learn on)")
		}
		if r.Refused > 0 {
			parts = append(parts, fmt.Sprintf("%s not learned (%s)", plural(r.Refused, "row"), r.RefusedWhy()))
		}
		fmt.Fprintf(w, "\n%s: %s\n", p.Name, strings.Join(parts, "; "))
		for _, e := range r.Events {
			fmt.Fprintf(w, "  %s\n", e)
		}
		if g, ok := p.Learner.(*core.Guarded); ok && (r.Divergences > 0 || retired > 0) {
			fmt.Fprintln(w, "  "+g.DivergenceAdvice("-delta", "-eta"))
		}
	}
}

// plural is "1 row" or "2,000 rows".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return commas(n) + " " + noun + "s"
}

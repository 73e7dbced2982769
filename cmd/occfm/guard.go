package main

import (
	"fmt"
	"io"

	"github.com/occfm/occfm/core"
	"github.com/occfm/occfm/core/data"
)

// guardSettings maps -clip and -on-diverge onto the guard every learner of
// occfm run is wrapped in. -clip auto clips on ratings: a MovieLens file
// learned as regression.
func guardSettings(rs runSettings, format data.Format, task data.Task) core.GuardSettings {
	return core.GuardFor(rs.clip, rs.onDiverge, format == data.FormatMovieLens && task == data.Regression)
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
// divergences, resets, a pause, rows not learned, and the first events.
func writeGuard(w io.Writer, players []*core.Player) {
	for _, p := range players {
		r := guardReport(p)
		if r.Divergences == 0 && r.Refused == 0 {
			continue
		}
		fmt.Fprintf(w, "\n%s: ", p.Name)
		if r.Divergences > 0 {
			fmt.Fprintf(w, "diverged %d times, reset %d times", r.Divergences, r.Resets)
			if r.Paused {
				fmt.Fprintf(w, ", paused at row %s (it stopped learning and predicts the label mean)", commas(r.PausedAt))
			}
			if r.Refused > 0 {
				fmt.Fprint(w, "; ")
			}
		}
		if r.Refused > 0 {
			fmt.Fprintf(w, "%s not learned (%s)", plural(r.Refused, "row"), r.RefusedWhy())
		}
		fmt.Fprintln(w)
		for _, e := range r.Events {
			fmt.Fprintf(w, "  %s\n", e)
		}
		if g, ok := p.Learner.(*core.Guarded); ok && r.Divergences > 0 {
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

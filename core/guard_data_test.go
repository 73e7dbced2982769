package core

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/demo"
	"github.com/occfm/occfm/core/internal/coretest"
)

// TestGuardRealDataQuiet plays every learner of the registry, at its
// defaults, over the real data sets and the demos, and checks that the guard
// never fires (a false alarm would reset a healthy learner). It logs, per
// learner and data set, how close the smoothed losses came to the
// divergence bars: the largest ratio of the ~500-row average to the label
// mean's (bar: Factor = 100), and of the ~50-row average (bar: 1000). It
// takes minutes, so it runs only with OCCFM_GUARD_DATA=1:
//
//	OCCFM_GUARD_DATA=1 go test -run TestGuardRealDataQuiet -v -timeout 60m ./core
func TestGuardRealDataQuiet(t *testing.T) {
	if os.Getenv("OCCFM_GUARD_DATA") == "" {
		t.Skip("set OCCFM_GUARD_DATA=1 to play every learner over the real data sets (minutes)")
	}
	type set struct {
		name string
		rows []data.Example
		task data.Task
	}
	var sets []set
	for _, f := range []string{"movielens-100k/u.data", "ijcnn1/ijcnn1.gz", "a9a/a9a"} {
		if _, err := os.Stat(filepath.Join(coretest.SharedDir(), f)); err != nil {
			t.Logf("%s: not present, skipped", f)
			continue
		}
		st, err := data.NewStream(coretest.OpenData(t, f), data.ReaderSettings{Name: filepath.Base(f)})
		if err != nil {
			t.Fatal(err)
		}
		var rows []data.Example
		var labels []float64
		var ex data.Example
		for st.Next(&ex) == nil {
			rows = append(rows, ex.Clone())
			if len(labels) < 1000 {
				labels = append(labels, ex.Y)
			}
		}
		task := data.GuessTask(labels)
		if st.Format() == data.FormatMovieLens {
			task = data.Regression
		}
		for i := range rows {
			if rows[i].Y, err = task.Label(rows[i].Y); err != nil {
				t.Fatal(err)
			}
		}
		sets = append(sets, set{f, rows, task})
	}
	for _, d := range demo.All() {
		rows, task := firstDemoRows(t, d.Name, 1, 20000)
		sets = append(sets, set{"demo " + d.Name, rows, task})
	}
	var worstL, worstS float64
	for _, s := range sets {
		for _, spec := range Learners() {
			g, err := NewGuarded(spec.Name, Config{Task: s.task}, GuardSettings{})
			if err != nil {
				t.Fatal(err)
			}
			rows := s.rows
			if (spec.Name == "ccfm-ftrl" || spec.Name == "ccfm-ogd" || spec.Name == "ccfm-pa") && len(rows) > 20000 {
				rows = rows[:20000] // the projected learners are slow on long streams
			}
			var maxL, maxS float64
			for i, ex := range rows {
				checkFinite(t, spec.Name, i, Play(g, ex, nil))
				bar := g.eB.mean() + g.floor()
				if g.since >= guardWindow {
					maxL = max(maxL, g.eL.mean()/bar)
				}
				if g.since >= guardWindow/10 {
					maxS = max(maxS, g.eS.mean()/bar)
				}
			}
			r := g.Report()
			t.Logf("%-28s %-9s %7d rows: 500-row loss ≤ %6.3g× the label mean's (bar 100), 50-row ≤ %6.3g× (bar 1000)", s.name, spec.Name, len(rows), maxL, maxS)
			if r.Divergences != 0 || r.Refused != 0 {
				t.Errorf("%s on %s at defaults: guard report %+v", spec.Name, s.name, r)
			}
			worstL, worstS = max(worstL, maxL), max(worstS, maxS)
		}
	}
	t.Logf("worst: 500-row %.3g× (bar 100), 50-row %.3g× (bar 1000)", worstL, worstS)
}

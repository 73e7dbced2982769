package core

import (
	"errors"
	"strconv"
	"testing"
	"time"
)

// TestWideRow: one row of 5,000 or 15,000 nonzero features (a 34 KB
// LibSVM line) through every registered learner, guarded, after 200
// ordinary rows: it finishes quickly and allocates little, because the
// learners whose update is quadratic in a row's nonzeros refuse it
// (RowLimited) and the others are linear in it. Before the limit, OCCFM
// took 21 s and 1.18 GB on the 5,000 row and died on the 15,000 one.
func TestWideRow(t *testing.T) {
	rows := ratingStream(200, 200)
	for _, nnz := range []int{5000, 15000} {
		wide := denseRowOf(nnz)
		for _, spec := range Learners() {
			g, _ := NewGuarded(spec.Name, Config{}, GuardSettings{})
			for _, ex := range rows {
				Play(g, ex, nil)
			}
			start := time.Now()
			var yhat float64
			alloc := totalAlloc(func() { yhat = Play(g, wide, nil) })
			took := time.Since(start)
			checkFinite(t, spec.Name, 201, yhat)
			t.Logf("%-10s nnz %6d: %8v, allocated %s, holds %s", spec.Name, nnz, took.Round(time.Microsecond),
				FormatBytes(int64(alloc)), FormatBytes(g.MemoryBytes()))
			if alloc > 64<<20 || took > 5*time.Second {
				t.Errorf("%s: a row of %d nonzeros took %v and allocated %s", spec.Name, nnz, took, FormatBytes(int64(alloc)))
			}
			_, limited := g.Learner().(RowLimited)
			if r := g.Report(); limited != (r.TooWide == 1) {
				t.Errorf("%s: %+v", spec.Name, r)
			}
		}
	}
}

// TestManyIDs: MovieLens-like rows of 2 one-hot features whose IDs are all
// new (2 new features a row) through the learners that grow per feature:
// their MemoryBytes grows by about the documented bytes a feature, and a
// MemoryBudget check every 1,000 rows stops the run soon after it crosses
// a small limit. Without -short the stream has 2 million IDs (a million
// rows) under the default budget, and the throughput is logged.
func TestManyIDs(t *testing.T) {
	ids, limit := 200_000, int64(4<<20)
	if !testing.Short() {
		ids, limit = 2_000_000, 0
	}
	rows := oneHotStream(ids, ids/2)
	for _, c := range []struct {
		name              string
		perFeature, slack float64 // documented bytes a feature, and the growth slack allowed
	}{
		{"linear", 24, 2.2}, {"bias", 16, 2.2}, {"fm-ftrl", 264, 2.2}, {"occfm", 1000, 3},
	} {
		rows := rows
		limit := limit
		if c.name == "occfm" {
			// About 2,000 rows/s: the small limit stops it within a second.
			rows, limit = rows[:min(len(rows), 100_000)], 4<<20
		}
		g, _ := NewGuarded(c.name, Config{}, GuardSettings{})
		budget := MemoryBudget{Limit: limit}
		start := time.Now()
		var err error
		played := 0
		for i, ex := range rows {
			Play(g, ex, nil)
			played++
			if i%250 == 249 {
				if err = budget.Check(MemoryPart{Name: c.name, Value: g}); err != nil {
					break
				}
			}
		}
		took := time.Since(start)
		mem := g.MemoryBytes()
		feats := 2 * played
		t.Logf("%-8s %d rows (%d features) in %v (%.0f rows/s): holds %s, %.0f bytes a feature; budget: %v",
			c.name, played, feats, took.Round(time.Millisecond), float64(played)/took.Seconds(), FormatBytes(mem), float64(mem)/float64(feats), err)
		if c.perFeature > 0 {
			if per := float64(mem) / float64(feats); per < c.perFeature || per > c.slack*c.perFeature+1 {
				t.Errorf("%s: %.0f bytes a feature, documented %.0f", c.name, per, c.perFeature)
			}
		}
		var be *BudgetError
		if errors.As(err, &be) {
			if be.Total <= budget.Max() || be.Total > budget.Max()+budget.Max()/2 || be.Largest != c.name {
				t.Errorf("%s: %+v", c.name, be)
			}
		} else if limit > 0 && c.name != "bias" {
			t.Errorf("%s: the budget of %s did not stop %d rows holding %s", c.name, FormatBytes(limit), played, FormatBytes(mem))
		}
	}
}

// BenchmarkWideRow times the update of one row of nnz new features by the
// learners whose update is quadratic in nnz (and the projected baselines,
// which are not), unguarded, after 2,000 MovieLens-like rows; it reports
// the bytes allocated per row. These figures chose DefaultMaxRowNonzeros
// (go test -run '^$' -bench WideRow -benchtime 3x ./core -args -slowbench).
// Every row adds its pairs to G for good, so nnz = 1,000 (about 0.2 s and
// 100 MB a row) runs only with -slowbench.
func BenchmarkWideRow(b *testing.B) {
	warm := ratingStream(1000, 2000)
	for _, name := range []string{"occfm", "ccfm-ftrl", "cfm-ftrl", "ccfm-ogd", "ccfm-pa"} {
		for _, nnz := range []int{100, 300, 1000} {
			b.Run(name+"/nnz="+strconv.Itoa(nnz), func(b *testing.B) {
				if nnz > 300 && !*slowBenchFlag {
					b.Skip("about 0.2 s and 100 MB a row: run with -slowbench")
				}
				l, _ := NewLearner(name, Config{})
				for _, ex := range warm {
					Play(l, ex, nil)
				}
				b.ReportAllocs()
				off := 2000
				for b.Loop() {
					x := denseRowOf(nnz)
					for i := range x.X.Ind {
						x.X.Ind[i] += off
					}
					off += nnz
					Play(l, x, nil)
				}
			})
		}
	}
}

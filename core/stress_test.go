package core

import (
	"errors"
	"strconv"
	"testing"
	"time"

	"github.com/occfm/occfm/core/internal/coretest"
)

// TestWideRow: one row of 5,000 or 15,000 nonzero features (a 34 KB
// LibSVM line) through every registered learner, guarded, after 200
// ordinary rows, costs work linear in its nonzeros: the pair terms the
// learner visits for it (pairCounter, counted by the learner itself) are at
// most its nonzeros, and it allocates at most 64 MiB. The learners whose
// update is quadratic in a row's nonzeros refuse it (RowLimited) and the
// others are linear in it; ccfm-pairs leaves the pairs of so wide a row out
// (see CCFMPairsSettings.MaxRowNonzeros), and so does occfm-auto's
// ccfm-pairs expert. Without the limits OCCFM takes 21 s and 1.18 GB on
// the 5,000 row and runs out of memory on the 15,000 one, and ccfm-pairs
// and occfm-auto visit nnz²/2 pair terms to predict it. The time is logged,
// not asserted (a busy machine stretches it); BenchmarkWideRowGuarded times
// it.
//
// So that the bound can fail, each learner that counts pairs must count a
// narrow row's: a row of 40 nonzeros visits at least its 780 pairs i < j.
func TestWideRow(t *testing.T) {
	rows := ratingStream(200, 200)
	for _, spec := range Learners() {
		g, _ := NewGuarded(spec.Name, Config{}, GuardSettings{})
		_, limited := g.Learner().(RowLimited)
		if _, counts := g.Learner().(pairCounter); limited && !counts {
			t.Errorf("%s is RowLimited (quadratic in a row) but does not count the pairs it visits", spec.Name)
		}
		for _, ex := range rows {
			Play(g, ex, nil)
		}
		narrow := denseRowOf(40)
		v0 := g.pairVisits()
		Play(g, narrow, nil)
		if _, counts := g.Learner().(pairCounter); counts && g.pairVisits()-v0 < 40*39/2 {
			t.Errorf("%s: a row of 40 nonzeros visited %d pair terms, want ≥ 780", spec.Name, g.pairVisits()-v0)
		}
	}
	for _, nnz := range []int{5000, 15000} {
		wide := denseRowOf(nnz)
		for _, spec := range Learners() {
			g, _ := NewGuarded(spec.Name, Config{}, GuardSettings{})
			for _, ex := range rows {
				Play(g, ex, nil)
			}
			v0 := g.pairVisits()
			start := time.Now()
			var yhat float64
			alloc := coretest.TotalAlloc(func() { yhat = Play(g, wide, nil) })
			took := time.Since(start)
			visits := g.pairVisits() - v0
			checkFinite(t, spec.Name, 201, yhat)
			t.Logf("%-10s nnz %6d: %d pair terms, allocated %s, holds %s (%v)", spec.Name, nnz, visits,
				FormatBytes(int64(alloc)), FormatBytes(g.MemoryBytes()), took.Round(time.Microsecond))
			if alloc > 64<<20 || visits > int64(nnz) {
				t.Errorf("%s: a row of %d nonzeros visited %d pair terms (want ≤ %d) and allocated %s (want ≤ 64 MiB)",
					spec.Name, nnz, visits, nnz, FormatBytes(int64(alloc)))
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
				// The wide rows cycle over 4 blocks of nnz features past the
				// warm-up's, new the first time round: d stays under
				// 2000 + 4·nnz however many rows b.Loop plays (with a new
				// block every row, the dense learners' d and time per row
				// grew without bound and the benchmark never ended).
				k := 0
				for b.Loop() {
					x := denseRowOf(nnz)
					for i := range x.X.Ind {
						x.X.Ind[i] += 2000 + (k%4)*nnz
					}
					k++
					Play(l, x, nil)
				}
			})
		}
	}
}

// BenchmarkWideRowGuarded times TestWideRow's row of 15,000 nonzeros through
// every registered learner, guarded, after 200 ordinary rows: refused by the
// RowLimited learners (predicted, not learned), learned by the others.
func BenchmarkWideRowGuarded(b *testing.B) {
	rows, wide := ratingStream(200, 200), denseRowOf(15000)
	for _, spec := range Learners() {
		b.Run(spec.Name, func(b *testing.B) {
			g, _ := NewGuarded(spec.Name, Config{}, GuardSettings{})
			for _, ex := range rows {
				Play(g, ex, nil)
			}
			b.ReportAllocs()
			for b.Loop() {
				Play(g, wide, nil)
			}
		})
	}
}

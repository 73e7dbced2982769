package evaluate

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/occfm/occfm/core"
	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/demo"
)

// TestProtocol checks the §5.1 protocol's bookkeeping: fold sizes,
// the number of passes, the held-out rows partitioning the data, the trace,
// determinism, and that a pass equals a plain Play loop over its order.
func TestProtocol(t *testing.T) {
	for _, tc := range []struct {
		name                string
		task                data.Task
		rows                int
		s                   Settings
		wantPasses, heldOut int // heldOut: total held-out rows over passes
		wantTrain           func(fold int) int
	}{
		{"default five folds", data.Regression, 103, Settings{}, 5, 103, func(f int) int { return 103 - ((f+1)*103/5 - f*103/5) }},
		{"two runs three folds", data.Classification, 90, Settings{Runs: 2, Folds: 3, Seed: 7}, 6, 180, func(int) int { return 60 }},
		{"quick: one fold", data.Regression, 50, Settings{FoldsRun: 1, Seed: 3}, 1, 10, func(int) int { return 40 }},
		{"no held-out fold", data.Classification, 40, Settings{Folds: 1, Runs: 3}, 3, 0, func(int) int { return 40 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rows := demoRows(t, tc.task, tc.rows)
			loss := core.TaskLoss(tc.task)
			newL := func() core.Learner { return core.NewOCCFM(core.OCCFMSettings{Loss: loss}) }
			passes := Protocol(rows, tc.task, loss, newL, tc.s, nil)
			if len(passes) != tc.wantPasses {
				t.Fatalf("%d passes, want %d", len(passes), tc.wantPasses)
			}
			heldOut := 0
			for _, p := range passes {
				heldOut += p.HeldOut.Rows
				if want := tc.wantTrain(p.Fold); p.Progressive.Rows != want {
					t.Errorf("run %d fold %d: %d training rows, want %d", p.Run, p.Fold, p.Progressive.Rows, want)
				}
				if p.Progressive.Rows+p.HeldOut.Rows != tc.rows && tc.s.Folds != 1 {
					t.Errorf("run %d fold %d: %d + %d rows, want %d", p.Run, p.Fold, p.Progressive.Rows, p.HeldOut.Rows, tc.rows)
				}
				last := p.Trace[len(p.Trace)-1]
				if last.Rows != p.Progressive.Rows || math.Abs(last.AvgLoss-p.Progressive.AvgLoss) > 1e-12*(1+math.Abs(last.AvgLoss)) || last.Seconds != p.Seconds {
					t.Errorf("run %d fold %d: last trace point %+v, pass has %d rows, avg loss %v, %v s", p.Run, p.Fold, last, p.Progressive.Rows, p.Progressive.AvgLoss, p.Seconds)
				}
				for k := 1; k < len(p.Trace); k++ {
					if p.Trace[k].Rows <= p.Trace[k-1].Rows || p.Trace[k].Seconds < p.Trace[k-1].Seconds {
						t.Fatalf("trace not increasing at %d: %+v then %+v", k, p.Trace[k-1], p.Trace[k])
					}
				}
			}
			if tc.s.Runs <= 1 && tc.s.FoldsRun == 0 && heldOut != tc.heldOut {
				t.Errorf("held-out rows %d, want %d (the folds partition the data)", heldOut, tc.heldOut)
			}
			// Same settings, same results.
			again := Protocol(rows, tc.task, loss, newL, tc.s, nil)
			for i := range passes {
				if passes[i].Progressive != again[i].Progressive || passes[i].HeldOut != again[i].HeldOut {
					t.Fatalf("pass %d differs on a second call: %+v vs %+v", i, passes[i].Progressive, again[i].Progressive)
				}
			}
		})
	}
}

// TestProtocolMatchesPlay cross-checks one pass of Protocol against a plain
// Play loop: with one fold and one run, the training order is the seeded
// permutation, so replaying every row through Play in that order must give
// the same progressive metrics up to the order of summation.
func TestProtocolMatchesPlay(t *testing.T) {
	rows := demoRows(t, data.Regression, 300)
	s := Settings{Folds: 1, TracePoints: 7}
	newL := func() core.Learner { return core.NewOCCFM(core.OCCFMSettings{}) }
	got := Protocol(rows, data.Regression, core.Squared, newL, s, nil)[0].Progressive

	// The same permutations as Protocol: the split, then run 0's shuffle.
	order := rand.New(rand.NewPCG(1, 0x5eed)).Perm(len(rows))
	rand.New(rand.NewPCG(1, 1)).Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	l := newL()
	m := core.NewMetrics(data.Regression, core.Squared)
	for _, i := range order {
		core.Play(l, rows[i], m)
	}
	want := m.Summary()
	if got.Rows != want.Rows || math.Abs(got.RMSE-want.RMSE) > 1e-12 || math.Abs(got.MAE-want.MAE) > 1e-12 {
		t.Errorf("Protocol: %+v\nPlay loop: %+v", got, want)
	}
}

func TestMeanStd(t *testing.T) {
	for _, tc := range []struct {
		xs   []float64
		want Stat
	}{
		{[]float64{2}, Stat{Mean: 2, N: 1}},
		{[]float64{1, 2, 3, 4}, Stat{Mean: 2.5, Std: math.Sqrt(5.0 / 3), N: 4}},
		{[]float64{1, math.NaN(), 3}, Stat{Mean: 2, Std: math.Sqrt2, N: 2}},
	} {
		got := MeanStd(tc.xs)
		if got.N != tc.want.N || math.Abs(got.Mean-tc.want.Mean) > 1e-15 || math.Abs(got.Std-tc.want.Std) > 1e-15 {
			t.Errorf("MeanStd(%v) = %+v, want %+v", tc.xs, got, tc.want)
		}
	}
	if s := MeanStd(nil); !math.IsNaN(s.Mean) || s.N != 0 {
		t.Errorf("MeanStd(nil) = %+v, want NaN mean", s)
	}
}

// demoRows returns the first rows rows of the planted demo of task, seed 1.
func demoRows(t *testing.T, task data.Task, rows int) []data.Example {
	name := "planted-regression"
	if task == data.Classification {
		name = "planted-classification"
	}
	d, _ := demo.ByName(name)
	s := d.NewRows(1, rows)
	out := make([]data.Example, rows)
	for i := range out {
		if err := s.Next(&out[i]); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// TestProtocolDone: passes given by Settings.Done are taken, not played,
// when their Order is the pass's; the others are played as they would be:
// the passes equal an uninterrupted run's. A pass whose Order differs (an
// old record) is played again.
func TestProtocolDone(t *testing.T) {
	rows := demoRows(t, data.Regression, 80)
	loss := core.TaskLoss(data.Regression)
	played := 0
	newL := func() core.Learner { played++; return core.NewOCCFM(core.OCCFMSettings{Loss: loss}) }
	s := Settings{Runs: 2, Folds: 4, FoldsRun: 3, Seed: 5}
	all := Protocol(rows, data.Regression, loss, newL, s, nil)
	kept := map[[2]int]Pass{}
	for i, p := range all {
		if i%2 == 0 {
			kept[[2]int{p.Run, p.Fold}] = p
		}
	}
	stale := all[2]
	stale.Order++
	kept[[2]int{stale.Run, stale.Fold}] = stale
	s.Done = func(run, fold int) (Pass, bool) { p, ok := kept[[2]int{run, fold}]; return p, ok }
	played = 0
	var reported int
	again := Protocol(rows, data.Regression, loss, newL, s, func(Pass) { reported++ })
	if len(again) != len(all) {
		t.Fatalf("%d passes resumed, %d in all", len(again), len(all))
	}
	for i := range all {
		a, b := all[i], again[i]
		if a.Run != b.Run || a.Fold != b.Fold || a.Order != b.Order || a.Progressive != b.Progressive || a.HeldOut != b.HeldOut {
			t.Errorf("pass %d: resumed %+v, uninterrupted %+v", i, b.Progressive, a.Progressive)
		}
	}
	if want := len(all) - len(kept) + 1; played != want || reported != want {
		t.Errorf("%d passes played and %d reported, want %d (the stale one again)", played, reported, want)
	}
}

package core

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/occfm/occfm/core/data"
)

// TestEvaluateProtocol checks the §5.1 protocol's bookkeeping: fold sizes,
// the number of passes, the held-out rows partitioning the data, the trace,
// determinism, and that a pass equals a plain Play loop over its order.
func TestEvaluateProtocol(t *testing.T) {
	for _, tc := range []struct {
		name                string
		task                data.Task
		rows                int
		s                   ProtocolSettings
		wantPasses, heldOut int // heldOut: total held-out rows over passes
		wantTrain           func(fold int) int
	}{
		{"default five folds", data.Regression, 103, ProtocolSettings{}, 5, 103, func(f int) int { return 103 - ((f+1)*103/5 - f*103/5) }},
		{"two runs three folds", data.Classification, 90, ProtocolSettings{Runs: 2, Folds: 3, Seed: 7}, 6, 180, func(int) int { return 60 }},
		{"quick: one fold", data.Regression, 50, ProtocolSettings{FoldsRun: 1, Seed: 3}, 1, 10, func(int) int { return 40 }},
		{"no held-out fold", data.Classification, 40, ProtocolSettings{Folds: 1, Runs: 3}, 3, 0, func(int) int { return 40 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rows := conformanceStream(tc.task, tc.rows)
			loss := TaskLoss(tc.task)
			newL := func() Learner { return NewOCCFM(OCCFMSettings{Loss: loss}) }
			passes := Evaluate(rows, tc.task, loss, newL, tc.s, nil)
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
			again := Evaluate(rows, tc.task, loss, newL, tc.s, nil)
			for i := range passes {
				if passes[i].Progressive != again[i].Progressive || passes[i].HeldOut != again[i].HeldOut {
					t.Fatalf("pass %d differs on a second call: %+v vs %+v", i, passes[i].Progressive, again[i].Progressive)
				}
			}
		})
	}
}

// TestEvaluateMatchesPlay cross-checks one pass of Evaluate against a plain
// Play loop: with one fold and one run, the training order is the seeded
// permutation, so replaying every row through Play in that order must give
// the same progressive metrics up to the order of summation.
func TestEvaluateMatchesPlay(t *testing.T) {
	rows := conformanceStream(data.Regression, 300)
	s := ProtocolSettings{Folds: 1, TracePoints: 7}
	newL := func() Learner { return NewOCCFM(OCCFMSettings{}) }
	got := Evaluate(rows, data.Regression, Squared, newL, s, nil)[0].Progressive

	// The same permutations as Evaluate: the split, then run 0's shuffle.
	order := rand.New(rand.NewPCG(1, 0x5eed)).Perm(len(rows))
	rand.New(rand.NewPCG(1, 1)).Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	l := newL()
	m := NewMetrics(data.Regression, Squared)
	for _, i := range order {
		Play(l, rows[i], m)
	}
	want := m.Summary()
	if got.Rows != want.Rows || math.Abs(got.RMSE-want.RMSE) > 1e-12 || math.Abs(got.MAE-want.MAE) > 1e-12 {
		t.Errorf("Evaluate: %+v\nPlay loop: %+v", got, want)
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

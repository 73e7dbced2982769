package core

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/demo"
)

// sliceRows yields rows, then err (io.EOF when nil).
type sliceRows struct {
	rows []data.Example
	i    int
	err  error
}

func (s *sliceRows) Next(ex *data.Example) error {
	if s.i == len(s.rows) {
		if s.err != nil {
			return s.err
		}
		return io.EOF
	}
	*ex = s.rows[s.i]
	s.i++
	return nil
}

// TestRunMatchesPlay checks Run against a plain Play loop, learner by
// learner: the same predictions and metrics to the bit whatever the batch
// size and however the rows are split into steps, every row seen once by
// Row with each player's ŷ and loss, and the comparator fed as Observe
// would be by hand.
func TestRunMatchesPlay(t *testing.T) {
	rows := conformanceStream(data.Regression, 500)
	names := []string{"occfm", "bias", "fm-ftrl"}
	newPlayers := func() []*Player {
		ps := make([]*Player, len(names))
		for i, n := range names {
			l, _ := NewLearner(n, Config{Task: data.Regression, Seed: 1})
			ps[i] = &Player{Name: n, Learner: l, Metrics: NewMetrics(data.Regression, Squared)}
		}
		return ps
	}
	// The reference: each learner alone, row by row.
	ref := newPlayers()
	want := make([][]float64, len(rows))
	refReg := NewRegret(RegretSettings{Comparator: ComparatorSettings{Delta: 10}}, len(ref))
	for t, ex := range rows {
		losses := make([]float64, len(ref))
		for j, p := range ref {
			y := Play(p.Learner, ex, p.Metrics)
			want[t] = append(want[t], y)
			losses[j] = Squared.Value(y, ex.Y)
		}
		refReg.Observe(ex, losses)
	}
	for _, tc := range []struct {
		batch int
		steps []int // maxRows of each Step, then Steps without a limit
	}{
		{batch: 1},
		{batch: 7, steps: []int{1, 13, 100}},
		{batch: 0, steps: []int{300}},
	} {
		ps := newPlayers()
		seen := 0
		reg := NewRegret(RegretSettings{Comparator: ComparatorSettings{Delta: 10}}, len(ps))
		run := &Run{Source: &sliceRows{rows: rows}, Players: ps, Regret: reg, Batch: tc.batch,
			Row: func(ex data.Example, yhat, loss []float64) {
				for j := range yhat {
					if yhat[j] != want[seen][j] || loss[j] != Squared.Value(want[seen][j], ex.Y) {
						t.Fatalf("batch %d, row %d, %s: ŷ %v loss %v, alone it predicts %v", tc.batch, seen, names[j], yhat[j], loss[j], want[seen][j])
					}
				}
				seen++
			}}
		total := 0
		for _, m := range tc.steps {
			n, err := run.Step(0, m)
			if err != nil || n != m {
				t.Fatalf("batch %d: Step(0, %d) = %d, %v", tc.batch, m, n, err)
			}
			total += n
		}
		for {
			n, err := run.Step(0, 0)
			total += n
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		if total != len(rows) || run.Rows != len(rows) || seen != len(rows) {
			t.Fatalf("batch %d: played %d, Rows %d, seen %d, want %d", tc.batch, total, run.Rows, seen, len(rows))
		}
		for j, p := range ps {
			if p.Metrics.Summary() != ref[j].Metrics.Summary() {
				t.Errorf("batch %d, %s: %+v, alone %+v", tc.batch, names[j], p.Metrics.Summary(), ref[j].Metrics.Summary())
			}
		}
		if reg.LeftOut() != refReg.LeftOut() || reg.Pending() != refReg.Pending() {
			t.Errorf("batch %d: the comparator has %d pending, %d left out; by hand %d, %d", tc.batch, reg.Pending(), reg.LeftOut(), refReg.Pending(), refReg.LeftOut())
		}
	}
}

// TestRunStops checks how a step ends: at a source error, after the rows
// of its batch before it; at the budget, at the row that passed it; and at
// the deadline, after the batch that reached it.
func TestRunStops(t *testing.T) {
	rows := conformanceStream(data.Regression, 100)
	broken := errors.New("broken")
	newRun := func(src data.ExampleSource) *Run {
		l, _ := NewLearner("bias", Config{Task: data.Regression})
		return &Run{Source: src, Players: []*Player{{Name: "bias", Learner: l, Metrics: NewMetrics(data.Regression, Squared)}}, Batch: 16}
	}

	run := newRun(&sliceRows{rows: rows[:40], err: broken})
	if n, err := run.Step(0, 0); n != 40 || err != broken || run.Players[0].Metrics.Rows() != 40 {
		t.Errorf("source error after 40 rows: Step = %d, %v with %d rows scored", n, err, run.Players[0].Metrics.Rows())
	}

	run = newRun(&sliceRows{rows: rows})
	// A budget the learner passes once it has seen enough features.
	run.Budget = NewBudgetCheck(MemoryBudget{Limit: 1}, run.Players)
	n, err := run.Step(0, 0)
	var be *BudgetError
	if !errors.As(err, &be) || n != 0 || run.Rows != 0 {
		t.Errorf("over the budget at once: Step = %d, %v (Rows %d)", n, err, run.Rows)
	}

	var clock time.Duration
	run = newRun(&sliceRows{rows: rows})
	run.Clock = func() time.Duration { clock += time.Millisecond; return clock }
	// Two readings a batch of one player: the deadline of 5 ms falls in
	// the third batch.
	if n, err := run.Step(5*time.Millisecond, 0); err != nil || n != 48 {
		t.Errorf("deadline: Step = %d, %v, want 48 rows (3 batches of 16)", n, err)
	}
}

// TestResultJSON: AppendJSON writes what encoding/json writes for the same
// Result, byte for byte, on results of real runs (both tasks, occfm-auto's
// experts, a guard that diverged) and on edge values; the page writes
// snapshots with the first and the command line with the second.
func TestResultJSON(t *testing.T) {
	var results []Result
	for _, tc := range []struct {
		demo    string
		learner string
		cfg     Config
	}{
		{"planted-regression", "occfm-auto", Config{}},
		{"planted-classification", "occfm", Config{}},
		{"planted-regression", "occfm", Config{Delta: 1e6, Eta: 1e6}}, // diverges
		{"planted-classification", "mean", Config{}},
	} {
		d, ok := demo.ByName(tc.demo)
		if !ok {
			t.Fatalf("no demo %s", tc.demo)
		}
		tc.cfg.Task = d.Task
		l, err := NewGuarded(tc.learner, tc.cfg, GuardSettings{Clip: true})
		if err != nil {
			t.Fatal(err)
		}
		p := &Player{Name: tc.learner, Learner: l, Metrics: NewMetrics(d.Task, tc.cfg.LossOf())}
		results = append(results, NewResult(p, p.Metrics.Summary(), 0, tc.cfg)) // no row yet
		src := d.New(1)
		var ex data.Example
		for i := range 300 {
			if err := src.Next(&ex); err != nil {
				t.Fatal(err)
			}
			Play(p.Learner, ex, p.Metrics)
			if i%100 == 99 {
				results = append(results, NewResult(p, p.Metrics.Summary(), i+1, tc.cfg))
			}
		}
		r := results[len(results)-1]
		switch {
		case r.Rows != 300 || r.Learner != tc.learner:
			t.Errorf("%s: %d rows, learner %q", tc.learner, r.Rows, r.Learner)
		case d.Task == data.Classification && (r.ErrorRate == nil || r.AUC == nil || r.RMSE != nil):
			t.Errorf("%s: classification metrics %+v", tc.learner, r)
		case d.Task == data.Regression && (r.RMSE == nil || r.MAE == nil || r.AUC != nil):
			t.Errorf("%s: regression metrics %+v", tc.learner, r)
		case tc.learner == "occfm-auto" && (len(r.Experts) == 0 || r.ExpertRegretBound == nil):
			t.Errorf("occfm-auto: no experts in %+v", r)
		case tc.cfg.Delta == 1e6 && r.Divergences == 0:
			t.Errorf("δ = 1e6, η = 1e6: no divergence in %+v", r)
		}
		if first := results[len(results)-4]; !math.IsNaN(float64(first.AvgLoss)) || first.RMSE != nil || first.ErrorRate != nil {
			t.Errorf("%s: with no row scored, avg_loss %v and metrics %v %v", tc.learner, first.AvgLoss, first.RMSE, first.ErrorRate)
		}
	}
	rng := rand.New(rand.NewPCG(7, 8))
	odd := []float64{0, math.Copysign(0, -1), 1e-7, -1e-6, 1e21, 123456789.125, math.NaN(), math.Inf(1), math.SmallestNonzeroFloat64, math.MaxFloat64}
	for range 200 {
		x := Num(odd[rng.IntN(len(odd))])
		y := Num(rng.NormFloat64() * math.Pow(10, float64(rng.IntN(40)-20)))
		results = append(results, Result{
			Learner: []string{"a\"<b>&\u2028\x01é\xff", "occfm"}[rng.IntN(2)], Delta: float64(y), Seconds: x, UpdatesPerSec: y, AvgLoss: x, RMSE: &y, AUC: &x,
			Experts: []Expert{{Name: "δ=10", Delta: 10, Weight: float64(y)}}, ExpertRegret: &x, PausedAt: rng.IntN(3),
			RefusedWhy: "why", GuardAdvice: "a smaller δ", GuardEvents: []string{"row 3: diverged"},
		})
	}
	for _, r := range results {
		want, err := json.Marshal(&r)
		if err != nil {
			if bytes.Contains(r.AppendJSON(nil), []byte("NaN")) {
				t.Errorf("AppendJSON wrote NaN")
			}
			continue // encoding/json refuses a NaN in an expert's float64
		}
		if got := r.AppendJSON(nil); !bytes.Equal(got, want) {
			t.Fatalf("AppendJSON\n%s\nencoding/json\n%s", got, want)
		}
	}
}

// TestNumJSON: a Num reads back as it was written, NaN and ±Inf as null
// and null as NaN.
func TestNumJSON(t *testing.T) {
	for _, x := range []float64{0, -1.5, 1e-7, 1e21, math.MaxFloat64, math.NaN(), math.Inf(-1)} {
		b, err := json.Marshal(Num(x))
		if err != nil {
			t.Fatal(err)
		}
		var back Num
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		want := x
		if math.IsInf(x, 0) {
			want = math.NaN()
		}
		if got := float64(back); got != want && !(math.IsNaN(got) && math.IsNaN(want)) {
			t.Errorf("%v: wrote %s, read back %v", x, b, got)
		}
	}
	var n Num
	if err := json.Unmarshal([]byte(`"1"`), &n); err == nil {
		t.Error(`a string read as a Num`)
	}
}

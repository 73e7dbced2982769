package core

import (
	"errors"
	"io"
	"testing"
	"time"

	"github.com/occfm/occfm/core/data"
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

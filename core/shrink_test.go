package core

import (
	"errors"
	"io"
	"math/rand/v2"
	"testing"

	"github.com/occfm/occfm/core/data"
)

// newFeatureRows yields n rows of 100 features never seen before each, with
// a label that only a bias can learn: the pair experts' memory grows with
// every row while the linear ones lead.
type newFeatureRows struct {
	rng  *rand.Rand
	i, n int
}

func (s *newFeatureRows) Next(ex *data.Example) error {
	if s.i == s.n {
		return io.EOF
	}
	ex.X.Ind, ex.X.Val = ex.X.Ind[:0], ex.X.Val[:0]
	for k := range 100 {
		ex.X.Ind = append(ex.X.Ind, 100*s.i+k)
		ex.X.Val = append(ex.X.Val, 1)
	}
	ex.Y = 3 + s.rng.NormFloat64()
	s.i++
	return nil
}

// hidden is a guarded learner with every optional ability but Sized
// hidden: the run cannot ask it to shrink.
type hidden struct{ g *Guarded }

func (h hidden) Predict(x data.Sparse) float64   { return h.g.Predict(x) }
func (h hidden) Update(x data.Sparse, y float64) { h.g.Update(x, y) }
func (h hidden) MemoryBytes() int64              { return h.g.MemoryBytes() }

// TestAutoShrinksToBudget: over its memory budget, occfm-auto retires the
// experts that hold the most memory and lose (here the pair experts), and
// the run goes on to the end within the budget; without Shrink the same
// run stops at the budget.
func TestAutoShrinksToBudget(t *testing.T) {
	const rows, limit = 3000, 24 << 20
	run := func(shrink bool) (int, *Guarded, error) {
		g, err := NewGuarded("occfm-auto", Config{Task: data.Regression}, GuardSettings{})
		if err != nil {
			t.Fatal(err)
		}
		var l Learner = g
		if !shrink {
			l = hidden{g}
		}
		p := &Player{Name: "occfm-auto", Learner: l, Metrics: NewMetrics(data.Regression, Squared)}
		r := &Run{Source: &newFeatureRows{rng: rand.New(rand.NewPCG(1, 2)), n: rows}, Players: []*Player{p},
			Budget: NewBudgetCheck(MemoryBudget{Limit: limit}, []*Player{p})}
		n, err := r.Step(0, 0)
		return n, g, err
	}
	n, _, err := run(false)
	var be *BudgetError
	if !errors.As(err, &be) || n >= rows {
		t.Fatalf("without Shrink: %d rows, %v; want a stop at the budget before %d rows", n, err, rows)
	}
	t.Logf("without Shrink: stopped after %d rows: %v", n, err)
	n, g, err := run(true)
	if err != io.EOF || n != rows {
		t.Fatalf("with Shrink: %d rows, %v; want all %d", n, err, rows)
	}
	if mb := g.MemoryBytes(); mb > limit {
		t.Errorf("with Shrink: %s held, over the budget of %s", FormatBytes(mb), FormatBytes(limit))
	}
	a := g.Learner().(*OCCFMAuto)
	var retired []string
	for _, e := range a.Experts() {
		if e.Retired {
			retired = append(retired, e.Name)
		}
	}
	if len(retired) == 0 {
		t.Error("no expert retired")
	}
	t.Logf("with Shrink: %d rows, %s held; retired %v", n, FormatBytes(g.MemoryBytes()), retired)
}

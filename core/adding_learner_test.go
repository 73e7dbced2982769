package core

import (
	"bytes"
	"math"
	"sync"
	"testing"

	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/spectral"
)

// The learners below are the mixture and the subspace learner of
// docs/adding-a-learner.md, each the file it would be in core/; the tests
// add each with its one registry line (register). The page's own example,
// core/ema.go, is built and checked from the page itself, in a copy of the
// module (TestAddingALearnerDoc).

// ---- a mixture's file: core/ema_mix.go ----

// EMAMix forecasts by the exponentially weighted average of two EMA
// experts, a slow one (α = 0.01) and a fast one (α = 0.2): expert k, with
// cumulative squared loss Lₖ, has the weight pₖ ∝ exp(−Lₖ) (Cesa-Bianchi
// and Lugosi 2006, §2.1). It is a Mixture, which the page and the reports
// show with no change outside this file.
type EMAMix struct {
	experts [2]*emaExpert
	loss    [2]float64 // Lₖ
	mix     float64    // the mixture's own cumulative loss
}

// emaMixSpec registers EMAMix (see registry).
var emaMixSpec = Spec{
	Name:    "ema-mix",
	Plain:   "Follows a slow and a fast recent average, trusting the one that has predicted better.",
	Summary: "reference: exponential weights over EMAs at α = 0.01 and 0.2",
	New:     func(c Config) Learner { return NewEMAMix() },
	state:   func() stateCoder { return new(EMAMix) },
}

// NewEMAMix returns an EMAMix whose experts have seen nothing.
func NewEMAMix() *EMAMix {
	return &EMAMix{experts: [2]*emaExpert{{rate: 0.01}, {rate: 0.2}}}
}

// emaExpert is an expert of EMAMix: the exponential moving average of the
// labels, ŷₜ₊₁ = (1 − α)·ŷₜ + α·yₜ, at the rate α its mixture sets.
type emaExpert struct{ rate, mean float64 }

// Predict returns the average; it does not read x.
func (e *emaExpert) Predict(x data.Sparse) float64 { return e.mean }

// Update moves the average towards y.
func (e *emaExpert) Update(x data.Sparse, y float64) { e.mean += e.rate * (y - e.mean) }

// stateCode codes the average; NewEMAMix sets the rate (see stateCoder).
func (e *emaExpert) stateCode(c *stateCodec) { c.float(&e.mean) }

// weights returns the normalized pₖ.
func (m *EMAMix) weights() [2]float64 {
	best := min(m.loss[0], m.loss[1])
	p := [2]float64{math.Exp(best - m.loss[0]), math.Exp(best - m.loss[1])}
	sum := p[0] + p[1]
	return [2]float64{p[0] / sum, p[1] / sum}
}

// Predict returns Σₖ pₖ·ŷₖ.
func (m *EMAMix) Predict(x data.Sparse) float64 {
	p := m.weights()
	return p[0]*m.experts[0].Predict(x) + p[1]*m.experts[1].Predict(x)
}

// Update adds each expert's loss on y, then updates the experts.
func (m *EMAMix) Update(x data.Sparse, y float64) {
	m.mix += Squared.Value(m.Predict(x), y)
	for k, e := range m.experts {
		m.loss[k] += Squared.Value(e.Predict(x), y)
		e.Update(x, y)
	}
}

// Experts describes the two experts (see Mixture).
func (m *EMAMix) Experts() []Expert {
	p := m.weights()
	return []Expert{{Name: "α=0.01", Eta: 0.01, Weight: p[0], Loss: m.loss[0]}, {Name: "α=0.2", Eta: 0.2, Weight: p[1], Loss: m.loss[1]}}
}

// Expert returns expert k (see Mixture).
func (m *EMAMix) Expert(k int) Learner { return m.experts[k] }

// Regret returns the mixture's regret to its best expert; this example
// states no bound for it (+Inf) (see Mixture).
func (m *EMAMix) Regret() (regret, bound float64) {
	return m.mix - min(m.loss[0], m.loss[1]), math.Inf(1)
}

// MemoryBytes estimates the bytes m holds (see Sized).
func (m *EMAMix) MemoryBytes() int64 { return 3 * structBytes }

// stateCode codes each expert's state, then the losses (see stateCoder).
func (m *EMAMix) stateCode(c *stateCodec) {
	if c.dec {
		*m = *NewEMAMix()
	}
	for _, e := range m.experts {
		c.nested(e)
	}
	c.float(&m.loss[0])
	c.float(&m.loss[1])
	c.float(&m.mix)
}

// ---- end of the mixture's file ----

// ---- a subspace learner's file: core/rank_one.go ----

// RankOne keeps its pair weights in one direction, C = μ·uuᵀ with u the
// unit vector of the features' total weight seen, u ∝ Σₜ|xₜ|, and learns
// μ by gradient descent on the squared loss of ŷ = ½μ(uᵀx)². It has the
// abilities the page and Personalize ask of a learner whose C is an
// eigendecomposition: MatrixModel (the picture) and EigenPairs (folding a
// new person in).
type RankOne struct {
	v  []float64 // Σₜ|xₜ|, u = v/‖v‖
	mu float64
}

// rankOneSpec registers RankOne (see registry).
var rankOneSpec = Spec{
	Name:    "rank-one",
	Plain:   "Weighs pairs of features along the one direction of the features seen most.",
	Summary: "reference: C = μ·uuᵀ, u the direction of the features' total weight, μ by gradient descent",
	New:     func(c Config) Learner { return new(RankOne) },
	state:   func() stateCoder { return new(RankOne) },
}

// coord returns uᵢ.
func (m *RankOne) coord(i int) float64 {
	if i < 0 || i >= len(m.v) {
		return 0
	}
	return m.v[i] / math.Sqrt(spectral.Dot(m.v, m.v))
}

// Predict returns ½μ(uᵀx)².
func (m *RankOne) Predict(x data.Sparse) float64 {
	var s float64
	for k, i := range x.Ind {
		s += m.coord(i) * x.Val[k]
	}
	return 0.5 * m.mu * s * s
}

// Update takes a gradient step on μ, then adds |x| to v.
func (m *RankOne) Update(x data.Sparse, y float64) {
	var s float64
	for k, i := range x.Ind {
		s += m.coord(i) * x.Val[k]
	}
	m.mu -= 0.1 * (0.5*m.mu*s*s - y) * 0.5 * s * s
	for k, i := range x.Ind {
		for i >= len(m.v) {
			m.v = append(m.v, 0)
		}
		m.v[i] += math.Abs(x.Val[k])
	}
}

// MatrixBlock writes μ·uᵢuⱼ on idx; the constant's row is 0 (see
// MatrixModel).
func (m *RankOne) MatrixBlock(idx []int, dst []float64) {
	for a, i := range idx {
		for b, j := range idx {
			dst[a*len(idx)+b] = m.mu * m.coord(i) * m.coord(j)
		}
	}
}

// PairSpectrum appends μ (see EigenPairs).
func (m *RankOne) PairSpectrum(dst []float64) []float64 { return append(dst, m.mu) }

// PairCoords appends uᵢ (see EigenPairs).
func (m *RankOne) PairCoords(i int, dst []float64) []float64 { return append(dst, m.coord(i)) }

// PairDim returns the features u covers (see EigenPairs).
func (m *RankOne) PairDim() int { return len(m.v) }

// MemoryBytes estimates the bytes m holds (see Sized).
func (m *RankOne) MemoryBytes() int64 { return structBytes + 8*int64(cap(m.v)) }

// stateCode codes v and μ (see stateCoder).
func (m *RankOne) stateCode(c *stateCodec) {
	c.floats(&m.v)
	c.float(&m.mu)
}

// ---- end of the subspace learner's file ----

// TestAddingAMixture adds EMAMix, a mixture of experts, with its one
// registry line and checks that what reads the registry takes it as a
// Mixture: the spec says so, a run's Result carries its experts and its
// regret to the best one, Trusted picks the expert of largest weight, and
// its model file, experts included, is saved and loaded byte for byte.
func TestAddingAMixture(t *testing.T) {
	register(t, emaMixSpec) // the one line

	if !emaMixSpec.Mixture() {
		t.Fatal("Spec.Mixture() = false for EMAMix")
	}
	checkConformance(t, emaMixSpec)
	players, _, err := Assemble(RunSettings{Learners: []string{"ema-mix"}, Config: Config{Task: data.Regression}})
	if err != nil {
		t.Fatal(err)
	}
	p := players[0]
	rows := conformanceStream(data.Regression, 300)
	for _, ex := range rows[:200] {
		Play(p.Learner, ex, p.Metrics)
	}
	r := NewResult(p, p.Metrics.Summary(), 200, Config{})
	if len(r.Experts) != 2 || r.ExpertRegret == nil {
		t.Fatalf("Result has %d experts and regret %v; want EMAMix's 2 and its regret", len(r.Experts), r.ExpertRegret)
	}
	if sum := r.Experts[0].Weight + r.Experts[1].Weight; math.Abs(sum-1) > 1e-12 {
		t.Errorf("the experts' weights sum to %v, want 1", sum)
	}
	mix := p.Learner.(*Guarded).Learner().(Mixture)
	lead, e, ok := Trusted(mix, nil)
	want := 0
	if r.Experts[1].Weight > r.Experts[0].Weight {
		want = 1
	}
	if !ok || lead != mix.Expert(want) || e.Name != r.Experts[want].Name {
		t.Errorf("Trusted = %v %q; want expert %d, %q", ok, e.Name, want, r.Experts[want].Name)
	}

	checkSavedLoaded(t, p.Learner.(*Guarded), "ema-mix", rows)
}

// TestAddingASubspaceLearner adds RankOne, whose C is an
// eigendecomposition, with its one registry line, and checks the abilities
// the views and Personalize read against its predictions: the block
// MatrixModel writes is the one QuadraticBlock measures from Predict (what
// the picture draws for any learner), and EigenPairs' Σ μₐ·uₐᵢuₐⱼ is that
// block (what Personalize folds a person into).
func TestAddingASubspaceLearner(t *testing.T) {
	register(t, rankOneSpec) // the one line

	checkConformance(t, rankOneSpec)
	l, err := NewLearner("rank-one", Config{Task: data.Regression})
	if err != nil {
		t.Fatal(err)
	}
	for _, ex := range conformanceStream(data.Regression, 200) {
		Play(l, ex, nil)
	}
	mm, ok1 := l.(MatrixModel)
	ep, ok2 := l.(EigenPairs)
	if !ok1 || !ok2 {
		t.Fatalf("RankOne is MatrixModel %v, EigenPairs %v; want both", ok1, ok2)
	}
	idx := []int{0, 3, 7, 11}
	got := make([]float64, len(idx)*len(idx))
	mm.MatrixBlock(idx, got)
	ref := make([]float64, len(got))
	QuadraticBlock(l.Predict, idx, ref)
	mu := ep.PairSpectrum(nil)
	for a, i := range idx {
		for b, j := range idx {
			var sum float64
			ui, uj := ep.PairCoords(i, nil), ep.PairCoords(j, nil)
			for k := range mu {
				sum += mu[k] * ui[k] * uj[k]
			}
			k := a*len(idx) + b
			if d := math.Abs(got[k] - ref[k]); d > 1e-9*(1+math.Abs(ref[k])) {
				t.Errorf("C[%d,%d]: MatrixBlock %v, from the predictions %v", i, j, got[k], ref[k])
			}
			if d := math.Abs(got[k] - sum); d > 1e-12*(1+math.Abs(sum)) {
				t.Errorf("C[%d,%d]: MatrixBlock %v, from EigenPairs %v", i, j, got[k], sum)
			}
		}
	}
	if g := NameOf(l); g != "rank-one" {
		t.Errorf("NameOf = %q, want rank-one", g)
	}
}

// checkSavedLoaded saves g, which has learned rows[:200], as a model file,
// loads it, and checks the file's name and rows, that saving the loaded
// learner gives the same bytes, and that both predict rows[200:] alike.
func checkSavedLoaded(t *testing.T, g *Guarded, name string, rows []data.Example) {
	t.Helper()
	saved := g.Model()
	saved.Rows = 200
	var file bytes.Buffer
	if err := SaveModel(&file, saved); err != nil {
		t.Fatal(err)
	}
	m, err := LoadModel(bytes.NewReader(file.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	resumed, err := ResumeGuarded(m, GuardSettings{})
	if err != nil {
		t.Fatal(err)
	}
	if m.Name != name || m.Rows != 200 {
		t.Errorf("loaded %q after %d rows, want %s after 200", m.Name, m.Rows, name)
	}
	resaved := resumed.Model()
	resaved.Rows = m.Rows
	var again bytes.Buffer
	if err := SaveModel(&again, resaved); err != nil || !bytes.Equal(again.Bytes(), file.Bytes()) {
		t.Errorf("saving the loaded model gave other bytes (%v)", err)
	}
	for i, ex := range rows[200:] {
		if a, b := Play(g, ex, nil), Play(resumed, ex, nil); a != b || math.IsNaN(a) {
			t.Fatalf("row %d after loading: ŷ = %v, the saved learner gave %v", 200+i, b, a)
		}
	}
}

// register adds spec to the registry, as its one line in registry's list
// does, until the test ends.
func register(t *testing.T, spec Spec) {
	registry[spec.Name] = spec
	registryTypes = sync.OnceValue(typesOfRegistry)
	t.Cleanup(func() {
		delete(registry, spec.Name)
		registryTypes = sync.OnceValue(typesOfRegistry)
	})
}

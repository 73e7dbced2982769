package core

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/occfm/occfm/core/data"
)

// refusal returns the error of make, or says that it panicked, so that a
// learner whose constructor panics on a setting fails the test instead of
// ending it.
func refusal(make func() error) (panicked any, err error) {
	defer func() { panicked = recover() }()
	return nil, make()
}

// TestScaleOutOfRangeRefused checks that a δ or η outside the range in
// which OCCFM's arithmetic stays inside float64 (MinDelta … MaxDelta,
// MinEta … MaxEta) is refused with an error naming the range, by
// NewLearner and NewGuarded, for every learner (the command line's -delta
// and -eta serve them all). Without it, δ = 1e200 left occfm at ŷ = 0 on
// every row with no divergence to tell (its line search's 8δ² overflows, so
// γ* = 0), δ = 1e308 failed occfm-auto's eigensolver at row 2 and made
// occfm-k panic (its wide model's 25δ overflows), and η = 1e-170 left C at 0.
func TestScaleOutOfRangeRefused(t *testing.T) {
	for _, c := range []Config{
		{Delta: 1e200}, {Delta: 1e308}, {Delta: 5e-324}, {Delta: 1e-310},
		{Eta: 1e-170}, {Eta: 1e300}, {Delta: math.NaN()},
	} {
		c.Task = data.Classification
		for _, name := range []string{"occfm", "occfm-auto", "occfm-lin", "occfm-k", "ccfm-ogd", "linear"} {
			for _, f := range []struct {
				what string
				make func() error
			}{
				{"NewGuarded", func() error { _, err := NewGuarded(name, c, GuardSettings{}); return err }},
				{"NewLearner", func() error { _, err := NewLearner(name, c); return err }},
			} {
				p, err := refusal(f.make)
				switch {
				case p != nil:
					t.Errorf("%s(%s, δ=%g, η=%g) panicked: %v", f.what, name, c.Delta, c.Eta, p)
				case err == nil:
					t.Errorf("%s(%s, δ=%g, η=%g): no error", f.what, name, c.Delta, c.Eta)
				case !strings.Contains(err.Error(), "1e+150]"):
					t.Errorf("%s(%s, δ=%g, η=%g): %q does not name the range", f.what, name, c.Delta, c.Eta, err)
				}
			}
		}
	}
	for _, f := range []func(){
		func() { NewOCCFM(OCCFMSettings{Delta: 1e200}) },
		func() { NewOCCFM(OCCFMSettings{Eta: 1e-170}) },
		func() { NewOCCFMAuto(OCCFMAutoSettings{Deltas: []float64{10, 1e200}}) },
		func() { NewOCCFMAuto(OCCFMAutoSettings{Etas: []float64{1e300}}) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("settings beyond float64's range: no panic")
				}
			}()
			f()
		}()
	}
}

// TestScaleEdgesLearn checks the edges of the ranges: occfm learns
// planted-classification at δ = 1e150 (the largest δ allowed: its
// line search's 8δ² = 8e300 is finite) as at δ = 1e100, η = 1e-150 and
// 1e150 are accepted and learn, and δ = 1e-300 learns the model of about
// zero its ball allows (ŷ within ½δ‖x̂‖²) with finite predictions.
func TestScaleEdgesLearn(t *testing.T) {
	rows, task := firstDemoRows(t, "planted-classification", 1, 2000)
	for _, tc := range []struct {
		c      Config
		minAUC float64
	}{
		{Config{Delta: 1e150}, 0.8},
		{Config{Eta: 1e-150}, 0.8},
		{Config{Eta: 1e150}, 0.75},
		{Config{Delta: 1e-300}, 0.6},
	} {
		tc.c.Task = task
		g, err := NewGuarded("occfm", tc.c, GuardSettings{})
		if err != nil {
			t.Fatalf("δ=%g η=%g: %v", tc.c.Delta, tc.c.Eta, err)
		}
		m := NewMetrics(task, TaskLoss(task))
		for i, ex := range rows {
			checkFinite(t, "occfm", i, Play(g, ex, m))
		}
		r, s := g.Report(), m.Summary()
		if r.Divergences > 0 || s.AUC < tc.minAUC {
			t.Errorf("δ=%g η=%g: %d divergences, AUC %.4f (want ≥ %g)", tc.c.Delta, tc.c.Eta, r.Divergences, s.AUC, tc.minAUC)
		}
		t.Logf("δ=%g η=%g: AUC %.4f, ‖C‖* %.3g", tc.c.Delta, tc.c.Eta, s.AUC, g.Learner().(*OCCFM).NuclearNorm())
	}
}

// bigFeatureRows returns n regression rows y = 3a + noise with a feature a
// in [0, 1), a one-hot group of 5, and a second feature that is 10⁸ on one
// row in 50 (else in [0, 1)): at δ = 1e150, within the range allowed, the
// squared loss's gradient on such a row makes OCCFM's H infinite, and its
// eigensolver fails (near row 260).
func bigFeatureRows(n int) []data.Example {
	rng := rand.New(rand.NewPCG(1, 2))
	rows := make([]data.Example, n)
	for i := range rows {
		a, b := rng.Float64(), rng.Float64()
		if i%50 == 7 {
			b = 1e8
		}
		rows[i] = data.Example{Y: 3*a + 0.1*rng.NormFloat64(), X: data.Sparse{Ind: []int{0, 1, 2 + i%5}, Val: []float64{a, b, 1}}}
	}
	return rows
}

// TestAutoExpertFailureRetired checks that an expert of occfm-auto whose
// update fails is retired alone: the guard records a "retired" event, not a
// divergence, keeps the same mixture (no reset) whose other experts learn
// on, and its advice names δ, set far above the default grid. Without it,
// one OCCFM expert's failed eigensolver reset the whole mixture (bias,
// linear and pairs experts with it) and the advice blamed η.
func TestAutoExpertFailureRetired(t *testing.T) {
	rows := bigFeatureRows(600)
	// Unscaled: with the rows scaled as they come, the feature of 10⁸
	// becomes 1 and no expert fails.
	g, err := NewGuarded("occfm-auto", Config{Task: data.Regression, Delta: 1e150}, GuardSettings{Unscaled: true})
	if err != nil {
		t.Fatal(err)
	}
	m := NewMetrics(data.Regression, Squared)
	for i, ex := range rows {
		checkFinite(t, "occfm-auto", i, Play(g, ex, m))
	}
	r := g.Report()
	var retired []string
	for _, e := range r.Events {
		if e.Kind == "retired" {
			retired = append(retired, e.Msg)
		}
	}
	if r.Divergences > 0 || r.Resets > 0 || len(retired) != 1 || !strings.Contains(retired[0], "expert δ=1e+150 failed") {
		t.Fatalf("divergences %d, resets %d, retired %q; events %v", r.Divergences, r.Resets, retired, r.Events)
	}
	auto := g.Learner().(*OCCFMAuto)
	for _, e := range auto.Experts() {
		if e.Retired != (e.Name == "δ=1e+150") {
			t.Errorf("expert %s: retired %v", e.Name, e.Retired)
		}
	}
	if a := g.DivergenceAdvice("-delta", "-eta"); !strings.Contains(a, "δ = 1e+150 is above occfm-auto's largest default 1000") || !strings.Contains(a, "smaller -delta") {
		t.Errorf("advice %q does not name -delta", a)
	}
	// The experts left learn as occfm-auto does at its default grid, where
	// no expert fails on these rows.
	ref, _ := NewGuarded("occfm-auto", Config{Task: data.Regression}, GuardSettings{Unscaled: true})
	mref := NewMetrics(data.Regression, Squared)
	for _, ex := range rows {
		Play(ref, ex, mref)
	}
	if got, want := m.Summary().RMSE, mref.Summary().RMSE; got > 1.01*want || ref.Report().Divergences > 0 {
		t.Errorf("RMSE %.4f, against %.4f at the default grid: the experts left did not learn on", got, want)
	}
	t.Logf("retired: %s; RMSE %.4f (default grid %.4f)", retired[0], m.Summary().RMSE, mref.Summary().RMSE)
}

// failingLearner predicts 0 and panics when it learns.
type failingLearner struct{}

func (failingLearner) Predict(data.Sparse) float64 { return 0 }
func (failingLearner) Update(data.Sparse, float64) { panic("core: boom") }

// TestAutoExpertFailureUnit checks the rule itself: the expert whose update
// panics is retired and its failure kept once for the guard; when it is the
// last expert left, the panic goes on to the caller.
func TestAutoExpertFailureUnit(t *testing.T) {
	m := NewOCCFMAuto(OCCFMAutoSettings{Loss: Squared, Deltas: []float64{10}, Pairs: []float64{}, Tastes: []float64{}})
	m.experts[2] = failingLearner{}
	x := data.Sparse{Ind: []int{0}, Val: []float64{1}}
	func() {
		defer func() {
			if p := recover(); p != nil {
				t.Fatalf("a failing expert failed the mixture: %v", p)
			}
		}()
		m.PredictUpdate(x, 1)
		m.PredictUpdate(x, 2)
	}()
	if m.experts[2] != nil || m.experts[0] == nil || m.experts[1] == nil {
		t.Errorf("live experts %v, want bias and linear", m.experts)
	}
	pf, ok := any(m).(interface{ takeFailures() []string })
	if !ok {
		t.Fatal("OCCFMAuto keeps no failures")
	}
	if f := pf.takeFailures(); len(f) != 1 || !strings.Contains(f[0], "expert δ=10 failed (core: boom)") {
		t.Errorf("failures %q", f)
	}
	if f := pf.takeFailures(); len(f) != 0 {
		t.Errorf("failures taken twice: %q", f)
	}
	m.experts[0], m.experts[1] = nil, failingLearner{}
	defer func() {
		if p := recover(); p == nil || !strings.Contains(panicString(p), "boom") {
			t.Errorf("the last expert's failure: panic %v, want it passed on", p)
		}
	}()
	m.PredictUpdate(x, 3)
}

func panicString(p any) string { s, _ := p.(string); return s }

package core

import (
	"bytes"
	"fmt"
	"math"
	"testing"

	"github.com/occfm/occfm/core/data"
)

// TestOCCFMAutoRegret checks the forecaster's guarantee against its own
// experts on the three demos, with retirement off: under the Logistic loss
// the Bayes mixture's log loss is at most ln K above the best expert's, and
// under the Squared loss (ŷ − y)² is at most ln(K)/ρ = ½(b − a)²·ln K above
// it, for the label range [a, b] fixed by the first rows.
func TestOCCFMAutoRegret(t *testing.T) {
	for _, tc := range []struct {
		demo string
		rows int
	}{
		{"ratings", 3000}, {"planted-regression", 2000}, {"planted-classification", 3000},
	} {
		for seed := uint64(1); seed <= 2; seed++ {
			rows, task := firstDemoRows(t, tc.demo, seed, tc.rows)
			m := NewOCCFMAuto(OCCFMAutoSettings{Loss: TaskLoss(task), Deltas: []float64{3, 30}, Retire: -1, Seed: seed})
			var mix float64
			for _, ex := range rows {
				yhat := Play(m, ex, nil)
				if math.IsNaN(yhat) || math.IsInf(yhat, 0) {
					t.Fatalf("%s seed %d: ŷ = %v", tc.demo, seed, yhat)
				}
				mix += TaskLoss(task).Value(yhat, ex.Y)
			}
			experts := m.Experts()
			best := math.Inf(1)
			for _, e := range experts {
				best = min(best, e.Loss)
			}
			bound := math.Log(float64(len(experts)))
			if task == data.Regression {
				// The label range grows over the first rows; the bound
				// is taken at its final width, with the first rows' losses
				// (at most the range² each, before the range settles) added.
				r := m.hi - m.lo
				bound = r*r/2*math.Log(float64(len(experts))) + m.over
			}
			if reg, b := m.Regret(); math.Abs(reg-(mix-best)) > 1e-9*math.Abs(mix) || math.Abs(b-bound) > 1e-12*bound {
				t.Errorf("%s seed %d: Regret() = %v, %v; want %v, %v", tc.demo, seed, reg, b, mix-best, bound)
			}
			if mix-best > bound+1e-9*math.Abs(best) {
				t.Errorf("%s seed %d: mixture loss %.4f, best expert %.4f: regret %.4f over the bound %.4f",
					tc.demo, seed, mix, best, mix-best, bound)
			}
			t.Logf("%-22s seed %d: regret to the best expert %.3f (bound %.3f)", tc.demo, seed, mix-best, bound)
		}
	}
}

// TestOCCFMAutoInvariants checks after every row that the weights are a
// distribution over the live experts, that a retired expert stays retired
// with weight 0, and that a Squared prediction lies in the hull of the live
// experts' clipped predictions.
func TestOCCFMAutoInvariants(t *testing.T) {
	rows, task := firstDemoRows(t, "planted-regression", 3, 12_000)
	m := NewOCCFMAuto(OCCFMAutoSettings{Loss: TaskLoss(task)})
	retired := map[string]bool{}
	for i, ex := range rows {
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, e := range m.experts {
			if e != nil {
				y := m.clip(e.Predict(ex.X))
				lo, hi = min(lo, y), max(hi, y)
			}
		}
		yhat := Play(m, ex, nil)
		if yhat < lo-1e-12 || yhat > hi+1e-12 {
			t.Fatalf("row %d: ŷ = %v outside the experts' [%v, %v]", i+1, yhat, lo, hi)
		}
		var sum float64
		for _, e := range m.Experts() {
			if e.Weight < 0 || e.Retired && e.Weight != 0 {
				t.Fatalf("row %d: %s has weight %v (retired %v)", i+1, e.Name, e.Weight, e.Retired)
			}
			if retired[e.Name] && !e.Retired {
				t.Fatalf("row %d: %s came back", i+1, e.Name)
			}
			retired[e.Name] = e.Retired
			sum += e.Weight
		}
		if math.Abs(sum-1) > 1e-12 {
			t.Fatalf("row %d: weights sum to %v", i+1, sum)
		}
		if i+1 < autoTrial {
			for name, r := range retired {
				if r {
					t.Fatalf("row %d: %s retired before the trial's end", i+1, name)
				}
			}
		}
	}
}

// TestOCCFMAutoRetires checks that the OCCFMLin expert that is far behind
// and not catching up is retired and frees its memory, and that the cheap
// experts, far behind too, are not: on planted-regression δ = 1 cannot fit
// the interactions that δ = 100 fits, and neither can bias and linear.
// (Without the OCCFMK expert, which would lead and retire δ = 100 too.)
func TestOCCFMAutoRetires(t *testing.T) {
	rows, task := firstDemoRows(t, "planted-regression", 1, 15_000)
	m := NewOCCFMAuto(OCCFMAutoSettings{Loss: TaskLoss(task), Deltas: []float64{1, 100}, Pairs: []float64{}, Tastes: []float64{}, Retire: 5})
	for _, ex := range rows[:autoTrial-1] {
		Play(m, ex, nil)
	}
	before := m.MemoryBytes()
	for _, ex := range rows[autoTrial-1:] {
		Play(m, ex, nil)
	}
	ex := m.Experts()
	if ex[0].Retired || ex[1].Retired || !ex[2].Retired || ex[3].Retired {
		t.Fatalf("experts %+v: want δ = 1 retired, the others live", ex)
	}
	if ex[0].Loss < 2*ex[3].Loss || ex[1].Loss < 2*ex[3].Loss {
		t.Errorf("experts %+v: bias and linear are not far behind δ = 100", ex)
	}
	if ex[3].Weight < 0.999 {
		t.Errorf("δ = 100's weight %v, want about 1", ex[3].Weight)
	}
	if after := m.MemoryBytes(); after >= before {
		t.Errorf("memory %d bytes after retiring, %d before", after, before)
	}
}

// TestOCCFMLinSplit cross-checks OCCFMLin against its two parts run by
// hand: FTRL-Proximal on (1, x) and OCCFM with the affine part as offset,
// both from ℓ' at the joint prediction.
func TestOCCFMLinSplit(t *testing.T) {
	for _, demo := range []string{"ratings", "planted-classification"} {
		rows, task := firstDemoRows(t, demo, 2, 1500)
		m := NewOCCFMLin(OCCFMLinSettings{Loss: TaskLoss(task), OCCFM: OCCFMSettings{Delta: 30}})
		lin := newFTRLLinear(DefaultLinearAlpha, 1, 0, 0)
		occ := NewOCCFM(OCCFMSettings{Delta: 30, Loss: TaskLoss(task)})
		for i, ex := range rows {
			d := len(lin.w)
			for _, j := range ex.X.Ind {
				d = max(d, j+1)
			}
			lin.extend(d)
			want := lin.value(ex.X) + occ.Predict(ex.X)
			if got := m.Predict(ex.X); math.Abs(got-want) > 1e-12*max(1, math.Abs(want)) {
				t.Fatalf("%s row %d: ŷ = %v, want %v", demo, i+1, got, want)
			}
			m.Update(ex.X, ex.Y)
			off := lin.value(ex.X)
			if g := TaskLoss(task).Deriv(want, ex.Y); g != 0 {
				lin.learn(ex.X, g)
			}
			occ.learn(ex.X, ex.Y, off)
		}
		if m.NuclearNorm() > 30*(1+1e-9) {
			t.Errorf("%s: ‖C‖* = %v over δ = 30", demo, m.NuclearNorm())
		}
	}
}

// TestOCCFMAutoGridModel checks an (δ, η) grid with the pairs experts: the
// experts' names, and that a saved model resumes to the same predictions
// and saves to the same bytes, with some experts retired.
func TestOCCFMAutoGridModel(t *testing.T) {
	rows, task := firstDemoRows(t, "planted-classification", 4, 12_000)
	s := OCCFMAutoSettings{Loss: TaskLoss(task), Deltas: []float64{3, 30}, Etas: []float64{0, 3}, Retire: 5}
	m := NewOCCFMAuto(s)
	for _, ex := range rows[:11_000] {
		Play(m, ex, nil)
	}
	var names []string
	retired := 0
	for _, e := range m.Experts() {
		names = append(names, e.Name)
		if e.Retired {
			retired++
		}
	}
	want := []string{"bias", "linear", "pairs α=0.3", "pairs α=3", "δ=3 η=default", "δ=3 η=3", "δ=30 η=default", "δ=30 η=3", "tastes δ=18√n"}
	if fmt.Sprint(names) != fmt.Sprint(want) {
		t.Fatalf("experts %q, want %q", names, want)
	}
	if retired == 0 {
		t.Fatalf("no expert retired after 11,000 rows with Retire = 5")
	}
	b := saveBytes(t, Model{Learner: m, Config: m.Config()})
	got := loadBytes(t, b).Learner.(*OCCFMAuto)
	if b2 := saveBytes(t, Model{Learner: got, Config: got.Config()}); !bytes.Equal(b, b2) {
		t.Fatal("the loaded model saves to other bytes")
	}
	for i, ex := range rows[11_000:] {
		if a, b := Play(m, ex, nil), Play(got, ex, nil); a != b {
			t.Fatalf("row %d after the load: ŷ %v, want %v", i+1, b, a)
		}
	}
}

// TestOCCFMAutoEta: a Config's η reaches every OCCFM expert (the OCCFMLin
// grid and the OCCFMK expert) and comes back in Config; without one they
// keep their own defaults (OCCFMLin's DefaultEtaFor its δ).
func TestOCCFMAutoEta(t *testing.T) {
	for _, tc := range []struct {
		eta, wantLin, wantK float64
	}{
		{0, 0, DefaultOCCFMKEta},
		{0.05, 0.05, 0.05},
	} {
		l, err := NewLearner("occfm-auto", Config{Eta: tc.eta})
		if err != nil {
			t.Fatal(err)
		}
		m := l.(*OCCFMAuto)
		var lin, k int
		for i := range m.experts {
			switch e := m.Expert(i).(type) {
			case *OCCFMLin:
				lin++
				want := tc.wantLin
				if want == 0 {
					want = DefaultEtaFor(Squared, e.Settings().OCCFM.Delta)
				}
				if got := e.Settings().OCCFM.Eta; got != want {
					t.Errorf("η %v: OCCFMLin expert %d has η %v, want %v", tc.eta, i, got, want)
				}
			case *OCCFMK:
				k++
				if got := e.Settings().Eta; got != tc.wantK {
					t.Errorf("η %v: OCCFMK expert %d has η %v, want %v", tc.eta, i, got, tc.wantK)
				}
			}
		}
		if lin == 0 || k == 0 {
			t.Fatalf("η %v: %d OCCFMLin and %d OCCFMK experts", tc.eta, lin, k)
		}
		if got := m.Config().Eta; got != tc.eta {
			t.Errorf("Config().Eta = %v, want %v", got, tc.eta)
		}
	}
}

// TestOCCFMAutoMemo checks the prediction Predict keeps for the
// PredictUpdate that follows (see rowMemo) on the ratings demo: see
// checkMemo.
func TestOCCFMAutoMemo(t *testing.T) {
	checkMemo(t, demoRowsOf(t, "ratings", 600), func() Learner { return NewOCCFMAuto(OCCFMAutoSettings{}) },
		func(l Learner, ex data.Example) float64 { return l.(*OCCFMAuto).PredictUpdate(ex.X, ex.Y) })
}

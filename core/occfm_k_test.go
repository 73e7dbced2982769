package core

import (
	"bytes"
	"cmp"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/internal/coretest"
	"gonum.org/v1/gonum/floats/scalar"
	"gonum.org/v1/gonum/mat"
)

// denseC returns OCCFMK's C as a dense d×d matrix: Σₐ μₐuₐuₐᵀ with
// uₐ = S·W[:, a].
func (m *OCCFMK) denseC(weighted, fold bool) *mat.SymDense {
	d, ld := m.d, m.ld
	c := mat.NewSymDense(max(d, 1), nil)
	u := make([]float64, d)
	sb := m.sb
	wt := func(i int) float64 {
		if weighted {
			return m.fw.weight(i)
		}
		return 1
	}
	for _, a := range m.active {
		for i := 0; i < d; i++ {
			s := sb[i*ld : i*ld+m.kc]
			var v float64
			for j, sj := range s {
				v += sj * m.w[j*ld+a]
			}
			u[i] = v * wt(i)
		}
		for i := 0; i < d; i++ {
			for j := i; j < d; j++ {
				c.SetSym(i, j, c.At(i, j)+m.mu[a]*u[i]*u[j])
			}
		}
	}
	if fold {
		st := m.blockNow()
		for i := 0; i < d; i++ {
			for j := 0; j < d; j++ {
				if v := m.foldEntry(&st, i, j); v != 0 {
					c.SetSym(i, j, c.At(i, j)+v*wt(i)*wt(j)/(m.fw.weight(i)*m.fw.weight(j)))
				}
			}
		}
	}
	return c
}

// projectDense returns Π_K(−η·G/2) for the dense symmetric G (denseProject
// of the scaled G).
func projectDense(g *mat.SymDense, eta, delta float64) *mat.SymDense {
	var a mat.SymDense
	a.ScaleSym(-0.5*eta, g)
	return denseProject(&a, delta)
}

// TestOCCFMKDense checks OCCFMK against the dense FTRL iterate on small d,
// after every row: G summed here from ℓ'(ŷ, y) at the learner's own
// predictions, C* = Π_K(−ηG/2) by mat.EigenSym; ‖C − C*‖_F must be within
// the certified ε (with a subspace of every direction, within the part of ε
// that A's off-diagonal makes), ‖C‖* ≤ δ, and the prediction must be
// the affine part plus Σ_{i<j} C_ij xᵢxⱼ of the dense C. Rank 3 and 20 (S a
// proper subspace of the 30 features, or all of them), δ binding (2) or not
// (1000), on user × item rows and on rows of 3–6 real-valued features.
func TestOCCFMKDense(t *testing.T) {
	const d = 30
	dense := func(seed uint64, rows int) []data.Example {
		rng := rand.New(rand.NewPCG(seed, 3))
		out := make([]data.Example, rows)
		for r := range out {
			x := data.Sparse{}
			for i := range d {
				if rng.IntN(7) == 0 {
					x.Ind, x.Val = append(x.Ind, i), append(x.Val, rng.NormFloat64())
				}
			}
			out[r] = data.Example{X: x, Y: rng.NormFloat64()}
		}
		return out
	}
	streams := map[string][]data.Example{"ratings": ratingStream(d, 600), "dense": dense(5, 400)}
	for name, rows := range streams {
		for _, rank := range []int{3, 20} {
			for _, delta := range []float64{2, 1000} {
				m := NewOCCFMK(OCCFMKSettings{Rank: rank, Delta: delta, Eta: 0.5, MinGap: 25})
				g := mat.NewSymDense(d, nil)
				worst, held := 0.0, 0
				for r, ex := range rows {
					x := ex.X
					yhat := m.Predict(x)
					// The prediction formula on the dense C.
					c := m.denseC(true, true)
					want := m.affine(x)
					for p, i := range x.Ind {
						for q := 0; q < p; q++ {
							if i < m.d && x.Ind[q] < m.d {
								want += c.At(i, x.Ind[q]) * x.Val[p] * x.Val[q]
							}
						}
					}
					if !scalar.EqualWithinAbsOrRel(yhat, want, 1e-9, 1e-9) {
						t.Fatalf("%s rank %d δ %g row %d: ŷ %v, dense formula %v", name, rank, delta, r, yhat, want)
					}
					gr := Squared.Deriv(yhat, ex.Y)
					xt := m.fw.apply(x) // G sums the gradients in the weighted coordinates
					for p, i := range x.Ind {
						for q := 0; q < p; q++ {
							j := x.Ind[q]
							g.SetSym(i, j, g.At(i, j)+0.5*gr*xt.Val[p]*xt.Val[q])
						}
					}
					m.Update(x, ex.Y)
					if nn := m.NuclearNorm(); nn > delta*(1+1e-9) {
						t.Fatalf("%s rank %d δ %g row %d: ‖C‖* = %v > δ", name, rank, delta, r, nn)
					}
					var diff mat.Dense
					cs := projectDense(g, m.eta(), delta)
					diff.Sub(m.denseC(false, true), subSym(cs, m.d))
					e := mat.Norm(&diff, 2)
					if e > m.Certified()+1e-9*max(1, mat.Norm(cs, 2)) {
						t.Fatalf("%s rank %d δ %g row %d: ‖C − C*‖_F = %v over the certified ε = %v", name, rank, delta, r, e, m.Certified())
					}
					if rank == 20 && e > m.offEps+1e-9*max(1, mat.Norm(cs, 2)) {
						t.Fatalf("%s rank %d δ %g row %d: with every direction held, ‖C − C*‖_F = %v over A's off-diagonal part %v", name, rank, delta, r, e, m.offEps)
					}
					worst = max(worst, e)
					// C's eigenpairs as Personalize reads them: C_ij = Σₐ μₐuₐᵢuₐⱼ
					// from PairCoords, rows lagging cuts or not.
					dc, mu := m.denseC(true, false), m.PairSpectrum(nil)
					for _, ij := range [][2]int{{0, m.d - 1}, {1, m.d / 2}, {m.d / 3, m.d - 2}} {
						i, j := ij[0], ij[1]
						if i < 0 || j < 0 || i == j {
							continue
						}
						ui, uj := m.PairCoords(i, nil), m.PairCoords(j, nil)
						var c float64
						for a, v := range mu {
							c += v * ui[a] * uj[a]
						}
						c *= m.fw.weight(i) * m.fw.weight(j)
						if !scalar.EqualWithinAbsOrRel(c, dc.At(i, j), 1e-9, 1e-9) {
							t.Fatalf("%s rank %d δ %g row %d: C[%d, %d] = %v from PairCoords, %v from C", name, rank, delta, r, i, j, c, dc.At(i, j))
						}
					}
					if m.Certified() < 0.5*max(mat.Norm(cs, 2), 1e-12) {
						held++
					}
				}
				t.Logf("%s rank %d δ %g: %d rows, worst ‖C − C*‖_F %.3g, ε below half of ‖C*‖_F on %d rows, %d recomputations, rank %d",
					name, rank, delta, len(rows), worst, held, m.Refreshes(), m.Rank())
			}
		}
	}
}

// subSym returns the leading n×n block of a (its features seen so far).
func subSym(a *mat.SymDense, n int) *mat.SymDense {
	out := mat.NewSymDense(max(n, 1), nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			out.SetSym(i, j, a.At(i, j))
		}
	}
	return out
}

// TestOCCFMKMemo checks the coordinates Predict keeps for the Update that
// follows (see rowMemo) on the ratings demo at rank 4: see checkMemo.
func TestOCCFMKMemo(t *testing.T) {
	s := OCCFMKSettings{Rank: 4}
	checkMemo(t, demoRowsOf(t, "ratings", 1500), func() Learner { return NewOCCFMK(s) },
		func(l Learner, ex data.Example) float64 { l.Update(ex.X, ex.Y); return math.NaN() })
}

// checkMemo plays rows on three learners from newL, each row learned by
// learn (which does not predict it first, and returns the prediction it
// played, or NaN when it gives none): one learns each row alone, one
// predicts it first, and one predicts it and then the next row first. What
// a Predict keeps for the learning of the same row (see rowMemo) must not
// change what is learned (the three end in the same bytes), nor the
// prediction played (Predict's, and the one learned alone).
func checkMemo(t *testing.T, rows []data.Example, newL func() Learner, learn func(Learner, data.Example) float64) {
	t.Helper()
	played, alone, other := newL(), newL(), newL()
	for i, ex := range rows {
		a := learn(alone, ex)
		p := played.Predict(ex.X)
		if q := learn(played, ex); !math.IsNaN(a) && (q != p || q != a) {
			t.Fatalf("row %d: Predict %v, then learning it %v; learning it alone %v", i, p, q, a)
		}
		other.Predict(ex.X)
		other.Predict(rows[(i+1)%len(rows)].X)
		learn(other, ex)
	}
	a := saveBytes(t, Model{Learner: alone})
	if !bytes.Equal(saveBytes(t, Model{Learner: played}), a) || !bytes.Equal(saveBytes(t, Model{Learner: other}), a) {
		t.Fatal("a Predict before learning a row changed what the learner learned")
	}
}

// TestOCCFMKExtend checks how S grows with new features: at rank 4 (room
// for 8 directions), while at most 8 features are seen each extends S
// exactly (S spans them all, the leak is 0 up to rounding and nothing is
// recomputed);
// past 8, S holds what it has until a recomputation brings it back to k,
// and then stays at k directions as new features keep coming.
func TestOCCFMKExtend(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	m := NewOCCFMK(OCCFMKSettings{Rank: 4, MinGap: 20})
	row := func(d int) (data.Sparse, float64) {
		i, j := rng.IntN(d/2), d/2+rng.IntN(d/2)
		return data.Sparse{Ind: []int{i, j}, Val: []float64{1, 1}}, float64(1 + (i*j)%5)
	}
	for r := 0; r < 300; r++ {
		x, y := row(8)
		m.Predict(x)
		m.Update(x, y)
		if m.kc != m.nseen || m.leak > 1e-5*m.allowed() || m.refreshes != 0 {
			t.Fatalf("row %d, %d features seen: %d directions, leak %v, %d recomputations", r, m.nseen, m.kc, m.leak, m.refreshes)
		}
	}
	for r := 0; r < 3000; r++ {
		x, y := row(8 + 2*r)
		before := m.kc
		m.Predict(x)
		m.Update(x, y)
		if m.refreshes == 0 && m.kc != before || m.kc > m.ld {
			t.Fatalf("row %d: S went from %d to %d directions before any recomputation", r, before, m.kc)
		}
		if m.refreshes > 0 && m.kc != m.s.Rank {
			t.Fatalf("row %d, after %d recomputations: %d directions, want %d", r, m.refreshes, m.kc, m.s.Rank)
		}
	}
	if m.refreshes == 0 {
		t.Error("no recomputation in 3,000 rows of new features")
	}
}

// TestOCCFMKMix checks AffineMix, occfm-k's rule for classification: its
// summed log loss is at most `linear`'s plus ln 3 (the Bayes mixture's
// bound: its affine part alone is `linear`'s rule), on rows of 5 of 100
// features whose labels are linear in x, and on user × item rows (50 users,
// 50 items) labelled by the sign of a planted taste uᵤ·vᵢ, which no line
// can learn, where it must also beat `linear` by 10 points of error. S is
// recomputed (100 features) in both its models; a save and load halfway
// through must resume bit for bit.
func TestOCCFMKMix(t *testing.T) {
	const d, rows = 100, 4000
	stream := func(pairs bool) []data.Example {
		rng := rand.New(rand.NewPCG(5, 6))
		w := make([]float64, d)
		for i := range w {
			w[i] = rng.NormFloat64()
		}
		out := make([]data.Example, rows)
		for r := range out {
			var x data.Sparse
			var s float64
			if pairs {
				u, i := rng.IntN(d/2), d/2+rng.IntN(d/2)
				x = data.Sparse{Ind: []int{u, i}, Val: []float64{1, 1}}
				s = w[u] * w[i]
			} else {
				ind := rng.Perm(d)[:5]
				slices.Sort(ind)
				x = data.Sparse{Ind: ind, Val: []float64{1, 1, 1, 1, 1}}
				for _, i := range ind {
					s += w[i]
				}
			}
			y := 1.0
			if s+0.3*rng.NormFloat64() < 0 {
				y = -1
			}
			out[r] = data.Example{X: x, Y: y}
		}
		return out
	}
	for _, pairs := range []bool{false, true} {
		rs := stream(pairs)
		cfg := Config{Task: data.Classification}
		k, lin, half := NewLearner2(t, "occfm-k", cfg), NewLearner2(t, "linear", cfg), NewLearner2(t, "occfm-k", cfg)
		if a := k.(*OCCFMK).Settings().Affine; a != AffineMix {
			t.Fatalf("occfm-k for classification has the affine rule %v, want AffineMix", a)
		}
		mk, ml := NewMetrics(data.Classification, Logistic), NewMetrics(data.Classification, Logistic)
		for r, ex := range rs {
			if r == rows/2 {
				half = loadBytes(t, saveBytes(t, Model{Config: cfg, Learner: half})).Learner
			}
			yk := Play(k, ex, mk)
			Play(lin, ex, ml)
			if got := Play(half, ex, nil); math.Float64bits(got) != math.Float64bits(yk) {
				t.Fatalf("pairs %v, row %d: ŷ = %v after a save and load, %v without", pairs, r, got, yk)
			}
		}
		sk, sl := mk.Summary(), ml.Summary()
		lk, ll := sk.LogLoss*rows, sl.LogLoss*rows
		if lk > ll+math.Log(3)+1e-9*rows {
			t.Errorf("pairs %v: summed log loss %.4f, linear's %.4f: more than ln 3 above", pairs, lk, ll)
		}
		if pairs && !(sk.ErrorRate < sl.ErrorRate-0.1) {
			t.Errorf("a planted taste: error %.4f, linear's %.4f", sk.ErrorRate, sl.ErrorRate)
		}
		if kk := k.(*OCCFMK); kk.refreshes == 0 || kk.wide.refreshes == 0 {
			t.Errorf("pairs %v: %d and %d recomputations of S", pairs, kk.refreshes, kk.wide.refreshes)
		}
		t.Logf("pairs %v: error %.4f (linear %.4f), log loss %.4f (linear %.4f)", pairs, sk.ErrorRate, sl.ErrorRate, sk.LogLoss, sl.LogLoss)
	}
}

// NewLearner2 is NewLearner, failing t on an error.
func NewLearner2(t *testing.T, name string, c Config) Learner {
	t.Helper()
	l, err := NewLearner(name, c)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// TestOCCFMKMixSettings checks that AffineMix is refused for the squared
// loss (its mixture is of probabilities) and that its default η is
// DefaultOCCFMKMixEta, the wide model's mixStep times that and its ball
// mixWide times the model's.
func TestOCCFMKMixSettings(t *testing.T) {
	func() {
		defer func() {
			if recover() == nil {
				t.Error("NewOCCFMK accepted AffineMix with the squared loss")
			}
		}()
		NewOCCFMK(OCCFMKSettings{Affine: AffineMix})
	}()
	m := NewOCCFMK(OCCFMKSettings{Affine: AffineMix, Loss: Logistic})
	if m.s.Eta != DefaultOCCFMKMixEta || m.wide.s.Eta != mixStep*DefaultOCCFMKMixEta {
		t.Errorf("η = %v, the wide model's %v", m.s.Eta, m.wide.s.Eta)
	}
	if got, want := m.wide.Delta(), mixWide*m.Delta(); math.Abs(got-want) > 1e-12*want {
		t.Errorf("the wide model's ball %v, want %v", got, want)
	}
	if w := NewOCCFMK(OCCFMKSettings{Affine: AffineMix, Loss: Logistic, Delta: 7}).wide; w.Delta() != mixWide*7 {
		t.Errorf("δ = 7: the wide model's ball %v, want %v", w.Delta(), mixWide*7)
	}
}

// TestFeatureWeights checks the frequency weights on streams of known
// counts: features as frequent as each other weigh 1 and leave κ at 1,
// a feature never seen weighs ζ^(−½), a frequent one less than 1 and a
// rare one more, and with the weights off a row is returned as it is.
func TestFeatureWeights(t *testing.T) {
	row := func(ind ...int) data.Sparse {
		x := data.Sparse{Ind: ind}
		for range ind {
			x.Val = append(x.Val, 1)
		}
		return x
	}
	for _, zeta := range []float64{0.3, 0.6, 1} {
		var f featureWeights
		f.zeta = zeta
		if w := f.weight(5); !scalar.EqualWithinAbsOrRel(w, 1/math.Sqrt(zeta), 1e-12, 1e-12) {
			t.Errorf("ζ %g: a feature never seen weighs %v, want ζ^(−½)", zeta, w)
		}
		// Alike: every feature in every row.
		for range 50 {
			x := row(0, 1, 2, 3)
			f.observe(x)
			f.addRatio(pairNorm(x), pairNorm(f.apply(x)))
		}
		for i := range 4 {
			if w := f.weight(i); !scalar.EqualWithinAbsOrRel(w, 1, 1e-12, 1e-12) {
				t.Errorf("ζ %g: feature %d of dense rows weighs %v, want 1", zeta, i, w)
			}
		}
		// Skewed: feature 4 in every row from now on, 5 once.
		for r := range 200 {
			x := row(4, 6+r%20)
			if r == 0 {
				x = row(4, 5)
			}
			f.observe(x)
		}
		if w4, w5 := f.weight(4), f.weight(5); zeta < 1 && !(w4 < 1 && w5 > 1) {
			t.Errorf("ζ %g: the frequent feature weighs %v, the rare one %v", zeta, w4, w5)
		}
		if zeta == 1 && (f.weight(4) != 1 || f.weight(5) != 1) {
			t.Errorf("ζ = 1 weighs every feature 1: %v, %v", f.weight(4), f.weight(5))
		}
	}
	var off featureWeights
	x := row(1, 2)
	if y := off.apply(x); &y.Val[0] != &x.Val[0] || off.kappa() != 1 {
		t.Error("with the weights off, apply copies the row or κ is not 1")
	}
	dense := featureWeights{zeta: 0.6}
	for range 10 {
		x := row(0, 1, 2)
		dense.addRatio(pairNorm(x), pairNorm(dense.apply(x)))
		dense.observe(x)
	}
	// The first row weighs ζ^(−½) a feature (never seen), the others 1.
	want := (1/(0.6*0.6) + 9) / 10
	if k := dense.kappa(); !scalar.EqualWithinAbsOrRel(k, want, 1e-12, 1e-12) {
		t.Errorf("κ of dense rows %v, want %v", k, want)
	}
}

// TestOCCFMKNewcomers plays ML-100K's u.data (skipped without it) sorted
// by user, then time, as a stream of people whose ratings come together:
// each person is new when their rows start, and S is recomputed only every
// thousand rows or so. The fold-in gives a person's row of C from their
// first rows, so occfm-k beats the biases on them; an occfm-k of a file
// that predates the fold-in and the weights (legacy), which waits for the
// next recomputation, does only as well as the biases.
func TestOCCFMKNewcomers(t *testing.T) {
	b, err := io.ReadAll(coretest.OpenData(t, "movielens-100k/u.data"))
	if err != nil {
		t.Fatal(err)
	}
	type rating struct{ user, item, time, stars int }
	var rs []rating
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var r rating
		if _, err := fmt.Sscanf(line, "%d\t%d\t%d\t%d", &r.user, &r.item, &r.stars, &r.time); err != nil {
			t.Fatal(err)
		}
		rs = append(rs, r)
	}
	slices.SortStableFunc(rs, func(a, b rating) int { return cmp.Or(a.user-b.user, a.time-b.time) })
	const users = 943
	rmse := func(l Learner) float64 { // predictions clipped to the stars, as occfm run does
		m := NewMetrics(data.Regression, Squared)
		for _, r := range rs {
			x := data.Sparse{Ind: []int{r.user - 1, users + r.item - 1}, Val: []float64{1, 1}}
			m.Add(min(5, max(1, l.Predict(x))), float64(r.stars))
			l.Update(x, float64(r.stars))
		}
		return m.Summary().RMSE
	}
	legacy := NewOCCFMK(OCCFMKSettings{Weights: -1, Eta: 3})
	legacy.legacy, legacy.ballScale = true, legacyDeltaScale
	k, bias, old := rmse(NewOCCFMK(OCCFMKSettings{})), rmse(NewBias(BiasSettings{})), rmse(legacy)
	t.Logf("RMSE by user, then time: occfm-k %.4f, legacy occfm-k %.4f, bias %.4f", k, old, bias)
	if !(k < bias-0.005 && k < old-0.005) {
		t.Errorf("occfm-k %.4f on people whose ratings come together, legacy %.4f, bias %.4f", k, old, bias)
	}
}

package core

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/demo"
	"github.com/occfm/occfm/core/spectral"
)

// pictureIdx returns the coordinates of the whole of C for a stream of dim
// features: every feature, then the bias coordinate last, as the paper
// orders x̂ = [x; 1].
func pictureIdx(dim int) []int {
	idx := make([]int, 0, dim+1)
	for j := 0; j < dim; j++ {
		idx = append(idx, j)
	}
	return append(idx, BiasCoord)
}

// TestMatrixBlockAgainstPredict checks MatrixBlock against C read back from
// predictions by polarization: with P(x) = ½x̂ᵀCx̂, P(0) = ½C_bb,
// P(eᵢ) + P(−eᵢ) − 2P(0) = C_ii, P(eᵢ) − P(−eᵢ) = 2C_ib, and
// P(eᵢ + eⱼ) − P(eᵢ) − P(eⱼ) + P(0) = C_ij.
func TestMatrixBlockAgainstPredict(t *testing.T) {
	for _, tc := range []struct {
		demo string
		rows int
		lin  bool
	}{
		{"planted-regression", 300, false},
		{"planted-classification", 200, false},
		{"ratings", 400, false},
		{"planted-regression", 300, true},
	} {
		d, _ := demo.ByName(tc.demo)
		src := d.NewRows(3, tc.rows)
		var l interface {
			Learner
			MatrixModel
		}
		var o *OCCFM
		if tc.lin {
			m := NewOCCFMLin(OCCFMLinSettings{})
			l, o = m, m.CCFM()
		} else {
			o = NewOCCFM(OCCFMSettings{Loss: lossFor(d.Task)})
			l = o
		}
		var ex data.Example
		for src.Next(&ex) == nil {
			l.Update(ex.X, ex.Y)
		}
		// Only the first 12 features and a never-seen one: the check costs
		// O(k²) predictions.
		idx := []int{BiasCoord}
		for j := 0; j < min(12, src.Dim()); j++ {
			idx = append(idx, j)
		}
		idx = append(idx, src.Dim()+5) // never seen: a zero row
		k := len(idx)
		got := make([]float64, k*k)
		l.MatrixBlock(idx, got)
		p := func(ind []int, val []float64) float64 { return o.Predict(data.Sparse{Ind: ind, Val: val}) }
		p0 := p(nil, nil)
		want := func(a, b int) float64 {
			ia, ib := idx[a], idx[b]
			switch {
			case ia == BiasCoord && ib == BiasCoord:
				return 2 * p0
			case ia == BiasCoord || ib == BiasCoord:
				j := max(ia, ib)
				return (p([]int{j}, []float64{1}) - p([]int{j}, []float64{-1})) / 2
			case ia == ib:
				return p([]int{ia}, []float64{1}) + p([]int{ia}, []float64{-1}) - 2*p0
			}
			return p([]int{ia, ib}, []float64{1, 1}) - p([]int{ia}, []float64{1}) - p([]int{ib}, []float64{1}) + p0
		}
		scale := o.NuclearNorm() + 1
		for a := 0; a < k; a++ {
			for b := 0; b < k; b++ {
				if w := want(a, b); math.Abs(got[a*k+b]-w) > 1e-10*scale {
					t.Errorf("%s lin=%v: C[%d,%d] = %.12g, want %.12g from predictions", tc.demo, tc.lin, idx[a], idx[b], got[a*k+b], w)
				}
			}
		}
		for a := 0; a < k; a++ {
			if got[a*k+k-1] != 0 || got[(k-1)*k+a] != 0 {
				t.Errorf("%s: an unseen feature's row of C is not zero", tc.demo)
			}
		}
	}
}

// lossFor returns the paper's loss for a task.
func lossFor(task data.Task) Loss {
	if task == data.Classification {
		return Logistic
	}
	return Squared
}

// TestTraceSteps checks, after every round of Algorithm 2, that the traced
// step is the one taken: Cₜ₊₁ = (1 − γ)Cₜ + γĈₜ on the whole of C, the atom
// Ĉ = δ·sign(λ)·qqᵀ has ‖Ĉ‖* = δ and ⟨Ĉ, Ĉ⟩ = δ², γ ≤ γₜ, the gradient term
// is ℓ'·½x̂x̂ᵀ, and that tracing leaves the learner's predictions bit for
// bit as they are without it.
func TestTraceSteps(t *testing.T) {
	for _, tc := range []struct {
		demo  string
		delta float64
		gamma Schedule
	}{
		{"planted-regression", 0, InvSqrt},
		{"planted-regression", 100, Harmonic},
		{"planted-classification", 0, InvSqrt},
		{"planted-classification", 1000, InvSqrt},
	} {
		d, _ := demo.ByName(tc.demo)
		src := d.NewRows(5, 250)
		s := OCCFMSettings{Delta: tc.delta, Gamma: tc.gamma, Loss: lossFor(d.Task)}
		traced, plain := NewOCCFM(s), NewOCCFM(s)
		traced.TraceSteps(true)
		if _, ok := traced.LastStep(); ok {
			t.Fatalf("%s: a step before any round", tc.demo)
		}
		idx := pictureIdx(src.Dim())
		k := len(idx)
		before, atom, after, grad := make([]float64, k*k), make([]float64, k*k), make([]float64, k*k), make([]float64, k*k)
		var ex data.Example
		for row := 1; src.Next(&ex) == nil; row++ {
			yhat := traced.Predict(ex.X)
			if py := plain.Predict(ex.X); py != yhat {
				t.Fatalf("%s row %d: traced ŷ = %v, untraced %v", tc.demo, row, yhat, py)
			}
			traced.Update(ex.X, ex.Y)
			plain.Update(ex.X, ex.Y)
			st, ok := traced.LastStep()
			if !ok || st.Round != row {
				t.Fatalf("%s row %d: LastStep = %+v, %v", tc.demo, row, st, ok)
			}
			if st.Prediction != yhat || st.Label != ex.Y || st.Deriv != s.Loss.Deriv(yhat, ex.Y) {
				t.Fatalf("%s row %d: step %+v, want ŷ %v y %v", tc.demo, row, st, yhat, ex.Y)
			}
			if !(st.Gamma >= 0 && st.Gamma <= st.GammaSchedule+1e-15) || !(st.ValueGap >= 0) {
				t.Fatalf("%s row %d: γ = %v, γₜ = %v, gap %v", tc.demo, row, st.Gamma, st.GammaSchedule, st.ValueGap)
			}
			if !traced.StepBlocks(idx, before, atom, after, grad) {
				t.Fatalf("%s row %d: no blocks", tc.demo, row)
			}
			var tr, fro float64
			for i := 0; i < k; i++ {
				tr += atom[i*k+i]
				for j := 0; j < k; j++ {
					fro += atom[i*k+j] * atom[i*k+j]
				}
			}
			delta := st.Delta
			if st.Lambda != 0 {
				if math.Abs(math.Abs(tr)-delta) > 1e-9*delta || math.Abs(fro-delta*delta) > 1e-9*delta*delta || math.Copysign(1, tr) != math.Copysign(1, st.Lambda) {
					t.Fatalf("%s row %d: atom trace %v, ‖Ĉ‖² %v, want ±δ = %v, δ²", tc.demo, row, tr, fro, delta)
				}
			}
			for i := range after {
				mix := (1-st.Gamma)*before[i] + st.Gamma*atom[i]
				if math.Abs(after[i]-mix) > 1e-10*(delta+1) {
					t.Fatalf("%s row %d entry %d: C after %v, (1−γ)C + γĈ = %v", tc.demo, row, i, after[i], mix)
				}
			}
			xh := make([]float64, k)
			xh[k-1] = 1
			for p, j := range ex.X.Ind {
				xh[j] = ex.X.Val[p]
			}
			for i := 0; i < k; i++ {
				for j := 0; j < k; j++ {
					if w := 0.5 * st.Deriv * xh[i] * xh[j]; grad[i*k+j] != w {
						t.Fatalf("%s row %d: ∇f[%d,%d] = %v, want %v", tc.demo, row, i, j, grad[i*k+j], w)
					}
				}
			}
		}
	}
}

// TestQuadraticBlock checks the polarization against two learners whose C
// is known another way: OCCFM's MatrixBlock, and FM-FTRL's C built from
// its weights (Z = VVᵀ off the diagonal, w on the border, 2w₀ in the
// corner).
func TestQuadraticBlock(t *testing.T) {
	d, _ := demo.ByName("planted-regression")
	src := d.NewRows(7, 400)
	o := NewOCCFM(OCCFMSettings{})
	fm := NewFMFTRL(FMFTRLSettings{})
	var ex data.Example
	for src.Next(&ex) == nil {
		o.Update(ex.X, ex.Y)
		fm.Update(ex.X, ex.Y)
	}
	idx := []int{3, BiasCoord, 0, 17, 3, 9}
	k := len(idx)
	got, want := make([]float64, k*k), make([]float64, k*k)
	QuadraticBlock(o.Predict, idx, got)
	o.MatrixBlock(idx, want)
	for i := range got {
		if math.Abs(got[i]-want[i]) > 1e-10*(1+o.NuclearNorm()) {
			t.Errorf("occfm: polarized C[%d] = %v, MatrixBlock %v", i, got[i], want[i])
		}
	}
	QuadraticBlock(fm.Predict, idx, got)
	r := fm.s.Rank
	for a, i := range idx {
		for b, j := range idx {
			var w float64
			switch {
			case i == BiasCoord && j == BiasCoord:
				w = 2 * fm.w0
			case i == BiasCoord:
				w = fm.w[j]
			case j == BiasCoord:
				w = fm.w[i]
			case i != j:
				w = spectral.Dot(fm.v[i*r:(i+1)*r], fm.v[j*r:(j+1)*r])
			}
			if math.Abs(got[a*k+b]-w) > 1e-10 {
				t.Errorf("fm-ftrl: polarized C[%d,%d] = %v, from V %v", i, j, got[a*k+b], w)
			}
		}
	}
}

// TestBlockSpectrum checks A·v = λ₁v for the returned lead vector, the
// order by |λ|, and Σλ = tr A, on random symmetric matrices.
func TestBlockSpectrum(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	for _, k := range []int{1, 2, 5, 21, 60} {
		a := make([]float64, k*k)
		for i := 0; i < k; i++ {
			for j := 0; j <= i; j++ {
				v := rnd.NormFloat64()
				a[i*k+j], a[j*k+i] = v, v
			}
		}
		vals, lead := BlockSpectrum(a, k)
		var tr, sum float64
		for i := 0; i < k; i++ {
			tr += a[i*k+i]
			sum += vals[i]
			if i > 0 && math.Abs(vals[i]) > math.Abs(vals[i-1]) {
				t.Errorf("k=%d: |λ%d| = %v > |λ%d| = %v", k, i, vals[i], i-1, vals[i-1])
			}
		}
		if math.Abs(tr-sum) > 1e-10*float64(k) {
			t.Errorf("k=%d: Σλ = %v, tr A = %v", k, sum, tr)
		}
		for i := 0; i < k; i++ {
			av := spectral.Dot(a[i*k:(i+1)*k], lead)
			if math.Abs(av-vals[0]*lead[i]) > 1e-9*math.Abs(vals[0]) {
				t.Errorf("k=%d: (Av)[%d] = %v, λ₁v = %v", k, i, av, vals[0]*lead[i])
			}
		}
	}
}

// TestQuadraticBlockZero checks that a learner without pairs draws an
// interaction block of exact zeros, not rounding noise.
func TestQuadraticBlockZero(t *testing.T) {
	d, _ := demo.ByName("ratings")
	src := d.NewRows(2, 500)
	b := NewBias(BiasSettings{})
	var ex data.Example
	for src.Next(&ex) == nil {
		b.Update(ex.X, ex.Y)
	}
	idx := []int{0, 1, 300, 301, 302, BiasCoord}
	k := len(idx)
	c := make([]float64, k*k)
	QuadraticBlock(b.Predict, idx, c)
	for i := 0; i < k-1; i++ {
		for j := 0; j < k-1; j++ {
			if c[i*k+j] != 0 {
				t.Errorf("bias: C[%d,%d] = %v, want 0", idx[i], idx[j], c[i*k+j])
			}
		}
	}
	if c[k*k-1] == 0 {
		t.Error("bias: no bias in the corner")
	}
}

package spectral

import (
	"gonum.org/v1/gonum/floats/scalar"
	"gonum.org/v1/gonum/mat"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestL1BallThreshold checks the sort-based ℓ₁-ball projection on cases
// worked by hand and, on random vectors, against its optimality
// conditions: ‖w‖₁ = δ when ‖v‖₁ > δ, |vᵢ| − |wᵢ| = θ on the support and
// |vᵢ| ≤ θ off it, and against θ found by bisection of Σ max(|vᵢ| − θ, 0) = δ.
func TestL1BallThreshold(t *testing.T) {
	for _, tc := range []struct {
		v     []float64
		delta float64
		theta float64
	}{
		{[]float64{3, 1}, 2, 1},                // w = (2, 0)
		{[]float64{1, -1, 1}, 1.5, 0.5},        // w = (½, −½, ½)
		{[]float64{0.5, -0.25}, 1, 0},          // inside the ball
		{[]float64{-4}, 1, 3},                  // w = −1
		{[]float64{2, 2, -1, 0.1}, 3, 2.0 / 3}, // w = (4/3, 4/3, −1/3, 0)
		{[]float64{5, -3, 1, -1}, 4, 2},        // w = (3, −1, 0, 0)
		{[]float64{1, 1, 1, 1}, 4, 0},          // on the sphere
		{[]float64{0, 0, 7, 0, -7}, 7, 3.5},    // ties
	} {
		got, _ := L1BallThreshold(tc.v, tc.delta, nil)
		if !scalar.EqualWithinAbsOrRel(got, tc.theta, 1e-14, 1e-14) {
			t.Errorf("θ(%v, δ=%v) = %v, want %v", tc.v, tc.delta, got, tc.theta)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var buf []float64
	for trial := 0; trial < 500; trial++ {
		m := 1 + rng.IntN(40)
		v := make([]float64, m)
		var l1 float64
		for i := range v {
			v[i] = rng.NormFloat64() * math.Exp(2*rng.NormFloat64())
			l1 += math.Abs(v[i])
		}
		delta := l1 * 1.2 * rng.Float64()
		var theta float64
		theta, buf = L1BallThreshold(v, delta, buf)
		if l1 <= delta {
			if theta != 0 {
				t.Fatalf("trial %d: θ = %v inside the ball", trial, theta)
			}
			continue
		}
		// Bisection reference: h(θ) = Σ max(|vᵢ| − θ, 0) decreases from ‖v‖₁.
		lo, hi := 0.0, slices.Max(absAll(v))
		for range 200 {
			mid := (lo + hi) / 2
			var h float64
			for _, x := range v {
				h += max(math.Abs(x)-mid, 0)
			}
			if h > delta {
				lo = mid
			} else {
				hi = mid
			}
		}
		if !scalar.EqualWithinAbsOrRel(theta, lo, 1e-12*l1, 1e-10) {
			t.Fatalf("trial %d: θ = %v, bisection %v", trial, theta, lo)
		}
		var w1 float64
		for _, x := range v {
			w := SoftThreshold(x, theta)
			w1 += math.Abs(w)
			if w != 0 && math.Signbit(w) != math.Signbit(x) {
				t.Fatalf("trial %d: sign flipped", trial)
			}
			if w == 0 && math.Abs(x) > theta*(1+1e-12) {
				t.Fatalf("trial %d: |v| = %v > θ = %v but w = 0", trial, math.Abs(x), theta)
			}
		}
		if !scalar.EqualWithinAbsOrRel(w1, delta, 1e-12, 1e-12) {
			t.Fatalf("trial %d: ‖w‖₁ = %v, want δ = %v", trial, w1, delta)
		}
	}
}

func absAll(v []float64) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = math.Abs(x)
	}
	return out
}

// TestRankOneEig checks the diagonal-plus-rank-one eigensolver against
// mat.EigenSym on random problems, with ties in d, zero and tiny zᵢ, both
// signs of ρ and a dominant ρ: eigenvalues within 1e-12 of the scale,
// eigenvectors orthonormal and A·V = V·diag(ν) within 1e-12.
func TestRankOneEig(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var e RankOneEig
	for _, tc := range []struct {
		name string
		gen  func(m int) ([]float64, []float64, float64)
	}{
		{"random", func(m int) ([]float64, []float64, float64) {
			return randVec(rng, m), randVec(rng, m), rng.NormFloat64()
		}},
		{"negative rho", func(m int) ([]float64, []float64, float64) {
			return randVec(rng, m), randVec(rng, m), -math.Abs(rng.NormFloat64())
		}},
		{"ties and a zero", func(m int) ([]float64, []float64, float64) {
			d := randVec(rng, m)
			for i := 1; i < m; i += 3 {
				d[i] = d[i-1]
			}
			d[m-1] = 0
			return d, randVec(rng, m), rng.NormFloat64()
		}},
		{"zero and tiny z", func(m int) ([]float64, []float64, float64) {
			z := randVec(rng, m)
			for i := 0; i < m; i += 2 {
				z[i] *= []float64{0, 1e-20, 1e-9}[i%3]
			}
			return randVec(rng, m), z, rng.NormFloat64()
		}},
		{"clustered d", func(m int) ([]float64, []float64, float64) {
			d := randVec(rng, m)
			for i := range d {
				d[i] = 1 + 1e-10*d[i]
			}
			return d, randVec(rng, m), 1e-3 * rng.NormFloat64()
		}},
		{"dominant rho", func(m int) ([]float64, []float64, float64) {
			return randVec(rng, m), randVec(rng, m), 1e6
		}},
		{"tiny rho", func(m int) ([]float64, []float64, float64) {
			return randVec(rng, m), randVec(rng, m), 1e-14
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for trial := 0; trial < 40; trial++ {
				m := 1 + trial%17
				d, z, rho := tc.gen(m)
				a := mat.NewSymDense(m, nil)
				var scale float64
				for i := 0; i < m; i++ {
					scale = max(scale, math.Abs(d[i]))
					for j := i; j < m; j++ {
						v := rho * z[i] * z[j]
						if i == j {
							v += d[i]
						}
						a.SetSym(i, j, v)
					}
				}
				scale = max(scale, math.Abs(rho)*Dot(z, z))
				nu := make([]float64, m)
				v := make([]float64, m*m)
				e.Solve(d, z, rho, nu, v)
				var es mat.EigenSym
				es.Factorize(a, false)
				want := es.Values(nil)
				got := slices.Clone(nu)
				slices.Sort(got)
				for i := range got {
					if !scalar.EqualWithinAbs(got[i], want[i], 1e-12*scale) {
						t.Fatalf("trial %d (m=%d): ν = %v, EigenSym %v", trial, m, got, want)
					}
				}
				vm := mat.NewDense(m, m, v)
				var vtv, av, vl mat.Dense
				vtv.Mul(vm.T(), vm)
				av.Mul(a, vm)
				vl.Mul(vm, mat.NewDiagDense(m, nu))
				if !mat.EqualApprox(&vtv, eye(m), 1e-12) {
					t.Fatalf("trial %d (m=%d): VᵀV ≠ I", trial, m)
				}
				if !mat.EqualApprox(&av, &vl, 1e-12*scale) {
					t.Fatalf("trial %d (m=%d): A·V ≠ V·diag(ν)", trial, m)
				}
			}
		})
	}
}

// TestSymEigen checks symEigen, which calls LAPACK's dsyev itself, against
// mat.EigenSym (what it called before core dropped gonum/mat, see
// TestCoreImports) on random b×b matrices, b = 1 … 40, some of low rank
// with repeated eigenvalues: the eigenvalues agree and come in ascending
// order, ‖A·v − λ·v‖ is at rounding level for each pair, V is orthonormal,
// and, since both run dsyev on the same triangle with the same workspace,
// the results are mat.EigenSym's bit for bit.
func TestSymEigen(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 9))
	for b := 1; b <= 40; b++ {
		for trial := range 3 {
			a := make([]float64, b*b)
			switch trial {
			case 0: // dense, not symmetric: symEigen takes ½(A + Aᵀ)
				for i := range a {
					a[i] = rng.NormFloat64()
				}
			case 1: // rank ≤ 3 with zero rows and columns
				for range 3 {
					v := make([]float64, b)
					for i := range v {
						if rng.IntN(3) > 0 {
							v[i] = rng.NormFloat64()
						}
					}
					w := rng.NormFloat64() * 10
					for i := range v {
						for j := range v {
							a[i*b+j] += w * v[i] * v[j]
						}
					}
				}
			case 2: // repeated eigenvalues: a scaled identity plus a rank one
				for i := 0; i < b; i++ {
					a[i*b+i] = 2
				}
				a[0] += 1
			}
			vals, vecs := SymEigen(a, b)

			sym := mat.NewSymDense(b, nil)
			var scale float64
			for i := 0; i < b; i++ {
				for j := i; j < b; j++ {
					v := 0.5 * (a[i*b+j] + a[j*b+i])
					sym.SetSym(i, j, v)
					scale += v * v
				}
			}
			scale = max(1, math.Sqrt(2*scale))
			var es mat.EigenSym
			if !es.Factorize(sym, true) {
				t.Fatalf("b = %d, trial %d: mat.EigenSym failed", b, trial)
			}
			want := es.Values(nil)
			var wantVecs mat.Dense
			es.VectorsTo(&wantVecs)

			tol := 1e-12 * scale
			bitwise := true
			for k := 0; k < b; k++ {
				if math.Abs(vals[k]-want[k]) > tol {
					t.Fatalf("b = %d, trial %d: λ%d = %v, mat.EigenSym %v", b, trial, k, vals[k], want[k])
				}
				if k > 0 && vals[k] < vals[k-1] {
					t.Fatalf("b = %d, trial %d: eigenvalues not ascending at %d", b, trial, k)
				}
				bitwise = bitwise && vals[k] == want[k]
				// ‖A·v − λ·v‖ for column k.
				var res float64
				for i := 0; i < b; i++ {
					r := -vals[k] * vecs[i*b+k]
					for j := 0; j < b; j++ {
						r += sym.At(i, j) * vecs[j*b+k]
					}
					res += r * r
					bitwise = bitwise && vecs[i*b+k] == wantVecs.At(i, k)
				}
				if math.Sqrt(res) > tol {
					t.Fatalf("b = %d, trial %d: ‖A·v − λ·v‖ = %g for λ%d = %v", b, trial, math.Sqrt(res), k, vals[k])
				}
				for l := 0; l <= k; l++ {
					var d float64
					for i := 0; i < b; i++ {
						d += vecs[i*b+k] * vecs[i*b+l]
					}
					if l == k {
						d--
					}
					if math.Abs(d) > 1e-12 {
						t.Fatalf("b = %d, trial %d: vₖ·vₗ off by %g for k = %d, l = %d", b, trial, d, k, l)
					}
				}
			}
			if !bitwise {
				t.Errorf("b = %d, trial %d: symEigen is within tolerance of mat.EigenSym but not bit for bit", b, trial)
			}
		}
	}
	if vals, vecs := SymEigen(nil, 0); len(vals) != 0 || len(vecs) != 0 {
		t.Errorf("symEigen of a 0×0 matrix: %v, %v", vals, vecs)
	}
}

// denseOp wraps a dense symmetric matrix as an Operator.
type denseOp struct{ a *mat.SymDense }

func (d denseOp) Dim() int { return d.a.SymmetricDim() }

func (d denseOp) Apply(y, v []float64) {
	var r mat.VecDense
	r.MulVec(d.a, mat.NewVecDense(len(v), v))
	for i := range y {
		y[i] += r.AtVec(i)
	}
}

// TestLanczosPlanted checks Lanczos, the matrix-free LMO's eigensolver, on
// random symmetric matrices Q·diag(λ)·Qᵀ with a planted spectrum whose
// dominant eigenvalue is positive, negative, or nearly tied with the other
// end: it must find the planted top eigenpair.
func TestLanczosPlanted(t *testing.T) {
	for _, tc := range []struct {
		name  string
		n     int
		shift float64 // added to the planted extreme eigenvalues
	}{
		{"positive dominant", 30, 5},
		{"negative dominant", 30, -5},
		{"near tie", 40, 0},
		{"tiny", 3, 2},
		{"larger", 120, -3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(7, uint64(tc.n)))
			// A = Q·diag(λ)·Qᵀ with a planted spectrum.
			n := tc.n
			var qr mat.QR
			g := mat.NewDense(n, n, nil)
			for i := 0; i < n; i++ {
				for j := 0; j < n; j++ {
					g.Set(i, j, rng.NormFloat64())
				}
			}
			qr.Factorize(g)
			var q mat.Dense
			qr.QTo(&q)
			lam := make([]float64, n)
			for i := range lam {
				lam[i] = 2*rng.Float64() - 1
			}
			lam[0] = 3 + math.Max(tc.shift, 0)
			lam[n-1] = -3 + math.Min(tc.shift, 0)
			if tc.shift == 0 {
				lam[n-1] = -3.001
			}
			a := mat.NewSymDense(n, nil)
			for i := 0; i < n; i++ {
				for j := i; j < n; j++ {
					var s float64
					for k := 0; k < n; k++ {
						s += q.At(i, k) * lam[k] * q.At(j, k)
					}
					a.SetSym(i, j, s)
				}
			}
			top := ArgMaxAbs(lam)
			want, wantVec := lam[top], mat.Col(nil, top, &q)
			start := make([]float64, n)
			for i := range start {
				start[i] = rng.NormFloat64()
			}
			res := Lanczos(denseOp{a}, start, 3, 5, n, 1e-10)
			if !scalar.EqualWithinAbsOrRel(res.Theta[0], want, 1e-9, 1e-9) {
				t.Errorf("λ = %v, want the planted %v", res.Theta[0], want)
			}
			if c := math.Abs(Dot(res.Vecs[0], wantVec)); !scalar.EqualWithinAbs(c, 1, 1e-8) {
				t.Errorf("|⟨q, q_ref⟩| = %v, want 1", c)
			}
			// The free products A·s from the Lanczos relation are exact.
			for i, s := range res.Vecs {
				var as mat.VecDense
				as.MulVec(a, mat.NewVecDense(n, s))
				for j := 0; j < n; j++ {
					if !scalar.EqualWithinAbs(as.AtVec(j), res.Ay[i][j], 1e-9) {
						t.Fatalf("A·s[%d] from the Lanczos relation is off at %d: %v vs %v", i, j, res.Ay[i][j], as.AtVec(j))
					}
				}
			}
		})
	}
}

func randVec(rng *rand.Rand, m int) []float64 {
	v := make([]float64, m)
	for i := range v {
		v[i] = rng.NormFloat64()
	}
	return v
}

func eye(m int) *mat.Dense {
	d := mat.NewDense(m, m, nil)
	for i := 0; i < m; i++ {
		d.Set(i, i, 1)
	}
	return d
}

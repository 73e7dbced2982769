package core

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/occfm/occfm/core/data"
	"gonum.org/v1/gonum/mat"
)

// TestGrowthBound checks growthBound against the exact ends of the
// spectrum of ΔD = P·(Σ c·x̂x̂ᵀ)·P, P = I − SSᵀ, computed by mat.EigenSym,
// after every row: for one-hot rows (a user and an item, as MovieLens),
// dense real rows, and S with and without a large bias component. It also
// checks that the bound is far below Weyl's sum on the one-hot rows, which
// is what it is for.
func TestGrowthBound(t *testing.T) {
	for _, tc := range []struct {
		name     string
		n, rows  int
		oneHot   bool
		biasInS  float64 // weight of e₀ in S's first column
		tighter  float64 // the bound must end below this fraction of Weyl's sum (0: not checked)
		negative bool    // c of both signs (else positive only)
	}{
		{"one-hot", 160, 300, true, 0.3, 0.5, true},
		{"one-hot/bias-in-S", 160, 300, true, 0.99, 0.25, true},
		{"one-hot/positive", 160, 300, true, 0, 1, false},
		{"dense", 12, 60, false, 0.5, 0, true}, // only valid: OCCFM takes the smaller of it and Weyl's
	} {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(3, 5))
			n := tc.n
			// S: two orthonormal columns, the first with weight biasInS on e₀.
			s := mat.NewDense(n, 2, nil)
			for i := 0; i < n; i++ {
				s.Set(i, 0, rng.NormFloat64())
				s.Set(i, 1, rng.NormFloat64())
			}
			var qr mat.QR
			qr.Factorize(s)
			var q mat.Dense
			qr.QTo(&q)
			s0 := mat.NewVecDense(n, nil)
			s0.CopyVec(q.ColView(0))
			s0.SetVec(0, 0)
			s0.ScaleVec(math.Sqrt(1-tc.biasInS*tc.biasInS)/mat.Norm(s0, 2), s0)
			s0.SetVec(0, tc.biasInS)
			s1 := mat.NewVecDense(n, nil)
			s1.CopyVec(q.ColView(1))
			s1.AddScaledVec(s1, -mat.Dot(s0, s1), s0)
			s1.ScaleVec(1/mat.Norm(s1, 2), s1)
			p := mat.NewSymDense(n, nil)
			for i := 0; i < n; i++ {
				for j := i; j < n; j++ {
					v := -s0.AtVec(i)*s0.AtVec(j) - s1.AtVec(i)*s1.AtVec(j)
					if i == j {
						v++
					}
					p.SetSym(i, j, v)
				}
			}
			var g growthBound
			g.reset(1 - s0.AtVec(0)*s0.AtVec(0) - s1.AtVec(0)*s1.AtVec(0))
			dg := mat.NewSymDense(n, nil)
			var weylP, weylN float64
			for r := 0; r < tc.rows; r++ {
				var x data.Sparse
				if tc.oneHot {
					u, i := rng.IntN(n/2-1), n/2-1+rng.IntN(n/2)
					x = data.Sparse{Ind: []int{u, i}, Val: []float64{1, 1}}
				} else {
					for j := 0; j < n-1; j++ {
						if rng.Float64() < 0.6 {
							x.Ind = append(x.Ind, j)
							x.Val = append(x.Val, rng.NormFloat64())
						}
					}
				}
				c := rng.Float64()
				if tc.negative && rng.IntN(2) == 0 {
					c = -c
				}
				g.add(c, x)
				xh := augmented(x, n)
				dg.SymRankOne(dg, c, mat.NewVecDense(n, xh))
				px := mat.NewVecDense(n, nil)
				px.MulVec(p, mat.NewVecDense(n, xh))
				if c > 0 {
					weylP += c * mat.Dot(px, px)
				} else {
					weylN -= c * mat.Dot(px, px)
				}
				if r >= 20 && r%10 != 9 {
					continue // every row at first, then every tenth
				}
				var pd, d mat.Dense
				pd.Mul(p, dg)
				d.Mul(&pd, p)
				sym := mat.NewSymDense(n, nil)
				for i := 0; i < n; i++ {
					for j := i; j < n; j++ {
						sym.SetSym(i, j, 0.5*(d.At(i, j)+d.At(j, i)))
					}
				}
				var es mat.EigenSym
				if !es.Factorize(sym, false) {
					t.Fatal("eigendecomposition failed")
				}
				vals := es.Values(nil)
				lmax, lmin := vals[len(vals)-1], vals[0]
				pos, neg := g.bounds()
				tol := 1e-9 * (1 + math.Abs(lmax) + math.Abs(lmin))
				if lmax > pos+tol || -lmin > neg+tol {
					t.Fatalf("row %d: λ ∈ [%v, %v], bounds −%v and %v", r, lmin, lmax, neg, pos)
				}
				if r == tc.rows-1 {
					t.Logf("λmax %.3g, bound %.3g, Weyl %.3g; −λmin %.3g, bound %.3g, Weyl %.3g", lmax, pos, weylP, -lmin, neg, weylN)
					if tc.tighter > 0 && pos > tc.tighter*weylP {
						t.Errorf("the bound on λmax, %.3g, is not below %v of Weyl's %.3g", pos, tc.tighter, weylP)
					}
				}
			}
		})
	}
}

// ExampleDefaultEtaFor shows OCCFM's default η: 1 for the logistic loss and
// up to the default δ = 10, then 10/δ down to 0.1 for the squared loss.
func ExampleDefaultEtaFor() {
	for _, d := range []float64{1, 10, 30, 100, 1000} {
		fmt.Printf("δ = %g: squared %.3g, logistic %.3g\n", d, DefaultEtaFor(Squared, d), DefaultEtaFor(Logistic, d))
	}
	// Output:
	// δ = 1: squared 1, logistic 1
	// δ = 10: squared 1, logistic 1
	// δ = 30: squared 0.333, logistic 1
	// δ = 100: squared 0.1, logistic 1
	// δ = 1000: squared 0.1, logistic 1
}

package core

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

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
			vals, vecs := symEigen(a, b)

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
	if vals, vecs := symEigen(nil, 0); len(vals) != 0 || len(vecs) != 0 {
		t.Errorf("symEigen of a 0×0 matrix: %v, %v", vals, vecs)
	}
}

package core

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/occfm/occfm/core/data"
	"gonum.org/v1/gonum/floats/scalar"
)

// blocksClose reports the first entry where a and b differ by more than
// tol·max(1, max|a|), or −1.
func blocksClose(a, b []float64, tol float64) int {
	scale := 1.0
	for _, v := range a {
		scale = max(scale, math.Abs(v))
	}
	for i := range a {
		if math.Abs(a[i]-b[i]) > tol*scale {
			return i
		}
	}
	return -1
}

// TestOCCFMKPicture cross-checks OCCFMK's exact block against the block
// read back from its predictions, and its step record against the blocks
// before and after each round, on streams that cut and refresh the
// subspace; recording the steps does not change what it learns.
func TestOCCFMKPicture(t *testing.T) {
	const d = 30
	for _, affine := range []AffineRule{AffineBias, AffineFTRL} {
		for _, rank := range []int{2, 20} {
			s := OCCFMKSettings{Rank: rank, Delta: 3, Eta: 0.5, MinGap: 10, Affine: affine}
			m, plain := NewOCCFMK(s), NewOCCFMK(s)
			m.TraceSteps(true)
			idx := []int{BiasCoord}
			for i := range d + 2 { // two features never seen: zero rows
				idx = append(idx, i)
			}
			k := len(idx)
			before, want := make([]float64, k*k), make([]float64, k*k)
			st := [4][]float64{make([]float64, k*k), make([]float64, k*k), make([]float64, k*k), make([]float64, k*k)}
			rows := ratingStream(d, 400)
			cuts, refreshes := 0, 0
			for r, ex := range rows {
				m.MatrixBlock(idx, before)
				if r%40 == 0 {
					QuadraticBlock(m.Predict, idx, want)
					if i := blocksClose(want, before, 1e-9); i >= 0 {
						t.Fatalf("affine %d rank %d row %d: C[%d, %d] = %v, from the predictions %v", affine, rank, r, i/k, i%k, before[i], want[i])
					}
				}
				kc := m.kc
				m.Update(ex.X, ex.Y)
				plain.Update(ex.X, ex.Y)
				if m.kc < kc {
					cuts++
				}
				if got, want := m.Predict(ex.X), plain.Predict(ex.X); got != want {
					t.Fatalf("affine %d rank %d row %d: tracing changed ŷ: %v, want %v", affine, rank, r, got, want)
				}
				step, ok := m.LastFTRLStep()
				if !ok {
					continue
				}
				if step.Refreshed {
					refreshes++
				}
				if !m.StepBlocks(idx, st[0], st[1], st[2], st[3]) {
					t.Fatalf("row %d: a step on record and no blocks", r)
				}
				if i := blocksClose(before, st[0], 1e-12); i >= 0 {
					t.Fatalf("affine %d rank %d row %d: Cₜ[%d, %d] = %v, the block before the round %v", affine, rank, r, i/k, i%k, st[0][i], before[i])
				}
				m.MatrixBlock(idx, want)
				if i := blocksClose(want, st[2], 0); i >= 0 {
					t.Fatalf("row %d: Cₜ₊₁ differs from the block after the round at %d", r, i)
				}
				// The gradient: ℓ'·½x̂x̂ᵀ, no feature diagonal.
				for a, i := range idx {
					for b, j := range idx {
						xi, xj := coordOf(ex.X, i), coordOf(ex.X, j)
						g := 0.5 * step.Deriv * xi * xj
						if a == b && i != BiasCoord {
							g = 0
						}
						if !scalar.EqualWithinAbsOrRel(st[3][a*k+b], g, 1e-12, 1e-12) {
							t.Fatalf("row %d: ∇f[%d, %d] = %v, want %v", r, i, j, st[3][a*k+b], g)
						}
					}
				}
				// C's eigenvalues are the target's soft-thresholded by θ.
				var soft []float64
				for _, v := range m.TargetSpectrum() {
					if math.Abs(v) > step.Theta {
						soft = append(soft, v-math.Copysign(step.Theta, v))
					}
				}
				eig := m.Eigenvalues()
				slices.Sort(eig) // ties of |μ| come in either order
				slices.Sort(soft)
				if len(soft) != len(eig) || len(eig) != step.Rank {
					t.Fatalf("row %d: %d eigenvalues, %d of the target above θ = %v, rank %d", r, len(eig), len(soft), step.Theta, step.Rank)
				}
				for i := range eig {
					if !scalar.EqualWithinAbsOrRel(eig[i], soft[i], 1e-9, 1e-9) {
						t.Fatalf("row %d: μ%d = %v, soft(target, θ) = %v", r, i, eig[i], soft[i])
					}
				}
			}
			if rank == 2 && (cuts == 0 || refreshes == 0) {
				t.Errorf("affine %d rank %d: %d cuts and %d refreshes: the stream should make both", affine, rank, cuts, refreshes)
			}
			t.Logf("affine %d rank %d: %d cuts, %d refreshes, rank %d", affine, rank, cuts, refreshes, m.Rank())
		}
	}
}

// coordOf returns x̂'s coordinate j (1 for BiasCoord).
func coordOf(x data.Sparse, j int) float64 {
	if j == BiasCoord {
		return 1
	}
	for p, i := range x.Ind {
		if i == j {
			return x.Val[p]
		}
	}
	return 0
}

// TestOCCFMKTargetEmpty: before any step, the target and C are zero.
func TestOCCFMKTargetEmpty(t *testing.T) {
	m := NewOCCFMK(OCCFMKSettings{})
	if len(m.TargetSpectrum()) != 0 || len(m.Eigenvalues()) != 0 {
		t.Errorf("a fresh OCCFMK: target %v, C's eigenvalues %v", m.TargetSpectrum(), m.Eigenvalues())
	}
	if _, ok := m.LastFTRLStep(); ok {
		t.Error("a step on record with TraceSteps off")
	}
	m.TraceSteps(true)
	rng := rand.New(rand.NewPCG(1, 1))
	m.Update(data.Sparse{Ind: []int{0, 1}, Val: []float64{1, 1}}, rng.NormFloat64()+5)
	if _, ok := m.LastFTRLStep(); !ok {
		t.Error("no step on record after a row with ℓ' ≠ 0")
	}
}

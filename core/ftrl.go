package core

import (
	"math"

	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/internal/str"
)

// ftrlProximal holds the settings of per-coordinate FTRL-Proximal
// (McMahan et al. 2013, "Ad click prediction: a view from the trenches",
// Algorithm 1). Each coordinate keeps z and n; after gradients g₁ … gₜ its
// weight is
//
//	wₜ₊₁ = argmin_w g₁:ₜ·w + ½Σₛσₛ(w − wₛ)² + β/(2α)·w² + λ₁|w| + ½λ₂w²
//	     = 0                                       if |z| ≤ λ₁,
//	     = −(z − sign(z)·λ₁) / ((β + √n)/α + λ₂)   otherwise,
//
// with n = Σgₛ², σₛ = (√n₁:ₛ − √n₁:ₛ₋₁)/α and z = g₁:ₜ − Σₛσₛwₛ: the
// per-coordinate rate is α/(β + √n). The weight w₁ before the first
// gradient is the coordinate's initial value (0, or FM's random factors).
type ftrlProximal struct {
	alpha, beta, l1, l2 float64
}

// step feeds the gradient g to the coordinate with weight w and
// accumulators z, n, and returns its new weight.
func (f ftrlProximal) step(w float64, z, n *float64, g float64) float64 {
	sigma := (math.Sqrt(*n+g*g) - math.Sqrt(*n)) / f.alpha
	*z += g - sigma*w
	*n += g * g
	return f.weight(*z, *n)
}

// weight returns the closed-form FTRL-Proximal weight for accumulators z, n.
func (f ftrlProximal) weight(z, n float64) float64 {
	if math.Abs(z) <= f.l1 {
		return 0
	}
	return -(z - math.Copysign(f.l1, z)) / ((f.beta+math.Sqrt(n))/f.alpha + f.l2)
}

// ftrlLinear is the affine part w₀ + wᵀx of Linear, FM-FTRL and CFM-FTRL,
// trained by per-coordinate FTRL-Proximal: w₀ by bias (no λ₁, λ₂), each wᵢ
// by prox, with the accumulators z, n of each coordinate beside it.
type ftrlLinear struct {
	prox, bias ftrlProximal
	w0, z0, n0 float64
	w, zw, nw  []float64 // one entry per feature
}

// newFTRLLinear returns an ftrlLinear with all weights 0.
func newFTRLLinear(alpha, beta, l1, l2 float64) ftrlLinear {
	return ftrlLinear{
		prox: ftrlProximal{alpha: alpha, beta: beta, l1: l1, l2: l2},
		bias: ftrlProximal{alpha: alpha, beta: beta},
	}
}

// affine returns b + Σᵢwᵢxᵢ over the features of x that w covers.
func affine(b float64, w []float64, x data.Sparse) float64 {
	for p, i := range x.Ind {
		if i < len(w) {
			b += w[i] * x.Val[p]
		}
	}
	return b
}

// value returns w₀ + wᵀx; features beyond w contribute nothing.
func (l *ftrlLinear) value(x data.Sparse) float64 { return affine(l.w0, l.w, x) }

// extend grows w (and its accumulators) with zeros to d features.
func (l *ftrlLinear) extend(d int) { extendZeros(d, &l.w, &l.zw, &l.nw) }

// learn feeds the gradient g·(1, x) of a round to w₀ and the wᵢ of x,
// which must be covered by w.
func (l *ftrlLinear) learn(x data.Sparse, g float64) {
	l.w0 = l.bias.step(l.w0, &l.z0, &l.n0, g)
	for p, i := range x.Ind {
		l.w[i] = l.prox.step(l.w[i], &l.zw[i], &l.nw[i], g*x.Val[p])
	}
}

// growthBytes returns what learning a row of dimension dim allocates at
// once for w, zw and nw (see rowGrower).
func (l *ftrlLinear) growthBytes(_, dim int) int64 {
	if dim > cap(l.w) {
		return 24 * grownCap(cap(l.w), dim)
	}
	return 0
}

// extendZeros appends zeros to each of bufs up to length d.
func extendZeros(d int, bufs ...*[]float64) {
	for _, b := range bufs {
		if n := len(*b); n < d {
			*b = append(*b, make([]float64, d-n)...)
		}
	}
}

// FTRLSettings are the settings of per-coordinate FTRL-Proximal (McMahan
// et al. 2013), which fm-ftrl, linear, ccfm-pairs and cfm-ftrl share:
// coordinate i moves at the rate α/(β + √nᵢ), nᵢ the sum of its squared
// gradients, with an ℓ₁ term λ₁|wᵢ| (which makes weights exactly zero) and
// an ℓ₂ term λ₂wᵢ²/2 beyond FTRL's own β/(2α)·wᵢ². The zero value is each
// learner's default α, β = 1 (McMahan et al.'s advice), and no λ₁ or λ₂.
type FTRLSettings struct {
	Alpha, Beta, L1, L2 float64
}

// withDefaults fills in alpha for a zero Alpha and 1 for a zero Beta.
func (s FTRLSettings) withDefaults(alpha float64) FTRLSettings {
	if s.Alpha == 0 {
		s.Alpha = alpha
	}
	if s.Beta == 0 {
		s.Beta = 1
	}
	return s
}

// valid reports whether α > 0 and β, λ₁, λ₂ ≥ 0.
func (s FTRLSettings) valid() bool { return s.Alpha > 0 && s.Beta >= 0 && s.L1 >= 0 && s.L2 >= 0 }

// memoryBytes estimates the bytes of w and its FTRL accumulators: 24 bytes
// a feature.
func (l *ftrlLinear) memoryBytes() int64 { return sumF64Bytes(l.w, l.zw, l.nw) }

// ftrlLinear codes w₀, w and their FTRL accumulators (the proximal
// settings come from the learner's settings), checking that w covers d
// features.
func (c *stateCodec) ftrlLinear(l *ftrlLinear, d int) {
	c.float(&l.w0)
	c.float(&l.z0)
	c.float(&l.n0)
	c.floats(&l.w)
	c.floats(&l.zw)
	c.floats(&l.nw)
	if c.violates(len(l.w) == d && len(l.zw) == d && len(l.nw) == d) {
		c.fail(str.Itoa(len(l.w)) + " linear weights for " + str.Itoa(d) + " features")
	}
}

// ftrlSettings codes FTRL-Proximal's α, β, λ₁ and λ₂, in that order.
func (c *stateCodec) ftrlSettings(s *FTRLSettings) {
	c.float(&s.Alpha)
	c.float(&s.Beta)
	c.float(&s.L1)
	c.float(&s.L2)
}

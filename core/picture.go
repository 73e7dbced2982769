package core

import (
	"math"

	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/spectral"
)

// QuadraticBlock writes, for a model whose prediction ŷ = p(x) is a
// quadratic function of x, its equivalent matrix C (ŷ = ½x̂ᵀCx̂, eq. (3) of
// the paper) on the coordinates idx (as MatrixModel.MatrixBlock: feature
// j, or BiasCoord), read back from predictions by polarization:
//
//	C_bb = 2p(0),  C_ib = ½(p(eᵢ) − p(−eᵢ)),  C_ii = p(eᵢ) + p(−eᵢ) − 2p(0),
//	C_ij = p(eᵢ + eⱼ) − p(eᵢ) − p(eⱼ) + p(0).
//
// Every learner of the registry but occfm-auto predicts a quadratic in x
// (bias and linear ones have Z = 0; FM-FTRL's Z = VVᵀ off its diagonal;
// CFM-FTRL's Z; ccfm-pairs' table, hashed slots shared), so this draws any
// of them the same way; occfm-auto's mixture of predictions is not a
// quadratic. It costs about |idx|²/2 + 2|idx| predictions. The
// differences of predictions leave rounding errors of about ε·|ŷ| where C
// is exactly 0 (a bias learner's Z): entries within 64ε of the largest
// |ŷ| used are written as 0.
func QuadraticBlock(p0f func(data.Sparse) float64, idx []int, dst []float64) {
	k := len(idx)
	dst = dst[:k*k]
	var scale float64
	p := func(x data.Sparse) float64 {
		y := p0f(x)
		scale = max(scale, math.Abs(y))
		return y
	}
	one := func(j int, v float64) float64 { return p(data.Sparse{Ind: []int{j}, Val: []float64{v}}) }
	p0 := p(data.Sparse{})
	plus := make([]float64, k) // p(eᵢ)
	pair := data.Sparse{Ind: make([]int, 2), Val: []float64{1, 1}}
	var bias []int // where idx holds BiasCoord
	for a, i := range idx {
		if i == BiasCoord {
			bias = append(bias, a)
			dst[a*k+a] = 2 * p0
		}
	}
	for a, i := range idx {
		if i == BiasCoord {
			continue
		}
		plus[a] = one(i, 1)
		minus := one(i, -1)
		dst[a*k+a] = plus[a] + minus - 2*p0
		for _, b := range bias {
			dst[a*k+b], dst[b*k+a] = 0.5*(plus[a]-minus), 0.5*(plus[a]-minus)
		}
	}
	for a, i := range idx {
		if i == BiasCoord {
			continue
		}
		for b := a + 1; b < k; b++ {
			j := idx[b]
			if j == BiasCoord {
				continue
			}
			if i == j {
				dst[a*k+b], dst[b*k+a] = dst[a*k+a], dst[a*k+a]
				continue
			}
			pair.Ind[0], pair.Ind[1] = min(i, j), max(i, j)
			v := p(pair) - plus[a] - plus[b] + p0
			dst[a*k+b], dst[b*k+a] = v, v
		}
	}
	tol := 64 * 0x1p-52 * scale
	for i, v := range dst {
		if math.Abs(v) <= tol {
			dst[i] = 0
		}
	}
}

// BlockSpectrum returns the eigenvalues of the symmetric k×k row-major a
// (a is not changed) by decreasing |λ|, and a unit eigenvector of the
// first, with its largest entry positive (nil for k = 0).
func BlockSpectrum(a []float64, k int) (vals, lead []float64) {
	if k == 0 {
		return nil, nil
	}
	m := make([]float64, k*k)
	copy(m, a[:k*k])
	// SymEigenInPlace reads the lower triangle: make the block exactly
	// symmetric first.
	for i := 0; i < k; i++ {
		for j := 0; j < i; j++ {
			s := 0.5 * (m[i*k+j] + m[j*k+i])
			m[i*k+j], m[j*k+i] = s, s
		}
	}
	raw := make([]float64, k)
	var work []float64
	spectral.SymEigenInPlace(m, k, raw, &work)
	order := spectral.OrderByAbs(nil, raw)
	vals = make([]float64, k)
	for n, i := range order {
		vals[n] = raw[i]
	}
	lead = make([]float64, k)
	top, big := order[0], 0.0
	for i := range lead {
		lead[i] = m[i*k+top]
		if math.Abs(lead[i]) > math.Abs(big) {
			big = lead[i]
		}
	}
	if big < 0 {
		for i := range lead {
			lead[i] = -lead[i]
		}
	}
	return vals, lead
}

// RankOf returns how many of vals exceed tol in absolute value: the rank
// of a symmetric matrix from its eigenvalues, those within tol of 0 counted
// as 0.
func RankOf(vals []float64, tol float64) int {
	r := 0
	for _, v := range vals {
		if math.Abs(v) > tol {
			r++
		}
	}
	return r
}

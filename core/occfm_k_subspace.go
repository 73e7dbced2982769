package core

import (
	"math"
	"slices"

	"github.com/occfm/occfm/core/spectral"
)

// certify sets the certified error ε ≥ ‖C − Π_K(−ηG/2)‖_F, with
// P = SSᵀ, Q = I − P and A's diagonal part D:
//
//	ε = (η/2)·‖A − D‖_F + (η/√2)·‖QGP‖_F + (η/2)·‖QGQ‖_F,
//
// the last term left out when ‖QGQ‖_F ≤ 2θ/η (then QGQ's spectrum is
// below the cut). Π_K is nonexpansive: the first term bounds the distance
// from the iterate S·W·diag(μ)·Wᵀ·Sᵀ to Π_K(−ηPGP/2), the second that to
// Π_K(−η(PGP + QGQ)/2), the third that to Π_K(−ηG/2). With ‖QGP‖²_F =
// ‖Y‖²_F − ‖A‖²_F and ‖QGQ‖²_F = ‖G‖²_F − 2‖QGP‖²_F − ‖A‖²_F, it costs
// O(k'²). leak, the second term, is what a recomputation of S reduces.
func (m *OCCFMK) certify() {
	kc, ld := m.kc, m.ld
	var a2, off float64
	for a := 0; a < kc; a++ {
		for b, v := range m.a[a*ld : a*ld+kc] {
			a2 += v * v
			if a != b {
				off += v * v
			}
		}
	}
	eta := m.eta()
	qp2 := max(0, m.yF2-a2)
	m.offEps = 0.5 * eta * math.Sqrt(off)
	m.leak = eta / math.Sqrt2 * math.Sqrt(qp2)
	m.eps = m.offEps + m.leak
	if qq := math.Sqrt(max(0, m.gF2-2*qp2-a2)); qq > 2*m.theta/eta {
		m.eps += 0.5 * eta * qq
	}
}

// diagonalize makes A diagonal: A = V·diag(λ)·Vᵀ by Jacobi (A is nearly
// diagonal), W ← W·V, A ← diag(λ).
func (m *OCCFMK) diagonalize() {
	m.diagAt = m.t
	kc, ld := m.kc, m.ld
	ab, vecs := m.ab[:kc*kc], m.av[:kc*kc]
	for a := 0; a < kc; a++ {
		copy(ab[a*kc:a*kc+kc], m.a[a*ld:a*ld+kc])
	}
	lam := m.u[:kc]
	spectral.JacobiEigen(ab, kc, lam, vecs)
	tmp := ab[:kc] // ab is spent
	for j := 0; j < kc; j++ {
		row := m.w[j*ld : j*ld+kc]
		for c := 0; c < kc; c++ {
			var s float64
			for a, r := range row {
				s += r * vecs[a*kc+c]
			}
			tmp[c] = s
		}
		copy(row, tmp)
	}
	for a := 0; a < kc; a++ {
		row := m.a[a*ld : a*ld+kc]
		clear(row)
		row[a] = lam[a]
	}
	m.certify()
}

// diagGap is the fewest rows between two diagonalizations of A while its
// off-diagonal part is under the error allowed (see project).
const diagGap = 16

// project sets C's eigenvalues from A's diagonal: μ = soft(−ηλ/2, θ) with θ
// the ℓ₁-ball threshold of radius δ. A is diagonalized first when its
// off-diagonal part costs more than the error allowed (Tol·‖C‖_F), or more
// than a tenth of it and diagGap rows have passed since the last time.
func (m *OCCFMK) project() {
	kc, ld := m.kc, m.ld
	m.certify()
	if allow := m.s.Tol * math.Max(m.normC(), 1e-3*m.Delta()); m.offEps > allow || m.offEps > 0.1*allow && m.t-m.diagAt >= diagGap {
		m.diagonalize()
	}
	alpha := m.mu[:kc]
	for a := range alpha {
		alpha[a] = -0.5 * m.eta() * m.a[a*ld+a]
	}
	m.theta, m.abs = spectral.L1BallThreshold(alpha, m.Delta(), m.abs)
	m.active = m.active[:0]
	for a := range alpha {
		alpha[a] = spectral.SoftThreshold(alpha[a], m.theta)
		if alpha[a] != 0 {
			m.active = append(m.active, a)
		}
	}
	m.certify()
}

// normC returns ‖C‖_F = ‖μ‖₂.
func (m *OCCFMK) normC() float64 {
	var s float64
	for _, a := range m.active {
		s += m.mu[a] * m.mu[a]
	}
	return math.Sqrt(s)
}

// cut keeps the r directions of S along A's eigenvectors of largest |λ|:
// S ← S·W·V[:, keep], Y likewise, A ← diag(λ_keep), W ← I.
func (m *OCCFMK) cut(r int) {
	m.tr.saveS(m)
	m.diagonalize()
	kc, ld := m.kc, m.ld
	order := make([]int, kc)
	for a := range order {
		order[a] = a
	}
	slices.SortFunc(order, func(a, b int) int {
		return -cmpFloat(math.Abs(m.a[a*ld+a]), math.Abs(m.a[b*ld+b]))
	})
	keep := order[:min(r, kc)]
	tmp := make([]float64, len(keep))
	rot := func(buf []float64) {
		for i := 0; i < m.d; i++ {
			row := buf[i*ld : i*ld+ld]
			if allZero(row[:kc]) {
				continue
			}
			for q, a := range keep {
				var s float64
				for j := 0; j < kc; j++ {
					s += row[j] * m.w[j*ld+a]
				}
				tmp[q] = s
			}
			clear(row)
			copy(row, tmp)
		}
	}
	rot(m.sb)
	rot(m.yb)
	lam := make([]float64, len(keep))
	for q, a := range keep {
		lam[q] = m.a[a*ld+a]
	}
	m.kc = len(keep)
	clear(m.a)
	clear(m.w)
	for q := range keep {
		m.a[q*ld+q] = lam[q]
		m.w[q*ld+q] = 1
	}
	m.yF2 = 0
	for i := 0; i < m.d; i++ {
		for _, v := range m.yb[i*ld : i*ld+m.kc] {
			m.yF2 += v * v
		}
	}
	m.certify()
	m.project()
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// kOp is G as a spectral.Operator.
type kOp struct{ m *OCCFMK }

func (o kOp) Dim() int { return o.m.d }

func (o kOp) Apply(y, v []float64) { o.m.g.mulVec(y, 1, v) }

// refresh recomputes S: the k Ritz vectors of G of largest |θ| from a
// Lanczos run of 3k steps (at most d), warm-started from S's directions of
// C (plus a random part), then Y = GS from the run and B = SᵀY.
func (m *OCCFMK) refresh() {
	d, k, ld := m.d, m.s.Rank, m.ld
	if d == 0 || m.g.nnz() == 0 {
		return
	}
	m.tr.saveS(m)
	m.st = spectral.Grown(m.st, d)
	st := m.st
	for i := range st {
		st[i] = m.rng.NormFloat64() / math.Sqrt(float64(d))
	}
	for q, a := range m.active {
		wt := 1 / float64(q+1)
		for i := 0; i < d; i++ {
			st[i] += 3 * wt * m.coord(m.row(i), a)
		}
	}
	steps := min(d, 3*k+8)
	res := m.lw.Run(kOp{m}, st, min(k, steps), steps, steps, 0)
	m.refreshes++
	m.last = m.t
	kc := len(res.Vecs)
	clear(m.sb[:d*ld])
	clear(m.yb[:d*ld])
	for c := 0; c < kc; c++ {
		for i, v := range res.Vecs[c] {
			m.sb[i*ld+c] = v
		}
		for i, v := range res.Ay[c] {
			m.yb[i*ld+c] = v
		}
	}
	m.kc = kc
	m.yF2 = 0
	for i := 0; i < d; i++ {
		for _, v := range m.yb[i*ld : i*ld+kc] {
			m.yF2 += v * v
		}
	}
	clear(m.a)
	clear(m.w)
	for a := 0; a < kc; a++ {
		m.w[a*ld+a] = 1
		for c := 0; c <= a; c++ {
			var s float64
			for i := 0; i < d; i++ {
				s += m.sb[i*ld+a]*m.yb[i*ld+c] + m.sb[i*ld+c]*m.yb[i*ld+a]
			}
			m.a[a*ld+c], m.a[c*ld+a] = s/2, s/2
		}
	}
	m.diagonalize()
}

package core

import (
	"math"

	"github.com/occfm/occfm/core/data"
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
// O(1) from A's norms, which every change of A keeps (see normsA), and
// ‖Y‖²_F, which every change of Y keeps. leak, the second term, is what a
// recomputation of S reduces.
func (m *OCCFMK) certify() {
	a2, off := m.a2, m.off2
	eta := m.eta()
	qp := max(0, m.yF2-a2) // ‖QGP‖²_F
	m.offEps = 0.5 * eta * math.Sqrt(off)
	m.leak = eta / math.Sqrt2 * math.Sqrt(qp)
	m.eps = m.offEps + m.leak
	if !m.legacy {
		m.eps += m.leak // the fold-in's move (see foldIn)
	}
	if qq := math.Sqrt(max(0, m.gF2-2*qp-a2)); qq > 2*m.theta/eta {
		m.eps += 0.5 * eta * qq
	}
}

// foldIn returns the pairs of the features of x outside S (the positions
// rowCoords put in m.out: features seen since the last recomputation of
// S, whose rows of S are zero) with the rest of x:
//
//	Σ_{p out} xₚ Σₐ (μₐ/λₐ)·y'ₚₐ·z'ₐ,   y'ₚ = Wᵀyₚ,
//
// with yₚ its row of Y = GS, λ A's diagonal and z' = WᵀSᵀx. Such a
// feature's row of G is zero in the subspace's C, so without this it has
// no pairs until S is recomputed: a person's ratings, which come together,
// would teach their row nothing within their session. The term is the
// first-order change of the projection Π_K(−ηG/2) when G gains the part
// QGP + PGQ on the feature's rows (P = SSᵀ, Q = I − P): an eigenvector
// vₐ of −ηPGP/2 with eigenvalue νₐ = −ηλₐ/2 gains (−ηQGvₐ/2)/νₐ, whose
// row i is y'ᵢₐ/λₐ, and its eigenvalue μₐ = soft(νₐ, θ) keeps (the
// Rayleigh–Schrödinger step, as in the Nyström extension of an
// eigenvector to a new point). The pairs between two features outside S
// are second order and left out. μₐ/λₐ = −(η/2)·(1 − θ/|νₐ|)⁺ lies in
// [−η/2, 0], so a direction of tiny λ adds nothing large.
//
// The played C then differs from S·W·diag(μ)·Wᵀ·Sᵀ by Δ, the blocks
// between the features outside S and those in it, with ‖Δ‖_F ≤
// (η/√2)·‖QGP‖_F, the leak: certify adds it to ε. Δ may take C outside
// the ball by as much; the regret bound asks only that C be within ε of
// the leader, which lies in it.
func (m *OCCFMK) foldIn(x data.Sparse) float64 {
	if len(m.out) == 0 {
		return 0
	}
	kc, ld := m.kc, m.ld
	var sum float64
	for _, p := range m.out {
		y := m.yb[x.Ind[p]*ld : x.Ind[p]*ld+kc]
		var s float64
		for _, a := range m.active {
			if lam := m.a[a*ld+a]; lam != 0 && m.z[a] != 0 {
				s += m.mu[a] / lam * coordIn(y, m.w, ld, a) * m.z[a]
			}
		}
		sum += x.Val[p] * s
	}
	return sum
}

// diagonalize makes A nearly diagonal: A ≈ V·diag(λ)·Vᵀ by Jacobi (A is
// nearly diagonal already), W ← W·V, A ← VᵀAV, stopping once the
// off-diagonal part costs at most 10⁻⁴ of the error allowed (see
// project), which A keeps and certify counts.
func (m *OCCFMK) diagonalize() {
	m.diagAt = m.t
	kc, ld := m.kc, m.ld
	ab, vecs := m.ab[:kc*kc], m.av[:kc*kc]
	for a := 0; a < kc; a++ {
		copy(ab[a*kc:a*kc+kc], m.a[a*ld:a*ld+kc])
	}
	lam := m.u[:kc]
	spectral.JacobiEigenTol(ab, kc, lam, vecs, 1e-4*m.allowed()*2/m.eta())
	tmp := m.aw[:kc]
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
		for b := a; b < kc; b++ {
			v := ab[a*kc+b]
			row[b], m.a[b*ld+a] = v, v
		}
	}
	m.normsA()
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
	if allow := m.allowed(); m.offEps > allow || m.offEps > 0.1*allow && m.t-m.diagAt >= diagGap {
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

// allowed returns the certified error a subspace may reach:
// Tol·max(‖C‖_F, δ/1000).
func (m *OCCFMK) allowed() float64 { return m.s.Tol * math.Max(m.normC(), 1e-3*m.Delta()) }

// normC returns ‖C‖_F = ‖μ‖₂.
func (m *OCCFMK) normC() float64 {
	var s float64
	for _, a := range m.active {
		s += m.mu[a] * m.mu[a]
	}
	return math.Sqrt(s)
}

// kOp is G as a spectral.Operator.
type kOp struct{ m *OCCFMK }

func (o kOp) Dim() int { return o.m.d }

func (o kOp) Apply(y, v []float64) { o.m.g.mulVec(y, 1, v) }

// refresh recomputes S: the k Ritz vectors of G of largest |θ| from a
// Lanczos run of k+8 steps (at most d), warm-started from S's directions of
// C (plus a random part), then Y = GS from the run and A = SᵀY.
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
	// st += S·W·c with cₐ = 3/(q+1) on the q-th active direction a: one
	// product of W by c, then one of S by it.
	kc := m.kc
	wc := m.z[:kc]
	clear(wc)
	for q, a := range m.active {
		wt := 3 / float64(q+1)
		for j := 0; j < kc; j++ {
			wc[j] += wt * m.w[j*ld+a]
		}
	}
	for i := 0; i < d; i++ {
		st[i] += spectral.Dot(m.sb[i*ld:i*ld+kc], wc)
	}
	steps := min(d, m.lanczosSteps())
	res := m.lw.Run(kOp{m}, st, min(k, steps), steps, steps, 0)
	m.refreshes++
	m.last = m.t
	kc = len(res.Vecs)
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
	// A feature never seen has a zero row of G: its row of S is the start
	// vector's residue, and zero keeps it outside S until its first rows
	// fold it in (see foldIn).
	for i, seen := range m.seen[:d] {
		if !seen && !m.legacy {
			clear(m.sb[i*ld : i*ld+ld])
			clear(m.yb[i*ld : i*ld+ld])
		}
	}
	m.yF2 = 0
	for i := 0; i < d; i++ {
		for _, v := range m.yb[i*ld : i*ld+kc] {
			m.yF2 += v * v
		}
	}
	// A = (SᵀY + YᵀS)/2, SᵀY summed row by row.
	clear(m.a)
	clear(m.w)
	for i := 0; i < d; i++ {
		si, yi := m.sb[i*ld:i*ld+kc], m.yb[i*ld:i*ld+kc]
		for a, v := range si {
			if v != 0 {
				spectral.Axpy(v, yi, m.a[a*ld:a*ld+kc])
			}
		}
	}
	for a := 0; a < kc; a++ {
		m.w[a*ld+a] = 1
		for c := 0; c < a; c++ {
			v := (m.a[a*ld+c] + m.a[c*ld+a]) / 2
			m.a[a*ld+c], m.a[c*ld+a] = v, v
		}
	}
	m.diagonalize()
}

// extendS adds eᵢ to S for each feature of x seen for the first time,
// while S holds fewer than k directions, or all the features seen fit in
// it (at most 2k): its row of G is zero, so A and Y gain a zero row and
// column, and S stays orthonormal with A = WᵀSᵀGSW and Y = GS exact. Past
// that, a new feature's direction enters S at the next recomputation (its
// pairs count in the leak until then): on a stream whose new features
// keep coming (new people and items), extending S and cutting it back to k
// every k new features cost about half the time and moved no error (see
// docs/findings.md). It reports whether S changed.
func (m *OCCFMK) extendS(x data.Sparse) bool {
	m.newf = m.newf[:0]
	for p, i := range x.Ind {
		if !m.seen[i] && x.Val[p] != 0 {
			m.seen[i] = true
			m.nseen++
			m.newf = append(m.newf, i)
		}
	}
	room := m.s.Rank
	if m.nseen <= m.ld {
		room = m.ld
	}
	changed := false
	for _, i := range m.newf {
		if m.kc >= room {
			break
		}
		changed = true
		c := m.kc
		m.kc++
		m.sb[i*m.ld+c] = 1
		for a := 0; a < m.kc; a++ {
			m.a[a*m.ld+c], m.a[c*m.ld+a] = 0, 0
			m.w[a*m.ld+c], m.w[c*m.ld+a] = 0, 0
		}
		m.w[c*m.ld+c] = 1
		m.mu[c] = 0
	}
	return changed
}

// addGradient adds g·M_x to G, A and Y, and updates ‖G‖²_F, ‖Y‖²_F and
// A's norms; x's coordinates are rowCoords'.
func (m *OCCFMK) addGradient(x data.Sparse, g float64) {
	kc, ld := m.kc, m.ld
	for p, i := range x.Ind {
		for q := 0; q < p; q++ {
			j, v := x.Ind[q], 0.5*g*x.Val[p]*x.Val[q]
			old, _ := m.g.at(i, j)
			m.g.add(i, j, v)
			m.gF2 += 2 * v * (2*old + v)
		}
	}
	zs := m.u[:kc] // z = Sᵀx
	clear(zs)
	for p, i := range x.Ind {
		spectral.Axpy(x.Val[p], m.row(i), zs)
	}
	// Y's rows of x: yᵢ += ½g·xᵢ·(z − xᵢsᵢ)
	for p, i := range x.Ind {
		s, v := m.row(i), x.Val[p]
		yi := m.yb[i*ld : i*ld+kc]
		h := 0.5 * g * v
		for a := range yi {
			old := yi[a]
			yi[a] += h * (zs[a] - v*s[a])
			m.yF2 += yi[a]*yi[a] - old*old
		}
	}
	m.addPairs(x, 0.5*g)
}

// addPairs adds c·(z'z'ᵀ − Σₚ xₚ²s'ₚs'ₚᵀ) = c·Σ_{p≠q} xₚx_q s'ₚs'_qᵀ to A
// from rowCoords' coordinates, on A's upper triangle mirrored below, and
// sets A's norms in the same pass (see normsA): O(nnz·k'²/2), a row of two
// features as the one symmetric rank-two term c·x₀x₁(s'₀s'₁ᵀ + s'₁s'₀ᵀ).
func (m *OCCFMK) addPairs(x data.Sparse, c float64) {
	kc, ld := m.kc, m.ld
	n := len(x.Ind)
	var a2, off float64
	if n == 2 {
		h := c * x.Val[0] * x.Val[1]
		s0, s1 := m.cs[:kc], m.cs[ld:ld+kc]
		for a := 0; a < kc; a++ {
			h0, h1 := h*s0[a], h*s1[a]
			row := m.a[a*ld : a*ld+kc]
			for b := a; b < kc; b++ {
				v := row[b] + (h0*s1[b] + h1*s0[b])
				row[b] = v
				m.a[b*ld+a] = v
				d, o := normTerms(a, b, v)
				a2, off = a2+d, off+o
			}
		}
		m.a2, m.off2 = a2, off
		return
	}
	z := m.z[:kc]
	m.hp = spectral.Grown(m.hp, n)
	h := m.hp // c·xₚ²
	for p, v := range x.Val {
		h[p] = c * v * v
	}
	for a := 0; a < kc; a++ {
		row := m.a[a*ld : a*ld+kc]
		za := c * z[a]
		for b := a; b < kc; b++ {
			v := za * z[b]
			for p := range n {
				u := m.cs[p*ld : p*ld+kc]
				v -= h[p] * u[a] * u[b]
			}
			v += row[b]
			row[b] = v
			m.a[b*ld+a] = v
			d, o := normTerms(a, b, v)
			a2, off = a2+d, off+o
		}
	}
	m.a2, m.off2 = a2, off
}

// normTerms returns what A's entry (a, b), b ≥ a, of value v adds to ‖A‖²_F
// and to its off-diagonal part's square: v² on the diagonal, 2v² (it and
// its mirror) to both off it.
func normTerms(a, b int, v float64) (all, off float64) {
	if a == b {
		return v * v, 0
	}
	t := 2 * v * v
	return t, t
}

// normsA sets ‖A‖²_F and the square of its off-diagonal part's Frobenius
// norm, summed in addPairs' order.
func (m *OCCFMK) normsA() {
	kc, ld := m.kc, m.ld
	var a2, off float64
	for a := 0; a < kc; a++ {
		row := m.a[a*ld : a*ld+kc]
		for b := a; b < kc; b++ {
			d, o := normTerms(a, b, row[b])
			a2, off = a2+d, off+o
		}
	}
	m.a2, m.off2 = a2, off
}

// cutLog is what files of an older OCCFMK hold when their rows of S and Y
// had yet to take the rotations of cuts (S was extended past k and cut
// back to k every k new features; a cut rotated the rows lazily):
// transform e is the tin[e]×tout[e] matrix at t[toff[e]:], and row i is in
// the basis of version stamp[i], the number of cuts it had taken.
type cutLog struct {
	stamp, toff, tin, tout []int32
	t                      []float64
	yStale                 float64
}

// fits reports whether l is a log an OCCFMK of d features and stride ld
// could have written: each transform k'×r with 1 ≤ r ≤ k' ≤ ld, stored one
// after the other, and every row's version in it.
func (l *cutLog) fits(d, ld int) bool {
	n := len(l.toff)
	if len(l.stamp) != d || len(l.tin) != n || len(l.tout) != n || (n == 0) != (len(l.t) == 0) || !(l.yStale >= 0) {
		return false
	}
	off := 0
	for e := range n {
		in, out := int(l.tin[e]), int(l.tout[e])
		if int(l.toff[e]) != off || out < 1 || out > in || in > ld {
			return false
		}
		off += in * out
	}
	if off != len(l.t) {
		return false
	}
	for _, v := range l.stamp {
		if v < 0 || int(v) > n {
			return false
		}
	}
	return true
}

// takeLog brings every row of S and Y of a decoded file to the current
// basis by the transforms of l it has yet to take, one after the other,
// and sets ‖Y‖²_F from the rows (the file's was an upper bound).
func (m *OCCFMK) takeLog(l *cutLog) {
	if len(l.toff) == 0 {
		return
	}
	m.tookLog = true
	ld := m.ld
	tmp := make([]float64, ld)
	m.yF2 = 0
	for i := 0; i < m.d; i++ {
		for _, row := range [][]float64{m.sb[i*ld : i*ld+ld], m.yb[i*ld : i*ld+ld]} {
			for e := int(l.stamp[i]); e < len(l.toff); e++ {
				in, out := int(l.tin[e]), int(l.tout[e])
				t := l.t[l.toff[e] : int(l.toff[e])+in*out]
				clear(tmp)
				for j, v := range row[:in] {
					if v != 0 {
						spectral.Axpy(v, t[j*out:j*out+out], tmp[:out])
					}
				}
				copy(row, tmp)
			}
		}
		y := m.yb[i*ld : i*ld+m.kc]
		m.yF2 += spectral.Dot(y, y)
	}
}

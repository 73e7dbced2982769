package core

import (
	"math"
	"slices"

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
// ‖Y‖²_F's bounds while rows lag a cut (see freshen). leak, the second
// term, is what a recomputation of S reduces.
func (m *OCCFMK) certify() {
	a2, off := m.a2, m.off2
	eta := m.eta()
	// ‖QGP‖²_F from ‖Y‖²_F's bounds (see freshen): the upper one for the
	// second term, the lower one inside the third.
	qpHi, qpLo := max(0, m.yF2-a2), max(0, m.yF2-m.yStale-a2)
	m.offEps = 0.5 * eta * math.Sqrt(off)
	m.leak = eta / math.Sqrt2 * math.Sqrt(qpHi)
	m.eps = m.offEps + m.leak
	if qq := math.Sqrt(max(0, m.gF2-2*qpLo-a2)); qq > 2*m.theta/eta {
		m.eps += 0.5 * eta * qq
	}
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

// cut keeps the r directions of S along A's eigenvectors of largest |λ|:
// A is diagonalized (see diagonalize), then S ← S·W[:, keep], Y likewise
// (logged: see logCut), A ← A[keep, keep] (exactly WᵀSᵀGSW for the new S,
// with what Jacobi left off its diagonal), W ← I. It costs a diagonalization
// and O(k'·k).
func (m *OCCFMK) cut(r int) {
	m.tr.saveS(m)
	m.diagonalize()
	kc, ld := m.kc, m.ld
	order := make([]int, kc)
	for a := range order {
		order[a] = a
	}
	slices.SortStableFunc(order, func(a, b int) int {
		return -cmpFloat(math.Abs(m.a[a*ld+a]), math.Abs(m.a[b*ld+b]))
	})
	keep := order[:min(r, kc)]
	r = len(keep)
	t := m.ab[:kc*r] // T = W[:, keep]
	for j := 0; j < kc; j++ {
		for q, a := range keep {
			t[j*r+q] = m.w[j*ld+a]
		}
	}
	m.logCut(t, kc, r)
	sub := m.av[:r*r]
	for q, a := range keep {
		for p, b := range keep {
			sub[q*r+p] = m.a[a*ld+b]
		}
	}
	m.kc = r
	clear(m.a)
	clear(m.w)
	for q := range r {
		copy(m.a[q*ld:q*ld+r], sub[q*r:q*r+r])
		m.w[q*ld+q] = 1
	}
	m.normsA()
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
// Lanczos run of k+8 steps (at most d), warm-started from S's directions of
// C (plus a random part), then Y = GS from the run and A = SᵀY. The warm
// start reads every row of S through the log of cuts without bringing it
// forward (see backProject); the new S and Y empty the log.
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
	us := m.backProject(wc)
	for i := 0; i < d; i++ {
		u := us[m.stamp[i]]
		st[i] += spectral.Dot(m.sb[i*ld:i*ld+len(u)], u)
	}
	steps := min(d, m.lanczosSteps())
	res := m.lw.Run(kOp{m}, st, min(k, steps), steps, steps, 0)
	m.refreshes++
	m.last = m.t
	kc = len(res.Vecs)
	m.clearLog()
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

// The rows of S and Y move to the basis of a cut lazily. A cut keeps r of
// the k' directions, S ← S·T and Y ← Y·T with T = W·V[:, keep] (k'×r,
// orthonormal columns): rotating every row costs O(d·k'·r), and a stream
// that brings a new feature every few rows cuts every k new features. So
// a cut only appends T to a log and row i is kept in the basis of version
// stamp[i] (the log's length when it was last brought up to date): a row is
// brought forward (freshen) when a learned row reads it, by the transforms
// it missed, and a recomputation of S rewrites every row and empties the
// log. A row that lags m cuts takes them as O(log m) products
// of aligned runs of cuts (see advance), built once each; the numbers a row
// gets depend only on its version and the current one, so Predict (which
// brings a copy forward) and Update (which stores it) agree to the bit.
//
// ‖Y‖²_F (yF2) is kept as the sum of the stored rows' squared norms, an
// upper bound on the true one (T's columns are orthonormal, so a row's norm
// can only fall when it is brought forward), and yStale is the part of
// that sum from rows not yet brought forward: the true ‖Y‖²_F lies in
// [yF2 − yStale, yF2] (see certify).

// version returns the number of cuts in the log: the current basis.
func (m *OCCFMK) version() int { return len(m.toff) }

// logCut appends the transform of a cut, the kc×r matrix t (row-major).
func (m *OCCFMK) logCut(t []float64, kc, r int) {
	m.toff = append(m.toff, int32(len(m.tlog)))
	m.tin = append(m.tin, int32(kc))
	m.tout = append(m.tout, int32(r))
	m.tlog = append(m.tlog, t[:kc*r]...)
	m.yStale = m.yF2 // every row now lags
}

// clearLog empties the log once every row is in the current basis.
func (m *OCCFMK) clearLog() {
	m.tlog, m.toff, m.tin, m.tout = m.tlog[:0], m.toff[:0], m.tin[:0], m.tout[:0]
	m.blk = m.blk[:0]
	clear(m.stamp)
	m.yStale = 0
}

// apply sets row ← row·T in place for the in×out matrix t (row has room for
// ld values; the entries past out become 0). tmp has room for ld values.
func apply(t []float64, in, out int, row, tmp []float64) {
	tmp = tmp[:out]
	clear(tmp)
	for j, v := range row[:in] {
		if v != 0 {
			spectral.Axpy(v, t[j*out:j*out+out], tmp)
		}
	}
	copy(row, tmp)
	clear(row[out:])
}

// advance brings row (in the basis of version e) to version now (row and
// tmp have room for ld values): by the spans of aligned runs of cuts, the
// longest that fits at each step, at most 2·log₂(now − e + 1) products.
func (m *OCCFMK) advance(row, tmp []float64, e, now int) {
	for e < now {
		j := 0
		for e&(2<<j-1) == 0 && e+2<<j <= now {
			j++
		}
		t, in, out := m.span(e, j)
		apply(t, in, out, row, tmp)
		e += 1 << j
	}
}

// span returns the transform taking version e to e + 2^j (e a multiple of
// 2^j, e + 2^j at most the current version), with its rows and columns:
// the cut's own for j = 0, else the product of its two halves, built once
// and kept until the log empties (m.blk[j−1][e>>j]). A half's columns are
// the next half's first rows: the columns a cut adds after it are 0 in
// every row that lags it.
func (m *OCCFMK) span(e, j int) (t []float64, in, out int) {
	if j == 0 {
		in, out = int(m.tin[e]), int(m.tout[e])
		return m.tlog[m.toff[e] : int(m.toff[e])+in*out], in, out
	}
	for len(m.blk) < j {
		m.blk = append(m.blk, nil)
	}
	i := e >> j
	for len(m.blk[j-1]) <= i {
		m.blk[j-1] = append(m.blk[j-1], nil)
	}
	in, out = int(m.tin[e]), int(m.tout[e+1<<j-1])
	if t = m.blk[j-1][i]; t != nil {
		return t, in, out
	}
	a, _, aout := m.span(e, j-1)
	b, _, bout := m.span(e+1<<(j-1), j-1)
	t = make([]float64, in*bout)
	for r := 0; r < in; r++ {
		row := t[r*bout : r*bout+bout]
		for q, v := range a[r*aout : r*aout+aout] {
			if v != 0 {
				spectral.Axpy(v, b[q*bout:q*bout+bout], row)
			}
		}
	}
	m.blk[j-1][i] = t
	return t, in, out
}

// freshen brings row i of S and Y to the current basis and keeps yF2 and
// yStale.
func (m *OCCFMK) freshen(i int) { m.freshenS(i, nil) }

// freshenS is freshen with row i of S already brought forward in cur (as
// curRow gives it, ld values) when cur is not nil: only Y's row is.
func (m *OCCFMK) freshenS(i int, cur []float64) {
	e, now := int(m.stamp[i]), m.version()
	if e == now {
		return
	}
	ld := m.ld
	s, y := m.sb[i*ld:i*ld+ld], m.yb[i*ld:i*ld+ld]
	old := spectral.Dot(y, y)
	m.tmp = spectral.Grown(m.tmp, 2*ld)
	tmp := m.tmp[:ld]
	if cur != nil {
		copy(s, cur)
	} else {
		m.advance(s, tmp, e, now)
	}
	m.advance(y, tmp, e, now)
	m.stamp[i] = int32(now)
	m.yF2 += spectral.Dot(y, y) - old
	m.yStale -= old
}

// curRow returns row i of S in the current basis without changing m: the
// stored row when it is current, else a copy brought forward in buf, with
// tmp as scratch (room for ld values each).
func (m *OCCFMK) curRow(i int, buf, tmp []float64) []float64 {
	if i >= m.d {
		return nil
	}
	ld := m.ld
	e := int(m.stamp[i])
	if e == m.version() {
		return m.sb[i*ld : i*ld+m.kc]
	}
	copy(buf[:ld], m.sb[i*ld:i*ld+ld])
	m.advance(buf, tmp, e, m.version())
	return buf[:m.kc]
}

// curS returns S's d rows in the current basis (a copy when some lag).
func (m *OCCFMK) curS() []float64 {
	if m.version() == 0 {
		return m.sb[:m.d*m.ld]
	}
	out, tmp := make([]float64, m.d*m.ld), make([]float64, m.ld)
	for i := 0; i < m.d; i++ {
		copy(out[i*m.ld:i*m.ld+m.kc], m.curRow(i, out[i*m.ld:i*m.ld+m.ld], tmp))
	}
	return out
}

// backProject returns, for each version e of the log, the vector u_e with
// sᵢ·u_{stamp[i]} = (row i of S in the current basis)·v: u_now = v and
// u_e = T_e·u_{e+1}, O(Σ k'·r) in all. Its result is indexed by version.
func (m *OCCFMK) backProject(v []float64) [][]float64 {
	now := m.version()
	us := make([][]float64, now+1)
	us[now] = v
	for e := now - 1; e >= 0; e-- {
		in, out := int(m.tin[e]), int(m.tout[e])
		t := m.tlog[m.toff[e] : int(m.toff[e])+in*out]
		u := make([]float64, in)
		for j := range u {
			u[j] = spectral.Dot(t[j*out:j*out+out], us[e+1][:out])
		}
		us[e] = u
	}
	return us
}

// extendS adds eᵢ to S for each feature of x seen for the first time. Its
// row of G is zero, so A and Y gain a zero row and column: S stays
// orthonormal and A = WᵀSᵀGSW, Y = GS exact. S is cut back first when it would
// pass 2k directions. It reports whether S changed.
func (m *OCCFMK) extendS(x data.Sparse) bool {
	m.newf = m.newf[:0]
	for p, i := range x.Ind {
		if !m.seen[i] && x.Val[p] != 0 {
			m.seen[i] = true
			m.nseen++
			m.newf = append(m.newf, i)
		}
	}
	if len(m.newf) == 0 {
		return false
	}
	if m.kc+len(m.newf) > m.ld {
		m.cut(max(0, min(m.s.Rank, m.ld-len(m.newf))))
	}
	for _, i := range m.newf {
		if m.kc == m.ld {
			break // a row of more than 2k new features: the rest wait for a refresh
		}
		c := m.kc
		m.kc++
		m.stamp[i] = int32(m.version()) // its rows are 0 in every basis
		m.sb[i*m.ld+c] = 1
		for a := 0; a < m.kc; a++ {
			m.a[a*m.ld+c], m.a[c*m.ld+a] = 0, 0
			m.w[a*m.ld+c], m.w[c*m.ld+a] = 0, 0
		}
		m.w[c*m.ld+c] = 1
		m.mu[c] = 0
	}
	return true
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

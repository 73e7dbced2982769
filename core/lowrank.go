package core

import (
	"math"

	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/internal/str"
	"github.com/occfm/occfm/core/spectral"
)

// lowRankSym is a symmetric n×n matrix kept in factored form
//
//	C = U·M·Uᵀ,
//
// with U an n×b matrix of orthonormal columns and M a symmetric b×b matrix
// (docs/algorithms.md). The dense n×n matrix is never formed. Its nuclear norm is Σ|λᵢ(M)|. U is stored row-major with stride
// ld ≥ b so that the rows touched by a sparse x̂ are contiguous; n grows by
// appending zero rows (U stays orthonormal).
//
// OCCFM keeps its LMO subspace S as the first k columns of U, so that
// SᵀCS is the leading k×k block of M and a Frank-Wolfe atom q = S·v is added
// as M[:k,:k] += w·vvᵀ without touching the n-dimensional factor (rebase
// re-expresses C when S changes).
type lowRankSym struct {
	n, b int
	ld   int       // row stride of u (column capacity)
	u    []float64 // n×ld, row-major; columns ≥ b are unused
	m    []float64 // b×b, row-major, symmetric

	// ut is U column-major (column a at ut[a·n:(a+1)·n]), rebuilt when U
	// changes, for the dense products of the Lanczos runs.
	ut      []float64
	utValid bool

	// Scratch of mulVec and rebase; once grown, nothing is allocated.
	ta, tma      []float64
	vals, vecs   []float64 // eigen-decomposition of M
	work         []float64
	order        []int
	q, cb, p, m2 []float64
}

// grow makes C an n×n matrix by appending zero rows and columns.
func (c *lowRankSym) grow(n int) {
	if n <= c.n {
		return
	}
	if c.ld == 0 {
		c.ld = 8
	}
	c.u = spectral.GrowRows(c.u, c.n, n, c.ld)
	c.n = n
	c.utValid = false
}

// urow returns row i of U (length b).
func (c *lowRankSym) urow(i int) []float64 { return c.u[i*c.ld : i*c.ld+c.b] }

// project sets z = Uᵀx̂ for the sparse augmented vector x̂ = [1; x], with
// feature j of x at position j+1: O(nnz(x)·b). z must have length b.
func (c *lowRankSym) project(z []float64, x data.Sparse) {
	copy(z, c.urow(0))
	for k, j := range x.Ind {
		if j+1 >= c.n {
			continue
		}
		spectral.Axpy(x.Val[k], c.urow(j+1), z)
	}
}

// quad returns zᵀMz.
func (c *lowRankSym) quad(z []float64) float64 { return spectral.QuadForm(c.m, z) }

// diag returns C_ii = U_i·M·U_iᵀ.
func (c *lowRankSym) diag(i int) float64 {
	if i >= c.n {
		return 0
	}
	return c.quad(c.urow(i))
}

// scale sets C = α·C.
func (c *lowRankSym) scale(alpha float64) {
	for i := range c.m {
		c.m[i] *= alpha
	}
}

// addLeading sets M[:k,:k] += w·vvᵀ for v of length k ≤ b, that is
// C += w·(U_k v)(U_k v)ᵀ.
func (c *lowRankSym) addLeading(w float64, v []float64) {
	b := c.b
	for i, vi := range v {
		for j := i; j < len(v); j++ {
			t := w * vi * v[j]
			c.m[i*b+j] += t
			if j != i {
				c.m[j*b+i] += t
			}
		}
	}
}

// eigenTo eigendecomposes M into scratch: c.vals gets the eigenvalues,
// the b×b row-major c.vecs the eigenvectors (column j for c.vals[j]), and
// c.order their indices by decreasing |λ|. It allocates nothing once the
// scratch has grown.
func (c *lowRankSym) eigenTo() {
	b := c.b
	c.vals, c.vecs, c.m2 = spectral.Grown(c.vals, b), spectral.Grown(c.vecs, b*b), spectral.Grown(c.m2, b*b)
	copy(c.m2, c.m[:b*b])
	if b <= 8 {
		spectral.JacobiEigen(c.m2, b, c.vals, c.vecs)
	} else {
		// Jacobi's sweeps grow as b³ per sweep: LAPACK beyond tiny sizes.
		spectral.SymEigenInPlace(c.m2, b, c.vals, &c.work)
		copy(c.vecs, c.m2[:b*b])
	}
	c.order = spectral.OrderByAbs(c.order, c.vals[:b])
}

// eigenvalues returns the eigenvalues of M (the nonzero eigenvalues of C)
// by decreasing |λ|, in a new slice.
func (c *lowRankSym) eigenvalues() []float64 {
	if c.b == 0 {
		return nil
	}
	c.eigenTo()
	out := make([]float64, c.b)
	for k, i := range c.order {
		out[k] = c.vals[i]
	}
	return out
}

// nuclearNorm returns ‖C‖* = Σ|λᵢ|.
func (c *lowRankSym) nuclearNorm() float64 {
	vals := c.eigenvalues()
	var s float64
	for _, v := range vals {
		s += math.Abs(v)
	}
	return s
}

// mulVec sets y = y + α·C·v for dense v and y of length n: O(n·b), as
// 2b long dot and axpy products on the column-major copy of U.
func (c *lowRankSym) mulVec(y []float64, alpha float64, v []float64) {
	b, n := c.b, c.n
	if b == 0 {
		return
	}
	c.colMajor()
	c.ta, c.tma = spectral.Grown(c.ta, b), spectral.Grown(c.tma, b)
	for a := 0; a < b; a++ {
		c.ta[a] = spectral.Dot(c.ut[a*n:(a+1)*n], v[:n])
	}
	for a := 0; a < b; a++ {
		c.tma[a] = alpha * spectral.Dot(c.m[a*b:a*b+b], c.ta)
	}
	for a := 0; a < b; a++ {
		spectral.Axpy(c.tma[a], c.ut[a*n:(a+1)*n], y[:n])
	}
}

// colMajor makes c.ut the column-major copy of U, if it is not already.
func (c *lowRankSym) colMajor() {
	if c.utValid {
		return
	}
	b, n := c.b, c.n
	c.ut = spectral.Grown(c.ut, b*n)
	for i := 0; i < n; i++ {
		for a, uia := range c.urow(i) {
			c.ut[a*n+i] = uia
		}
	}
	c.utValid = true
}

// dropRule says which eigenpairs of C rebase drops: those of smallest |λ|
// whose total is at most abs + rel·‖C‖*, and those beyond rank maxRank
// when maxRank > 0. Dropping only lowers ‖C‖*.
type dropRule struct {
	abs, rel float64
	maxRank  int
}

// keep returns how many of C's eigenpairs, by decreasing |λ| after
// eigenTo, the rule keeps, and the nuclear norm of those it drops.
func (c *lowRankSym) keep(rule dropRule) (int, float64) {
	r := c.b
	tol := rule.abs
	if rule.rel != 0 {
		var nuc float64
		for _, v := range c.vals[:r] {
			nuc += math.Abs(v)
		}
		tol += rule.rel * nuc
	}
	var dropped float64
	for ; rule.maxRank > 0 && r > rule.maxRank; r-- {
		dropped += math.Abs(c.vals[c.order[r-1]])
	}
	for r > 0 && dropped+math.Abs(c.vals[c.order[r-1]]) <= tol {
		dropped += math.Abs(c.vals[c.order[r-1]])
		r--
	}
	return r, dropped
}

// dropped calls onDrop(λ, q) for each eigenpair after the first r (by
// decreasing |λ|, after eigenTo), q = U·v of length n in scratch memory.
func (c *lowRankSym) dropped(r int, onDrop func(lambda float64, q []float64)) {
	n, b := c.n, c.b
	if r == b {
		return
	}
	c.q = spectral.Grown(c.q, n)
	for _, o := range c.order[r:b] {
		q := c.q[:n]
		for i := 0; i < n; i++ {
			var v float64
			for j, uij := range c.urow(i) {
				v += uij * c.vecs[j*b+o]
			}
			q[i] = v
		}
		onDrop(c.vals[o], q)
	}
}

// truncate drops the eigenpairs of C the rule names (see dropRule) and
// keeps the basis: M = V·diag(λ)·Vᵀ becomes the same sum over the pairs
// kept, so that C changes by exactly the pairs dropped and U (with the
// LMO's S in its first columns) does not change. It returns the nuclear
// norm dropped and the rank kept (the zero eigenpairs left in M are for
// the next rebase to drop). When onDrop is not nil it is called for each
// pair dropped, as in rebase. O(b³ + n·b·pairs dropped).
func (c *lowRankSym) truncate(rule dropRule, onDrop func(lambda float64, q []float64)) (float64, int) {
	b := c.b
	if b == 0 {
		return 0, 0
	}
	c.eigenTo()
	r, dropped := c.keep(rule)
	if r == b {
		return 0, b
	}
	if onDrop != nil {
		c.dropped(r, onDrop)
	}
	m := c.m[:b*b]
	clear(m)
	for _, o := range c.order[:r] {
		l := c.vals[o]
		for i := 0; i < b; i++ {
			vi := l * c.vecs[i*b+o]
			if vi == 0 {
				continue
			}
			for j := 0; j < b; j++ {
				m[i*b+j] += vi * c.vecs[j*b+o]
			}
		}
	}
	return dropped, r
}

// rebase re-expresses C in a new basis whose first columns are the given
// orthonormal vectors s (each of length n): U' = [s, W] with W an
// orthonormal basis of the part of C's range outside span(s). On the way
// C is re-diagonalized and the eigenpairs the rule names are dropped
// (see dropRule); if bound > 0 and ‖C‖* exceeds it after
// rounding, the eigenvalues are scaled down to meet it, so C stays in K
// exactly. It returns the nuclear norm dropped, and whether C changed only
// by the dropped pairs (no scaling). When that holds and onDrop is not
// nil, it calls onDrop(λ, q) for each pair dropped, q of length n in
// scratch memory. Cost O(n·(b + len(s))²); it allocates nothing once its
// scratch has grown.
func (c *lowRankSym) rebase(s [][]float64, rule dropRule, bound float64, onDrop func(lambda float64, q []float64)) (float64, bool) {
	n := c.n
	// C = Q·Λ·Qᵀ with Q = U·V[:, :r], eigenpairs by decreasing |λ|.
	c.eigenTo()
	r, dropped := c.keep(rule)
	var norm float64
	for _, j := range c.order[:r] {
		norm += math.Abs(c.vals[j])
	}
	f := 1.0
	if bound > 0 && norm > bound {
		f = bound / norm
	}
	if onDrop != nil && f == 1 {
		c.dropped(r, onDrop)
	}
	q := c.keptVectors(r)
	nb := c.newBasis(s, q, r)
	col := func(a int) []float64 { return c.cb[a*n : (a+1)*n] }
	// P = U'ᵀQ (nb×r), M' = P·diag(fΛ)·Pᵀ.
	c.p = spectral.Grown(c.p, nb*r)
	p := c.p
	clear(p)
	for a := 0; a < nb; a++ {
		pa := p[a*r : a*r+r]
		for i, ui := range col(a) {
			if ui != 0 {
				spectral.Axpy(ui, q[i*r:i*r+r], pa)
			}
		}
	}
	c.m = spectral.Grown(c.m, nb*nb)
	for a := 0; a < nb; a++ {
		for e := a; e < nb; e++ {
			var t float64
			for l, o := range c.order[:r] {
				t += p[a*r+l] * f * c.vals[o] * p[e*r+l]
			}
			c.m[a*nb+e], c.m[e*nb+a] = t, t
		}
	}
	c.storeBasis(nb)
	return dropped + (1-f)*norm, f == 1
}

// keptVectors returns Q = U·V[:, :r] (row-major n×r, in c.q): the
// eigenvectors of C that rebase keeps, by decreasing |λ|.
func (c *lowRankSym) keptVectors(r int) []float64 {
	n, b := c.n, c.b
	c.q = spectral.Grown(c.q, n*r)
	q := c.q
	clear(q)
	for i := 0; i < n; i++ {
		qi := q[i*r : i*r+r]
		for j, uij := range c.urow(i) {
			if uij != 0 {
				vj := c.vecs[j*b : j*b+b]
				for l, o := range c.order[:r] {
					qi[l] += uij * vj[o]
				}
			}
		}
	}
	return q
}

// newBasis writes the new basis column-major into c.cb: the vectors s,
// then the part of Q's r columns outside their span, orthonormalized by
// modified Gram-Schmidt (twice), dropping columns that vanish. It returns
// the number of columns.
func (c *lowRankSym) newBasis(s [][]float64, q []float64, r int) int {
	n, k := c.n, len(s)
	c.cb = spectral.Grown(c.cb, (k+r)*n)
	col := func(a int) []float64 { return c.cb[a*n : (a+1)*n] }
	for a, sa := range s {
		copy(col(a), sa)
	}
	nb := k
	for j := 0; j < r; j++ {
		v := col(nb)
		for i := 0; i < n; i++ {
			v[i] = q[i*r+j]
		}
		for pass := 0; pass < 2; pass++ {
			for a := 0; a < nb; a++ {
				u := col(a)
				spectral.Axpy(-spectral.Dot(v, u), u, v)
			}
		}
		if spectral.Normalize(v) > 1e-10 {
			nb++
		}
	}
	return nb
}

// storeBasis makes the nb columns in c.cb the basis U', stored row-major
// (c.u, leading dimension c.ld) and column-major (c.ut) as it is.
func (c *lowRankSym) storeBasis(nb int) {
	n := c.n
	if c.ld < nb || c.ld > 4*nb+8 {
		c.ld = max(8, nb+nb/2)
	}
	if cap(c.u) < n*c.ld {
		c.u = make([]float64, n*c.ld, 2*n*c.ld)
	}
	c.u = c.u[:n*c.ld]
	clear(c.u)
	for a := 0; a < nb; a++ {
		for i, v := range c.cb[a*n : (a+1)*n] {
			c.u[i*c.ld+a] = v
		}
	}
	c.b = nb
	c.ut = spectral.Grown(c.ut, nb*n)
	copy(c.ut, c.cb[:nb*n])
	c.utValid = true
}

// dense returns C as a new dense n×n row-major slice (tests and small n
// only).
func (c *lowRankSym) dense() []float64 {
	n := c.n
	d := make([]float64, n*n)
	for i := 0; i < n; i++ {
		ui := c.urow(i)
		mu := make([]float64, c.b)
		for a := range mu {
			mu[a] = spectral.Dot(c.m[a*c.b:a*c.b+c.b], ui)
		}
		for j := i; j < n; j++ {
			v := spectral.Dot(c.urow(j), mu)
			d[i*n+j], d[j*n+i] = v, v
		}
	}
	return d
}

// memoryBytes estimates the bytes of C = U·M·Uᵀ: U (n×ld), its
// column-major copy (n×b), M and the b×b scratch.
func (c *lowRankSym) memoryBytes() int64 {
	return sumF64Bytes(c.u, c.m, c.ut, c.ta, c.tma, c.vals, c.vecs, c.work, c.q, c.cb, c.p, c.m2) + intBytes(c.order)
}

// lowRank codes C = U·M·Uᵀ of dimension n (already grown to n when
// decoding): b, the row stride, the n×b values of U and M.
func (c *stateCodec) lowRank(l *lowRankSym, n int) {
	c.int(&l.b)
	c.int(&l.ld)
	b, ld := l.b, l.ld
	if c.violates(b >= 0 && ld >= max(b, 1) && ld <= 4*b+16) {
		c.fail("basis of " + str.Itoa(b) + " columns, stride " + str.Itoa(ld))
	}
	if c.err != nil {
		return
	}
	var u []float64 // decoding: c.floats allocates what the file holds
	if !c.dec {
		u = make([]float64, 0, n*b)
		for i := 0; i < n; i++ {
			u = append(u, l.urow(i)...)
		}
	}
	c.floats(&u)
	c.floats(&l.m)
	c.check(len(u) == n*b && len(l.m) == b*b, "C's factors of the wrong size")
	if !c.dec || !c.alloc(bytesOf(8, n, ld), "basis of "+str.Itoa(n)+"×"+str.Itoa(ld)) {
		return
	}
	l.u = make([]float64, n*ld)
	for i := 0; i < n; i++ {
		copy(l.u[i*ld:i*ld+b], u[i*b:i*b+b])
	}
	l.utValid = false
}

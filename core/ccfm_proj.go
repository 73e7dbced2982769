package core

import (
	"math"
	"slices"

	"github.com/occfm/occfm/core/data"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
	"gonum.org/v1/gonum/lapack"
	lapackgonum "gonum.org/v1/gonum/lapack/gonum"
)

// This file holds the projection machinery shared by the projected
// baselines of §5.1 (DESIGN §3): CCFM-OGD, CCFM-PA and CCFM-FTRL. All three
// keep their iterate in K = {C symmetric, ‖C‖* ≤ δ} through the Euclidean
// (Frobenius) projection
//
//	Π_K(A) = V·diag(π_δ(λ))·Vᵀ   for A = V·diag(λ)·Vᵀ,
//
// where π_δ is the Euclidean projection onto the ℓ₁ ball of radius δ
// (Duchi, Shalev-Shwartz, Singer & Chandra 2008): the nuclear norm of a
// symmetric matrix is the ℓ₁ norm of its eigenvalues, and both norms are
// unitarily invariant, so projecting the spectrum projects the matrix.
// π_δ soft-thresholds: π_δ(λ)ᵢ = sign(λᵢ)·max(|λᵢ| − θ, 0), with θ = 0 when
// ‖λ‖₁ ≤ δ and otherwise the θ > 0 with Σᵢ max(|λᵢ| − θ, 0) = δ.

// l1BallThreshold returns the soft threshold θ ≥ 0 of the Euclidean
// projection of v onto the ℓ₁ ball of radius δ > 0: the projection is
// wᵢ = sign(vᵢ)·max(|vᵢ| − θ, 0), and θ = 0 when ‖v‖₁ ≤ δ. It sorts |v|
// (Duchi et al. 2008, Figure 1): with u the magnitudes in decreasing order,
// ρ = max{j : uⱼ > (Σ_{i≤j} uᵢ − δ)/j} and θ = (Σ_{i≤ρ} uᵢ − δ)/ρ. buf is
// scratch space, returned grown for reuse. O(m log m) for m = len(v).
func l1BallThreshold(v []float64, delta float64, buf []float64) (float64, []float64) {
	var s float64
	for _, x := range v {
		s += math.Abs(x)
	}
	if s <= delta {
		return 0, buf
	}
	buf = grown(buf, len(v))
	for i, x := range v {
		buf[i] = math.Abs(x)
	}
	slices.Sort(buf)
	var cum, theta float64
	for j := len(buf) - 1; j >= 0; j-- {
		u := buf[j]
		cum += u
		t := (cum - delta) / float64(len(buf)-j)
		if u <= t {
			break
		}
		theta = t
	}
	return theta, buf
}

// softThreshold returns sign(v)·max(|v| − θ, 0).
func softThreshold(v, theta float64) float64 {
	if a := math.Abs(v) - theta; a > 0 {
		return math.Copysign(a, v)
	}
	return 0
}

// gemm sets c = a·b for the row-major a (m×k, stride lda), b (k×n, stride
// ldb) and c (m×n, stride ldc), allocating nothing. Each cᵢⱼ is summed over
// l = 0, …, k−1 in order, so the result is bit for bit that of gonum's
// serial Dgemm. gonum's Dgemm (v0.17) goes parallel once the product spans
// 4 blocks of 64×64 and then starts goroutines and allocates on every call;
// the per-round products of the projected baselines are that large (R is
// about 200×120 on ML-100K), so gemm hands Dgemm tiles of at most 64×192
// (3 blocks) instead, which it computes serially in place.
func gemm(m, n, k int, a []float64, lda int, b []float64, ldb int, c []float64, ldc int) {
	const tm, tn = 64, 192
	if k == 0 {
		for i := 0; i < m; i++ {
			clear(c[i*ldc : i*ldc+n])
		}
		return
	}
	impl := gonum.Implementation{}
	for i := 0; i < m; i += tm {
		mi := min(tm, m-i)
		for j := 0; j < n; j += tn {
			nj := min(tn, n-j)
			impl.Dgemm(blas.NoTrans, blas.NoTrans, mi, nj, k, 1,
				a[i*lda:], lda, b[j:], ldb, 0, c[i*ldc+j:], ldc)
		}
	}
}

// symEigenInPlace overwrites the m×m row-major symmetric a (lower triangle
// read) with its orthonormal eigenvectors, column j for vals[j], the
// eigenvalues in ascending order. work is LAPACK workspace, grown as
// needed; it allocates nothing once the buffers are large enough. (With
// gonum v0.17.0, dsyev on the upper triangle returned eigenvalues of 1e123
// for a 900×900 matrix of rank 7 with many zero rows that CCFM-OGD's dense
// path built; the lower triangle gives the right ones.)
func symEigenInPlace(a []float64, m int, vals []float64, work *[]float64) {
	if m == 0 {
		return
	}
	impl := lapackgonum.Implementation{}
	need := 34 * m // (nb + 2)·m with DSYTRD's block size nb = 32
	if len(*work) < need {
		q := make([]float64, 1)
		impl.Dsyev(lapack.EVCompute, blas.Lower, m, a, m, vals, q, -1)
		*work = make([]float64, max(need, int(q[0]), 3*m))
	}
	if !impl.Dsyev(lapack.EVCompute, blas.Lower, m, a, m, vals, *work, len(*work)) {
		panic("core: symmetric eigendecomposition failed")
	}
}

// eigSym is a symmetric n×n matrix kept in eigen form
//
//	C = U·diag(λ)·Uᵀ,   U = B·R,
//
// with B an n×b matrix of orthonormal columns (the basis, row-major with
// stride ld so that the rows a sparse x̂ touches are contiguous), R a b×r
// matrix of orthonormal columns and λ ∈ ℝʳ the nonzero eigenvalues. The
// dense n×n matrix is never formed (DESIGN §3). Keeping the rotation R apart
// from B makes a rank-one projected step cost O(n·b + b·r²) instead of the
// O(n·b·r) of rotating B itself; B is compacted to B·R only when dead
// columns pile up (b > 2r + 16). The feature space grows by appending zero
// rows to B. R is stored transposed (Rᵀ row-major), so that the
// coordinates in B of each eigenvector uₖ = B·R[:, k] are contiguous: the
// projections onto the uₖ (prediction, Gram-Schmidt) and the rotation
// R_newᵀ = V_keepᵀ·R'ᵀ run along rows. All work space is kept in the
// eigSym: once it has grown to n, b and r, an update allocates nothing. An
// eigSym is not safe for concurrent use: even reads use its scratch
// buffers.
type eigSym struct {
	n, b, r int
	ld      int       // row stride of basis (column capacity)
	basis   []float64 // B: n×ld, row-major; columns ≥ b unused
	rotT    []float64 // Rᵀ: r×b, row-major (row k holds column k of R)
	lam     []float64 // λ, length r, all nonzero

	// scratch
	y, z, p, s, vals, abs, work []float64
	dvec, sm, vkT, rot2         []float64
	du, dd                      []float64 // U = B·R and the dense C (updateDense)
	keep                        []int
	eig                         rankOneEig
}

// grow makes C an n×n matrix by appending zero rows and columns.
func (c *eigSym) grow(n int) {
	if n <= c.n {
		return
	}
	if c.ld == 0 {
		c.ld = 8
	}
	c.basis = growRows(c.basis, c.n, n, c.ld)
	c.n = n
}

// brow returns row i of B (length b).
func (c *eigSym) brow(i int) []float64 { return c.basis[i*c.ld : i*c.ld+c.b] }

// coords sets y = Bᵀx̂ for x̂ = [1; x] (feature j at position j+1; features
// beyond n are ignored): O(nnz(x)·b). y must have length b.
func (c *eigSym) coords(y []float64, x data.Sparse) {
	if c.n == 0 {
		clear(y)
		return
	}
	copy(y, c.brow(0))
	for k, j := range x.Ind {
		if j+1 < c.n {
			axpy(x.Val[k], c.brow(j+1), y)
		}
	}
}

// quad returns x̂ᵀCx̂ = Σᵢ λᵢ·(uᵢᵀx̂)² in O(nnz(x)·b + b·r). It does not
// change C.
func (c *eigSym) quad(x data.Sparse) float64 {
	if c.r == 0 {
		return 0
	}
	c.y = grown(c.y, c.b+1)
	y := c.y[:c.b]
	c.coords(y, x)
	var q float64
	b := c.b
	for k, l := range c.lam {
		zk := dot(y, c.rotT[k*b:k*b+b]) // uₖᵀx̂
		q += l * zk * zk
	}
	return q
}

// nuclearNorm returns ‖C‖* = Σ|λᵢ|.
func (c *eigSym) nuclearNorm() float64 {
	var s float64
	for _, v := range c.lam {
		s += math.Abs(v)
	}
	return s
}

// dropTol is the magnitude, relative to δ, below which an eigenvalue after
// the projection counts as zero and is dropped. Dropping only lowers ‖C‖*, so
// the iterate stays in K; it moves C by at most 1e-13·δ per eigenvalue.
const dropTol = 1e-13

// update sets C = Π_K(C + a·x̂x̂ᵀ) for K = {‖C‖* ≤ delta}, without forming
// an n×n matrix. With y = Bᵀx̂ and p = x̂ − B·y (ρ = ‖p‖, orthogonalized
// twice when cancellation threatens), x̂ = [B, p/ρ]·[y; ρ], so in the basis
// [B, p/ρ] the matrix is R'·diag(λ, 0)·R'ᵀ + a·wwᵀ with w = [y; ρ] and R' = R
// with a zero row appended. Writing w = R'·w_R + σ·q̂ (q̂ ⊥ R'), it equals
// [R', q̂]·S·[R', q̂]ᵀ with the (r+1)×(r+1) matrix
//
//	S = diag(λ, 0) + a·[w_R; σ]·[w_R; σ]ᵀ.
//
// S = V·diag(ν)·Vᵀ (rankOneEig, O(r²)), ν is projected onto the ℓ₁ ball,
// and the new R is [R', q̂]·V restricted to the eigenvalues that survive.
// Cost O(n·b) for p, O(b·r²) for R and O(r²) for S. a = 0 leaves C unchanged
// (it is in K already).
func (c *eigSym) update(a float64, x data.Sparse, delta float64) {
	if a == 0 {
		return
	}
	b := c.b
	c.y = grown(c.y, b+1)
	y := c.y[:b]
	c.coords(y, x)
	xx := 1.0
	for _, v := range x.Val {
		xx += v * v
	}
	rho := 0.0
	if b < c.n {
		c.p = grown(c.p, c.n)
		p := c.p
		c.residual(p, y, x)
		rho = math.Sqrt(dot(p, p))
		if rho < 0.5*math.Sqrt(xx) {
			// Cancellation: a second Gram-Schmidt pass ("twice is enough").
			c.z = grown(c.z, b)
			y2 := c.z[:b]
			bm, impl := c.basisData(), gonum.Implementation{}
			impl.Dgemv(blas.Trans, c.n, b, 1, bm, c.ld, p, 1, 0, y2, 1)
			impl.Dgemv(blas.NoTrans, c.n, b, -1, bm, c.ld, y2, 1, 1, p, 1)
			axpy(1, y2, y)
			rho = math.Sqrt(dot(p, p))
		}
		if rho <= 1e-12*math.Sqrt(xx) {
			rho = 0 // x̂ lies in span(B) to working precision
		}
	}
	bb := b
	if rho > 0 {
		c.appendColumn(c.p, 1/rho)
		bb = b + 1
		c.y = c.y[:bb]
		c.y[b] = rho
	}
	w := c.y[:bb]
	// w_R = R'ᵀw and the part q = w − R'·w_R outside R' (twice).
	r := c.r
	c.s = grown(c.s, r+1)
	s := c.s[:r+1]
	clear(s)
	c.z = grown(c.z, bb)
	q := c.z[:bb]
	copy(q, w)
	for pass := 0; pass < 2; pass++ {
		for k := 0; k < r; k++ {
			rk := c.rotT[k*b : k*b+b] // column k of R (of R' but its zero entry b)
			t := dot(rk, q[:b])
			s[k] += t
			axpy(-t, rk, q[:b])
		}
	}
	sigma := math.Sqrt(dot(q, q))
	m := r
	if sigma > 1e-12*math.Sqrt(dot(w, w)) {
		s[r] = sigma
		for i := range q {
			q[i] /= sigma
		}
		m = r + 1
	}
	// S = diag(λ, 0) + a·ssᵀ, m×m: V (row-major in c.sm) and ν.
	c.dvec = grown(c.dvec, m)
	copy(c.dvec, c.lam[:r])
	if m > r {
		c.dvec[r] = 0
	}
	c.sm = grown(c.sm, m*m)
	sm := c.sm[:m*m]
	c.vals = grown(c.vals, m)
	nu := c.vals[:m]
	c.eig.solve(c.dvec[:m], s[:m], a, nu, sm)
	th := c.keepProjected(nu, delta)
	// R_new = [R', q̂]·V_keep (bb × rn), formed transposed: R_newᵀ =
	// V_keepᵀ·R'ᵀ by gemm over the first r rows of V_keep (the zero row b of
	// R' gives nothing), plus the last row of V_keep times q̂ᵀ.
	rn := len(c.keep)
	c.vkT = grown(c.vkT, rn*m)
	vkT := c.vkT[:rn*m] // V_keepᵀ: rn×m
	for k, e := range c.keep {
		for j := 0; j < m; j++ {
			vkT[k*m+j] = sm[j*m+e]
		}
	}
	c.rot2 = grown(c.rot2, rn*bb)
	rot2 := c.rot2[:rn*bb]
	clear(rot2)
	if b > 0 && r > 0 && rn > 0 {
		gemm(rn, b, r, vkT, m, c.rotT[:r*b], b, rot2, bb)
	}
	if m > r {
		for k := 0; k < rn; k++ {
			lk, row := vkT[k*m+r], rot2[k*bb:k*bb+bb]
			for i, qi := range q {
				if qi != 0 {
					row[i] += lk * qi
				}
			}
		}
	}
	c.rotT, c.rot2 = c.rot2, c.rotT
	c.b, c.r = bb, rn
	c.lam = grown(c.lam, rn)
	for k, e := range c.keep {
		c.lam[k] = softThreshold(nu[e], th)
	}
	if c.b > 2*c.r+16 {
		c.compact()
	}
}

// keepProjected returns the ℓ₁-ball threshold θ of nu for radius delta and
// sets c.keep to the indices of nu whose projection exceeds dropTol·delta in
// magnitude.
func (c *eigSym) keepProjected(nu []float64, delta float64) float64 {
	th, buf := l1BallThreshold(nu, delta, c.abs)
	c.abs = buf
	c.keep = c.keep[:0]
	for i, v := range nu {
		if math.Abs(softThreshold(v, th)) > dropTol*delta {
			c.keep = append(c.keep, i)
		}
	}
	return th
}

// residual sets p = x̂ − B·y (dense, length n): O(n·b).
func (c *eigSym) residual(p, y []float64, x data.Sparse) {
	clear(p[:c.n])
	p[0] = 1
	for k, j := range x.Ind {
		if j+1 < c.n {
			p[j+1] += x.Val[k]
		}
	}
	if c.b > 0 {
		gonum.Implementation{}.Dgemv(blas.NoTrans, c.n, c.b, -1, c.basisData(), c.ld, y, 1, 1, p, 1)
	}
}

// basisData returns B's values for BLAS (n×b, row-major, stride ld).
func (c *eigSym) basisData() []float64 { return c.basis[:(c.n-1)*c.ld+c.b] }

// appendColumn appends α·p as column b of B, widening the row stride when
// needed.
func (c *eigSym) appendColumn(p []float64, alpha float64) {
	if c.b == c.ld {
		ld := 2 * c.ld
		nb := make([]float64, c.n*ld, 2*c.n*ld)
		for i := 0; i < c.n; i++ {
			copy(nb[i*ld:i*ld+c.b], c.brow(i))
		}
		c.basis, c.ld = nb, ld
	}
	for i := 0; i < c.n; i++ {
		c.basis[i*c.ld+c.b] = alpha * p[i]
	}
	c.b++
}

// compact replaces B by B·R (n×r) and R by the identity: O(n·b·r).
func (c *eigSym) compact() {
	b, r := c.b, c.r
	if r > 0 {
		c.rot2 = grown(c.rot2, b*r)
		rot := c.rot2[:b*r] // R, row-major
		for k := 0; k < r; k++ {
			for i, v := range c.rotT[k*b : k*b+b] {
				rot[i*r+k] = v
			}
		}
		c.p = grown(c.p, c.n*r)
		br := c.p[:c.n*r]
		gemm(c.n, r, b, c.basisData(), c.ld, rot, r, br, r)
		for i := 0; i < c.n; i++ {
			copy(c.basis[i*c.ld:i*c.ld+r], br[i*r:i*r+r])
		}
	}
	for i := 0; i < c.n; i++ {
		clear(c.basis[i*c.ld+r : i*c.ld+b])
	}
	c.setIdentityRot(r)
}

// setIdentityRot sets b = r and R = I_r.
func (c *eigSym) setIdentityRot(r int) {
	c.b, c.r = r, r
	c.rotT = grown(c.rotT, r*r)
	clear(c.rotT[:r*r])
	for i := 0; i < r; i++ {
		c.rotT[i*r+i] = 1
	}
}

// denseRowMajor returns C as a new dense n×n row-major slice (O(n²·r);
// the tests only).
func (c *eigSym) denseRowMajor() []float64 {
	return c.denseRowMajorTo(make([]float64, c.n*c.n))
}

// denseRowMajorTo writes C into the dense n×n row-major d (length ≥ n²)
// and returns d[:n²], in O(n²·r), forming U = B·R in c's scratch space.
func (c *eigSym) denseRowMajorTo(d []float64) []float64 {
	n, r, b := c.n, c.r, c.b
	c.du = grown(c.du, n*r)
	u := c.du[:n*r] // U = B·R
	clear(u)
	for i := 0; i < n; i++ {
		ui := u[i*r : i*r+r]
		for j, v := range c.brow(i) {
			if v != 0 {
				for k := range ui {
					ui[k] += v * c.rotT[k*b+j]
				}
			}
		}
	}
	d = d[:n*n]
	for i := 0; i < n; i++ {
		ui := u[i*r : i*r+r]
		for j := i; j < n; j++ {
			uj := u[j*r : j*r+r]
			var t float64
			for k, l := range c.lam {
				t += ui[k] * l * uj[k]
			}
			d[i*n+j], d[j*n+i] = t, t
		}
	}
	return d
}

// updateDense sets C = Π_K(C + a·x̂x̂ᵀ) the naive way, the cost model of
// the paper's projected baselines: form the dense (n×n) matrix, take its
// full eigendecomposition (O(n³)), project the eigenvalues, and keep the
// eigenvectors whose eigenvalue survives as the new basis (R = I). For small
// n only. Its n×n matrices live in c's scratch space, so that, like the
// low-rank update, it allocates nothing once its buffers have grown.
func (c *eigSym) updateDense(a float64, x data.Sparse, delta float64) {
	if a == 0 {
		return
	}
	n := c.n
	c.dd = grown(c.dd, n*n)
	d := c.denseRowMajorTo(c.dd)
	d[0] += a
	for k, j := range x.Ind {
		if j+1 >= n {
			continue
		}
		vk := x.Val[k]
		d[j+1] += a * vk
		d[(j+1)*n] += a * vk
		for l, i := range x.Ind {
			if i+1 < n {
				d[(j+1)*n+i+1] += a * (vk * x.Val[l]) // exactly symmetric
			}
		}
	}
	c.vals = grown(c.vals, n)
	nu := c.vals[:n]
	symEigenInPlace(d, n, nu, &c.work)
	c.setEigenvectors(d, n, nu, delta)
}

// setEigenvectors sets C = Σᵢ π_δ(ν)ᵢ·vᵢvᵢᵀ over the surviving eigenvalues,
// from the n×n row-major matrix v of eigenvectors (column i for ν[i]).
func (c *eigSym) setEigenvectors(v []float64, n int, nu []float64, delta float64) {
	th := c.keepProjected(nu, delta)
	r := len(c.keep)
	if c.ld < r {
		c.ld = max(8, r)
		c.basis = make([]float64, n*c.ld)
	} else {
		c.basis = c.basis[:n*c.ld]
		clear(c.basis)
	}
	for i := 0; i < n; i++ {
		for k, e := range c.keep {
			c.basis[i*c.ld+k] = v[i*n+e]
		}
	}
	c.setIdentityRot(r)
	c.lam = grown(c.lam, r)
	for k, e := range c.keep {
		c.lam[k] = softThreshold(nu[e], th)
	}
}

// rankOneEig solves the symmetric eigenproblem of a diagonal plus rank-one
// matrix, D + ρ·zzᵀ with D = diag(d), in O(m²) instead of the O(m³) of a
// dense solver: the merge step of the divide-and-conquer eigensolver
// (Bunch, Nielsen & Sorensen 1978; LAPACK dlaed2–dlaed4). Components with
// negligible zᵢ and near-equal pairs dᵢ ≈ dⱼ are deflated (the latter by a
// Givens rotation); the other eigenvalues are the roots of the secular
// equation
//
//	1 + ρ·Σⱼ zⱼ²/(dⱼ − ν) = 0,
//
// one in each gap of the sorted dⱼ, found by a safeguarded rational
// (two-pole) iteration in a variable shifted to the nearer pole; the
// eigenvectors are ẑⱼ/(dⱼ − ν) with ẑ recomputed from the roots (Gu &
// Eisenstat 1994), which keeps them orthogonal to working precision. Its
// buffers are reused between calls.
type rankOneEig struct {
	perm       []int
	ds, zs     []float64
	nd, defl   []int
	rots       []givens
	dd, zq     []float64
	org        []int
	tau, delta []float64
	zh         []float64
	vs         []float64
}

type givens struct {
	p, k int
	c, s float64
}

// solve sets nu (length m) to the eigenvalues of diag(d) + ρ·zzᵀ and v
// (m×m, row-major) to orthonormal eigenvectors, column k for nu[k]. The
// eigenvalues come in no particular order.
func (e *rankOneEig) solve(d, z []float64, rho float64, nu, v []float64) {
	m := len(d)
	sign := 1.0
	if rho < 0 {
		sign, rho = -1, -rho
	}
	// Sort sign·d ascending.
	e.perm = e.perm[:0]
	for i := 0; i < m; i++ {
		e.perm = append(e.perm, i)
	}
	slices.SortFunc(e.perm, func(a, b int) int {
		da, db := sign*d[a], sign*d[b]
		switch {
		case da < db:
			return -1
		case da > db:
			return 1
		}
		return a - b
	})
	e.ds, e.zs = grown(e.ds, m), grown(e.zs, m)
	var zz, dmax float64
	for k, i := range e.perm {
		e.ds[k], e.zs[k] = sign*d[i], z[i]
		zz += z[i] * z[i]
		dmax = max(dmax, math.Abs(d[i]))
	}
	const eps = 0x1p-53
	tol := 8 * eps * max(dmax, rho*zz)
	zn := math.Sqrt(zz)
	// Deflation (dlaed2).
	e.nd, e.defl, e.rots = e.nd[:0], e.defl[:0], e.rots[:0]
	prev := -1
	for k := 0; k < m; k++ {
		if rho*math.Abs(e.zs[k])*zn <= tol {
			e.defl = append(e.defl, k)
			continue
		}
		if prev < 0 {
			prev = k
			continue
		}
		zp, zk := e.zs[prev], e.zs[k]
		t := math.Hypot(zp, zk)
		c, s := zk/t, -zp/t
		if math.Abs((e.ds[k]-e.ds[prev])*c*s) <= tol {
			// Rotate (prev, k) so that z_prev = 0: prev deflates.
			dp, dk := e.ds[prev], e.ds[k]
			e.zs[prev], e.zs[k] = 0, t
			e.ds[prev] = c*c*dp + s*s*dk
			e.ds[k] = s*s*dp + c*c*dk
			e.rots = append(e.rots, givens{prev, k, c, s})
			e.defl = append(e.defl, prev)
		} else {
			e.nd = append(e.nd, prev)
		}
		prev = k
	}
	if prev >= 0 {
		e.nd = append(e.nd, prev)
	}
	K := len(e.nd)
	e.dd, e.zq = grown(e.dd, K), grown(e.zq, K)
	for i, k := range e.nd {
		e.dd[i], e.zq[i] = e.ds[k], e.zs[k]*e.zs[k]
	}
	e.org = e.org[:0]
	e.tau, e.delta = grown(e.tau, K), grown(e.delta, K)
	for i := 0; i < K; i++ {
		o, t := e.secularRoot(i, rho)
		e.org = append(e.org, o)
		e.tau[i] = t
	}
	// ẑ from the roots (Gu & Eisenstat): with the interlacing
	// d₀ < ν₀ < d₁ < … < d_{K−1} < ν_{K−1},
	// ẑⱼ² = (ν_{K−1} − dⱼ)/ρ · Π_{k<j} (νₖ − dⱼ)/(dₖ − dⱼ) · Π_{j≤k<K−1} (νₖ − dⱼ)/(dₖ₊₁ − dⱼ).
	diff := func(k, j int) float64 { return (e.dd[e.org[k]] - e.dd[j]) + e.tau[k] } // νₖ − dⱼ
	e.zh = grown(e.zh, K)
	for j := 0; j < K; j++ {
		p := diff(K-1, j) / rho
		for k := 0; k < j; k++ {
			p *= diff(k, j) / (e.dd[k] - e.dd[j])
		}
		for k := j; k < K-1; k++ {
			p *= diff(k, j) / (e.dd[k+1] - e.dd[j])
		}
		e.zh[j] = math.Copysign(math.Sqrt(max(p, 0)), e.zs[e.nd[j]])
	}
	// Eigenvectors in sorted (rotated) coordinates: the secular ones, then
	// the deflated unit vectors.
	e.vs = grown(e.vs, m*m)
	vs := e.vs[:m*m]
	clear(vs)
	for k := 0; k < K; k++ {
		var nrm float64
		for j := 0; j < K; j++ {
			w := -e.zh[j] / diff(k, j)
			vs[e.nd[j]*m+k] = w
			nrm += w * w
		}
		nrm = 1 / math.Sqrt(nrm)
		for j := 0; j < K; j++ {
			vs[e.nd[j]*m+k] *= nrm
		}
		nu[k] = sign * (e.dd[e.org[k]] + e.tau[k])
	}
	for i, k := range e.defl {
		vs[k*m+K+i] = 1
		nu[K+i] = sign * e.ds[k]
	}
	// Undo the rotations (last first): x = Gᵀx'.
	for r := len(e.rots) - 1; r >= 0; r-- {
		g := e.rots[r]
		rp, rk := vs[g.p*m:g.p*m+m], vs[g.k*m:g.k*m+m]
		for j := range rp {
			a, b := rp[j], rk[j]
			rp[j], rk[j] = g.c*a-g.s*b, g.s*a+g.c*b
		}
	}
	for row, i := range e.perm {
		copy(v[i*m:i*m+m], vs[row*m:row*m+m])
	}
}

// secularRoot returns the i-th root of 1 + ρ·Σⱼ zqⱼ/(ddⱼ − ν) = 0 (ρ > 0,
// dd ascending, zq > 0) as ν = dd[o] + τ, with the origin o ∈ {i, i+1} the
// pole nearer the root, so that ddⱼ − ν = (ddⱼ − dd[o]) − τ keeps its
// relative accuracy.
func (e *rankOneEig) secularRoot(i int, rho float64) (int, float64) {
	K := len(e.dd)
	dd, zq, delta := e.dd, e.zq, e.delta
	g := func(o int, t float64) float64 {
		s := 1.0
		for j := 0; j < K; j++ {
			s += rho * zq[j] / ((dd[j] - dd[o]) - t)
		}
		return s
	}
	o := i
	var lo, hi float64
	if i < K-1 {
		half := (dd[i+1] - dd[i]) / 2
		if g(i, half) >= 0 {
			lo, hi = 0, half
		} else {
			o, lo, hi = i+1, -half, 0
		}
	} else {
		var s float64
		for _, v := range zq {
			s += v
		}
		lo, hi = 0, rho*s
	}
	for j := 0; j < K; j++ {
		delta[j] = dd[j] - dd[o]
	}
	p := delta[i] // the lower pole
	q := math.Inf(1)
	if i < K-1 {
		q = delta[i+1]
	}
	const eps = 0x1p-53
	t := lo + (hi-lo)/2
	for iter := 0; iter < 100; iter++ {
		// ψ (poles ≤ i) and φ (poles > i) with derivatives.
		var psi, dpsi, phi, dphi float64
		for j := 0; j <= i; j++ {
			r := 1 / (delta[j] - t)
			w := rho * zq[j] * r
			psi += w
			dpsi += w * r
		}
		for j := i + 1; j < K; j++ {
			r := 1 / (delta[j] - t)
			w := rho * zq[j] * r
			phi += w
			dphi += w * r
		}
		f := 1 + psi + phi
		if math.Abs(f) <= 8*eps*float64(K)*(1+math.Abs(psi)+math.Abs(phi)) {
			return o, t
		}
		if f < 0 {
			lo = t
		} else {
			hi = t
		}
		if hi-lo <= 2*eps*max(math.Abs(lo), math.Abs(hi)) {
			return o, lo + (hi-lo)/2
		}
		// Model ψ ≈ a₁ + b₁/(p − t), φ ≈ a₂ + b₂/(q − t), matched in value
		// and slope at t, and solve the model.
		b1 := dpsi * (p - t) * (p - t)
		a := 1 + psi - dpsi*(p-t)
		var next float64
		if i == K-1 {
			next = math.NaN()
			if a > 0 {
				next = p + b1/a
			}
		} else {
			b2 := dphi * (q - t) * (q - t)
			a += phi - dphi*(q-t)
			// a·(p−s)(q−s) + b₁(q−s) + b₂(p−s) = 0, quadratic in s.
			bq := a*(p+q) + b1 + b2
			cq := a*p*q + b1*q + b2*p
			next = math.NaN()
			if a == 0 {
				next = cq / bq
			} else if disc := bq*bq - 4*a*cq; disc >= 0 {
				sq := math.Copysign(math.Sqrt(disc), bq)
				r1 := (bq + sq) / (2 * a)
				r2 := 2 * cq / (bq + sq)
				if r1 > lo && r1 < hi {
					next = r1
				} else {
					next = r2
				}
			}
		}
		if !(next > lo && next < hi) {
			next = lo + (hi-lo)/2
		}
		t = next
	}
	return o, t
}

package core

import (
	"math"

	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/internal/str"
	"github.com/occfm/occfm/core/spectral"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// This file holds the projection machinery shared by the projected
// baselines of §5.1: CCFM-OGD, CCFM-PA and CCFM-FTRL. All three
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

// eigSym is a symmetric n×n matrix kept in eigen form
//
//	C = U·diag(λ)·Uᵀ,   U = B·R,
//
// with B an n×b matrix of orthonormal columns (the basis, row-major with
// stride ld so that the rows a sparse x̂ touches are contiguous), R a b×r
// matrix of orthonormal columns and λ ∈ ℝʳ the nonzero eigenvalues. The
// dense n×n matrix is never formed. Keeping the rotation R apart
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
	eig                         spectral.RankOneEig
}

// grow makes C an n×n matrix by appending zero rows and columns.
func (c *eigSym) grow(n int) {
	if n <= c.n {
		return
	}
	if c.ld == 0 {
		c.ld = 8
	}
	c.basis = spectral.GrowRows(c.basis, c.n, n, c.ld)
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
			spectral.Axpy(x.Val[k], c.brow(j+1), y)
		}
	}
}

// quad returns x̂ᵀCx̂ = Σᵢ λᵢ·(uᵢᵀx̂)² in O(nnz(x)·b + b·r). It does not
// change C.
func (c *eigSym) quad(x data.Sparse) float64 {
	if c.r == 0 {
		return 0
	}
	c.y = spectral.Grown(c.y, c.b+1)
	y := c.y[:c.b]
	c.coords(y, x)
	var q float64
	b := c.b
	for k, l := range c.lam {
		zk := spectral.Dot(y, c.rotT[k*b:k*b+b]) // uₖᵀx̂
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
	w := c.extend(x)
	r := c.r
	s, q, m := c.splitRot(w, b)
	// S = diag(λ, 0) + a·ssᵀ, m×m: V (row-major in c.sm) and ν.
	c.dvec = spectral.Grown(c.dvec, m)
	copy(c.dvec, c.lam[:r])
	if m > r {
		c.dvec[r] = 0
	}
	c.sm = spectral.Grown(c.sm, m*m)
	sm := c.sm[:m*m]
	c.vals = spectral.Grown(c.vals, m)
	nu := c.vals[:m]
	c.eig.Solve(c.dvec[:m], s[:m], a, nu, sm)
	th := c.keepProjected(nu, delta)
	c.rotate(sm, q, m, b, len(w))
	c.lam = spectral.Grown(c.lam, c.r)
	for k, e := range c.keep {
		c.lam[k] = spectral.SoftThreshold(nu[e], th)
	}
	if c.b > 2*c.r+16 {
		c.compact()
	}
}

// extend returns w = [y; ρ] with x̂ = [B, p/ρ]·w: y = Bᵀx̂ and p = x̂ − B·y
// (orthogonalized twice when cancellation threatens), appending p/ρ to the
// basis B when ρ is not zero to working precision.
func (c *eigSym) extend(x data.Sparse) []float64 {
	b := c.b
	c.y = spectral.Grown(c.y, b+1)
	y := c.y[:b]
	c.coords(y, x)
	xx := 1.0
	for _, v := range x.Val {
		xx += v * v
	}
	rho := 0.0
	if b < c.n {
		c.p = spectral.Grown(c.p, c.n)
		p := c.p
		c.residual(p, y, x)
		rho = math.Sqrt(spectral.Dot(p, p))
		if rho < 0.5*math.Sqrt(xx) {
			// Cancellation: a second Gram-Schmidt pass ("twice is enough").
			c.z = spectral.Grown(c.z, b)
			y2 := c.z[:b]
			bm, impl := c.basisData(), gonum.Implementation{}
			impl.Dgemv(blas.Trans, c.n, b, 1, bm, c.ld, p, 1, 0, y2, 1)
			impl.Dgemv(blas.NoTrans, c.n, b, -1, bm, c.ld, y2, 1, 1, p, 1)
			spectral.Axpy(1, y2, y)
			rho = math.Sqrt(spectral.Dot(p, p))
		}
		if rho <= 1e-12*math.Sqrt(xx) {
			rho = 0 // x̂ lies in span(B) to working precision
		}
	}
	if rho == 0 {
		return c.y[:b]
	}
	c.appendColumn(c.p, 1/rho)
	c.y = c.y[:b+1]
	c.y[b] = rho
	return c.y[:b+1]
}

// splitRot splits w (over the basis of b columns before extend, and ρ) as
// w = R'·w_R + σ·q̂ with q̂ ⊥ R' (projected twice), and returns s = [w_R; σ],
// q̂ and m, the order of S: r + 1, or r when σ is zero to working precision.
func (c *eigSym) splitRot(w []float64, b int) (s, q []float64, m int) {
	r := c.r
	c.s = spectral.Grown(c.s, r+1)
	s = c.s[:r+1]
	clear(s)
	c.z = spectral.Grown(c.z, len(w))
	q = c.z[:len(w)]
	copy(q, w)
	for pass := 0; pass < 2; pass++ {
		for k := 0; k < r; k++ {
			rk := c.rotT[k*b : k*b+b] // column k of R (of R' but its zero entry b)
			t := spectral.Dot(rk, q[:b])
			s[k] += t
			spectral.Axpy(-t, rk, q[:b])
		}
	}
	sigma := math.Sqrt(spectral.Dot(q, q))
	m = r
	if sigma > 1e-12*math.Sqrt(spectral.Dot(w, w)) {
		s[r] = sigma
		for i := range q {
			q[i] /= sigma
		}
		m = r + 1
	}
	return s, q, m
}

// rotate sets R to [R', q̂]·V_keep (bb × rn, bb the basis after extend,
// b before it), formed transposed: R_newᵀ = V_keepᵀ·R'ᵀ by gemm over the
// first r rows of V_keep (the zero row b of R' gives nothing), plus the last
// row of V_keep times q̂ᵀ.
func (c *eigSym) rotate(sm, q []float64, m, b, bb int) {
	r := c.r
	rn := len(c.keep)
	c.vkT = spectral.Grown(c.vkT, rn*m)
	vkT := c.vkT[:rn*m] // V_keepᵀ: rn×m
	for k, e := range c.keep {
		for j := 0; j < m; j++ {
			vkT[k*m+j] = sm[j*m+e]
		}
	}
	c.rot2 = spectral.Grown(c.rot2, rn*bb)
	rot2 := c.rot2[:rn*bb]
	clear(rot2)
	if b > 0 && r > 0 && rn > 0 {
		spectral.Gemm(rn, b, r, vkT, m, c.rotT[:r*b], b, rot2, bb)
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
}

// keepProjected returns the ℓ₁-ball threshold θ of nu for radius delta and
// sets c.keep to the indices of nu whose projection exceeds dropTol·delta in
// magnitude.
func (c *eigSym) keepProjected(nu []float64, delta float64) float64 {
	th, buf := spectral.L1BallThreshold(nu, delta, c.abs)
	c.abs = buf
	c.keep = c.keep[:0]
	for i, v := range nu {
		if math.Abs(spectral.SoftThreshold(v, th)) > dropTol*delta {
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
		c.rot2 = spectral.Grown(c.rot2, b*r)
		rot := c.rot2[:b*r] // R, row-major
		for k := 0; k < r; k++ {
			for i, v := range c.rotT[k*b : k*b+b] {
				rot[i*r+k] = v
			}
		}
		c.p = spectral.Grown(c.p, c.n*r)
		br := c.p[:c.n*r]
		spectral.Gemm(c.n, r, b, c.basisData(), c.ld, rot, r, br, r)
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
	c.rotT = spectral.Grown(c.rotT, r*r)
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
	c.du = spectral.Grown(c.du, n*r)
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
	c.dd = spectral.Grown(c.dd, n*n)
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
	c.vals = spectral.Grown(c.vals, n)
	nu := c.vals[:n]
	spectral.SymEigenInPlace(d, n, nu, &c.work)
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
	c.lam = spectral.Grown(c.lam, r)
	for k, e := range c.keep {
		c.lam[k] = spectral.SoftThreshold(nu[e], th)
	}
}

// memoryBytes estimates the bytes of the projected baselines' C: its basis
// (n×ld), rotation, and the scratch, including the dense n×n matrices of
// the dense projection.
func (c *eigSym) memoryBytes() int64 {
	return sumF64Bytes(c.basis, c.rotT, c.lam, c.y, c.z, c.p, c.s, c.vals, c.abs, c.work,
		c.dvec, c.sm, c.vkT, c.rot2, c.du, c.dd) + intBytes(c.keep) + c.eig.MemoryBytes()
}

// eigSym codes C = B·R·diag(λ)·(B·R)ᵀ of the projected baselines.
func (c *stateCodec) eigSym(e *eigSym) {
	n := e.n
	c.int(&n)
	c.int(&e.b)
	c.int(&e.r)
	c.int(&e.ld)
	b, r, ld := e.b, e.r, e.ld
	if c.violates(n >= 1 && (b > 0 || n <= maxUnbackedDim)) {
		c.fail("dimension " + str.Itoa(n))
	}
	// The stride only grows (it doubles when the basis is full), so it
	// may exceed b by far after a compaction; the bound only keeps a
	// crafted file from asking for unbounded memory.
	if c.violates(b >= 0 && r >= 0 && r <= b && ld >= max(b, 1) && ld <= 1<<16 && n*ld <= 8*n*max(b, 1)+1<<23) {
		c.fail("basis of " + str.Itoa(b) + " columns, rank " + str.Itoa(r) + ", stride " + str.Itoa(ld))
	}
	if c.err != nil {
		return
	}
	var basis []float64 // decoding: c.floats allocates what the file holds
	if !c.dec {
		basis = make([]float64, 0, n*b)
		for i := 0; i < n; i++ {
			basis = append(basis, e.brow(i)...)
		}
	}
	c.floats(&basis)
	c.floats(&e.rotT)
	c.floats(&e.lam)
	c.check(len(basis) == n*b && len(e.lam) == r && len(e.rotT) >= r*b, "C's factors of the wrong size")
	if !c.dec || !c.alloc(bytesOf(8, n, ld), "basis of "+str.Itoa(n)+"×"+str.Itoa(ld)) {
		return
	}
	e.n = n
	e.basis = make([]float64, n*ld)
	for i := 0; i < n; i++ {
		copy(e.basis[i*ld:i*ld+b], basis[i*b:i*b+b])
	}
}

// projectedDefaults fills in the defaults δ = 10, η = 1, seed 1 shared by
// the projected baselines and panics on negative values.
func projectedDefaults(delta, eta float64, seed uint64) (float64, float64, uint64) {
	if delta == 0 {
		delta = DefaultDelta
	}
	if eta == 0 {
		eta = 1
	}
	if seed == 0 {
		seed = 1
	}
	if !(delta > 0) || !(eta > 0) {
		panic("core: invalid settings of a projected CCFM baseline: δ and η must be positive")
	}
	return delta, eta, seed
}

// configOf returns the common Config of a projected baseline.
func configOf(delta, eta float64, seed uint64, loss Loss) Config {
	task := data.Regression
	if loss == Logistic {
		task = data.Classification
	}
	return Config{Task: task, Delta: delta, Eta: eta, Seed: seed, Loss: &loss}
}

// projectedCCFM is the state and the step shared by CCFM-OGD and CCFM-PA:
// C in eigen form, the round counter, and Cₜ₊₁ = Π_K(Cₜ + a·x̂x̂ᵀ) by the
// low-rank or the dense projection.
type projectedCCFM struct {
	t     int
	c     eigSym
	delta float64
	dense bool // DenseProjection
}

func newProjectedCCFM(delta float64, dense bool) projectedCCFM {
	p := projectedCCFM{delta: delta, dense: dense}
	p.c.grow(1)
	return p
}

// Predict returns ŷ = ½x̂ᵀCx̂ in O(nnz(x)·b + b·r). It does not change the
// learner's state. Features beyond the current feature space contribute
// nothing.
func (p *projectedCCFM) Predict(x data.Sparse) float64 { return 0.5 * p.c.quad(x) }

// begin starts round t: it grows C to cover x, counts the round and
// returns ŷₜ.
func (p *projectedCCFM) begin(x data.Sparse) float64 {
	growTo(&p.c, x)
	p.t++
	return p.Predict(x)
}

// move sets C = Π_K(C + a·x̂x̂ᵀ).
func (p *projectedCCFM) move(a float64, x data.Sparse) {
	if p.dense {
		p.c.updateDense(a, x, p.delta)
	} else {
		p.c.update(a, x, p.delta)
	}
}

// growTo grows c to cover the features of x.
func growTo(c *eigSym, x data.Sparse) {
	n := c.n
	for _, j := range x.Ind {
		n = max(n, j+2)
	}
	c.grow(n)
}

// NuclearNorm returns ‖C‖* = Σ|λᵢ(C)| ≤ δ.
func (p *projectedCCFM) NuclearNorm() float64 { return p.c.nuclearNorm() }

// Rank returns the rank of C (its eigenvalues are all nonzero by
// construction: those the projection zeroes are dropped).
func (p *projectedCCFM) Rank() int { return p.c.r }

// Dim returns the dimension of C, 1 + the number of features seen.
func (p *projectedCCFM) Dim() int { return p.c.n }

// Rounds returns the number of rounds played so far.
func (p *projectedCCFM) Rounds() int { return p.t }

// MemoryBytes estimates the bytes p holds (see Sized): C's basis, n×ld
// floats, and with DenseProjection the dense n×n matrix of the next update,
// counted even before it is allocated.
func (p *projectedCCFM) MemoryBytes() int64 {
	b := structBytes + p.c.memoryBytes()
	if p.dense {
		n2 := 8 * int64(p.c.n) * int64(p.c.n)
		b += max(0, n2-f64Bytes(p.c.dd))
	}
	return b
}

// MemoryNote says the dimension of C and its number of basis vectors (see
// MemoryNoter).
func (p *projectedCCFM) MemoryNote() string {
	if p.dense {
		return "a dense " + str.Thousands(int64(p.c.n)) + "×" + str.Thousands(int64(p.c.n)) + " matrix"
	}
	return str.Thousands(int64(p.c.b)) + " basis vectors of dimension " + str.Thousands(int64(p.c.n))
}

// projected codes the state of CCFM-OGD and CCFM-PA: t and C (δ and the
// projection method come from the settings).
func (c *stateCodec) projected(p *projectedCCFM) {
	c.int(&p.t)
	if c.violates(p.t >= 0) {
		c.fail(str.Itoa(p.t) + " rounds")
	}
	c.eigSym(&p.c)
}

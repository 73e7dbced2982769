package spectral

import "math"

// Operator is a symmetric linear operator on ℝⁿ given by its product:
// Apply sets y = y + A·v.
type Operator interface {
	Dim() int
	Apply(y, v []float64)
}

// LanczosResult holds Ritz pairs of a Lanczos run, sorted by decreasing |θ|,
// and the residual norms ‖A·s − θ·s‖ of the Ritz vectors.
type LanczosResult struct {
	Theta []float64   // Ritz values
	Vecs  [][]float64 // Ritz vectors (unit, length n)
	Resid []float64   // residual norm of each Ritz pair
	Ay    [][]float64 // A·vecs[i], from the Lanczos relation (no extra product)
	Iters int         // number of products with A
	// Next is |θ| + residual of the largest Ritz pair not kept (0 if none):
	// an estimate of the largest |λ| of A outside span(vecs).
	Next float64
}

// Lanczos runs the symmetric Lanczos process with full
// reorthogonalization on op from start (need not be unit; a zero start is
// replaced by the all-ones direction), for at most maxIter steps, stopping
// early once the Ritz pair of largest |θ| has residual at most tol·|θ| after
// at least minIter steps. It returns the keep Ritz pairs of largest |θ|.
// Both ends of the spectrum are resolved, unlike the power method, which
// crawls when λ_max ≈ −λ_min. It allocates its result; a
// learner that refreshes often keeps a LanczosWork instead.
//
// With Qⱼ the Lanczos basis and Tⱼ = QⱼᵀAQⱼ tridiagonal, A·Qⱼ = Qⱼ·Tⱼ +
// βⱼ·qⱼ₊₁·eⱼᵀ, so A·s for a Ritz vector s = Qⱼ·v is θ·s + βⱼ·vⱼ·qⱼ₊₁: the
// products A·s come for free.
func Lanczos(op Operator, start []float64, keep, minIter, maxIter int, tol float64) LanczosResult {
	var lw LanczosWork
	return *lw.Run(op, start, keep, minIter, maxIter, tol)
}

// LanczosWork is the reusable workspace of a Lanczos run: once it has
// Grown to the problem's size, run allocates nothing. The result it returns
// points into the workspace and is valid until the next run.
type LanczosWork struct {
	Qb    []float64   // (maxIter+1)×n backing of the Lanczos basis
	q     [][]float64 // the basis vectors, slices of qb
	w     []float64
	alpha []float64
	beta  []float64
	d, e  []float64 // tridiagonal copies for Dsteqr
	z     []float64 // m×m eigenvectors of T
	work  []float64
	order []int
	vb    []float64 // keep×n backing of the Ritz vectors and their products
	res   LanczosResult
}

// Run is lanczos on the workspace.
func (lw *LanczosWork) Run(op Operator, start []float64, keep, minIter, maxIter int, tol float64) *LanczosResult {
	return lw.iterate(op, start, keep, minIter, maxIter, tol, false)
}

// RunValues is run without assembling the Ritz vectors: call assemble for
// those needed.
func (lw *LanczosWork) RunValues(op Operator, start []float64, keep, minIter, maxIter int, tol float64) *LanczosResult {
	return lw.iterate(op, start, keep, minIter, maxIter, tol, true)
}

func (lw *LanczosWork) iterate(op Operator, start []float64, keep, minIter, maxIter int, tol float64, lazy bool) *LanczosResult {
	n := op.Dim()
	maxIter = min(maxIter, n)
	minIter = min(minIter, maxIter)
	keep = min(keep, maxIter)
	lw.Qb = Grown(lw.Qb, (maxIter+1)*n)
	lw.q = lw.q[:0]
	v := lw.Qb[:n]
	copy(v, start)
	if Normalize(v) == 0 {
		for i := range v {
			v[i] = 1 / math.Sqrt(float64(n))
		}
	}
	lw.q = append(lw.q, v)
	lw.alpha, lw.beta = lw.alpha[:0], lw.beta[:0]
	lw.w = Grown(lw.w, n)
	w := lw.w
	iters := 0
	for j := 0; j < maxIter; j++ {
		clear(w)
		op.Apply(w, lw.q[j])
		iters++
		a := Dot(w, lw.q[j])
		lw.alpha = append(lw.alpha, a)
		// The three-term recurrence, then full reorthogonalization against
		// the whole basis, repeated when it removed more than half of w
		// (Daniel-Gragg-Kaufman-Stewart; "twice is enough").
		Axpy(-a, lw.q[j], w)
		if j > 0 {
			Axpy(-lw.beta[j-1], lw.q[j-1], w)
		}
		b := math.Sqrt(Dot(w, w))
		for pass := 0; pass < 2; pass++ {
			for _, qi := range lw.q {
				Axpy(-Dot(w, qi), qi, w)
			}
			nb := math.Sqrt(Dot(w, w))
			stop := nb >= 0.5*b
			b = nb
			if stop {
				break
			}
		}
		m := j + 1
		done := b <= 1e-14*math.Abs(a) || b == 0 || m == maxIter
		// The convergence check solves the tridiagonal eigenproblem with
		// vectors, O(m³): do it at minIter and then every fourth step.
		if !done && m >= minIter && (m-minIter)%4 == 0 {
			th, z := lw.tridiag()
			top := ArgMaxAbs(th)
			if b*math.Abs(z[(m-1)*m+top]) <= tol*math.Abs(th[top]) {
				done = true
			}
		}
		if done {
			if lazy {
				return lw.ritzValues(b, keep, iters)
			}
			return lw.ritz(b, keep, iters)
		}
		lw.beta = append(lw.beta, b)
		next := lw.Qb[m*n : (m+1)*n]
		for i := range next {
			next[i] = w[i] / b
		}
		lw.q = append(lw.q, next)
	}
	panic("unreachable")
}

// tridiag returns the eigenvalues (ascending) and the m×m row-major
// eigenvector matrix of the current tridiagonal T, in workspace memory.
func (lw *LanczosWork) tridiag() ([]float64, []float64) {
	m := len(lw.alpha)
	lw.d = append(lw.d[:0], lw.alpha...)
	lw.e = append(lw.e[:0], lw.beta[:m-1]...)
	lw.e = append(lw.e, 0)
	lw.z = Grown(lw.z, m*m)
	lw.work = Grown(lw.work, max(1, 2*m-2))
	tridiagEigenTo(lw.d, lw.e, lw.z, lw.work)
	return lw.d, lw.z
}

// ritz computes the keep Ritz values of largest |θ| of the m-step Lanczos
// decomposition with basis q[:m], tridiagonal (alpha, beta) and remainder
// w = b·qₘ₊₁ (w is the unnormalized next vector), their residuals and next,
// and assembles the first keep Ritz vectors (see assemble).
func (lw *LanczosWork) ritz(b float64, keep, iters int) *LanczosResult {
	res := lw.ritzValues(b, keep, iters)
	lw.Assemble(len(res.Theta))
	return res
}

// ritzValues is ritz without the vectors: res.vecs and res.ay are empty.
func (lw *LanczosWork) ritzValues(b float64, keep, iters int) *LanczosResult {
	m := len(lw.alpha)
	th, z := lw.tridiag()
	lw.order = OrderByAbs(lw.order, th)
	keep = min(keep, m)
	res := &lw.res
	res.Iters, res.Next = iters, 0
	res.Theta, res.Vecs, res.Ay, res.Resid = res.Theta[:0], res.Vecs[:0], res.Ay[:0], res.Resid[:0]
	for _, k := range lw.order[:keep] {
		res.Theta = append(res.Theta, th[k])
		res.Resid = append(res.Resid, b*math.Abs(z[(m-1)*m+k]))
	}
	if keep < m {
		k := lw.order[keep]
		res.Next = math.Abs(th[k]) + b*math.Abs(z[(m-1)*m+k])
	}
	return res
}

// Assemble sets res.vecs and res.ay to the first cnt Ritz vectors s = Qⱼv
// and their products A·s = θs + βⱼvⱼqⱼ₊₁, after ritzValues.
func (lw *LanczosWork) Assemble(cnt int) {
	m := len(lw.alpha)
	n := len(lw.w)
	th, z := lw.d, lw.z
	res := &lw.res
	res.Vecs, res.Ay = res.Vecs[:0], res.Ay[:0]
	lw.vb = Grown(lw.vb, 2*cnt*n)
	for r, k := range lw.order[:cnt] {
		s := lw.vb[2*r*n : (2*r+1)*n]
		clear(s)
		for j := 0; j < m; j++ {
			Axpy(z[j*m+k], lw.q[j], s)
		}
		as := lw.vb[(2*r+1)*n : (2*r+2)*n]
		for i := range as {
			as[i] = th[k] * s[i]
		}
		// w = b·qₘ₊₁ already, so A·s = θs + vₘ·w.
		Axpy(z[(m-1)*m+k], lw.w, as)
		res.Vecs = append(res.Vecs, s)
		res.Ay = append(res.Ay, as)
	}
}

func ArgMaxAbs(x []float64) int {
	best := 0
	for i, v := range x {
		if math.Abs(v) > math.Abs(x[best]) {
			best = i
		}
	}
	return best
}

// OrderByAbs returns the indices of x by decreasing |x[i]|, in idx's
// memory (insertion sort: the slices are short).
func OrderByAbs(idx []int, x []float64) []int {
	idx = idx[:0]
	for i := range x {
		idx = append(idx, i)
	}
	for i := 1; i < len(idx); i++ {
		for j := i; j > 0 && math.Abs(x[idx[j]]) > math.Abs(x[idx[j-1]]); j-- {
			idx[j], idx[j-1] = idx[j-1], idx[j]
		}
	}
	return idx
}

func Dot(a, b []float64) float64 {
	if len(a) >= 16 {
		return dotLong(a, b[:len(a)])
	}
	var s float64
	for i, v := range a {
		s += v * b[i]
	}
	return s
}

// Axpy sets y = y + α·x.
func Axpy(alpha float64, x, y []float64) {
	if len(x) >= 16 {
		axpyLong(alpha, x, y[:len(x)])
		return
	}
	for i, v := range x {
		y[i] += alpha * v
	}
}

// Normalize scales v to unit length and returns its former norm.
func Normalize(v []float64) float64 {
	nrm := math.Sqrt(Dot(v, v))
	if nrm == 0 {
		return 0
	}
	for i := range v {
		v[i] /= nrm
	}
	return nrm
}

// MemoryBytes estimates the bytes of a Lanczos workspace: its basis
// ((maxIter+1)×n) and Ritz vectors (keep×n) dominate.
func (lw *LanczosWork) MemoryBytes() int64 {
	r := &lw.res
	return sumF64Bytes(lw.Qb, lw.w, lw.alpha, lw.beta, lw.d, lw.e, lw.z, lw.work, lw.vb, r.Theta, r.Resid) +
		intBytes(lw.order) + 24*int64(cap(lw.q)+cap(r.Vecs)+cap(r.Ay))
}

// f64Bytes and intBytes are the bytes held by a slice's capacity.
func f64Bytes(s []float64) int64 { return 8 * int64(cap(s)) }
func intBytes(s []int) int64     { return 8 * int64(cap(s)) }

// sumF64Bytes is f64Bytes summed over ss.
func sumF64Bytes(ss ...[]float64) int64 {
	var n int64
	for _, s := range ss {
		n += f64Bytes(s)
	}
	return n
}

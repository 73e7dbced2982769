package core

import "math"

// symOperator is a symmetric linear operator on ℝⁿ given by its product:
// apply sets y = y + A·v.
type symOperator interface {
	dim() int
	apply(y, v []float64)
}

// lanczosResult holds Ritz pairs of a Lanczos run, sorted by decreasing |θ|,
// and the residual norms ‖A·s − θ·s‖ of the Ritz vectors.
type lanczosResult struct {
	theta []float64   // Ritz values
	vecs  [][]float64 // Ritz vectors (unit, length n)
	resid []float64   // residual norm of each Ritz pair
	ay    [][]float64 // A·vecs[i], from the Lanczos relation (no extra product)
	iters int         // number of products with A
	// next is |θ| + residual of the largest Ritz pair not kept (0 if none):
	// an estimate of the largest |λ| of A outside span(vecs).
	next float64
}

// lanczos runs the symmetric Lanczos process with full
// reorthogonalization on op from start (need not be unit; a zero start is
// replaced by the all-ones direction), for at most maxIter steps, stopping
// early once the Ritz pair of largest |θ| has residual at most tol·|θ| after
// at least minIter steps. It returns the keep Ritz pairs of largest |θ|.
// Both ends of the spectrum are resolved, unlike the power method, which
// crawls when λ_max ≈ −λ_min (DESIGN §2). It allocates its result; a
// learner that refreshes often keeps a lanczosWork instead.
//
// With Qⱼ the Lanczos basis and Tⱼ = QⱼᵀAQⱼ tridiagonal, A·Qⱼ = Qⱼ·Tⱼ +
// βⱼ·qⱼ₊₁·eⱼᵀ, so A·s for a Ritz vector s = Qⱼ·v is θ·s + βⱼ·vⱼ·qⱼ₊₁: the
// products A·s come for free.
func lanczos(op symOperator, start []float64, keep, minIter, maxIter int, tol float64) lanczosResult {
	var lw lanczosWork
	return *lw.run(op, start, keep, minIter, maxIter, tol)
}

// lanczosWork is the reusable workspace of a Lanczos run: once it has
// grown to the problem's size, run allocates nothing. The result it returns
// points into the workspace and is valid until the next run.
type lanczosWork struct {
	qb    []float64   // (maxIter+1)×n backing of the Lanczos basis
	q     [][]float64 // the basis vectors, slices of qb
	w     []float64
	alpha []float64
	beta  []float64
	d, e  []float64 // tridiagonal copies for Dsteqr
	z     []float64 // m×m eigenvectors of T
	work  []float64
	order []int
	vb    []float64 // keep×n backing of the Ritz vectors and their products
	res   lanczosResult
}

// run is lanczos on the workspace.
func (lw *lanczosWork) run(op symOperator, start []float64, keep, minIter, maxIter int, tol float64) *lanczosResult {
	return lw.iterate(op, start, keep, minIter, maxIter, tol, false)
}

// runValues is run without assembling the Ritz vectors: call assemble for
// those needed.
func (lw *lanczosWork) runValues(op symOperator, start []float64, keep, minIter, maxIter int, tol float64) *lanczosResult {
	return lw.iterate(op, start, keep, minIter, maxIter, tol, true)
}

func (lw *lanczosWork) iterate(op symOperator, start []float64, keep, minIter, maxIter int, tol float64, lazy bool) *lanczosResult {
	n := op.dim()
	maxIter = min(maxIter, n)
	minIter = min(minIter, maxIter)
	keep = min(keep, maxIter)
	lw.qb = grown(lw.qb, (maxIter+1)*n)
	lw.q = lw.q[:0]
	v := lw.qb[:n]
	copy(v, start)
	if normalize(v) == 0 {
		for i := range v {
			v[i] = 1 / math.Sqrt(float64(n))
		}
	}
	lw.q = append(lw.q, v)
	lw.alpha, lw.beta = lw.alpha[:0], lw.beta[:0]
	lw.w = grown(lw.w, n)
	w := lw.w
	iters := 0
	for j := 0; j < maxIter; j++ {
		clear(w)
		op.apply(w, lw.q[j])
		iters++
		a := dot(w, lw.q[j])
		lw.alpha = append(lw.alpha, a)
		// The three-term recurrence, then full reorthogonalization against
		// the whole basis, repeated when it removed more than half of w
		// (Daniel-Gragg-Kaufman-Stewart; "twice is enough").
		axpy(-a, lw.q[j], w)
		if j > 0 {
			axpy(-lw.beta[j-1], lw.q[j-1], w)
		}
		b := math.Sqrt(dot(w, w))
		for pass := 0; pass < 2; pass++ {
			for _, qi := range lw.q {
				axpy(-dot(w, qi), qi, w)
			}
			nb := math.Sqrt(dot(w, w))
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
			top := argMaxAbs(th)
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
		next := lw.qb[m*n : (m+1)*n]
		for i := range next {
			next[i] = w[i] / b
		}
		lw.q = append(lw.q, next)
	}
	panic("unreachable")
}

// tridiag returns the eigenvalues (ascending) and the m×m row-major
// eigenvector matrix of the current tridiagonal T, in workspace memory.
func (lw *lanczosWork) tridiag() ([]float64, []float64) {
	m := len(lw.alpha)
	lw.d = append(lw.d[:0], lw.alpha...)
	lw.e = append(lw.e[:0], lw.beta[:m-1]...)
	lw.e = append(lw.e, 0)
	lw.z = grown(lw.z, m*m)
	lw.work = grown(lw.work, max(1, 2*m-2))
	tridiagEigenTo(lw.d, lw.e, lw.z, lw.work)
	return lw.d, lw.z
}

// ritz computes the keep Ritz values of largest |θ| of the m-step Lanczos
// decomposition with basis q[:m], tridiagonal (alpha, beta) and remainder
// w = b·qₘ₊₁ (w is the unnormalized next vector), their residuals and next,
// and assembles the first keep Ritz vectors (see assemble).
func (lw *lanczosWork) ritz(b float64, keep, iters int) *lanczosResult {
	res := lw.ritzValues(b, keep, iters)
	lw.assemble(len(res.theta))
	return res
}

// ritzValues is ritz without the vectors: res.vecs and res.ay are empty.
func (lw *lanczosWork) ritzValues(b float64, keep, iters int) *lanczosResult {
	m := len(lw.alpha)
	th, z := lw.tridiag()
	lw.order = orderByAbs(lw.order, th)
	keep = min(keep, m)
	res := &lw.res
	res.iters, res.next = iters, 0
	res.theta, res.vecs, res.ay, res.resid = res.theta[:0], res.vecs[:0], res.ay[:0], res.resid[:0]
	for _, k := range lw.order[:keep] {
		res.theta = append(res.theta, th[k])
		res.resid = append(res.resid, b*math.Abs(z[(m-1)*m+k]))
	}
	if keep < m {
		k := lw.order[keep]
		res.next = math.Abs(th[k]) + b*math.Abs(z[(m-1)*m+k])
	}
	return res
}

// assemble sets res.vecs and res.ay to the first cnt Ritz vectors s = Qⱼv
// and their products A·s = θs + βⱼvⱼqⱼ₊₁, after ritzValues.
func (lw *lanczosWork) assemble(cnt int) {
	m := len(lw.alpha)
	n := len(lw.w)
	th, z := lw.d, lw.z
	res := &lw.res
	res.vecs, res.ay = res.vecs[:0], res.ay[:0]
	lw.vb = grown(lw.vb, 2*cnt*n)
	for r, k := range lw.order[:cnt] {
		s := lw.vb[2*r*n : (2*r+1)*n]
		clear(s)
		for j := 0; j < m; j++ {
			axpy(z[j*m+k], lw.q[j], s)
		}
		as := lw.vb[(2*r+1)*n : (2*r+2)*n]
		for i := range as {
			as[i] = th[k] * s[i]
		}
		// w = b·qₘ₊₁ already, so A·s = θs + vₘ·w.
		axpy(z[(m-1)*m+k], lw.w, as)
		res.vecs = append(res.vecs, s)
		res.ay = append(res.ay, as)
	}
}

func argMaxAbs(x []float64) int {
	best := 0
	for i, v := range x {
		if math.Abs(v) > math.Abs(x[best]) {
			best = i
		}
	}
	return best
}

// orderByAbs returns the indices of x by decreasing |x[i]|, in idx's
// memory (insertion sort: the slices are short).
func orderByAbs(idx []int, x []float64) []int {
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

func dot(a, b []float64) float64 {
	if len(a) >= 16 {
		return dotLong(a, b[:len(a)])
	}
	var s float64
	for i, v := range a {
		s += v * b[i]
	}
	return s
}

// axpy sets y = y + α·x.
func axpy(alpha float64, x, y []float64) {
	if len(x) >= 16 {
		axpyLong(alpha, x, y[:len(x)])
		return
	}
	for i, v := range x {
		y[i] += alpha * v
	}
}

// normalize scales v to unit length and returns its former norm.
func normalize(v []float64) float64 {
	nrm := math.Sqrt(dot(v, v))
	if nrm == 0 {
		return 0
	}
	for i := range v {
		v[i] /= nrm
	}
	return nrm
}

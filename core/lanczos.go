package core

import (
	"math"

	"gonum.org/v1/gonum/mat"
)

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
// replaced by e₁ + the all-ones direction), for at most maxIter steps,
// stopping early once the Ritz pair of largest |θ| has residual at most
// tol·|θ| after at least minIter steps. It returns the keep Ritz pairs of
// largest |θ|. Both ends of the spectrum are resolved, unlike the power
// method, which crawls when λ_max ≈ −λ_min (DESIGN §2).
//
// With Qⱼ the Lanczos basis and Tⱼ = QⱼᵀAQⱼ tridiagonal, A·Qⱼ = Qⱼ·Tⱼ +
// βⱼ·qⱼ₊₁·eⱼᵀ, so A·s for a Ritz vector s = Qⱼ·v is θ·s + βⱼ·vⱼ·qⱼ₊₁: the
// products A·s come for free.
func lanczos(op symOperator, start []float64, keep, minIter, maxIter int, tol float64) lanczosResult {
	n := op.dim()
	maxIter = min(maxIter, n)
	minIter = min(minIter, maxIter)
	keep = min(keep, maxIter)
	q := make([][]float64, 0, maxIter+1)
	v := make([]float64, n)
	copy(v, start)
	if normalize(v) == 0 {
		for i := range v {
			v[i] = 1 / math.Sqrt(float64(n))
		}
	}
	q = append(q, v)
	alpha := make([]float64, 0, maxIter)
	beta := make([]float64, 0, maxIter)
	w := make([]float64, n)
	var res lanczosResult
	for j := 0; j < maxIter; j++ {
		clear(w)
		op.apply(w, q[j])
		res.iters++
		a := dot(w, q[j])
		alpha = append(alpha, a)
		// Full reorthogonalization, twice (Kahan-Parlett "twice is enough").
		for pass := 0; pass < 2; pass++ {
			for _, qi := range q {
				axpy(-dot(w, qi), qi, w)
			}
		}
		b := math.Sqrt(dot(w, w))
		m := j + 1
		done := b <= 1e-14*math.Abs(a) || b == 0 || m == maxIter
		// The convergence check solves the tridiagonal eigenproblem with
		// vectors, O(m³): do it at minIter and then every fourth step.
		if !done && m >= minIter && (m-minIter)%4 == 0 {
			th, vv := tridiagEigen(alpha, beta)
			top := argMaxAbs(th)
			if b*math.Abs(vv.At(m-1, top)) <= tol*math.Abs(th[top]) {
				done = true
			}
		}
		if done {
			return ritz(q, alpha, beta, b, w, keep, res.iters)
		}
		beta = append(beta, b)
		next := make([]float64, n)
		for i := range next {
			next[i] = w[i] / b
		}
		q = append(q, next)
	}
	panic("unreachable")
}

// ritz assembles the Ritz pairs of the m-step Lanczos decomposition with
// basis q[:m], tridiagonal (alpha, beta) and remainder w = b·qₘ₊₁ (w is the
// unnormalized next vector).
func ritz(q [][]float64, alpha, beta []float64, b float64, w []float64, keep, iters int) lanczosResult {
	m := len(alpha)
	n := len(q[0])
	th, vv := tridiagEigen(alpha, beta)
	order := make([]int, m)
	for i := range order {
		order[i] = i
	}
	sortByAbsDesc(order, th)
	keep = min(keep, m)
	res := lanczosResult{iters: iters}
	for _, k := range order[:keep] {
		s := make([]float64, n)
		for j := 0; j < m; j++ {
			axpy(vv.At(j, k), q[j], s)
		}
		as := make([]float64, n)
		for i := range as {
			as[i] = th[k] * s[i]
		}
		// w = b·qₘ₊₁ already, so A·s = θs + vₘ·w.
		axpy(vv.At(m-1, k), w, as)
		res.theta = append(res.theta, th[k])
		res.vecs = append(res.vecs, s)
		res.ay = append(res.ay, as)
		res.resid = append(res.resid, b*math.Abs(vv.At(m-1, k)))
	}
	if keep < m {
		k := order[keep]
		res.next = math.Abs(th[k]) + b*math.Abs(vv.At(m-1, k))
	}
	return res
}

// tridiagEigen returns the eigenvalues and eigenvectors of the symmetric
// tridiagonal matrix with diagonal alpha and off-diagonal beta (len m−1 or
// more; extra entries are ignored).
func tridiagEigen(alpha, beta []float64) ([]float64, *mat.Dense) {
	m := len(alpha)
	t := mat.NewSymDense(m, nil)
	for i := 0; i < m; i++ {
		t.SetSym(i, i, alpha[i])
		if i+1 < m {
			t.SetSym(i, i+1, beta[i])
		}
	}
	var es mat.EigenSym
	if !es.Factorize(t, true) {
		panic("core: tridiagonal eigendecomposition failed")
	}
	var vecs mat.Dense
	es.VectorsTo(&vecs)
	return es.Values(nil), &vecs
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

// sortByAbsDesc sorts the index slice idx by decreasing |x[idx[i]]|
// (insertion sort: the slices are short).
func sortByAbsDesc(idx []int, x []float64) {
	for i := 1; i < len(idx); i++ {
		for j := i; j > 0 && math.Abs(x[idx[j]]) > math.Abs(x[idx[j-1]]); j-- {
			idx[j], idx[j-1] = idx[j-1], idx[j]
		}
	}
}

func dot(a, b []float64) float64 {
	var s float64
	for i, v := range a {
		s += v * b[i]
	}
	return s
}

// axpy sets y = y + α·x.
func axpy(alpha float64, x, y []float64) {
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

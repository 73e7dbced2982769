package core

import (
	"math"

	"gonum.org/v1/gonum/mat"
)

// lowRankSym is a symmetric n×n matrix kept in factored form
//
//	C = U·M·Uᵀ,
//
// with U an n×b matrix of orthonormal columns and M a symmetric b×b matrix
// (DESIGN §2, "Efficient representation"). The dense n×n matrix is never
// formed. Its nuclear norm is Σ|λᵢ(M)|. U is stored row-major with stride
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

	row []float64 // scratch, length ≥ b
}

// grow makes C an n×n matrix by appending zero rows and columns.
func (c *lowRankSym) grow(n int) {
	if n <= c.n {
		return
	}
	if c.ld == 0 {
		c.ld = 8
	}
	need := n * c.ld
	if need > cap(c.u) {
		u := make([]float64, need, 2*need)
		copy(u, c.u)
		c.u = u
	} else {
		c.u = c.u[:need]
		clear(c.u[c.n*c.ld:])
	}
	c.n = n
}

// urow returns row i of U (length b).
func (c *lowRankSym) urow(i int) []float64 { return c.u[i*c.ld : i*c.ld+c.b] }

// project sets z = Uᵀx̂ for the sparse augmented vector x̂ = [1; x], with
// feature j of x at position j+1: O(nnz(x)·b). z must have length b.
func (c *lowRankSym) project(z []float64, x Sparse) {
	copy(z, c.urow(0))
	for k, j := range x.Ind {
		if j+1 >= c.n {
			continue
		}
		axpy(x.Val[k], c.urow(j+1), z)
	}
}

// quad returns zᵀMz.
func (c *lowRankSym) quad(z []float64) float64 { return quadForm(c.m, z) }

// quadForm returns zᵀMz for the b×b row-major M, b = len(z).
func quadForm(m, z []float64) float64 {
	b := len(z)
	var q float64
	for i, zi := range z {
		if zi != 0 {
			q += zi * dot(m[i*b:i*b+b], z)
		}
	}
	return q
}

// symEigen returns the eigenvalues (ascending) and eigenvectors of the
// symmetric part ½(A + Aᵀ) of the b×b row-major A.
func symEigen(a []float64, b int) ([]float64, *mat.Dense) {
	sym := mat.NewSymDense(b, nil)
	for i := 0; i < b; i++ {
		for j := i; j < b; j++ {
			sym.SetSym(i, j, 0.5*(a[i*b+j]+a[j*b+i]))
		}
	}
	var es mat.EigenSym
	if !es.Factorize(sym, true) {
		panic("core: eigendecomposition of a small symmetric matrix failed")
	}
	var vecs mat.Dense
	es.VectorsTo(&vecs)
	return es.Values(nil), &vecs
}

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

// eigen returns the eigenvalues of M (the nonzero eigenvalues of C) and the
// b×b matrix of eigenvectors, sorted by decreasing |λ|.
func (c *lowRankSym) eigen() ([]float64, *mat.Dense) {
	b := c.b
	if b == 0 {
		return nil, nil
	}
	vals, vecs := symEigen(c.m, b)
	idx := make([]int, b)
	for i := range idx {
		idx[i] = i
	}
	sortByAbsDesc(idx, vals)
	sorted := make([]float64, b)
	out := mat.NewDense(b, b, nil)
	for k, i := range idx {
		sorted[k] = vals[i]
		for j := 0; j < b; j++ {
			out.Set(j, k, vecs.At(j, i))
		}
	}
	return sorted, out
}

// nuclearNorm returns ‖C‖* = Σ|λᵢ|.
func (c *lowRankSym) nuclearNorm() float64 {
	vals, _ := c.eigen()
	var s float64
	for _, v := range vals {
		s += math.Abs(v)
	}
	return s
}

// mulVec sets y = y + α·C·v for dense v and y of length n: O(n·b).
func (c *lowRankSym) mulVec(y []float64, alpha float64, v []float64) {
	b := c.b
	if b == 0 {
		return
	}
	a := make([]float64, b)
	for i := 0; i < c.n; i++ {
		if vi := v[i]; vi != 0 {
			axpy(vi, c.urow(i), a)
		}
	}
	ma := make([]float64, b)
	for i := range ma {
		ma[i] = alpha * dot(c.m[i*b:i*b+b], a)
	}
	for i := 0; i < c.n; i++ {
		y[i] += dot(c.urow(i), ma)
	}
}

// rebase re-expresses C in a new basis whose first columns are the given
// orthonormal vectors s (each of length n): U' = [s, W] with W an
// orthonormal basis of the part of C's range outside span(s). On the way
// C is re-diagonalized and its eigenpairs of smallest |λ| with total at
// most tol are dropped (dropping only lowers ‖C‖*); if bound > 0 and ‖C‖*
// exceeds it after rounding, the eigenvalues are scaled down to meet it, so
// C stays in K exactly. Cost O(n·(b + len(s))²).
func (c *lowRankSym) rebase(s [][]float64, tol, bound float64) {
	n, k := c.n, len(s)
	// C = Q·Λ·Qᵀ with Q = U·V[:, :r].
	vals, vecs := c.eigen()
	r := len(vals)
	var dropped float64
	for r > 0 && dropped+math.Abs(vals[r-1]) <= tol {
		dropped += math.Abs(vals[r-1])
		r--
	}
	var norm float64
	for _, v := range vals[:r] {
		norm += math.Abs(v)
	}
	f := 1.0
	if bound > 0 && norm > bound {
		f = bound / norm
	}
	q := make([]float64, n*r) // row-major n×r
	if r > 0 {
		vd := vecs.RawMatrix()
		for i := 0; i < n; i++ {
			ui := c.urow(i)
			qi := q[i*r : i*r+r]
			for j, uij := range ui {
				if uij != 0 {
					axpy(uij, vd.Data[j*vd.Stride:j*vd.Stride+r], qi)
				}
			}
		}
	}
	// New basis: the k vectors s, then the part of Q outside span(s),
	// orthonormalized by modified Gram-Schmidt (twice), dropping columns that
	// vanish.
	cols := make([][]float64, 0, k+r)
	cols = append(cols, s...)
	for j := 0; j < r; j++ {
		v := make([]float64, n)
		for i := 0; i < n; i++ {
			v[i] = q[i*r+j]
		}
		for pass := 0; pass < 2; pass++ {
			for _, u := range cols {
				axpy(-dot(v, u), u, v)
			}
		}
		if normalize(v) > 1e-10 {
			cols = append(cols, v)
		}
	}
	b := len(cols)
	// P = U'ᵀQ (b×r), M' = P·diag(fΛ)·Pᵀ.
	p := make([]float64, b*r)
	for a, u := range cols {
		for i := 0; i < n; i++ {
			if ui := u[i]; ui != 0 {
				axpy(ui, q[i*r:i*r+r], p[a*r:a*r+r])
			}
		}
	}
	m := make([]float64, b*b)
	for a := 0; a < b; a++ {
		for e := a; e < b; e++ {
			var t float64
			for j := 0; j < r; j++ {
				t += p[a*r+j] * f * vals[j] * p[e*r+j]
			}
			m[a*b+e], m[e*b+a] = t, t
		}
	}
	// Store U' row-major.
	if c.ld < b || c.ld > 4*b+8 {
		c.ld = max(8, b+b/2)
		c.u = make([]float64, n*c.ld, 2*n*c.ld)
	}
	clear(c.u)
	for a, u := range cols {
		for i := 0; i < n; i++ {
			c.u[i*c.ld+a] = u[i]
		}
	}
	c.b, c.m = b, m
}

// dense returns C as a dense matrix (tests and small n only).
func (c *lowRankSym) dense() *mat.SymDense {
	d := mat.NewSymDense(max(c.n, 1), nil)
	for i := 0; i < c.n; i++ {
		ui := c.urow(i)
		mu := make([]float64, c.b)
		for a := range mu {
			mu[a] = dot(c.m[a*c.b:a*c.b+c.b], ui)
		}
		for j := i; j < c.n; j++ {
			d.SetSym(i, j, dot(c.urow(j), mu))
		}
	}
	return d
}

// grown returns buf resized to length n, reallocating only when its
// capacity is too small. The contents are unspecified.
func grown(buf []float64, n int) []float64 {
	if cap(buf) < n {
		return make([]float64, n, 2*n)
	}
	return buf[:n]
}

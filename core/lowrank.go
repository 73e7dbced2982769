package core

import (
	"math"
	"sort"

	"gonum.org/v1/gonum/mat"
)

// lowRankSym is a symmetric n×n matrix kept in factored form
//
//	C = U·S·Uᵀ,
//
// with U an n×r matrix of orthonormal columns and S a symmetric r×r matrix
// (DESIGN §2, "Efficient representation"). Its nuclear norm is Σ|λᵢ(S)|.
// The dense n×n matrix is never formed. U is stored row-major with stride
// ld ≥ r so that the rows touched by a sparse x̂ are contiguous; n grows by
// appending zero rows, r by appending orthonormal columns.
type lowRankSym struct {
	n, r int
	ld   int       // row stride of u (column capacity)
	u    []float64 // n×ld, row-major; columns ≥ r are zero
	s    []float64 // r×r, row-major, symmetric

	// Scratch buffers, reused so that steady-state steps do not allocate.
	bufA, bufB, bufP []float64
}

// grow makes C an n×n matrix by appending zero rows and columns.
func (c *lowRankSym) grow(n int) {
	if n <= c.n {
		return
	}
	if c.ld == 0 {
		c.ld = 4
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

// row returns row i of U (length r).
func (c *lowRankSym) row(i int) []float64 { return c.u[i*c.ld : i*c.ld+c.r] }

// project sets z = Uᵀx̂ for the sparse augmented vector x̂ = [1; x], with
// feature j of x at position j+1. z must have length r.
func (c *lowRankSym) project(z []float64, x Sparse) {
	copy(z, c.row(0))
	for k, j := range x.Ind {
		if j+1 >= c.n {
			continue
		}
		v := x.Val[k]
		for a, ua := range c.row(j + 1) {
			z[a] += v * ua
		}
	}
}

// quad returns zᵀSz.
func (c *lowRankSym) quad(z []float64) float64 {
	r := c.r
	var q float64
	for a := 0; a < r; a++ {
		sa := c.s[a*r : a*r+r]
		var t float64
		for b, zb := range z {
			t += sa[b] * zb
		}
		q += z[a] * t
	}
	return q
}

// diag returns C_ii = U_i·S·U_iᵀ.
func (c *lowRankSym) diag(i int) float64 {
	if i >= c.n {
		return 0
	}
	return c.quad(c.row(i))
}

// scale sets C = α·C.
func (c *lowRankSym) scale(alpha float64) {
	for i := range c.s {
		c.s[i] *= alpha
	}
}

// addRankOne sets C = C + w·qqᵀ for a dense vector q of length n (not
// necessarily unit). q is split into its part in span(U) and an orthogonal
// residual (classical Gram-Schmidt, twice, for orthogonality to working
// precision); the residual becomes a new column of U unless it is below
// 1e-12‖q‖, in which case it is dropped (a change of at most w·1e-24‖q‖²).
func (c *lowRankSym) addRankOne(w float64, q []float64) {
	r := c.r
	c.bufA = grown(c.bufA, r+1)
	a := c.bufA[:r]
	clear(a)
	var qq float64
	for i := 0; i < c.n; i++ {
		qi := q[i]
		qq += qi * qi
		if qi == 0 {
			continue
		}
		for b, ub := range c.row(i) {
			a[b] += qi * ub
		}
	}
	// Residual p = q − U·a, re-orthogonalized once more.
	res := c.resid(q, a)
	var rho float64
	for _, v := range res {
		rho += v * v
	}
	rho = math.Sqrt(rho)
	if rho <= 1e-12*math.Sqrt(qq) || rho == 0 {
		// S += w·a·aᵀ
		for i := 0; i < r; i++ {
			for j := 0; j < r; j++ {
				c.s[i*r+j] += w * a[i] * a[j]
			}
		}
		return
	}
	// Append column p/ρ and grow S to (r+1)×(r+1).
	c.addColumn()
	for i := 0; i < c.n; i++ {
		c.u[i*c.ld+r] = res[i] / rho
	}
	ext := append(a, rho)
	r1 := r + 1
	for i := 0; i < r1; i++ {
		for j := 0; j < r1; j++ {
			c.s[i*r1+j] += w * ext[i] * ext[j]
		}
	}
}

// resid returns p = q − U·a after a second Gram-Schmidt pass, adding the
// second pass's coefficients to a. The returned slice is owned by c.
func (c *lowRankSym) resid(q, a []float64) []float64 {
	c.bufP = grown(c.bufP, c.n)
	p := c.bufP
	copy(p, q)
	for pass := 0; pass < 2; pass++ {
		if pass == 1 {
			// a2 = Uᵀp
			c.bufB = grown(c.bufB, c.r)
			a2 := c.bufB
			clear(a2)
			for i := 0; i < c.n; i++ {
				pi := p[i]
				if pi == 0 {
					continue
				}
				for b, ub := range c.row(i) {
					a2[b] += pi * ub
				}
			}
			for b := range a {
				a[b] += a2[b]
			}
			a = a2
		}
		for i := 0; i < c.n; i++ {
			var t float64
			for b, ub := range c.row(i) {
				t += ub * a[b]
			}
			p[i] -= t
		}
	}
	return p
}

// addColumn appends a zero column to U and a zero row and column to S.
func (c *lowRankSym) addColumn() {
	if c.r == c.ld {
		ld := 2 * c.ld
		u := make([]float64, c.n*ld, 2*c.n*ld)
		for i := 0; i < c.n; i++ {
			copy(u[i*ld:i*ld+c.r], c.u[i*c.ld:i*c.ld+c.r])
		}
		c.u, c.ld = u, ld
	}
	r, r1 := c.r, c.r+1
	s := make([]float64, r1*r1)
	for i := 0; i < r; i++ {
		copy(s[i*r1:i*r1+r], c.s[i*r:i*r+r])
	}
	c.s = s
	c.r = r1
}

// eigen returns the eigenvalues of S (= the nonzero eigenvalues of C) and
// the r×r matrix of eigenvectors, sorted by decreasing |λ|.
func (c *lowRankSym) eigen() ([]float64, *mat.Dense) {
	r := c.r
	if r == 0 {
		return nil, mat.NewDense(1, 1, nil)
	}
	sym := mat.NewSymDense(r, nil)
	for i := 0; i < r; i++ {
		for j := i; j < r; j++ {
			sym.SetSym(i, j, 0.5*(c.s[i*r+j]+c.s[j*r+i]))
		}
	}
	var es mat.EigenSym
	if !es.Factorize(sym, true) {
		panic("core: eigendecomposition of a small symmetric matrix failed")
	}
	vals := es.Values(nil)
	var vecs mat.Dense
	es.VectorsTo(&vecs)
	idx := make([]int, r)
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return math.Abs(vals[idx[a]]) > math.Abs(vals[idx[b]]) })
	sorted := make([]float64, r)
	out := mat.NewDense(r, r, nil)
	for k, i := range idx {
		sorted[k] = vals[i]
		for j := 0; j < r; j++ {
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

// compress drops the eigenpairs of C of smallest |λ| whose total is at
// most tol (dropping only lowers ‖C‖*). If bound > 0 and ‖C‖* exceeds it
// after rounding, the eigenvalues are scaled down to meet it, so C stays in
// K exactly. U is rotated onto the kept eigenvectors (O(n·r²)) only when
// that removes at least a quarter of its columns or the bound needs
// enforcing; otherwise S alone is updated (O(r³)).
func (c *lowRankSym) compress(tol, bound float64) {
	vals, vecs := c.eigen()
	r := len(vals)
	keep := r
	var dropped float64
	for keep > 0 && dropped+math.Abs(vals[keep-1]) <= tol {
		dropped += math.Abs(vals[keep-1])
		keep--
	}
	var norm float64
	for _, v := range vals[:keep] {
		norm += math.Abs(v)
	}
	f := 1.0
	if bound > 0 && norm > bound {
		f = bound / norm
	}
	if keep == r && f == 1 {
		return
	}
	vd := vecs.RawMatrix()
	if 4*(r-keep) < r && f == 1 {
		// S ← V·diag(λ_keep)·Vᵀ restricted to the kept pairs.
		clear(c.s)
		for k := 0; k < keep; k++ {
			for i := 0; i < r; i++ {
				vik := vals[k] * vd.Data[i*vd.Stride+k]
				if vik == 0 {
					continue
				}
				for j := 0; j < r; j++ {
					c.s[i*r+j] += vik * vd.Data[j*vd.Stride+k]
				}
			}
		}
		return
	}
	// U ← U·V[:, :keep], row by row.
	c.bufB = grown(c.bufB, r)
	row := c.bufB
	for i := 0; i < c.n; i++ {
		ui := c.u[i*c.ld : i*c.ld+c.ld]
		copy(row, ui[:r])
		for k := 0; k < keep; k++ {
			var t float64
			for j, rj := range row {
				t += rj * vd.Data[j*vd.Stride+k]
			}
			ui[k] = t
		}
		clear(ui[keep:r])
	}
	c.r = keep
	c.s = c.s[:keep*keep]
	clear(c.s)
	for k := 0; k < keep; k++ {
		c.s[k*keep+k] = f * vals[k]
	}
}

// mulVec sets y = y + α·C·v for dense v and y of length n.
func (c *lowRankSym) mulVec(y []float64, alpha float64, v []float64) {
	r := c.r
	if r == 0 {
		return
	}
	c.bufA, c.bufB = grown(c.bufA, r), grown(c.bufB, r)
	a, b := c.bufA, c.bufB
	clear(a)
	for i := 0; i < c.n; i++ {
		vi := v[i]
		if vi == 0 {
			continue
		}
		for k, uk := range c.row(i) {
			a[k] += vi * uk
		}
	}
	for i := 0; i < r; i++ {
		var t float64
		for j := 0; j < r; j++ {
			t += c.s[i*r+j] * a[j]
		}
		b[i] = alpha * t
	}
	for i := 0; i < c.n; i++ {
		var t float64
		for k, uk := range c.row(i) {
			t += uk * b[k]
		}
		y[i] += t
	}
}

// dense returns C as a dense matrix (tests and small n only).
func (c *lowRankSym) dense() *mat.SymDense {
	d := mat.NewSymDense(max(c.n, 1), nil)
	for i := 0; i < c.n; i++ {
		for j := i; j < c.n; j++ {
			var t float64
			ui, uj := c.row(i), c.row(j)
			for a := 0; a < c.r; a++ {
				for b := 0; b < c.r; b++ {
					t += ui[a] * c.s[a*c.r+b] * uj[b]
				}
			}
			d.SetSym(i, j, t)
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

package core

import (
	"gonum.org/v1/gonum/mat"
)

// tracker keeps a small orthonormal basis S (n×m, m ≤ k) of dominant
// eigenvectors of H = −ηG − 2C and the product H·S = Y_G + c_C·Ŷ_C up to
// date as G and C change (DESIGN §2, "Faster than the textbook"):
//
//   - G += w·M (M = x̂x̂ᵀ, sparse): Y_G += −ηw·M·S touches nnz(x̂) rows,
//     O(nnz(x)·k);
//   - C ← (1−γ)C: c_C ← (1−γ)c_C, O(1);
//   - C += w·qqᵀ: Ŷ_C += (−2w/c_C)·q(Sᵀq)ᵀ, O(n·k).
//
// The small matrices T_G = SᵀY_G and T̂_C = SᵀŶ_C follow along, so the
// Rayleigh-Ritz step on S costs O(k³ + n·k) for q = S·v. A refresh replaces S
// by Ritz vectors of a Lanczos run (and H·S from the Lanczos relation).
type tracker struct {
	k, m, n int
	s       []float64 // n×k row-major: S
	yG, yC  []float64 // n×k row-major: Y_G = −ηG·S and Ŷ_C, Y_C = cC·Ŷ_C = −2C·S
	cC      float64
	tG, tC  []float64 // k×k: SᵀY_G, SᵀŶ_C

	interval, since int

	a, b []float64 // scratch, length k
	sym  *mat.SymDense
	es   mat.EigenSym
	vecs mat.Dense
}

func (tr *tracker) size() int { return tr.m }

// grow appends zero rows: new features have zero rows in G and C, so H·S
// stays exact.
func (tr *tracker) grow(n int) {
	if n <= tr.n {
		return
	}
	add := (n - tr.n) * tr.k
	tr.s = append(tr.s, make([]float64, add)...)
	tr.yG = append(tr.yG, make([]float64, add)...)
	tr.yC = append(tr.yC, make([]float64, add)...)
	tr.n = n
	if tr.tG == nil {
		tr.tG = make([]float64, tr.k*tr.k)
		tr.tC = make([]float64, tr.k*tr.k)
		tr.a = make([]float64, tr.k)
		tr.b = make([]float64, tr.k)
		tr.cC = 1
	}
}

// tick counts one LMO call and reports whether a refresh is due.
func (tr *tracker) due() bool {
	tr.since++
	return tr.since >= tr.interval
}

// adapt sets the refresh interval from the relative eigenvalue error rel
// seen at a refresh: halve it when rel > tol, double it (up to 1024 steps)
// when rel < tol/4.
func (tr *tracker) adapt(rel, tol float64) {
	switch {
	case rel > tol:
		tr.interval = max(1, tr.interval/2)
	case rel < tol/4:
		tr.interval = min(2*tr.interval, 1024)
	}
}

// addGradient applies H += c·M for M = x̂x̂ᵀ (minus diag(0; x∘x) when
// noSelf).
func (tr *tracker) addGradient(c float64, x Sparse, noSelf bool) {
	k, m := tr.k, tr.m
	if m == 0 {
		return
	}
	a := tr.a[:m]
	copy(a, tr.s[:m]) // row 0: the constant feature
	for p, j := range x.Ind {
		row := tr.s[(j+1)*k : (j+1)*k+m]
		v := x.Val[p]
		for i, sv := range row {
			a[i] += v * sv
		}
	}
	// Y_G rows: row 0 gets c·1·a, row j+1 gets c·xⱼ·a.
	axpy(c, a, tr.yG[:m])
	for p, j := range x.Ind {
		axpy(c*x.Val[p], a, tr.yG[(j+1)*k:(j+1)*k+m])
	}
	for i := 0; i < m; i++ {
		axpy(c*a[i], a, tr.tG[i*k:i*k+m])
	}
	if noSelf {
		for p, j := range x.Ind {
			v2 := x.Val[p] * x.Val[p]
			row := tr.s[(j+1)*k : (j+1)*k+m]
			axpy(-c*v2, row, tr.yG[(j+1)*k:(j+1)*k+m])
			for i := 0; i < m; i++ {
				axpy(-c*v2*row[i], row, tr.tG[i*k:i*k+m])
			}
		}
	}
}

// scaleC applies C ← f·C.
func (tr *tracker) scaleC(f float64) {
	tr.cC *= f
	if tr.cC < 1e-100 {
		for i := range tr.yC {
			tr.yC[i] *= tr.cC
		}
		for i := range tr.tC {
			tr.tC[i] *= tr.cC
		}
		tr.cC = 1
	}
}

// addRankOneC applies H += c·qqᵀ for dense q (the −2w·qqᵀ of C += w·qqᵀ).
func (tr *tracker) addRankOneC(c float64, q []float64) {
	k, m := tr.k, tr.m
	if m == 0 {
		return
	}
	b := tr.b[:m]
	clear(b)
	for i := 0; i < tr.n; i++ {
		if qi := q[i]; qi != 0 {
			axpy(qi, tr.s[i*k:i*k+m], b)
		}
	}
	f := c / tr.cC
	for i := 0; i < tr.n; i++ {
		if qi := q[i]; qi != 0 {
			axpy(f*qi, b, tr.yC[i*k:i*k+m])
		}
	}
	for i := 0; i < m; i++ {
		axpy(f*b[i], b, tr.tC[i*k:i*k+m])
	}
}

// resetC recomputes Y_C = −2C·S exactly (after C was recompressed).
func (tr *tracker) resetC(c *lowRankSym) {
	k, m, n := tr.k, tr.m, tr.n
	if m == 0 {
		return
	}
	col := make([]float64, n)
	out := make([]float64, n)
	for j := 0; j < m; j++ {
		for i := 0; i < n; i++ {
			col[i] = tr.s[i*k+j]
		}
		clear(out)
		c.mulVec(out, -2, col)
		for i := 0; i < n; i++ {
			tr.yC[i*k+j] = out[i]
		}
	}
	tr.cC = 1
	tr.gram(tr.tC, tr.yC)
}

// gram sets t = SᵀY for the n×m matrices S and Y (stride k).
func (tr *tracker) gram(t, y []float64) {
	k, m := tr.k, tr.m
	clear(t)
	for i := 0; i < tr.n; i++ {
		srow, yrow := tr.s[i*k:i*k+m], y[i*k:i*k+m]
		for a, sa := range srow {
			if sa != 0 {
				axpy(sa, yrow, t[a*k:a*k+m])
			}
		}
	}
}

// set replaces S by the given orthonormal vectors with H·S = hs, splitting
// H·S into Y_C = −2C·S and Y_G = H·S − Y_C.
func (tr *tracker) set(vecs, hs [][]float64, c *lowRankSym, eta float64, g *symAccum) {
	k, n := tr.k, tr.n
	tr.m = len(vecs)
	clear(tr.s)
	for j, v := range vecs {
		for i := 0; i < n; i++ {
			tr.s[i*k+j] = v[i]
		}
	}
	tr.resetC(c)
	clear(tr.yG)
	for j, hv := range hs {
		for i := 0; i < n; i++ {
			tr.yG[i*k+j] = hv[i] - tr.yC[i*k+j]
		}
	}
	tr.gram(tr.tG, tr.yG)
	tr.since = 0
}

// ritz runs Rayleigh-Ritz on S: it returns the Ritz value θ of largest |θ|
// of SᵀHS and sets q = S·v for its unit Ritz vector v.
func (tr *tracker) ritz(q []float64) (float64, bool) {
	k, m := tr.k, tr.m
	clear(q[:tr.n])
	if m == 0 {
		return 0, false
	}
	if tr.sym == nil || tr.sym.SymmetricDim() != m {
		tr.sym = mat.NewSymDense(m, nil)
	}
	for i := 0; i < m; i++ {
		for j := i; j < m; j++ {
			tij := tr.tG[i*k+j] + tr.cC*tr.tC[i*k+j]
			tji := tr.tG[j*k+i] + tr.cC*tr.tC[j*k+i]
			tr.sym.SetSym(i, j, 0.5*(tij+tji))
		}
	}
	if !tr.es.Factorize(tr.sym, true) {
		panic("core: Rayleigh-Ritz eigendecomposition failed")
	}
	vals := tr.es.Values(nil)
	top := argMaxAbs(vals)
	if r, _ := tr.vecs.Dims(); r != m {
		tr.vecs.Reset()
	}
	tr.es.VectorsTo(&tr.vecs)
	v := tr.a[:m]
	for i := 0; i < m; i++ {
		v[i] = tr.vecs.At(i, top)
	}
	for i := 0; i < tr.n; i++ {
		q[i] = dot(tr.s[i*k:i*k+m], v)
	}
	normalize(q[:tr.n])
	return vals[top], true
}

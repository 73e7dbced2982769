package spectral

import (
	"math"
	"slices"
)

// RankOneEig solves the symmetric eigenproblem of a diagonal plus rank-one
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
type RankOneEig struct {
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

// Solve sets nu (length m) to the eigenvalues of diag(d) + ρ·zzᵀ and v
// (m×m, row-major) to orthonormal eigenvectors, column k for nu[k]. The
// eigenvalues come in no particular order.
func (e *RankOneEig) Solve(d, z []float64, rho float64, nu, v []float64) {
	m := len(d)
	sign := 1.0
	if rho < 0 {
		sign, rho = -1, -rho
	}
	tol, zn := e.sortScaled(d, z, sign, rho)
	e.deflate(rho, tol, zn)
	K := len(e.nd)
	e.dd, e.zq = Grown(e.dd, K), Grown(e.zq, K)
	for i, k := range e.nd {
		e.dd[i], e.zq[i] = e.ds[k], e.zs[k]*e.zs[k]
	}
	e.org = e.org[:0]
	e.tau, e.delta = Grown(e.tau, K), Grown(e.delta, K)
	for i := 0; i < K; i++ {
		o, t := e.secularRoot(i, rho)
		e.org = append(e.org, o)
		e.tau[i] = t
	}
	e.recomputeZ(rho)
	vs := e.vectors(m, sign, nu)
	for row, i := range e.perm {
		copy(v[i*m:i*m+m], vs[row*m:row*m+m])
	}
}

// sortScaled sets e.perm to the order of sign·d ascending and e.ds, e.zs
// to sign·d and z in it, and returns the deflation tolerance,
// 8ε·max(‖d‖∞, ρ‖z‖²), and ‖z‖.
func (e *RankOneEig) sortScaled(d, z []float64, sign, rho float64) (tol, zn float64) {
	m := len(d)
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
	e.ds, e.zs = Grown(e.ds, m), Grown(e.zs, m)
	var zz, dmax float64
	for k, i := range e.perm {
		e.ds[k], e.zs[k] = sign*d[i], z[i]
		zz += z[i] * z[i]
		dmax = max(dmax, math.Abs(d[i]))
	}
	const eps = 0x1p-53
	return 8 * eps * max(dmax, rho*zz), math.Sqrt(zz)
}

// deflate splits the sorted components (dlaed2), with zn = ‖z‖, into e.nd, those the
// secular equation solves, and e.defl, those whose zₖ is negligible
// (ρ|zₖ|‖z‖ ≤ tol) or that a Givens rotation (kept in e.rots) made so by
// merging them with a neighbour of nearly equal dₖ.
func (e *RankOneEig) deflate(rho, tol, zn float64) {
	e.nd, e.defl, e.rots = e.nd[:0], e.defl[:0], e.rots[:0]
	prev := -1
	for k := range len(e.perm) {
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
}

// rootGap returns νₖ − ddⱼ, for root k as secularRoot found it.
func (e *RankOneEig) rootGap(k, j int) float64 { return (e.dd[e.org[k]] - e.dd[j]) + e.tau[k] }

// recomputeZ sets e.zh to ẑ from the roots (Gu & Eisenstat): with the
// interlacing d₀ < ν₀ < d₁ < … < d_{K−1} < ν_{K−1},
// ẑⱼ² = (ν_{K−1} − dⱼ)/ρ · Π_{k<j} (νₖ − dⱼ)/(dₖ − dⱼ) · Π_{j≤k<K−1} (νₖ − dⱼ)/(dₖ₊₁ − dⱼ).
func (e *RankOneEig) recomputeZ(rho float64) {
	K := len(e.dd)
	e.zh = Grown(e.zh, K)
	for j := 0; j < K; j++ {
		p := e.rootGap(K-1, j) / rho
		for k := 0; k < j; k++ {
			p *= e.rootGap(k, j) / (e.dd[k] - e.dd[j])
		}
		for k := j; k < K-1; k++ {
			p *= e.rootGap(k, j) / (e.dd[k+1] - e.dd[j])
		}
		e.zh[j] = math.Copysign(math.Sqrt(max(p, 0)), e.zs[e.nd[j]])
	}
}

// vectors sets nu to the eigenvalues and returns the eigenvectors (m×m,
// row-major, in e.vs) in sorted coordinates: the secular ones, then the
// deflated unit vectors, with the rotations undone (last first: x = Gᵀx').
func (e *RankOneEig) vectors(m int, sign float64, nu []float64) []float64 {
	K := len(e.dd)
	e.vs = Grown(e.vs, m*m)
	vs := e.vs[:m*m]
	clear(vs)
	for k := 0; k < K; k++ {
		var nrm float64
		for j := 0; j < K; j++ {
			w := -e.zh[j] / e.rootGap(k, j)
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
	for r := len(e.rots) - 1; r >= 0; r-- {
		g := e.rots[r]
		rp, rk := vs[g.p*m:g.p*m+m], vs[g.k*m:g.k*m+m]
		for j := range rp {
			a, b := rp[j], rk[j]
			rp[j], rk[j] = g.c*a-g.s*b, g.s*a+g.c*b
		}
	}
	return vs
}

// secularRoot returns the i-th root of 1 + ρ·Σⱼ zqⱼ/(ddⱼ − ν) = 0 (ρ > 0,
// dd ascending, zq > 0) as ν = dd[o] + τ, with the origin o ∈ {i, i+1} the
// pole nearer the root, so that ddⱼ − ν = (ddⱼ − dd[o]) − τ keeps its
// relative accuracy. It brackets τ and refines it by bisection guarded
// steps of a two-pole rational model (secularStep).
func (e *RankOneEig) secularRoot(i int, rho float64) (int, float64) {
	K := len(e.dd)
	zq, delta := e.zq, e.delta
	o, lo, hi := e.secularBracket(i, rho)
	for j := 0; j < K; j++ {
		delta[j] = e.dd[j] - e.dd[o]
	}
	const eps = 0x1p-53
	t := lo + (hi-lo)/2
	for iter := 0; iter < 100; iter++ {
		// ψ (poles ≤ i) and φ (poles > i) with derivatives.
		var m secularModel
		for j := 0; j < K; j++ {
			r := 1 / (delta[j] - t)
			w := rho * zq[j] * r
			if j <= i {
				m.psi += w
				m.dpsi += w * r
			} else {
				m.phi += w
				m.dphi += w * r
			}
		}
		f := 1 + m.psi + m.phi
		if math.Abs(f) <= 8*eps*float64(K)*(1+math.Abs(m.psi)+math.Abs(m.phi)) {
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
		m.p, m.q = delta[i], math.Inf(1) // the poles around the root
		if i < K-1 {
			m.q = delta[i+1]
		}
		next := m.step(t, lo, hi, i == K-1)
		if !(next > lo && next < hi) {
			next = lo + (hi-lo)/2
		}
		t = next
	}
	return o, t
}

// secularBracket returns the origin o of root i (the nearer pole) and a
// bracket [lo, hi] of τ = ν − dd[o]: the half of the gap (ddᵢ, ddᵢ₊₁) the
// root is in, or (0, ρΣzq] beyond the last pole.
func (e *RankOneEig) secularBracket(i int, rho float64) (o int, lo, hi float64) {
	K := len(e.dd)
	dd, zq := e.dd, e.zq
	if i == K-1 {
		var s float64
		for _, v := range zq {
			s += v
		}
		return i, 0, rho * s
	}
	half := (dd[i+1] - dd[i]) / 2
	g := 1.0 // the secular function at the middle of the gap
	for j := 0; j < K; j++ {
		g += rho * zq[j] / ((dd[j] - dd[i]) - half)
	}
	if g >= 0 {
		return i, 0, half
	}
	return i + 1, -half, 0
}

// secularModel is the secular function near a root, at the current τ:
// ψ and its slope over the poles up to the root's lower pole p, φ and its
// slope over those from its upper pole q on.
type secularModel struct {
	psi, dpsi, phi, dphi float64
	p, q                 float64
}

// step returns the root of the model ψ ≈ a₁ + b₁/(p − t),
// φ ≈ a₂ + b₂/(q − t) matched in value and slope at t (for the last root,
// ψ alone): of the quadratic's two, the one inside (lo, hi) if any; NaN
// when the model has none.
func (m secularModel) step(t, lo, hi float64, last bool) float64 {
	p, q := m.p, m.q
	b1 := m.dpsi * (p - t) * (p - t)
	a := 1 + m.psi - m.dpsi*(p-t)
	if last {
		if a > 0 {
			return p + b1/a
		}
		return math.NaN()
	}
	b2 := m.dphi * (q - t) * (q - t)
	a += m.phi - m.dphi*(q-t)
	// a·(p−s)(q−s) + b₁(q−s) + b₂(p−s) = 0, quadratic in s.
	bq := a*(p+q) + b1 + b2
	cq := a*p*q + b1*q + b2*p
	if a == 0 {
		return cq / bq
	}
	disc := bq*bq - 4*a*cq
	if disc < 0 {
		return math.NaN()
	}
	sq := math.Copysign(math.Sqrt(disc), bq)
	if r1 := (bq + sq) / (2 * a); r1 > lo && r1 < hi {
		return r1
	}
	return 2 * cq / (bq + sq)
}

func (e *RankOneEig) MemoryBytes() int64 {
	return sumF64Bytes(e.ds, e.zs, e.dd, e.zq, e.tau, e.delta, e.zh, e.vs) +
		intBytes(e.perm) + intBytes(e.nd) + intBytes(e.defl) + intBytes(e.org) + 32*int64(cap(e.rots))
}

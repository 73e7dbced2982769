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
	e.ds, e.zs = Grown(e.ds, m), Grown(e.zs, m)
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
	// ẑ from the roots (Gu & Eisenstat): with the interlacing
	// d₀ < ν₀ < d₁ < … < d_{K−1} < ν_{K−1},
	// ẑⱼ² = (ν_{K−1} − dⱼ)/ρ · Π_{k<j} (νₖ − dⱼ)/(dₖ − dⱼ) · Π_{j≤k<K−1} (νₖ − dⱼ)/(dₖ₊₁ − dⱼ).
	diff := func(k, j int) float64 { return (e.dd[e.org[k]] - e.dd[j]) + e.tau[k] } // νₖ − dⱼ
	e.zh = Grown(e.zh, K)
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
	e.vs = Grown(e.vs, m*m)
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
func (e *RankOneEig) secularRoot(i int, rho float64) (int, float64) {
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

func (e *RankOneEig) MemoryBytes() int64 {
	return sumF64Bytes(e.ds, e.zs, e.dd, e.zq, e.tau, e.delta, e.zh, e.vs) +
		intBytes(e.perm) + intBytes(e.nd) + intBytes(e.defl) + intBytes(e.org) + 32*int64(cap(e.rots))
}

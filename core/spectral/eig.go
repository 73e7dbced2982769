package spectral

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/blas"
	blasgonum "gonum.org/v1/gonum/blas/gonum"
	"gonum.org/v1/gonum/lapack"
	"gonum.org/v1/gonum/lapack/gonum"
)

// JacobiEigen computes the eigenvalues of the symmetric m×m row-major
// matrix a (only its upper triangle is read; a is overwritten) by the cyclic
// Jacobi method, and, when vecs is not nil, the eigenvectors as the columns
// of the m×m row-major vecs. vals gets the eigenvalues, unsorted, with
// vals[i] belonging to column i. It allocates nothing and is meant for the
// small problems of the LMO (m ≤ 16): Rayleigh-Ritz on the tracked subspace
// and the certificate's m×m bounds, where a LAPACK call's setup would cost
// more than the work.
func JacobiEigen(a []float64, m int, vals, vecs []float64) { JacobiEigenTol(a, m, vals, vecs, 0) }

// JacobiEigenTol is JacobiEigen stopping as soon as the off-diagonal part's
// Frobenius norm is at most tol (and rotating no pair whose entry is at most
// tol/m): for a matrix already nearly diagonal that needs its remaining
// off-diagonal part bounded, not gone, it saves the sweeps that polish it.
// vals are then a's diagonal after the rotations, not its eigenvalues.
func JacobiEigenTol(a []float64, m int, vals, vecs []float64, tol float64) {
	for i := 0; i < m; i++ {
		for j := 0; j < i; j++ {
			a[i*m+j] = a[j*m+i]
		}
	}
	if vecs != nil {
		clear(vecs[:m*m])
		for i := 0; i < m; i++ {
			vecs[i*m+i] = 1
		}
	}
	for sweep := 0; sweep < 50; sweep++ {
		var off, diag float64
		for i := 0; i < m; i++ {
			diag += a[i*m+i] * a[i*m+i]
			for j := i + 1; j < m; j++ {
				off += a[i*m+j] * a[i*m+j]
			}
		}
		if off <= 1e-30*diag || off == 0 || 2*off <= tol*tol {
			break
		}
		skip := tol / float64(m)
		for p := 0; p < m; p++ {
			for q := p + 1; q < m; q++ {
				apq := a[p*m+q]
				if apq == 0 || math.Abs(apq) <= skip {
					continue
				}
				// The rotation that zeroes a_pq (Golub & Van Loan, Alg. 8.5.1).
				tau := (a[q*m+q] - a[p*m+p]) / (2 * apq)
				t := math.Copysign(1, tau) / (math.Abs(tau) + math.Sqrt(1+tau*tau))
				c := 1 / math.Sqrt(1+t*t)
				s := t * c
				for k := 0; k < m; k++ {
					akp, akq := a[k*m+p], a[k*m+q]
					a[k*m+p] = c*akp - s*akq
					a[k*m+q] = s*akp + c*akq
				}
				for k := 0; k < m; k++ {
					apk, aqk := a[p*m+k], a[q*m+k]
					a[p*m+k] = c*apk - s*aqk
					a[q*m+k] = s*apk + c*aqk
				}
				if vecs != nil {
					for k := 0; k < m; k++ {
						vkp, vkq := vecs[k*m+p], vecs[k*m+q]
						vecs[k*m+p] = c*vkp - s*vkq
						vecs[k*m+q] = s*vkp + c*vkq
					}
				}
			}
		}
	}
	for i := 0; i < m; i++ {
		vals[i] = a[i*m+i]
	}
}

// tridiagEigenTo computes the eigenvalues (ascending, into d) and the
// eigenvectors (columns of the m×m row-major z) of the symmetric tridiagonal
// matrix with diagonal d and off-diagonal e (length ≥ m−1; overwritten), by
// LAPACK's implicit QL/QR (Dsteqr). work needs length ≥ 2m−2. It allocates
// nothing.
func tridiagEigenTo(d, e, z, work []float64) {
	m := len(d)
	if m == 0 {
		return
	}
	if !(gonum.Implementation{}).Dsteqr(lapack.EVTridiag, m, d, e, z, m, work) {
		panic("core: tridiagonal eigendecomposition failed")
	}
}

// QuadForm returns zᵀMz for the b×b row-major M, b = len(z).
func QuadForm(m, z []float64) float64 { return QuadFormStride(m, len(z), z) }

// QuadFormStride returns vᵀAv for the leading len(v)×len(v) block of the
// row-major a of row stride ld.
func QuadFormStride(a []float64, ld int, v []float64) float64 {
	var q float64
	for i, vi := range v {
		if vi != 0 {
			q += vi * Dot(a[i*ld:i*ld+len(v)], v)
		}
	}
	return q
}

// SymEigen returns the eigenvalues (ascending) and eigenvectors of the
// symmetric part ½(A + Aᵀ) of the b×b row-major A, the eigenvectors as the
// b×b row-major vecs, column k for vals[k], both in new memory. It runs
// LAPACK's dsyev on the upper triangle with the workspace dsyev asks for,
// as mat.EigenSym does, so that its results are mat.EigenSym's bit for bit
// (TestSymEigen).
func SymEigen(a []float64, b int) (vals, vecs []float64) {
	vals, vecs = make([]float64, b), make([]float64, b*b)
	if b == 0 {
		return vals, vecs
	}
	for i := 0; i < b; i++ {
		for j := i; j < b; j++ {
			vecs[i*b+j] = 0.5 * (a[i*b+j] + a[j*b+i])
		}
	}
	impl := gonum.Implementation{}
	q := []float64{0}
	impl.Dsyev(lapack.EVCompute, blas.Upper, b, vecs, b, vals, q, -1)
	work := make([]float64, int(q[0]))
	if !impl.Dsyev(lapack.EVCompute, blas.Upper, b, vecs, b, vals, work, len(work)) {
		panic("core: eigendecomposition of a small symmetric matrix failed")
	}
	return vals, vecs
}

// Grown returns buf resized to length n, reallocating only when its
// capacity is too small. The contents are unspecified.
func Grown(buf []float64, n int) []float64 {
	if cap(buf) < n {
		return make([]float64, n, 2*n)
	}
	return buf[:n]
}

// GrowRows extends the row-major buffer buf of rows×ld values from rows to
// n > rows rows by appending zero rows, reallocating (with room to double)
// only when its capacity is too small.
func GrowRows(buf []float64, rows, n, ld int) []float64 {
	need := n * ld
	if need > cap(buf) {
		b := make([]float64, need, 2*need)
		copy(b, buf)
		return b
	}
	buf = buf[:need]
	clear(buf[rows*ld:])
	return buf
}

// GrowInt32 returns buf resized to length n, reallocating (with room to
// grow) only when its capacity is too small. The contents are unspecified.
func GrowInt32(buf []int32, n int) []int32 {
	if cap(buf) < n {
		return make([]int32, n, n+n/2)
	}
	return buf[:n]
}

// L1BallThreshold returns the soft threshold θ ≥ 0 of the Euclidean
// projection of v onto the ℓ₁ ball of radius δ > 0: the projection is
// wᵢ = sign(vᵢ)·max(|vᵢ| − θ, 0), and θ = 0 when ‖v‖₁ ≤ δ. It sorts |v|
// (Duchi et al. 2008, Figure 1): with u the magnitudes in decreasing order,
// ρ = max{j : uⱼ > (Σ_{i≤j} uᵢ − δ)/j} and θ = (Σ_{i≤ρ} uᵢ − δ)/ρ. buf is
// scratch space, returned grown for reuse. O(m log m) for m = len(v).
func L1BallThreshold(v []float64, delta float64, buf []float64) (float64, []float64) {
	var s float64
	for _, x := range v {
		s += math.Abs(x)
	}
	if s <= delta {
		return 0, buf
	}
	buf = Grown(buf, len(v))
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

// SoftThreshold returns sign(v)·max(|v| − θ, 0).
func SoftThreshold(v, theta float64) float64 {
	if a := math.Abs(v) - theta; a > 0 {
		return math.Copysign(a, v)
	}
	return 0
}

// Gemm sets c = a·b for the row-major a (m×k, stride lda), b (k×n, stride
// ldb) and c (m×n, stride ldc), allocating nothing. Each cᵢⱼ is summed over
// l = 0, …, k−1 in order, so the result is bit for bit that of gonum's
// serial Dgemm. gonum's Dgemm (v0.17) goes parallel once the product spans
// 4 blocks of 64×64 and then starts goroutines and allocates on every call;
// the per-round products of the projected baselines are that large (R is
// about 200×120 on ML-100K), so gemm hands Dgemm tiles of at most 64×192
// (3 blocks) instead, which it computes serially in place.
func Gemm(m, n, k int, a []float64, lda int, b []float64, ldb int, c []float64, ldc int) {
	const tm, tn = 64, 192
	if k == 0 {
		for i := 0; i < m; i++ {
			clear(c[i*ldc : i*ldc+n])
		}
		return
	}
	impl := blasgonum.Implementation{}
	for i := 0; i < m; i += tm {
		mi := min(tm, m-i)
		for j := 0; j < n; j += tn {
			nj := min(tn, n-j)
			impl.Dgemm(blas.NoTrans, blas.NoTrans, mi, nj, k, 1,
				a[i*lda:], lda, b[j:], ldb, 0, c[i*ldc+j:], ldc)
		}
	}
}

// SymEigenInPlace overwrites the m×m row-major symmetric a (lower triangle
// read) with its orthonormal eigenvectors, column j for vals[j], the
// eigenvalues in ascending order. work is LAPACK workspace, grown as
// needed; it allocates nothing once the buffers are large enough. (With
// gonum v0.17.0, dsyev on the upper triangle returned eigenvalues of 1e123
// for a 900×900 matrix of rank 7 with many zero rows that CCFM-OGD's dense
// path built; the lower triangle gives the right ones.)
func SymEigenInPlace(a []float64, m int, vals []float64, work *[]float64) {
	if m == 0 {
		return
	}
	impl := gonum.Implementation{}
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

// SortedL1Threshold returns the θ ≥ 0 with Σᵢmax(aᵢ − θ, 0) = r for a ≥ 0
// sorted decreasingly (Duchi et al. 2008), and inside = true with θ = 0
// when Σaᵢ ≤ r.
func SortedL1Threshold(a []float64, r float64) (theta float64, inside bool) {
	var sum float64
	for _, v := range a {
		sum += v
	}
	if sum <= r {
		return 0, true
	}
	var cum float64
	for i, v := range a {
		cum += v
		th := (cum - r) / float64(i+1)
		if v <= th {
			break
		}
		theta = th
	}
	return theta, false
}

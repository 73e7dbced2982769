package core

import (
	"math"

	"gonum.org/v1/gonum/lapack"
	"gonum.org/v1/gonum/lapack/gonum"
)

// jacobiEigen computes the eigenvalues of the symmetric m×m row-major
// matrix a (only its upper triangle is read; a is overwritten) by the cyclic
// Jacobi method, and, when vecs is not nil, the eigenvectors as the columns
// of the m×m row-major vecs. vals gets the eigenvalues, unsorted, with
// vals[i] belonging to column i. It allocates nothing and is meant for the
// small problems of the LMO (m ≤ 16): Rayleigh-Ritz on the tracked subspace
// and the certificate's m×m bounds, where a LAPACK call's setup would cost
// more than the work.
func jacobiEigen(a []float64, m int, vals, vecs []float64) {
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
		if off <= 1e-30*diag || off == 0 {
			break
		}
		for p := 0; p < m; p++ {
			for q := p + 1; q < m; q++ {
				apq := a[p*m+q]
				if apq == 0 {
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

// RankOf returns how many of vals exceed tol in absolute value: the rank
// of a symmetric matrix from its eigenvalues, those within tol of 0 counted
// as 0.
func RankOf(vals []float64, tol float64) int {
	r := 0
	for _, v := range vals {
		if math.Abs(v) > tol {
			r++
		}
	}
	return r
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

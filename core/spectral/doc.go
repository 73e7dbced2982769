// Package spectral holds the eigensolvers and dense kernels the learners of
// core build on, none of which knows about learning:
//
//   - Lanczos: the symmetric Lanczos process with full reorthogonalization
//     on a matrix-free Operator, resolving both ends of the spectrum. It
//     is the linear optimization oracle of OCCFM (the top eigenvector of
//     −∇F, Theorem 1 of the paper) and the eigen-solver of the FTRL
//     projections. LanczosWork reuses its memory from run to run.
//   - RankOneEig: the eigendecomposition of a diagonal plus a rank-one
//     matrix, by the secular equation, O(r²): the update of a projected
//     C's eigenbasis after one gradient step.
//   - L1BallThreshold and SoftThreshold: the Euclidean projection of a
//     spectrum onto the ℓ₁ ball, which is the projection of a symmetric
//     matrix onto the nuclear-norm ball ‖C‖* ≤ δ.
//   - JacobiEigen, SymEigen, SymEigenInPlace: dense symmetric eigensolvers
//     for the small k×k and r×r matrices of the subspace methods, and the
//     vector kernels Dot and Axpy (gonum's assembly for long vectors) and
//     Gemm.
package spectral

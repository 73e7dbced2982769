// Package core is the pure-Go heart of OCCFM: the Compact Convexified
// Factorization Machine (CCFM) model, the Online CCFM learner (OCCFM,
// Algorithm 2 of the paper), losses, progressive metrics, and streaming
// readers for LibSVM, MovieLens and CSV data.
//
// # Notation
//
// An example is a sparse feature vector x ∈ ℝᵈ and a label y. The model
// augments it with a constant, x̂ = [1; x] (the paper writes [x; 1]; putting
// the constant first lets the feature space grow at the end while streaming),
// and predicts
//
//	ŷ(C) = ½ x̂ᵀ C x̂ = w₀ + wᵀx + ½ xᵀZx,   C = [[2w₀, wᵀ], [w, Z]],
//
// with C symmetric and ‖C‖* = Σᵢ|λᵢ(C)| ≤ δ (the decision set K, §3.1).
// The prediction is linear in C, so any convex loss of ŷ is convex in C, and
// the gradient of f(C) = ℓ(ŷ(C), y) is ℓ'(ŷ, y)·½ x̂x̂ᵀ.
//
// OCCFM (Algorithm 2) keeps the sum of gradients Gₜ and moves C towards the
// solution of a linear problem over K, which Theorem 1 shows is
// δ·sign(λ)·qqᵀ for the eigenpair (λ, q) of −∇Fₜ(Cₜ) of largest |λ|.
//
// # Architecture
//
// Learners implement the small [Learner] contract and never own the loop:
// [Play] plays one round (predict, score, update) and the CLI, the page and
// the tests all call it. [Learners] is the one registry of learners by name.
// Readers turn an io.Reader into a stream of [Example] values in constant
// memory. The package never prints, reads files by name, or touches the DOM.
package core

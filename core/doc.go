// Package core is the pure-Go heart of OCCFM: the Compact Convexified
// Factorization Machine (CCFM) model, the Online CCFM learner (OCCFM,
// Algorithm 2 of the paper) and the other learners, losses, progressive
// metrics, the guard, the certified regret, and model files.
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
// The packages under core hold the rest, each on one side of core:
//
//   - data (below core): the row types (Sparse, Example, Task), the
//     streaming readers of LibSVM, CSV and MovieLens files, and the row
//     sources a run reads through (Rows, BadRows, Shuffled, LabelOrder).
//   - demo (below core): the built-in synthetic streams.
//   - personal (above core): the catalog and the Personalizer, which adds
//     one new person to a learned model.
//   - internal/str: the fmt-free message helpers all of them share.
//
// None of them prints, reads files by name, or touches the DOM.
package core

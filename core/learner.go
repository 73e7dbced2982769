package core

import (
	"errors"
	"sort"
	"strings"

	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/internal/str"
)

// Learner is an online learner: it predicts a label for a feature vector,
// then learns from the true label. Learners never own the loop; [Play] does.
type Learner interface {
	// Predict returns the prediction ŷ for x. It does not change the
	// learner's state and does not change x. Features beyond the learner's
	// current feature space contribute nothing.
	Predict(x data.Sparse) float64
	// Update learns from the labelled example (x, y), where y is already in
	// the task's form (±1 for classification). It grows the feature space to
	// cover x when needed. It does not change x.
	Update(x data.Sparse, y float64)
}

// Play plays one round of online learning, predict-then-update (the
// progressive protocol of §5.1): it computes ŷ = l.Predict(ex.X), records
// (ŷ, ex.Y) in m if m is not nil, then calls l.Update(ex.X, ex.Y). It returns
// ŷ. The label ex.Y must already be in the task's form (see Task.Label).
//
// A learner that also has PredictUpdate (as Guarded does) plays the round
// in that one call, which must return what Predict would have returned.
func Play(l Learner, ex data.Example, m *Metrics) float64 {
	var yhat float64
	if p, ok := l.(predictUpdater); ok {
		yhat = p.PredictUpdate(ex.X, ex.Y)
	} else {
		yhat = l.Predict(ex.X)
		l.Update(ex.X, ex.Y)
	}
	if m != nil {
		m.Add(yhat, ex.Y)
	}
	return yhat
}

// predictUpdater is a learner that predicts and learns a row in one call.
type predictUpdater interface {
	PredictUpdate(x data.Sparse, y float64) float64
}

// Configured is implemented by learners that can report the settings they
// use, with their defaults filled in (an optional ability, found by type
// assertion).
type Configured interface {
	// Config returns the effective common settings. It does not change the
	// learner.
	Config() Config
}

// DeltaNow returns the bound δ on ‖C‖* that l (or the learner a *Guarded
// wraps) uses now: a growing ball's current radius (OCCFMK's default, whose
// Config().Delta is 0), or Config().Delta; 0 when l has no δ.
func DeltaNow(l Learner) float64 {
	if g, ok := l.(*Guarded); ok {
		l = g.inner
	}
	if b, ok := l.(interface{ Delta() float64 }); ok {
		return b.Delta()
	}
	if c, ok := l.(Configured); ok {
		return c.Config().Delta
	}
	return 0
}

// DefaultDelta is the bound δ on ‖C‖* of the learners with a fixed ball
// (OCCFM, the paper's CCFM baselines, CFM-FTRL) and of the regret
// comparator when none is given: the paper's δ for MovieLens.
const DefaultDelta = 10

// Config holds the settings every registered learner understands. Each
// learner maps it onto its own settings struct. The zero value means: the
// Regression task, and each learner's own defaults for δ, η and the seed.
type Config struct {
	// Task selects the loss (Task.Loss) and the label convention.
	Task data.Task
	// Delta is the bound δ on the nuclear norm of C (or the learner's
	// equivalent model-size bound). Zero means the learner's default.
	Delta float64
	// Eta is the learning rate η. Zero means the learner's default.
	Eta float64
	// Seed seeds any randomness in the learner. Zero means seed 1.
	Seed uint64
	// Rank is the number k of latent factors of factored learners (FM's
	// V ∈ ℝᵈˣᵏ). Zero means the learner's default; others ignore it.
	Rank int
	// Gamma is the step-size schedule of Frank-Wolfe learners; the zero
	// value is InvSqrt. Other learners ignore it.
	Gamma Schedule
	// Loss, when not nil, replaces the task's loss (Task.Loss).
	Loss *Loss
}

// LossOf returns the loss c asks for: *c.Loss if set, else TaskLoss(c.Task).
func (c Config) LossOf() Loss {
	if c.Loss != nil {
		return *c.Loss
	}
	return TaskLoss(c.Task)
}

// Spec describes a registered learner.
type Spec struct {
	// Name is the registry key, e.g. "occfm".
	Name string
	// Plain says in a sentence a student understands what the learner
	// does: the page shows it first, Summary (the technical line, with
	// the paper's reference) second.
	Plain string
	// Summary is a one-line description for menus and -help.
	Summary string
	// New returns a fresh learner for c.
	New func(c Config) Learner
	// Regret is the learner's guarantee against the best fixed C in K
	// with its δ, the comparator of Regret: the exponent p of a bound
	// O(Tᵖ) and where it comes from. The zero value: none (a learner
	// outside K, non-convex, or with another comparator).
	Regret RegretGuarantee
}

// RegretGuarantee is a sub-linear regret bound O(T^Exponent) against the
// best fixed C in K, from Source.
type RegretGuarantee struct {
	Exponent float64
	Source   string
}

// registry holds every learner, by name. Adding a learner is one file with
// a constructor plus one line here.
var registry = map[string]Spec{
	"occfm": {
		Name:    "occfm",
		Plain:   "The paper's learner: one matrix C of feature pairs, kept inside a budget δ; each row moves C a small step towards the best corner of the budget, found with one eigenvector.",
		Summary: "Online Compact Convexified FM: projection-free Frank-Wolfe on ‖C‖* ≤ δ (Algorithm 2; γₜ capped by exact line search)",
		New:     func(c Config) Learner { return NewOCCFM(OCCFMSettingsFor(c)) },
		Regret:  RegretGuarantee{0.75, "Theorem 3 (online Frank-Wolfe)"},
	},
	"occfm-auto": {
		Name:    "occfm-auto",
		Plain:   "The default: runs simple models and OCCFM at several budgets side by side, and trusts each as much as it has earned by predicting well so far. No δ to choose.",
		Summary: "CCFM with no δ to choose: Vovk's aggregating algorithm (Bayes mixture for logistic) over bias, linear, ccfm-pairs (α = 0.3, 3), occfm-lin (δ = 10, 100, 1000) and occfm-k (δ = 12·√n)",
		New:     func(c Config) Learner { return NewOCCFMAuto(OCCFMAutoSettingsFor(c)) },
	},
	"occfm-lin": {
		Name:    "occfm-lin",
		Plain:   "OCCFM with the bias and one weight per feature learned outside C, so that the budget δ goes to pairs of features only.",
		Summary: "OCCFM with w₀ and w outside the ball (FTRL-Proximal), C by Algorithm 2 on ‖C‖* ≤ δ",
		New:     func(c Config) Learner { return NewOCCFMLin(OCCFMLinSettingsFor(c)) },
		Regret:  RegretGuarantee{0.75, "Theorem 3 for C, FTRL-Proximal for the affine part"},
	},
	"occfm-k": {
		Name:    "occfm-k",
		Plain:   "Learns tastes: the best matrix of feature pairs for all the rows so far within the budget δ, kept in a small subspace of the directions that matter, with the bias and one weight per feature outside.",
		Summary: "CCFM by follow-the-regularized-leader, Cₜ₊₁ = Π_K(−ηGₜ/2) within a certified ε in a tracked rank-k subspace; w₀ and w outside the ball",
		New:     func(c Config) Learner { return NewOCCFMK(OCCFMKSettingsFor(c)) },
	},
	"ccfm-pairs": {
		Name:    "ccfm-pairs",
		Plain:   "One weight for every pair of features, learned directly: strong when the same pairs come back often, blind to pairs never seen.",
		Summary: "CCFM with every pair's entry of C its own weight (all-pairs linear or logistic regression), per-coordinate FTRL-Proximal, hashed",
		New:     func(c Config) Learner { return NewCCFMPairs(CCFMPairsSettingsFor(c)) },
	},
	"ccfm-ogd": {
		Name:    "ccfm-ogd",
		Plain:   "Gradient descent on C, then a projection back into the budget δ after every row (a full eigen-decomposition each time: slow).",
		Summary: "CCFM by online gradient descent, rate η/√t, then the projection onto ‖C‖* ≤ δ (§5.1 baseline)",
		New:     func(c Config) Learner { return NewCCFMOGD(CCFMOGDSettingsFor(c)) },
		Regret:  RegretGuarantee{0.5, "online gradient descent (Zinkevich 2003)"},
	},
	"ccfm-pa": {
		Name:    "ccfm-pa",
		Plain:   "Passive-aggressive: moves C just enough to fix each mistake, then projects it back into the budget δ.",
		Summary: "CCFM by passive-aggressive PA-I steps capped at η/√t, then the projection onto ‖C‖* ≤ δ (§5.1 baseline)",
		New:     func(c Config) Learner { return NewCCFMPA(CCFMPASettingsFor(c)) },
	},
	"ccfm-ftrl": {
		Name:    "ccfm-ftrl",
		Plain:   "Follow the regularized leader: C is recomputed from the sum of all gradients so far, then put back into the budget δ.",
		Summary: "CCFM by FTRL: C = Π(−ηₜGₜ/2) onto ‖C‖* ≤ δ from Lanczos eigenpairs of the gradient sum (§5.1 baseline)",
		New:     func(c Config) Learner { return NewCCFMFTRL(CCFMFTRLSettingsFor(c)) },
		Regret:  RegretGuarantee{0.5, "FTRL with linearized losses (Shalev-Shwartz 2012, §2)"},
	},
	"fm-ftrl": {
		Name:    "fm-ftrl",
		Plain:   "The classic factorization machine: each feature gets a few hidden taste numbers and a pair interacts through their product. Fast, but not convex.",
		Summary: "vanilla FM (Rendle 2010), rank k, per-coordinate FTRL-Proximal on w₀, w and V (§5.1 baseline)",
		New:     func(c Config) Learner { return NewFMFTRL(FMFTRLSettingsFor(c)) },
	},
	"cfm-ftrl": {
		Name:    "cfm-ftrl",
		Plain:   "A convex factorization machine: the classic one's pair matrix Z, kept inside a budget δ instead of a fixed number of tastes.",
		Summary: "convex FM (Yamada et al. 2017), ‖Z‖* ≤ δ: FTRL-Proximal on w, FTRL projection by Lanczos on Z (§5.1 baseline)",
		New:     func(c Config) Learner { return NewCFMFTRL(CFMFTRLSettingsFor(c)) },
	},
	"mean": {
		Name:    "mean",
		Plain:   "Always predicts the average label seen so far: the simplest guess there is.",
		Summary: "reference: the running mean of y (regression) or the smoothed log-odds of the positive rate (classification)",
		New:     func(c Config) Learner { return NewMean(MeanSettingsFor(c)) },
	},
	"bias": {
		Name:    "bias",
		Plain:   "The average plus one offset per feature (a user who rates high, a film everyone likes). No pairs.",
		Summary: "reference: global + per-feature biases by SGD with ℓ₂ (user + item biases on MovieLens)",
		New:     func(c Config) Learner { return NewBias(BiasSettingsFor(c)) },
	},
	"linear": {
		Name:    "linear",
		Plain:   "Linear (or logistic) regression: one weight per feature. No pairs.",
		Summary: "reference: linear / logistic regression ŷ = w₀ + wᵀx by per-coordinate FTRL-Proximal",
		New:     func(c Config) Learner { return NewLinear(LinearSettingsFor(c)) },
	},
}

// DefaultLearner is the registry name of the learner `occfm run` and the
// page use when none is named: OCCFMAuto, which needs no δ.
const DefaultLearner = "occfm-auto"

// Learners returns the specs of all registered learners, sorted by name.
func Learners() []Spec {
	specs := make([]Spec, 0, len(registry))
	for _, s := range registry {
		specs = append(specs, s)
	}
	sort.Slice(specs, func(i, j int) bool { return specs[i].Name < specs[j].Name })
	return specs
}

// NewLearner returns a new learner of the named kind for c.
func NewLearner(name string, c Config) (Learner, error) {
	s, ok := registry[name]
	if !ok {
		names := make([]string, 0, len(registry))
		for _, s := range Learners() {
			names = append(names, s.Name)
		}
		return nil, errors.New("core: unknown learner " + str.Quote(name) + " (have [" + strings.Join(names, " ") + "])")
	}
	return s.New(c), nil
}

// zeroDefault applies the settings convention "zero means the default,
// negative means none": it returns def for 0, none for a negative v, and v
// otherwise.
func zeroDefault(v, def, none int) int {
	switch {
	case v == 0:
		return def
	case v < 0:
		return none
	}
	return v
}

// EigenPairs is a learner whose pair weights are C = Σₐ μₐ·uₐuₐᵀ with
// orthonormal uₐ, which the personal package folds a new person into.
// OCCFMK is one.
type EigenPairs interface {
	// PairSpectrum appends C's nonzero eigenvalues μ to dst, in a fixed
	// order that PairCoords follows.
	PairSpectrum(dst []float64) []float64
	// PairCoords appends feature i's coordinates (uₐᵢ)ₐ to dst.
	PairCoords(i int, dst []float64) []float64
	// PairDim returns the number of features C covers: PairCoords is 0
	// from there on.
	PairDim() int
}

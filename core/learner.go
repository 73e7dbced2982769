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

import (
	"errors"
	"math"
	"slices"

	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/internal/str"
	"github.com/occfm/occfm/core/spectral"
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

// rowMemo keeps what a learner's Predict computed for a row, for the Update
// of the same row in the same round, the call that follows it when Play,
// the guard or a mixture plays the round: Update takes it instead of
// computing it again. It holds a copy of the row, the round and one value;
// where the learner keeps more (scratch buffers), any other computation of
// them must drop the memo (ok = false).
type rowMemo struct {
	ok    bool
	t     int
	x     data.Sparse
	value float64
}

// keep records value for x in round t.
func (k *rowMemo) keep(x data.Sparse, t int, value float64) {
	k.ok, k.t, k.value = true, t, value
	k.x.Ind = append(k.x.Ind[:0], x.Ind...)
	k.x.Val = append(k.x.Val[:0], x.Val...)
}

// take returns the value kept for x in round t, if any, and drops the memo.
func (k *rowMemo) take(x data.Sparse, t int) (float64, bool) {
	ok := k.ok && k.t == t && slices.Equal(k.x.Ind, x.Ind) && slices.Equal(k.x.Val, x.Val)
	k.ok = false
	return k.value, ok
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

// DeltaNow returns the bound δ on ‖C‖* that l (or, for a *Guarded, the
// learner it wraps) uses now: a growing ball's current radius (OCCFMK's
// default, whose Config().Delta is 0), or Config().Delta; 0 when l has no
// δ.
func DeltaNow(l Learner) float64 {
	if g, ok := l.(interface{ Learner() Learner }); ok {
		l = g.Learner()
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
	// equivalent model-size bound). Zero means the learner's default; else
	// it must lie in [MinDelta, MaxDelta] (see Check).
	Delta float64
	// Eta is the learning rate η. Zero means the learner's default; else it
	// must lie in [MinEta, MaxEta] (see Check).
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

// Check returns an error when δ or η is neither 0 (the learner's default)
// nor in its range, [MinDelta, MaxDelta] or [MinEta, MaxEta], outside which
// OCCFM's arithmetic leaves float64's and it learns nothing or fails (see
// MaxDelta); one range for every learner, as the command line's -delta and
// -eta and the page's δ and η serve them all. NewLearner and NewGuarded
// return it.
func (c Config) Check() error {
	if !inRange(c.Delta, MinDelta, MaxDelta) {
		return errors.New("core: δ = " + str.Ftoa(c.Delta) + ": want 0 (the learner's default) or a number in [" + str.Ftoa(MinDelta) + ", " + str.Ftoa(MaxDelta) +
			"]: beyond, OCCFM's step leaves float64's range, and its model stays 0 or its eigensolver fails")
	}
	if !inRange(c.Eta, MinEta, MaxEta) {
		return errors.New("core: η = " + str.Ftoa(c.Eta) + ": want 0 (the learner's default) or a number in [" + str.Ftoa(MinEta) + ", " + str.Ftoa(MaxEta) +
			"]: beyond, OCCFM's eigensolver overflows or underflows float64")
	}
	return nil
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
	// Personal says in a sentence how the learner takes a new person's
	// first ratings, for Personalize's hint; empty: Plain serves.
	Personal string
	// NoPairs says that the learner's C has no pair block: a bias and one
	// weight a feature at most, so views leave out the pictures of pairs.
	NoPairs bool
	// Takes names the settings of Config beyond the task and the loss
	// that reach the learner: a run whose learners take none of a
	// setting given is refused (CheckTaken).
	Takes Setting
	// DeltaRule says how the default δ is set when it is not one number
	// (Config().Delta is 0 and DeltaNow grows), e.g. "18·√n (grows with
	// the features seen)"; empty for a fixed default or no δ.
	DeltaRule string
	// New returns a fresh learner for c.
	New func(c Config) Learner
	// Guarantee is the learner's regret guarantee against the best fixed
	// C in K with its δ, the comparator of Regret: the exponent p of a
	// bound O(Tᵖ) and where it comes from. The zero value: none (a learner
	// outside K, non-convex, or with another comparator).
	Guarantee RegretGuarantee
	// Ball says that the learner keeps its C, or C's pair block when w₀
	// and w are learned outside it, in the nuclear-norm ball ‖C‖* ≤ δ:
	// the CCFM family, whose δ a picture of C is measured against.
	Ball bool
	// state returns a zero learner of the spec's type, which a model file
	// decodes into (see stateCoder).
	state func() stateCoder
}

// Setting names the settings of Config a learner may take (Spec.Takes).
type Setting uint8

const (
	// TakesDelta is Config.Delta, the bound δ on ‖C‖*.
	TakesDelta Setting = 1 << iota
	// TakesEta is Config.Eta, the learning rate η (α for FTRL-Proximal).
	TakesEta
	// TakesGamma is Config.Gamma, the Frank-Wolfe step schedule γₜ.
	TakesGamma
)

// Mixture reports whether the spec's learner is a Mixture of experts.
func (s Spec) Mixture() bool {
	_, ok := s.state().(Mixture)
	return ok
}

// RegretGuarantee is a sub-linear regret bound O(T^Exponent) against the
// best fixed C in K, from Source.
type RegretGuarantee struct {
	Exponent float64
	Source   string
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
// orthonormal uₐ, on its rows as it weighs them (OCCFMK weighs features by
// their frequency: see featureWeights), which the personal package folds a
// new person into. OCCFMK is one.
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

// Ranker is a learner that orders the items for a person by a score of
// its own rather than by ŷ (an optional ability, found by type assertion):
// a top-N list asks which items a person will choose and like, of which
// the predicted rating is one part (Cremonesi, Koren and Turrin 2010,
// "Performance of recommender algorithms on top-N recommendation tasks").
// The personal package ranks by it when the learner has it.
type Ranker interface {
	// RankScores appends to dst one score per feature of items for the
	// person whose feature is person (a one-hot row {person, item}),
	// higher first. It does not change the learner.
	RankScores(person int, items []int, dst []float64) []float64
}

// RankExplainer is a Ranker whose score is a sum of parts a person can be
// told (an optional ability): a prior of the item's own and one term per
// feature the person rated.
type RankExplainer interface {
	Ranker
	// RankTerms returns the parts of the score RankScores gives item for
	// person: the prior and one term per rated feature, which sum to the
	// score. It does not change the learner.
	RankTerms(person, item int) (prior float64, terms []RankTerm)
}

// RankTerm is the part of a ranking score due to one rated feature.
type RankTerm struct {
	Feature int
	Value   float64
}

// pairCounter is implemented by the learners whose work on a row includes
// pairs of its nonzeros, O(nnz(x)²) a row: pairVisits returns how many pair
// terms they have read or written since they were made or decoded (a
// CCFMPairs pair slot, an entry of a gradient sum Gₜ added to). It is work
// counted by the code itself, so that tests bound the cost of a row in
// operations rather than seconds, which a busy machine stretches: a row too
// wide to learn must cost O(nnz), not a pair term per pair (TestWideRow).
// The counts are not part of a model file.
type pairCounter interface {
	pairVisits() int64
}

// pairTerms returns the number of pairs (i, j), i ≤ j, of n nonzeros.
func pairTerms(n int) int64 { return int64(n) * int64(n+1) / 2 }

// RowLimited is implemented by learners whose update costs time and memory
// quadratic in a row's nonzeros (an optional ability, found by type
// assertion): OCCFM, CCFM-FTRL and CFM-FTRL store every pair of x̂x̂ᵀ in
// their gradient sum. Guarded predicts but does not learn a row with more
// nonzeros than the limit.
type RowLimited interface {
	// MaxRowNonzeros returns the most nonzeros a row may have to be
	// learned, or 0 for no limit. It does not change the learner.
	MaxRowNonzeros() int
}

// DefaultMaxRowNonzeros is the default per-row limit on nonzeros of the
// learners that store every pair of a row (see RowLimited): the time and
// memory of such a row grow as n² for n nonzeros, and a row of 1,000
// stores about half a million pairs (measured by BenchmarkWideRow:
// docs/performance.md, "Big files and memory"). The data sets of the
// paper's figures have at most about 60.
const DefaultMaxRowNonzeros = 1000

// Mixture is a learner that forecasts by weighting experts, each a
// learner of its own, by their past losses (OCCFMAuto is one). It is an
// optional ability, found by type assertion: the page draws a mixture's C
// as its experts' weighted sum and follows the step of the expert it
// trusts most, and reports carry its experts and its regret to the best
// of them.
type Mixture interface {
	Learner
	// Experts describes the experts, in a new slice, in a fixed order.
	Experts() []Expert
	// Expert returns expert k of Experts' list, nil once it is retired;
	// a view may read it (draw its C), never change it.
	Expert(k int) Learner
	// Regret returns the mixture's regret to its best expert,
	// Σℓ(ŷₜ, yₜ) − min Lₖ, and the bound the mixture guarantees for it.
	Regret() (regret, bound float64)
}

// Expert describes one expert of a Mixture.
type Expert struct {
	// Name is "bias", "linear", "pairs α=0.3", …, "δ=10", "δ=100", … or
	// "tastes δ=18√n", "tastes δ=400" (an OCCFMK).
	Name string `json:"name"`
	// Delta is the expert's δ (for an OCCFMK the δ in use now, 0 when
	// retired with a growing ball), 0 for Bias and Linear.
	Delta float64 `json:"delta"`
	// Eta is the expert's η setting (0: OCCFM's default at its δ), or a
	// pairs expert's α.
	Eta float64 `json:"eta"`
	// Weight is pₖ, 0 once retired.
	Weight float64 `json:"weight"`
	// Loss is the cumulative loss Lₖ, up to the expert's retirement for a
	// retired one.
	Loss float64 `json:"loss"`
	// Retired reports whether the expert has stopped learning.
	Retired bool `json:"retired"`
}

// Trusted returns m's live expert of largest weight among those keep
// accepts (every expert when keep is nil), with its description, and
// whether there is one: the one place that picks the expert a view shows
// (every expert predicts a quadratic in x, see QuadraticBlock).
func Trusted(m Mixture, keep func(Learner) bool) (Learner, Expert, bool) {
	ex := m.Experts()
	best := -1
	for k := range ex {
		e := m.Expert(k)
		if e != nil && (keep == nil || keep(e)) && (best < 0 || ex[k].Weight > ex[best].Weight) {
			best = k
		}
	}
	if best < 0 {
		return nil, Expert{}, false
	}
	return m.Expert(best), ex[best], true
}

// Schedule is a step-size schedule γₜ for the Frank-Wolfe update
// Cₜ₊₁ = (1 − γₜ)Cₜ + γₜĈₜ. The zero value is InvSqrt.
type Schedule int

const (
	// InvSqrt is γₜ = 1/√t, the paper's choice (Algorithm 2, footnote 3).
	InvSqrt Schedule = iota
	// Harmonic is γₜ = 2/(t + 1), the classic batch Frank-Wolfe step.
	Harmonic
	// Constant is γₜ = OCCFMSettings.GammaConst.
	Constant
)

// String returns "1/sqrt(t)", "2/(t+1)" or "constant".
func (s Schedule) String() string {
	switch s {
	case InvSqrt:
		return "1/sqrt(t)"
	case Harmonic:
		return "2/(t+1)"
	case Constant:
		return "constant"
	}
	return "Schedule(?)"
}

// ParseSchedule returns the Schedule String names ("" is InvSqrt).
func ParseSchedule(name string) (Schedule, error) {
	switch name {
	case "", "1/sqrt(t)":
		return InvSqrt, nil
	case "2/(t+1)":
		return Harmonic, nil
	case "constant":
		return Constant, nil
	}
	return 0, errors.New("core: step schedule " + str.Quote(name) + ": want 1/sqrt(t), 2/(t+1) or constant")
}

// The ranges of δ and η (Config.Delta and Config.Eta, OCCFMSettings and
// OCCFMAutoSettings' grids) in which OCCFM's arithmetic stays inside
// float64's. OCCFM squares both. Its line search divides by
// 2‖Ĉ − C‖²_F ≤ 8δ² (see OCCFM.lineSearch), which overflows above
// √(MaxFloat64/8) ≈ 4.7·10¹⁵³: then γ* = 0 and C never moves (δ = 1e200:
// the loss of ŷ = 0 on every row, and nothing diverges to tell), or, once
// δ·|λ| overflows too, γ* = 1 and C leaps to an infinite vertex (δ = 1e308:
// the eigensolver fails at the second row). Its eigensolver sums the
// squares of H = −ηG − 2C applied to unit vectors: above about 10¹⁵⁴ the
// squares of ηG overflow at the first row, and below about 10⁻¹⁶⁵ they
// underflow to 0, λ = 0 and C stays 0 (on planted-classification,
// η = 1e-170 ends with the loss of ŷ = 0 and an AUC near chance, while
// η = 1e-160 still learns: docs/findings.md, "δ and η at the edges of
// float64"). MaxDelta, MaxEta and MinEta leave a factor of 10³ or more inside
// these thresholds for the data's own scale, which they cannot bound (G's
// entries grow with the rows and the features' squares: at δ = 1e150 a
// regression row with a feature of 10⁸ still overflows an OCCFM's H, and
// the guard or OCCFMAuto reports it). MinDelta keeps γₜ·δ, the weight of
// the step's atom, a normal number while γₜ ≥ 10⁻⁷; a ball that small
// bounds ŷ by ½δ‖x̂‖², a model of about zero, which OCCFM learns exactly
// (δ = 1e-300 ranks planted-classification as δ = 1e-3 does), while at
// δ = 5e-324 every atom rounds to 0. Zero, each learner's
// default, is always allowed (see Config.Check).
const (
	MinDelta = 1e-300
	MaxDelta = 1e150
	MinEta   = 1e-150
	MaxEta   = 1e150
)

// inRange reports whether v is 0 (the default) or in [lo, hi].
func inRange(v, lo, hi float64) bool { return v == 0 || v >= lo && v <= hi }

// BiasCoord is the index MatrixBlock and StepBlocks take for x̂'s constant
// coordinate 1: its row and column of C hold the linear weights w and, in
// the corner, 2b (eq. (3) of the paper, C = [[Z, w], [wᵀ, 2b]]).
const BiasCoord = -1

// MatrixModel is the optional ability of a learner whose model is, or is
// equivalent to, one symmetric matrix C over x̂ = [x; 1], predicting
// ŷ = ½x̂ᵀCx̂: it lets a view draw the model.
type MatrixModel interface {
	// MatrixBlock writes C's principal block on the coordinates idx into
	// dst, row-major, len(idx)² values: idx[i] = j ≥ 0 stands for feature
	// j, BiasCoord for x̂'s constant 1. A feature the learner has not seen
	// has a zero row. It does not change the learner.
	MatrixBlock(idx []int, dst []float64)
}

// FWStep describes the last round of Algorithm 2 an OCCFM played, for a
// view of the Frank-Wolfe step (see OCCFM.TraceSteps):
//
//	ŷₜ = ½x̂ᵀCₜx̂,  ∇fₜ(Cₜ) = ℓ'(ŷₜ, yₜ)·½x̂x̂ᵀ,
//	Hₜ = −∇Fₜ(Cₜ) = −(ηGₜ + 2Cₜ),  (λ, q) its eigenpair of largest |λ|,
//	Ĉₜ = δ·sign(λ)·qqᵀ,  Cₜ₊₁ = (1 − γ)Cₜ + γĈₜ.
type FWStep struct {
	Round      int     // t
	Prediction float64 // ŷₜ (for OCCFMLin, with its linear part)
	Label      float64 // yₜ
	Loss       float64 // ℓ(ŷₜ, yₜ)
	Deriv      float64 // ℓ'(ŷₜ, yₜ)
	Lambda     float64 // λ = qᵀHₜq; 0: no step (C = 0 and G = 0)
	// Refreshed: a Lanczos run found (λ, q) this round; otherwise the
	// tracked subspace's certificate proved its Ritz pair good enough.
	Refreshed bool
	// ValueGap is the error the LMO allows in ⟨Ĉ, Hₜ⟩ = δ|λ| against the
	// best atom of K: εₜ = 4κγₜδ² (see lmoTol; Jaggi 2013, Theorem 1).
	// The certificate proves it when the tracked subspace answered; a
	// refresh's Lanczos run converges far inside it.
	ValueGap float64
	// Gamma is the step taken, GammaSchedule the schedule's γₜ; Gamma is
	// below it when the exact line search binds (see OCCFM.lineSearch).
	Gamma, GammaSchedule float64
	Delta, Eta           float64
}

// QuadraticBlock writes, for a model whose prediction ŷ = p(x) is a
// quadratic function of x, its equivalent matrix C (ŷ = ½x̂ᵀCx̂, eq. (3) of
// the paper) on the coordinates idx (as MatrixModel.MatrixBlock: feature
// j, or BiasCoord), read back from predictions by polarization:
//
//	C_bb = 2p(0),  C_ib = ½(p(eᵢ) − p(−eᵢ)),  C_ii = p(eᵢ) + p(−eᵢ) − 2p(0),
//	C_ij = p(eᵢ + eⱼ) − p(eᵢ) − p(eⱼ) + p(0).
//
// Every learner of the registry but occfm-auto predicts a quadratic in x
// (bias and linear ones have Z = 0; FM-FTRL's Z = VVᵀ off its diagonal;
// CFM-FTRL's Z; ccfm-pairs' table, hashed slots shared), so this draws any
// of them the same way; occfm-auto's mixture of predictions is not a
// quadratic. It costs about |idx|²/2 + 2|idx| predictions. The
// differences of predictions leave rounding errors of about ε·|ŷ| where C
// is exactly 0 (a bias learner's Z): entries within 64ε of the largest
// |ŷ| used are written as 0.
func QuadraticBlock(p0f func(data.Sparse) float64, idx []int, dst []float64) {
	k := len(idx)
	dst = dst[:k*k]
	var scale float64
	p := func(x data.Sparse) float64 {
		y := p0f(x)
		scale = max(scale, math.Abs(y))
		return y
	}
	one := func(j int, v float64) float64 { return p(data.Sparse{Ind: []int{j}, Val: []float64{v}}) }
	p0 := p(data.Sparse{})
	plus := make([]float64, k) // p(eᵢ)
	pair := data.Sparse{Ind: make([]int, 2), Val: []float64{1, 1}}
	var bias []int // where idx holds BiasCoord
	for a, i := range idx {
		if i == BiasCoord {
			bias = append(bias, a)
			dst[a*k+a] = 2 * p0
		}
	}
	for a, i := range idx {
		if i == BiasCoord {
			continue
		}
		plus[a] = one(i, 1)
		minus := one(i, -1)
		dst[a*k+a] = plus[a] + minus - 2*p0
		for _, b := range bias {
			dst[a*k+b], dst[b*k+a] = 0.5*(plus[a]-minus), 0.5*(plus[a]-minus)
		}
	}
	for a, i := range idx {
		if i == BiasCoord {
			continue
		}
		for b := a + 1; b < k; b++ {
			j := idx[b]
			if j == BiasCoord {
				continue
			}
			if i == j {
				dst[a*k+b], dst[b*k+a] = dst[a*k+a], dst[a*k+a]
				continue
			}
			pair.Ind[0], pair.Ind[1] = min(i, j), max(i, j)
			v := p(pair) - plus[a] - plus[b] + p0
			dst[a*k+b], dst[b*k+a] = v, v
		}
	}
	tol := 64 * 0x1p-52 * scale
	for i, v := range dst {
		if math.Abs(v) <= tol {
			dst[i] = 0
		}
	}
}

// BlockSpectrum returns the eigenvalues of the symmetric k×k row-major a
// (a is not changed) by decreasing |λ|, and a unit eigenvector of the
// first, with its largest entry positive (nil for k = 0).
func BlockSpectrum(a []float64, k int) (vals, lead []float64) {
	if k == 0 {
		return nil, nil
	}
	m := make([]float64, k*k)
	copy(m, a[:k*k])
	// SymEigenInPlace reads the lower triangle: make the block exactly
	// symmetric first.
	for i := 0; i < k; i++ {
		for j := 0; j < i; j++ {
			s := 0.5 * (m[i*k+j] + m[j*k+i])
			m[i*k+j], m[j*k+i] = s, s
		}
	}
	raw := make([]float64, k)
	var work []float64
	spectral.SymEigenInPlace(m, k, raw, &work)
	order := spectral.OrderByAbs(nil, raw)
	vals = make([]float64, k)
	for n, i := range order {
		vals[n] = raw[i]
	}
	lead = make([]float64, k)
	top, big := order[0], 0.0
	for i := range lead {
		lead[i] = m[i*k+top]
		if math.Abs(lead[i]) > math.Abs(big) {
			big = lead[i]
		}
	}
	if big < 0 {
		for i := range lead {
			lead[i] = -lead[i]
		}
	}
	return vals, lead
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

// stateCoder is implemented by every registered learner, in the learner's
// own file: stateCode writes (c encoding) or reads (c decoding) the
// learner's settings, defaults filled in, then every field that affects a
// future prediction, in one fixed order, so that the two directions cannot
// disagree. Decoding starts on the zero value of the learner type (its
// Spec's state) and rebuilds it through its constructor once the settings
// are read. Scratch buffers are not saved. Caches that can be rebuilt bit
// for bit from the saved fields are rebuilt instead of saved:
//
//   - OCCFM's Lanczos noise vector is a fixed N(0, 1) draw per coordinate
//     from its seeded generator: it is drawn again (and leaves the
//     generator where it was);
//   - FM-FTRL's generator is likewise advanced by the d·k draws of V's
//     initial rows;
//   - a gradient accumulator's hash index and CSR mirror are rebuilt from
//     its pairs, the mirror from the same prefix of pairs it held, so that
//     products with G sum in the same order;
//   - the column-major copy of C's basis (lowRankSym.ut) is rebuilt on
//     first use, as after any change of the basis.
//
// CCFM-FTRL and CFM-FTRL draw from their generators at every refresh, so
// their generators' states are saved.
type stateCoder interface {
	Learner
	stateCode(c *stateCodec)
}

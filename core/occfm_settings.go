package core

import (
	"errors"
	"math"
	"slices"

	"github.com/occfm/occfm/core/internal/str"
)

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

// GradientSum says which gradients the accumulator Gₜ holds when OCCFM
// builds −∇Fₜ(Cₜ). The zero value is ThroughT.
type GradientSum int

const (
	// ThroughT sums ∇f₁ … ∇fₜ, including the current round's gradient, as
	// the paper's proofs do.
	ThroughT GradientSum = iota
	// ThroughPrevious sums ∇f₁ … ∇fₜ₋₁, as Algorithm 2 line 4 is printed.
	ThroughPrevious
)

// LMOMethod selects how OCCFM finds the eigenpair of −∇Fₜ(Cₜ) of largest
// |λ|. The zero value is LMOTracked.
type LMOMethod int

const (
	// LMOTracked keeps a small subspace S (n×k) of dominant eigenvectors of
	// H = −∇F and the k×k matrix SᵀHS up to date under the rank-one changes
	// of G and C (docs/algorithms.md), and takes q = S·v
	// from a Rayleigh-Ritz step on it. C is stored in a basis whose leading
	// columns are S, so a step costs O(nnz(x)·(b + k²) + b² + k³) for C of
	// b basis columns, independent of the dimension. A certificate (see
	// OCCFM.certified) checks at every step that the Ritz value is within
	// the error Frank-Wolfe allows at that step (OCCFM.lmoTol) of the true
	// largest |λ|; when it cannot, S is refreshed by a warm-started Lanczos
	// run, O(nnz(G) + n·b) per product. A periodic guard refreshes anyway
	// every so many certified steps and compares the two values: the
	// interval halves when they differ by more than the allowed error and
	// doubles, up to 1024 steps, when they agree within it (within a
	// quarter of it under the fixed RefreshTol rule of old model files).
	LMOTracked LMOMethod = iota
	// LMOLanczos runs a warm-started Lanczos solve (full reorthogonalization)
	// on every step: the reference, O(nnz(G)) or more per step.
	LMOLanczos
)

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

// OCCFMSettings configures NewOCCFM. The zero value is the documented
// default of every field.
type OCCFMSettings struct {
	// Delta is the nuclear-norm bound δ of K. Zero means 10, the paper's
	// value for MovieLens. Else it must lie in [MinDelta, MaxDelta]
	// (NewOCCFM panics): beyond, the step's arithmetic leaves float64's
	// range and C never moves, or its eigensolver fails.
	Delta float64
	// Eta is η, the weight of the gradient sum in Fₜ (Algorithm 2 line 4).
	// Zero means DefaultEtaFor(Loss, Delta). Else it must lie in [MinEta,
	// MaxEta] (NewOCCFM panics). The theory's choice η = D/(4G·T^¾) with D = 2δ
	// needs the horizon T and a gradient bound G; see TheoryEta.
	Eta float64
	// Gamma is the step-size schedule; the zero value is InvSqrt.
	Gamma Schedule
	// GammaConst is γ for the Constant schedule. Zero means 0.01.
	GammaConst float64
	// Loss is the loss ℓ(ŷ, y); the zero value is Squared.
	Loss Loss
	// GradientSum selects Gₜ or Gₜ₋₁ in −∇Fₜ; the zero value is ThroughT.
	GradientSum GradientSum
	// NoSelfInteractions drops the feature diagonal of Z from ŷ:
	// ŷ = ½⟨C, x̂x̂ᵀ − diag(0; x∘x)⟩. The default (false) is the paper's
	// all-pairs form ½x̂ᵀCx̂.
	NoSelfInteractions bool
	// RecompressTol is ε: whenever the LMO subspace is refreshed, C is
	// re-diagonalized and its eigenpairs of smallest |λ| with total at most
	// ε·‖C‖* are dropped (this only lowers ‖C‖*, so C stays in K; model
	// files written before the rule drop up to ε·δ, see dropRule). Zero means
	// 1e-3: on MovieLens-100K it is as accurate as 1e-6 and keeps C's basis,
	// and so each step's cost, small (docs/findings.md, "The recompression
	// tolerance").
	RecompressTol float64
	// PaperStep takes γₜ from the schedule alone, as the paper does (and
	// `occfm paper`). By default (false) the step is min(γₜ, γ*) with γ*
	// the exact line-search step on Fₜ along Ĉₜ − Cₜ (see OCCFM.lineSearch),
	// so that a large δ does not make the first steps jump to a vertex of
	// a huge ball.
	PaperStep bool
	// MaxRank caps the rank of C: whenever the LMO subspace is refreshed,
	// C's eigenpairs of smallest |λ| beyond MaxRank are dropped, like
	// RecompressTol's (this only lowers ‖C‖*, so C stays in K). It bounds
	// the per-row cost O(nnz(x)·b + b²) and a refresh's O(n·b²) at large δ,
	// where the line-search steps leave many atoms of similar weight and b
	// would otherwise keep growing (docs/findings.md, "The rank cap"). Zero
	// means DefaultMaxRank; negative means no cap.
	MaxRank int
	// LMO selects the eigen-solver; the zero value is LMOTracked.
	LMO LMOMethod
	// Subspace is the size k of the tracked subspace. Zero means 6.
	Subspace int
	// RefreshTol, when positive, is a fixed eigenvalue error the LMOTracked
	// certificate and guard allow, relative to max(|λ|, 2δ): the rule of
	// model files written before the LMO's accuracy was tied to γₜ (they
	// store 1e-3). Zero (the default) ties it to the step: see LMOSlack.
	RefreshTol float64
	// LMOSlack is κ in the LMO's allowed value gap εₜ = κ·γₜ·D², D = 2δ:
	// the atom Ĉ the LMO returns satisfies ⟨Ĉ, −∇Fₜ⟩ ≥ max_K ⟨·, −∇Fₜ⟩ − εₜ,
	// that is, its |λ| is within εₜ/δ = 4κγₜδ of the largest. Zero means
	// DefaultLMOSlack. See OCCFM.lmoTol for the bound and its source.
	LMOSlack float64
	// Seed seeds the small perturbation of Lanczos start vectors that keeps
	// both ends of the spectrum in reach. Zero means 1.
	Seed uint64
	// Weights is ζ, the smoothing of the features' frequency weights: the
	// pairs are learned on x̃ = D^(−½)x, D = diag((1−ζ)qᵢ + ζ) with qᵢ
	// feature i's frequency relative to the mean, which makes the ball the
	// weighted trace norm's ‖D^½·C·D^½‖* ≤ δ (see featureWeights). Zero
	// means DefaultOCCFMKWeights; a negative value means no weights (D = I,
	// the plain ball); at most 1, which weighs every feature alike.
	Weights float64
	// MaxRowNonzeros is the most nonzeros a row may have for a Guarded
	// learner to learn it (see RowLimited): each row stores its
	// nnz·(nnz+1)/2 pairs in G, so one row of 5,000 would cost about 1 GB.
	// Zero means DefaultMaxRowNonzeros; negative means no limit. The
	// learner itself learns any row it is given.
	MaxRowNonzeros int
}

// DefaultEta is the default η of OCCFM at the default δ = 10 (see
// DefaultEtaFor). It was chosen on MovieLens-100K, IJCNN1 and a9a over
// several shuffles (docs/findings.md, "η at δ = 10").
const DefaultEta = 1

// DefaultEtaFor returns OCCFM's default η for a loss and δ: DefaultEta for
// the logistic loss at any δ and for the squared loss at δ ≤ 10; for the
// squared loss at a larger δ, 10/δ, but never below 0.1.
//
// Why the squared loss needs it: Fₜ(C) = η⟨Gₜ, C⟩ + ‖C‖² is minimized over
// the whole space at −ηGₜ/2, and once δ is large enough that the ball no
// longer binds, the line-search steps follow that point. Each row then
// moves it by −(η/2)(ŷ − y)·x̂x̂ᵀ, which changes the row's own prediction by
// −(η/4)‖x̂‖⁴·(ŷ − y): with η = 1 and a user and an item (‖x̂‖² = 3), 2.25
// times the residual, an overshoot that grows into an oscillation (on
// MovieLens-100K at δ = 100 the RMSE is far above δ = 10's, and the
// planted-regression demo diverges from δ = 300). At δ = 10 the ball binds
// and bounds every step, and η = 1 is best. The logistic loss has a bounded
// gradient and curvature, and η = 1 is best or near it at every δ measured.
// The floor 0.1 was chosen on MovieLens-100K and the ratings and
// planted-regression demos over δ = 30 to 10⁴: 0.1 or 0.03 was best at
// every δ ≥ 100, and 0.01 learned too slowly everywhere (docs/findings.md,
// "η above δ = 10, squared loss" and "OCCFM at every δ"). It is the η at
// which a row of ‖x̂‖² = 3 corrects
// about a quarter of its own residual; data of much larger ‖x̂‖ may need a
// smaller η, which the guard's advice then names.
func DefaultEtaFor(loss Loss, delta float64) float64 {
	if loss != Squared || delta <= 10 {
		return DefaultEta
	}
	return max(10/delta, 0.1)
}

// DefaultLMOSlack is the default κ of OCCFMSettings.LMOSlack.
const DefaultLMOSlack = 4

// DefaultMaxRank is the default of OCCFMSettings.MaxRank. It does not bind
// at the default δ = 10 on MovieLens-100K, IJCNN1 or a9a, where C's rank
// stays below it (docs/findings.md, "The rank cap").
const DefaultMaxRank = 16

// TheoryEta returns Theorem 3's learning rate η = D/(4G·T^¾) for D = 2δ,
// a bound G on the gradients' Frobenius norm and horizon T.
func TheoryEta(delta, g float64, t int) float64 {
	return 2 * delta / (4 * g * math.Pow(float64(t), 0.75))
}

func (s OCCFMSettings) withDefaults() OCCFMSettings {
	s.MaxRowNonzeros = zeroDefault(s.MaxRowNonzeros, DefaultMaxRowNonzeros, -1)
	if s.Delta == 0 {
		s.Delta = DefaultDelta
	}
	if s.Eta == 0 {
		s.Eta = DefaultEtaFor(s.Loss, s.Delta)
	}
	if s.GammaConst == 0 {
		s.GammaConst = 0.01
	}
	if s.RecompressTol == 0 {
		s.RecompressTol = 1e-3
	}
	if s.Subspace == 0 {
		s.Subspace = 6
	}
	if s.LMOSlack == 0 {
		s.LMOSlack = DefaultLMOSlack
	}
	s.MaxRank = zeroDefault(s.MaxRank, DefaultMaxRank, -1)
	if s.Seed == 0 {
		s.Seed = 1
	}
	if s.Delta < 0 || s.Eta < 0 || s.GammaConst < 0 || s.GammaConst > 1 || s.Subspace < 1 {
		panic("core: invalid OCCFMSettings")
	}
	if !inRange(s.Delta, MinDelta, MaxDelta) || !inRange(s.Eta, MinEta, MaxEta) {
		panic("core: invalid OCCFMSettings: δ = " + str.Ftoa(s.Delta) + ", η = " + str.Ftoa(s.Eta) + " (see MaxDelta)")
	}
	return s
}

// OCCFMSettingsFor maps the common registry Config onto OCCFM settings:
// δ, η, the seed, the γ schedule and the loss.
func OCCFMSettingsFor(c Config) OCCFMSettings {
	return OCCFMSettings{Delta: c.Delta, Eta: c.Eta, Loss: c.LossOf(), Seed: c.Seed, Gamma: c.Gamma}
}

// OCCFMKSettings configures NewOCCFMK. The zero value is the documented
// default of every field.
type OCCFMKSettings struct {
	// Delta is the bound δ on ‖C‖*, C the d×d matrix of pair weights.
	// Zero means the ball grows with the data: δₜ = DefaultOCCFMKDeltaScale
	// ·√nₜ, nₜ the features seen in learned rows so far (see OCCFMK).
	Delta float64
	// Eta is FTRL's η: Cₜ₊₁ = Π_K(−ηₜ·Gₜ/2) with ηₜ = η/sₜ, sₜ the row
	// scale (1 on one-hot user × item rows; see OCCFMK). Zero means
	// DefaultOCCFMKEta, or DefaultOCCFMKMixEta with AffineMix.
	Eta float64
	// Rank is k, the dimension of the tracked subspace S (up to 2k while
	// every feature seen fits in it; see OCCFMK). Zero means
	// DefaultOCCFMKRank.
	Rank int
	// Tol is the certified error a subspace may reach, relative to ‖C‖_F,
	// before it is recomputed (see OCCFMK). Zero means 0.25.
	Tol float64
	// MinGap is the fewest rows between two recomputations (more once G
	// holds over 50·MinGap pairs): it bounds the work per row (see
	// refreshGap). Zero means 100.
	MinGap int
	// Affine is the rule of w₀ and w. The zero value is AffineBias.
	Affine AffineRule
	// Loss is the loss ℓ(ŷ, y); the zero value is Squared.
	Loss Loss
	// Seed seeds the random part of the Lanczos start vectors. Zero means 1.
	Seed uint64
	// Weights is ζ, the smoothing of the features' frequency weights: the
	// pairs are learned on x̃ = D^(−½)x, D = diag((1−ζ)qᵢ + ζ) with qᵢ
	// feature i's frequency relative to the mean, which makes the ball the
	// weighted trace norm's ‖D^½·C·D^½‖* ≤ δ (see featureWeights). Zero
	// means DefaultOCCFMKWeights; a negative value means no weights (D = I,
	// the plain ball); at most 1, which weighs every feature alike.
	Weights float64
	// MaxRowNonzeros is the most nonzeros a row may have for a Guarded
	// learner to learn it (see RowLimited): each row stores its
	// nnz·(nnz−1)/2 pairs in G. Zero means DefaultMaxRowNonzeros; negative
	// means no limit. The learner itself learns any row it is given.
	MaxRowNonzeros int
}

// AffineRule says how OCCFMK learns its affine part w₀ + wᵀx.
type AffineRule int

const (
	// AffineBias is Bias's rule (per-coordinate 1/n steps with ℓ₂, see
	// Bias) on the derivative at the joint prediction.
	AffineBias AffineRule = iota
	// AffineFTRL is Linear's per-coordinate FTRL-Proximal.
	AffineFTRL
	// AffineMix is AffineFTRL, and the prediction the Bayes mixture of the
	// whole model's and of the affine part's alone, learned on its own by
	// the same rule (see OCCFMK.mixed), for the logistic loss only. It is
	// what the registry uses for classification: the pairs' step cannot
	// know whether the pairs carry signal (a9a wants η ≤ 1, IJCNN1 η ≥ 10),
	// the mixture finds out from the losses.
	AffineMix
)

// The defaults of OCCFMKSettings, chosen on ML-100K and ML-1M (shuffled,
// and sorted by user as people rate), the ratings demo (three seeds) and
// planted-regression (docs/findings.md, "Newcomers and per-feature
// steps"). The weights' ζ = 0.6 with η = 5 and the ball 18·√n: ζ = 0.5
// loses on ML-1M, 0.7 puts the ratings demo over 0.55 on a seed; η ≥ 8
// puts planted-regression's RMSE over 0.14 (0.045 at η = 3), η = 3 the
// ratings demo at 0.48; 12·√n loses 0.02 on the ratings demo, 24·√n
// gains nothing. No fixed δ suits them all: ML-1M (9,746 features) does
// better with a large ball, the ratings demo (800 features) with a small
// one, so δ grows as √n, n the features seen. k = 16 is the smallest rank
// that kept the ratings demo within 0.512 RMSE on its three seeds before
// the weights, as good as 24 on ML-100K, ML-1M and the catalog and faster
// (docs/findings.md, "Speed: what was tried").
const (
	DefaultOCCFMKDeltaScale = 18
	DefaultOCCFMKEta        = 5
	DefaultOCCFMKRank       = 16
	DefaultOCCFMKWeights    = 0.6
	// DefaultOCCFMKMixEta and DefaultOCCFMKMixDeltaScale are η and the
	// growing ball's scale with AffineMix, chosen on IJCNN1, a9a and the
	// planted classification demo (docs/findings.md), where the features'
	// weights gain nothing: OCCFMKSettingsFor turns them off for the
	// logistic loss.
	DefaultOCCFMKMixEta        = 10
	DefaultOCCFMKMixDeltaScale = 12
)

// The wide model of AffineMix: its step and its ball are these multiples of
// the model's (the default growing ball's scale, or Delta), chosen on
// IJCNN1, a9a and the planted classification demo (docs/findings.md).
const (
	mixStep = 10
	mixWide = 25
)

// wideSettings returns the settings of AffineMix's wide model: the
// affine part by AffineFTRL, η and δ mixStep and mixWide times larger (a
// zero Delta stays zero: see OCCFMK.ballScale).
func (s OCCFMKSettings) wideSettings() OCCFMKSettings {
	s.Affine, s.Eta, s.Delta = AffineFTRL, mixStep*s.Eta, mixWide*s.Delta
	return s
}

// OCCFMKSettingsFor maps the common registry Config onto OCCFMK settings:
// δ, η, the rank k, the seed and the loss, with AffineMix for the logistic
// loss.
func OCCFMKSettingsFor(c Config) OCCFMKSettings {
	s := OCCFMKSettings{Delta: c.Delta, Eta: c.Eta, Rank: c.Rank, Seed: c.Seed, Loss: c.LossOf()}
	if s.Loss == Logistic {
		s.Affine, s.Weights = AffineMix, -1
	}
	return s
}

func (s OCCFMKSettings) withDefaults() OCCFMKSettings {
	if s.Eta == 0 {
		s.Eta = DefaultOCCFMKEta
		if s.Affine == AffineMix {
			s.Eta = DefaultOCCFMKMixEta
		}
	}
	if s.Rank == 0 {
		s.Rank = DefaultOCCFMKRank
	}
	if s.Weights == 0 {
		s.Weights = DefaultOCCFMKWeights
	}
	if s.Tol == 0 {
		s.Tol = 0.25
	}
	if s.MinGap == 0 {
		s.MinGap = 100
	}
	if s.Seed == 0 {
		s.Seed = 1
	}
	s.MaxRowNonzeros = zeroDefault(s.MaxRowNonzeros, DefaultMaxRowNonzeros, -1)
	if !(s.Delta >= 0) || math.IsInf(s.Delta, 1) || !(s.Eta > 0) || s.Rank < 1 || !(s.Tol > 0) || s.MinGap < 1 || !(s.Weights <= 1) || s.Affine < AffineBias || s.Affine > AffineMix || s.Affine == AffineMix && s.Loss != Logistic {
		panic("core: invalid OCCFMKSettings")
	}
	return s
}

// DefaultAutoDeltas is the default grid of δ of OCCFMAuto's OCCFMLin
// experts: a factor of 10 apart, from δ = 10 (the paper's MovieLens value)
// to 1000 (above the ‖C‖* the ratings demo's C reaches with a ball that
// does not bind: docs/findings.md, "The δ grid").
var DefaultAutoDeltas = []float64{10, 100, 1000}

// DefaultAutoPairs is the default grid of α of OCCFMAuto's CCFMPairs
// experts: Linear's α, and ten times it, which all-pairs logistic
// regression needs on IJCNN1 and which loses on planted-classification
// (docs/findings.md, "Ideas that lost": ccfm-pairs alone by α).
var DefaultAutoPairs = []float64{DefaultLinearAlpha, 10 * DefaultLinearAlpha}

// DefaultAutoTastes is the default grid of δ of OCCFMAuto's OCCFMK
// experts: OCCFMK's own default (0: the ball that grows as 18·√n), the
// expert that learns low-rank tastes.
var DefaultAutoTastes = []float64{0}

// DefaultAutoRetire is the default OCCFMAutoSettings.Retire: e⁻²⁰ ≈ 2·10⁻⁹.
const DefaultAutoRetire = 20

// autoRecent discounts the losses that tell whether an expert is still
// losing ground: a window of about 1/(1 − autoRecent) = 1,000 rows.
const autoRecent = 0.999

// autoTrial is the number of rows every expert learns before any can be
// retired, and autoGap the least relative gap Lₖ/L_best − 1 that retires.
// Without a gap, a good expert that starts slowly can be retired early:
// on IJCNN1 in file order δ = 100 was retired while briefly behind δ = 10,
// and the final error rose. With it, a trial of 2,000 rows ends
// every data set measured (ML-100K, ML-1M, the ratings demo, the catalog,
// IJCNN1, a9a and planted-classification, file order and shuffled) at the
// same error as a trial of 10,000, and the costly experts stop costing
// five times sooner (docs/findings.md, "Retirement").
const (
	autoTrial = 2_000
	autoGap   = 0.03
)

// OCCFMAutoSettings configures NewOCCFMAuto. The zero value is the
// documented default of every field.
type OCCFMAutoSettings struct {
	// Deltas is the grid of δ of the OCCFMLin experts, each in [MinDelta,
	// MaxDelta]. Nil means DefaultAutoDeltas.
	Deltas []float64
	// Retire is R of the retirement rule (see OCCFMAuto). Zero means
	// DefaultAutoRetire; negative means never.
	Retire float64
	// Pairs is the grid of α of the CCFMPairs experts, each positive and
	// finite. Nil means DefaultAutoPairs; empty (not nil) means none.
	Pairs []float64
	// Etas is the grid of η of the OCCFMLin experts: one expert for each δ
	// of Deltas and each η of Etas, where 0 means OCCFM's default at that δ
	// (DefaultEtaFor) and any other η must lie in [MinEta, MaxEta]. Nil
	// means {0}. When it holds one η, the OCCFMK experts take it too (0:
	// OCCFMK's default); a grid of several leaves them OCCFMK's default.
	Etas []float64
	// Tastes is the grid of δ of the OCCFMK experts (with OCCFMK's other
	// defaults), each finite and positive, or 0 for OCCFMK's default
	// growing ball. Nil means DefaultAutoTastes; empty (not nil) means
	// none.
	Tastes []float64
	// Loss is the loss ℓ(ŷ, y); the zero value is Squared.
	Loss Loss
	// Seed seeds the OCCFMLin experts. Zero means 1.
	Seed uint64
}

// sharedEta returns the η every OCCFM expert takes: the one η of Etas
// (0, each expert's default, for a grid of several).
func (s OCCFMAutoSettings) sharedEta() float64 {
	if len(s.Etas) == 1 {
		return s.Etas[0]
	}
	return 0
}

func (s OCCFMAutoSettings) withDefaults() OCCFMAutoSettings {
	if s.Deltas == nil {
		s.Deltas = DefaultAutoDeltas
	}
	s.Deltas = append([]float64(nil), s.Deltas...)
	if s.Etas == nil {
		s.Etas = []float64{0}
	}
	s.Etas = append([]float64(nil), s.Etas...)
	if s.Pairs == nil {
		s.Pairs = DefaultAutoPairs
	}
	s.Pairs = slices.Clone(s.Pairs)
	if s.Tastes == nil {
		s.Tastes = DefaultAutoTastes
	}
	s.Tastes = slices.Clone(s.Tastes)
	if s.Retire == 0 {
		s.Retire = DefaultAutoRetire
	}
	if s.Seed == 0 {
		s.Seed = 1
	}
	if len(s.Deltas)*len(s.Etas)+len(s.Pairs)+len(s.Tastes) > maxAutoExperts-2 || len(s.Etas) == 0 || math.IsNaN(s.Retire) {
		panic("core: invalid OCCFMAutoSettings")
	}
	for _, a := range s.Pairs {
		if !(a > 0) || math.IsInf(a, 0) {
			panic("core: invalid OCCFMAutoSettings")
		}
	}
	for _, e := range s.Etas {
		if !inRange(e, MinEta, MaxEta) {
			panic("core: invalid OCCFMAutoSettings")
		}
	}
	for _, d := range s.Deltas {
		if d == 0 || !inRange(d, MinDelta, MaxDelta) {
			panic("core: invalid OCCFMAutoSettings")
		}
	}
	for _, d := range s.Tastes {
		if !(d >= 0) || math.IsInf(d, 0) {
			panic("core: invalid OCCFMAutoSettings")
		}
	}
	return s
}

// maxAutoExperts bounds the experts of an OCCFMAuto (and of a model file).
const maxAutoExperts = 64

// OCCFMAutoSettingsFor maps the common registry Config onto OCCFMAuto
// settings: the loss and the seed. It needs no δ and no η; a Config.Delta
// makes the grid that one δ, and a Config.Eta the η of every OCCFM expert
// (Etas = {η}: the OCCFMLin experts and, see Etas, the OCCFMK ones).
func OCCFMAutoSettingsFor(c Config) OCCFMAutoSettings {
	s := OCCFMAutoSettings{Loss: c.LossOf(), Seed: c.Seed}
	if c.Delta > 0 {
		s.Deltas = []float64{c.Delta}
	}
	if c.Eta > 0 {
		s.Etas = []float64{c.Eta}
	}
	return s
}

package core

import (
	"math"

	"github.com/occfm/occfm/core/data"
)

// ProjectedSettings configures the two projected baselines of §5.1,
// NewCCFMOGD and NewCCFMPA, which take the same settings (CCFMOGDSettings
// and CCFMPASettings name this type). The zero value is the documented
// default of every field.
type ProjectedSettings struct {
	// Delta is the nuclear-norm bound δ of K. Zero means 10, the paper's
	// value for MovieLens.
	Delta float64
	// Eta is η of the schedule η/√t: CCFM-OGD's step size ηₜ = η/√t,
	// CCFM-PA's cap on the PA-I step. Zero means 1 (the paper's rate 1/√t,
	// §5.1).
	Eta float64
	// Loss is the loss ℓ(ŷ, y); the zero value is Squared.
	Loss Loss
	// Seed is kept for the common Config; the learners are deterministic
	// and use no randomness. Zero means 1.
	Seed uint64
	// DenseProjection projects by a full eigendecomposition of the dense
	// (d+1)×(d+1) matrix, O(d³) per step: the paper's cost model, for the
	// efficiency figure on small d only. The default (false) solves the
	// equivalent (r+1)-dimensional problem (see eigSym.update).
	DenseProjection bool
}

// CCFMOGDSettings configures NewCCFMOGD.
type CCFMOGDSettings = ProjectedSettings

// CCFMPASettings configures NewCCFMPA.
type CCFMPASettings = ProjectedSettings

func (s ProjectedSettings) withDefaults() ProjectedSettings {
	s.Delta, s.Eta, s.Seed = projectedDefaults(s.Delta, s.Eta, s.Seed)
	return s
}

// ProjectedSettingsFor maps the common registry Config onto the settings
// of CCFM-OGD or CCFM-PA: δ, η, the seed and the loss (Gamma and Rank do
// not apply).
func ProjectedSettingsFor(c Config) ProjectedSettings {
	return ProjectedSettings{Delta: c.Delta, Eta: c.Eta, Seed: c.Seed, Loss: c.LossOf()}
}

// CCFMOGD is CCFM-OGD, the baseline of §5.1 that runs online
// gradient descent (Zinkevich 2003) on the CCFM model:
//
//	C₁ = 0
//	for t = 1, 2, …:
//	    predict ŷₜ = ½x̂ₜᵀCₜx̂ₜ, receive yₜ
//	    ∇fₜ(Cₜ) = ℓ'(ŷₜ, yₜ)·½x̂ₜx̂ₜᵀ
//	    Cₜ₊₁ = Π_K(Cₜ − ηₜ∇fₜ(Cₜ)),   ηₜ = η/√t
//
// with Π_K the Frobenius projection onto K = {C symmetric, ‖C‖* ≤ δ}
// (eigendecomposition, then the eigenvalues onto the ℓ₁ ball of radius δ).
// Cₜ is kept in eigen form and the step is rank one, so the projection is
// an (r+1)-dimensional eigenproblem plus O(d·b) work for the new direction,
// for Cₜ of rank r and a basis of b ≤ 2r + 17 columns. Once its buffers have
// grown to the dimension and the rank, an Update allocates nothing (also
// with DenseProjection). A CCFMOGD is not safe for concurrent use.
//
// Memory (MemoryBytes): C's basis, 8·ld bytes per coordinate of C (ld ≥ b,
// the basis columns, at least 8), for n = 1 + the largest feature index +
// 1 coordinates; a row costs O(nnz·b) whatever its width. With
// DenseProjection, 8n² bytes more for the dense matrix.
type CCFMOGD struct {
	projectedCCFM
	s CCFMOGDSettings
}

// ccfmOGDSpec registers CCFMOGD (see registry).
var ccfmOGDSpec = Spec{
	Name:      "ccfm-ogd",
	Plain:     "Gradient descent on C, then a projection back into the budget δ after every row (a full eigen-decomposition each time: slow).",
	Summary:   "CCFM by online gradient descent, rate η/√t, then the projection onto ‖C‖* ≤ δ (§5.1 baseline)",
	Takes:     TakesDelta | TakesEta,
	New:       func(c Config) Learner { return NewCCFMOGD(ProjectedSettingsFor(c)) },
	Guarantee: RegretGuarantee{0.5, "online gradient descent (Zinkevich 2003)"},
	Ball:      true,
	state:     func() stateCoder { return new(CCFMOGD) },
}

// NewCCFMOGD returns a CCFM-OGD learner with C₁ = 0 and an empty feature
// space.
func NewCCFMOGD(s CCFMOGDSettings) *CCFMOGD {
	s = s.withDefaults()
	return &CCFMOGD{projectedCCFM: newProjectedCCFM(s.Delta, s.DenseProjection), s: s}
}

var _ Learner = (*CCFMOGD)(nil)
var _ Configured = (*CCFMOGD)(nil)

// Settings returns the settings in use, with defaults filled in.
func (o *CCFMOGD) Settings() CCFMOGDSettings { return o.s }

// Config returns the effective common settings; it implements Configured.
func (o *CCFMOGD) Config() Config { return configOf(o.s.Delta, o.s.Eta, o.s.Seed, o.s.Loss) }

// Update plays the learning half of round t: Cₜ₊₁ = Π_K(Cₜ − ηₜ∇fₜ(Cₜ)).
func (o *CCFMOGD) Update(x data.Sparse, y float64) {
	yhat := o.begin(x)
	// −ηₜ∇fₜ = a·x̂x̂ᵀ with a = −ηₜ·ℓ'(ŷ, y)/2.
	o.move(-o.s.Eta/math.Sqrt(float64(o.t))*0.5*o.s.Loss.Deriv(yhat, y), x)
}

func (o *CCFMOGD) stateCode(c *stateCodec) {
	s := o.s
	c.float(&s.Delta)
	c.float(&s.Eta)
	codeEnum(c, &s.Loss, 2, "loss")
	c.uint64(&s.Seed)
	c.bool(&s.DenseProjection)
	if !rebuild(c, o, s, NewCCFMOGD, func(x *CCFMOGD) CCFMOGDSettings { return x.s }) {
		return
	}
	c.projected(&o.projectedCCFM)
}

// CCFMPA is CCFM-PA, the baseline of §5.1 that runs a
// passive-aggressive step (Crammer et al. 2006, PA-I) on the CCFM model,
// then projects onto K = {C symmetric, ‖C‖* ≤ δ}:
//
//	C₁ = 0
//	for t = 1, 2, …:
//	    predict ŷₜ = ½x̂ₜᵀCₜx̂ₜ, receive yₜ, suffer ℓₜ = ℓ(ŷₜ, yₜ)
//	    ∇fₜ(Cₜ) = ℓ'(ŷₜ, yₜ)·½x̂ₜx̂ₜᵀ,   ‖∇fₜ‖_F = |ℓ'(ŷₜ, yₜ)|·½‖x̂ₜ‖²
//	    τₜ = min(η/√t, ℓₜ/‖∇fₜ‖²_F)
//	    Cₜ₊₁ = Π_K(Cₜ − τₜ∇fₜ(Cₜ))
//
// PA-I's step ℓₜ/‖∇fₜ‖² is the Polyak step towards zero loss of the
// linearized loss; its aggressiveness cap C is here the schedule η/√t,
// since the paper sets PA's "learning rate" to 1/√t (§5.1) without saying
// more. For the squared loss ℓ/‖∇f‖² = 1/‖x̂‖⁴, which moves ŷ halfway to y
// when uncapped; for the logistic loss ℓₜ > 0 always, so PA never rests.
// The projection is the one CCFM-OGD uses, and like CCFM-OGD it allocates
// nothing per Update once its buffers have grown. A CCFMPA is not safe for
// concurrent use.
//
// Memory: as CCFMOGD's.
type CCFMPA struct {
	projectedCCFM
	s CCFMPASettings
}

// ccfmPASpec registers CCFMPA (see registry).
var ccfmPASpec = Spec{
	Name:    "ccfm-pa",
	Plain:   "Passive-aggressive: moves C just enough to fix each mistake, then projects it back into the budget δ.",
	Summary: "CCFM by passive-aggressive PA-I steps capped at η/√t, then the projection onto ‖C‖* ≤ δ (§5.1 baseline)",
	Takes:   TakesDelta | TakesEta,
	New:     func(c Config) Learner { return NewCCFMPA(ProjectedSettingsFor(c)) },
	Ball:    true,
	state:   func() stateCoder { return new(CCFMPA) },
}

// NewCCFMPA returns a CCFM-PA learner with C₁ = 0 and an empty feature
// space.
func NewCCFMPA(s CCFMPASettings) *CCFMPA {
	s = s.withDefaults()
	return &CCFMPA{projectedCCFM: newProjectedCCFM(s.Delta, s.DenseProjection), s: s}
}

var _ Learner = (*CCFMPA)(nil)
var _ Configured = (*CCFMPA)(nil)

// Settings returns the settings in use, with defaults filled in.
func (o *CCFMPA) Settings() CCFMPASettings { return o.s }

// Config returns the effective common settings; it implements Configured.
func (o *CCFMPA) Config() Config { return configOf(o.s.Delta, o.s.Eta, o.s.Seed, o.s.Loss) }

// Update plays the learning half of round t: Cₜ₊₁ = Π_K(Cₜ − τₜ∇fₜ(Cₜ)).
func (o *CCFMPA) Update(x data.Sparse, y float64) {
	yhat := o.begin(x)
	d := o.s.Loss.Deriv(yhat, y)
	if d == 0 {
		return // passive: ∇fₜ = 0
	}
	xx := 1.0
	for _, v := range x.Val {
		xx += v * v
	}
	g := 0.5 * math.Abs(d) * xx // ‖∇fₜ‖_F
	tau := min(o.s.Eta/math.Sqrt(float64(o.t)), o.s.Loss.Value(yhat, y)/(g*g))
	o.move(-tau*0.5*d, x)
}

func (o *CCFMPA) stateCode(c *stateCodec) {
	s := o.s
	c.float(&s.Delta)
	c.float(&s.Eta)
	codeEnum(c, &s.Loss, 2, "loss")
	c.uint64(&s.Seed)
	c.bool(&s.DenseProjection)
	if !rebuild(c, o, s, NewCCFMPA, func(x *CCFMPA) CCFMPASettings { return x.s }) {
		return
	}
	c.projected(&o.projectedCCFM)
}

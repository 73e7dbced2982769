package core

import (
	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/internal/str"
)

// OCCFMLinSettings configures NewOCCFMLin. The zero value is the documented
// default of every field.
type OCCFMLinSettings struct {
	// OCCFM configures the CCFM part; its Loss is replaced by Loss.
	OCCFM OCCFMSettings
	// Alpha is the affine part's FTRL-Proximal α (β = 1, no ℓ₁ or ℓ₂).
	// Zero means DefaultLinearAlpha.
	Alpha float64
	// Loss is the loss ℓ(ŷ, y); the zero value is Squared.
	Loss Loss
}

func (s OCCFMLinSettings) withDefaults() OCCFMLinSettings {
	if s.Alpha == 0 {
		s.Alpha = DefaultLinearAlpha
	}
	if s.Alpha < 0 {
		panic("core: invalid OCCFMLinSettings")
	}
	s.OCCFM.Loss = s.Loss
	s.OCCFM = s.OCCFM.withDefaults()
	return s
}

// OCCFMLinSettingsFor maps the common registry Config onto OCCFMLin
// settings: δ, η, the seed and the γ schedule go to the CCFM part.
func OCCFMLinSettingsFor(c Config) OCCFMLinSettings {
	return OCCFMLinSettings{OCCFM: OCCFMSettingsFor(c), Loss: c.LossOf()}
}

// OCCFMLin is OCCFM with its affine part outside the ball:
//
//	ŷ = v₀ + vᵀx + ½x̂ᵀCx̂,   ‖C‖* ≤ δ,
//
// where v₀ and v learn by per-coordinate FTRL-Proximal, as Linear does, and C
// by Algorithm 2, both from the derivative ℓ'(ŷ, y) at the joint prediction.
// It is CFM's split (Yamada et al. 2017, "Convex Factorization Machine for
// Toxicogenomics Prediction") with Frank-Wolfe on C: in the paper's C the
// bias and linear weights share the ball with the interactions, and a mean
// rating of 3.5 alone uses 7 of δ = 10. Since ℓ is convex in
// (v₀, v, C) jointly and each part plays its own online linear
// optimization on the shared gradient, the regret against the best fixed
// (v₀, v, C ∈ K) is at most the sum of FTRL-Proximal's and Algorithm 2's
// (Theorem 3) regrets. An OCCFMLin is not safe for concurrent use.
type OCCFMLin struct {
	s   OCCFMLinSettings
	lin ftrlLinear
	occ *OCCFM
}

var _ Learner = (*OCCFMLin)(nil)
var _ Configured = (*OCCFMLin)(nil)

// occfmLinSpec registers OCCFMLin (see registry).
var occfmLinSpec = Spec{
	Name:      "occfm-lin",
	Plain:     "OCCFM with the bias and one weight per feature learned outside C, so that the budget δ goes to pairs of features only.",
	Summary:   "OCCFM with w₀ and w outside the ball (FTRL-Proximal), C by Algorithm 2 on ‖C‖* ≤ δ",
	Takes:     TakesDelta | TakesEta | TakesGamma,
	New:       func(c Config) Learner { return NewOCCFMLin(OCCFMLinSettingsFor(c)) },
	Guarantee: RegretGuarantee{0.75, "Theorem 3 for C, FTRL-Proximal for the affine part"},
	Ball:      true,
	state:     func() stateCoder { return new(OCCFMLin) },
}

// NewOCCFMLin returns an OCCFMLin with v₀ = 0, v = 0 and C = 0.
func NewOCCFMLin(s OCCFMLinSettings) *OCCFMLin {
	s = s.withDefaults()
	return &OCCFMLin{s: s, lin: newFTRLLinear(s.Alpha, 1, 0, 0), occ: NewOCCFM(s.OCCFM)}
}

// Settings returns the settings in use, with defaults filled in.
func (m *OCCFMLin) Settings() OCCFMLinSettings { return m.s }

// Config returns the CCFM part's δ, η, seed, schedule and loss; it
// implements Configured.
func (m *OCCFMLin) Config() Config { return m.occ.Config() }

// CCFM returns the learner of C. It must not be updated on its own.
func (m *OCCFMLin) CCFM() *OCCFM { return m.occ }

// Predict returns v₀ + vᵀx + ½x̂ᵀCx̂. It does not change the learner's state.
func (m *OCCFMLin) Predict(x data.Sparse) float64 { return m.lin.value(x) + m.occ.Predict(x) }

// Update feeds ℓ'(ŷ, y)·(1, x) to FTRL-Proximal and plays round t of
// Algorithm 2 on C with the gradient ℓ'(ŷ, y)·½x̂x̂ᵀ, at the same ŷ.
func (m *OCCFMLin) Update(x data.Sparse, y float64) {
	d := len(m.lin.w)
	for _, i := range x.Ind {
		d = max(d, i+1)
	}
	m.lin.extend(d)
	off := m.lin.value(x)
	if g := m.s.Loss.Deriv(off+m.occ.Predict(x), y); g != 0 {
		m.lin.learn(x, g)
	}
	m.occ.learn(x, y, off)
}

// MemoryBytes estimates the bytes m holds (see Sized): the affine part's
// 24 bytes a feature and OCCFM's.
func (m *OCCFMLin) MemoryBytes() int64 {
	return structBytes + m.lin.memoryBytes() + m.occ.MemoryBytes()
}

// MemoryNote says what holds m's memory (see MemoryNoter).
func (m *OCCFMLin) MemoryNote() string { return m.occ.MemoryNote() }

func (m *OCCFMLin) growsPerPair() bool { return true }

// MaxRowNonzeros returns the CCFM part's MaxRowNonzeros (see RowLimited).
func (m *OCCFMLin) MaxRowNonzeros() int { return m.occ.MaxRowNonzeros() }

// NuclearNorm returns ‖C‖* of the CCFM part.
func (m *OCCFMLin) NuclearNorm() float64 { return m.occ.NuclearNorm() }

// Rank returns the rank of the CCFM part's C.
func (m *OCCFMLin) Rank() int { return m.occ.Rank() }

// Eigenvalues returns the CCFM part's nonzero eigenvalues of C (see
// OCCFM.Eigenvalues).
func (m *OCCFMLin) Eigenvalues() []float64 { return m.occ.Eigenvalues() }

func (m *OCCFMLin) stateCode(c *stateCodec) {
	s := m.s
	c.float(&s.Alpha)
	codeEnum(c, &s.Loss, 2, "loss")
	occ := m.occ
	if c.dec {
		occ = new(OCCFM)
	}
	c.nested(occ)
	if c.dec && c.err == nil {
		s.OCCFM = occ.s
		if c.violates(s.OCCFM.Loss == s.Loss) {
			c.fail("a CCFM part with the " + s.OCCFM.Loss.String() + " loss in a learner with the " + s.Loss.String() + " loss")
		}
	}
	if !rebuild(c, m, s, NewOCCFMLin, func(x *OCCFMLin) OCCFMLinSettings { return x.s }) {
		return
	}
	m.occ = occ
	d := len(m.lin.w)
	c.int(&d)
	if c.violates(d >= 0) {
		c.fail(str.Itoa(d) + " features")
	}
	c.ftrlLinear(&m.lin, d)
}

// pairVisits counts the pair terms read or written (see pairCounter).
func (m *OCCFMLin) pairVisits() int64 { return m.occ.pairVisits() }

// MatrixBlock writes the block of the matrix C of m's convex part; its
// linear part learns outside C (see OCCFMLin).
func (m *OCCFMLin) MatrixBlock(idx []int, dst []float64) { m.occ.MatrixBlock(idx, dst) }

// TraceSteps turns on the record of its convex part's Frank-Wolfe steps
// (see OCCFM.TraceSteps).
func (m *OCCFMLin) TraceSteps(on bool) { m.occ.TraceSteps(on) }

// LastStep returns its convex part's last step (see OCCFM.LastStep).
func (m *OCCFMLin) LastStep() (FWStep, bool) { return m.occ.LastStep() }

// StepBlocks writes its convex part's step (see OCCFM.StepBlocks).
func (m *OCCFMLin) StepBlocks(idx []int, before, atom, after, grad []float64) bool {
	return m.occ.StepBlocks(idx, before, atom, after, grad)
}

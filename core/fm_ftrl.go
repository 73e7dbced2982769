package core

import (
	"math/rand/v2"

	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/internal/str"
	"github.com/occfm/occfm/core/spectral"
)

// FMFTRLSettings configures NewFMFTRL. The zero value is the documented
// default of every field.
type FMFTRLSettings struct {
	// Rank is the number k of latent factors. Zero means 10, the paper's
	// value for MovieLens (§5.2; it uses 20 for IJCNN1).
	Rank int
	// FTRLSettings are FTRL-Proximal's α, β, λ₁ and λ₂, on w and V (not
	// on w₀). A zero Alpha means DefaultFMAlpha.
	FTRLSettings
	// InitStd is the standard deviation σ of the Gaussian noise that V's
	// rows start from when a feature first appears (V = 0 is a saddle point
	// of ŷ). Zero means 0.01.
	InitStd float64
	// Loss is the loss ℓ(ŷ, y); the zero value is Squared.
	Loss Loss
	// Seed seeds the initial factors. Zero means 1.
	Seed uint64
}

// DefaultFMAlpha is the default α of FMFTRLSettings, the best of a grid on
// one shuffled pass of MovieLens-100K (rank 10). IJCNN1 (rank 20) prefers
// a larger α; λ₁, λ₂ and σ barely move the MovieLens RMSE. The figures:
// docs/findings.md, "The baselines' defaults".
const DefaultFMAlpha = 0.2

func (s FMFTRLSettings) withDefaults() FMFTRLSettings {
	if s.Rank == 0 {
		s.Rank = 10
	}
	s.FTRLSettings = s.FTRLSettings.withDefaults(DefaultFMAlpha)
	if s.InitStd == 0 {
		s.InitStd = 0.01
	}
	if s.Seed == 0 {
		s.Seed = 1
	}
	if s.Rank < 1 || !s.FTRLSettings.valid() || s.InitStd < 0 {
		panic("core: invalid FMFTRLSettings")
	}
	return s
}

// FMFTRLSettingsFor maps the common registry Config onto FM-FTRL settings:
// the rank, α = Config.Eta, the seed and the loss. Config.Delta does not
// apply (vanilla FM has no norm bound).
func FMFTRLSettingsFor(c Config) FMFTRLSettings {
	return FMFTRLSettings{Rank: c.Rank, FTRLSettings: FTRLSettings{Alpha: c.Eta}, Seed: c.Seed, Loss: c.LossOf()}
}

// FMFTRL is the vanilla factorization machine of Rendle (2010) trained
// online by per-coordinate FTRL-Proximal (McMahan et al. 2013), the
// paper's FM-FTRL baseline (§5.1; Ta 2015 applies FTRL to FM in batch):
//
//	ŷ = w₀ + Σᵢwᵢxᵢ + Σ_{i<j}⟨vᵢ, vⱼ⟩xᵢxⱼ
//	  = w₀ + Σᵢwᵢxᵢ + ½Σ_f[(Σᵢv_if·xᵢ)² − Σᵢv_if²xᵢ²],
//
// with V ∈ ℝᵈˣᵏ. The model is not convex in V. Each round feeds the
// gradient ℓ'(ŷ, y)·∂ŷ/∂θ of every touched coordinate θ to its own
// FTRL-Proximal accumulators (see ftrlProximal), with
//
//	∂ŷ/∂w₀ = 1,  ∂ŷ/∂wᵢ = xᵢ,  ∂ŷ/∂v_if = xᵢ(Σⱼv_jf·xⱼ − v_if·xᵢ),
//
// all taken at the parameters that made the prediction. Prediction and
// update cost O(nnz(x)·k). New features start with w = 0 and v drawn from
// N(0, σ²) (InitStd). An FMFTRL is not safe for concurrent use.
//
// Memory (MemoryBytes): 24(k+1) bytes a feature for w, V and their FTRL
// accumulators (264 at the default k = 10, more with the growing slices'
// slack: docs/performance.md, "Big files and memory"), whatever the pairs
// that occur.
type FMFTRL struct {
	ftrlLinear // w₀ and w (length d); its prox also steps V
	s          FMFTRLSettings
	rng        *rand.Rand
	d          int // features seen

	v, zv, nv []float64 // d×k, row-major

	sum []float64 // scratch: Σᵢv_if·xᵢ, length k
}

var _ Learner = (*FMFTRL)(nil)
var _ Configured = (*FMFTRL)(nil)

// fmFTRLSpec registers FMFTRL (see registry).
var fmFTRLSpec = Spec{
	Name:     "fm-ftrl",
	Plain:    "The classic factorization machine: each feature gets a few hidden taste numbers and a pair interacts through their product. Fast, but not convex.",
	Summary:  "vanilla FM (Rendle 2010), rank k, per-coordinate FTRL-Proximal on w₀, w and V (§5.1 baseline)",
	Takes:    TakesEta,
	Personal: "Adapts to a new person at once: each rating is one online step of your factor vector.",
	New:      func(c Config) Learner { return NewFMFTRL(FMFTRLSettingsFor(c)) },
	state:    func() stateCoder { return new(FMFTRL) },
}

// NewFMFTRL returns an FM-FTRL learner with w₀ = 0 and an empty feature
// space.
func NewFMFTRL(s FMFTRLSettings) *FMFTRL {
	s = s.withDefaults()
	return &FMFTRL{
		ftrlLinear: newFTRLLinear(s.Alpha, s.Beta, s.L1, s.L2),
		s:          s,
		rng:        rand.New(rand.NewPCG(s.Seed, 0xf3)),
		sum:        make([]float64, s.Rank),
	}
}

// Settings returns the settings in use, with defaults filled in.
func (m *FMFTRL) Settings() FMFTRLSettings { return m.s }

// Config returns the effective common settings (rank, α as Eta, seed and
// loss); it implements Configured.
func (m *FMFTRL) Config() Config {
	loss := m.s.Loss
	return Config{Task: taskOf(loss), Eta: m.s.Alpha, Seed: m.s.Seed, Rank: m.s.Rank, Loss: &loss}
}

// growthBytes returns what learning a row of dimension dim allocates at
// once for the linear part and the rows of V (see rowGrower).
func (m *FMFTRL) growthBytes(nnz, dim int) int64 {
	g := m.ftrlLinear.growthBytes(nnz, dim)
	if dim*m.s.Rank > cap(m.v) {
		g += 24 * grownCap(cap(m.v), dim*m.s.Rank)
	}
	return g
}

// grow extends the feature space to d features, drawing the new rows of V.
func (m *FMFTRL) grow(d int) {
	if d <= m.d {
		return
	}
	k := m.s.Rank
	m.extend(d)
	for range d - m.d {
		for range k {
			m.v = append(m.v, m.s.InitStd*m.rng.NormFloat64())
			m.zv = append(m.zv, 0)
			m.nv = append(m.nv, 0)
		}
	}
	m.d = d
}

// Predict returns ŷ. It does not change the learner's state; features not
// seen in an update contribute nothing.
func (m *FMFTRL) Predict(x data.Sparse) float64 {
	k := m.s.Rank
	sum := m.sum
	clear(sum)
	y := m.value(x)
	var sq float64 // Σ_f Σᵢ v_if²xᵢ²
	for p, i := range x.Ind {
		if i >= m.d {
			continue
		}
		xi := x.Val[p]
		vi := m.v[i*k : i*k+k]
		for f, vif := range vi {
			t := vif * xi
			sum[f] += t
			sq += t * t
		}
	}
	return y + 0.5*(spectral.Dot(sum, sum)-sq)
}

// Update feeds ℓ'(ŷ, y)·∂ŷ/∂θ to every coordinate θ touched by x.
func (m *FMFTRL) Update(x data.Sparse, y float64) {
	d := m.d
	for _, i := range x.Ind {
		d = max(d, i+1)
	}
	m.grow(d)
	g := m.s.Loss.Deriv(m.Predict(x), y) // leaves Σᵢv_if·xᵢ in m.sum
	if g == 0 {
		return
	}
	k := m.s.Rank
	m.learn(x, g)
	for p, i := range x.Ind {
		xi := x.Val[p]
		gx := g * xi
		base := i * k
		for f := range k {
			j := base + f
			vif := m.v[j]
			m.v[j] = m.prox.step(vif, &m.zv[j], &m.nv[j], gx*(m.sum[f]-vif*xi))
		}
	}
}

// Dim returns the number of features seen.
func (m *FMFTRL) Dim() int { return m.d }

// Factor returns vᵢ, the rank-k factor of feature i (zero for a feature
// not seen yet), in new memory: the pair weight of features i and j is
// ⟨vᵢ, vⱼ⟩.
func (m *FMFTRL) Factor(i int) []float64 {
	k := m.s.Rank
	v := make([]float64, k)
	if i < m.d {
		copy(v, m.v[i*k:i*k+k])
	}
	return v
}

// MemoryBytes estimates the bytes m holds (see Sized): 24·(k+1) bytes a
// feature for w, V and their FTRL accumulators (264 at the default k = 10),
// plus the slack of the growing slices.
func (m *FMFTRL) MemoryBytes() int64 {
	return structBytes + m.ftrlLinear.memoryBytes() + sumF64Bytes(m.v, m.zv, m.nv, m.sum)
}

// MemoryNote says how many features m holds (see MemoryNoter).
func (m *FMFTRL) MemoryNote() string { return countText(int64(m.d)) + " features" }

func (m *FMFTRL) stateCode(c *stateCodec) {
	s := m.s
	c.int(&s.Rank)
	c.ftrlSettings(&s.FTRLSettings)
	c.float(&s.InitStd)
	codeEnum(c, &s.Loss, 2, "loss")
	c.uint64(&s.Seed)
	if c.violates(s.Rank <= maxSubspace) {
		c.fail("rank " + str.Itoa(s.Rank))
	}
	if !rebuild(c, m, s, NewFMFTRL, func(x *FMFTRL) FMFTRLSettings { return x.s }) {
		return
	}
	c.int(&m.d)
	if c.violates(m.d >= 0) {
		c.fail(str.Itoa(m.d) + " features")
	}
	if c.err != nil {
		return
	}
	c.ftrlLinear(&m.ftrlLinear, m.d)
	c.floats(&m.v)
	c.floats(&m.zv)
	c.floats(&m.nv)
	k := m.s.Rank
	c.check(len(m.v) == m.d*k && len(m.zv) == m.d*k && len(m.nv) == m.d*k, "factors of the wrong size")
	if c.dec && c.err == nil {
		// Advance the generator past the draws of V's initial rows.
		for range m.d * k {
			m.rng.NormFloat64()
		}
	}
}

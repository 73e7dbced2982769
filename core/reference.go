package core

import (
	"math"

	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/internal/str"
)

// This file holds three honest references for the paper's learners: a
// learner that ignores x, the classic biases model, and a linear model. A
// factorization machine that cannot beat them has not learned an
// interaction.

// MeanSettings configures NewMean. The zero value is the Regression task.
type MeanSettings struct {
	// Task selects what is averaged: the label for Regression, the
	// positive rate for Classification.
	Task data.Task
}

// MeanSettingsFor maps the common registry Config onto Mean settings: only
// the task applies.
func MeanSettingsFor(c Config) MeanSettings { return MeanSettings{Task: c.Task} }

// Mean is the reference that ignores x. For Regression it predicts the
// running mean ȳ of the labels seen (0 before the first). For
// Classification it predicts the log-odds of the running positive rate with
// add-one (Laplace) smoothing,
//
//	ŷ = log((n₊ + 1)/(n₋ + 1)),
//
// so its sign is the majority class so far (its error rate is the
// majority baseline's) and σ(ŷ) is a calibrated probability (its logistic
// loss is the entropy baseline's).
//
// Memory: a few words, whatever the stream.
type Mean struct {
	s        MeanSettings
	n        int
	sum      float64 // Regression: Σy
	pos, neg int     // Classification: class counts
}

var _ Learner = (*Mean)(nil)
var _ Configured = (*Mean)(nil)

// meanSpec registers Mean (see registry).
var meanSpec = Spec{
	Name:    "mean",
	Plain:   "Always predicts the average label seen so far: the simplest guess there is.",
	Summary: "reference: the running mean of y (regression) or the smoothed log-odds of the positive rate (classification)",
	NoPairs: true,
	New:     func(c Config) Learner { return NewMean(MeanSettingsFor(c)) },
	state:   func() stateCoder { return new(Mean) },
}

// NewMean returns a Mean learner that has seen nothing.
func NewMean(s MeanSettings) *Mean { return &Mean{s: s} }

// Config returns the task (and its loss); it implements Configured.
func (m *Mean) Config() Config {
	loss := TaskLoss(m.s.Task)
	return Config{Task: m.s.Task, Loss: &loss}
}

// Predict returns ȳ, or the smoothed log-odds for Classification. It does
// not change the learner's state and does not read x.
func (m *Mean) Predict(x data.Sparse) float64 {
	if m.s.Task == data.Classification {
		return math.Log(float64(m.pos+1) / float64(m.neg+1))
	}
	if m.n == 0 {
		return 0
	}
	return m.sum / float64(m.n)
}

// Update counts y (for Classification, y > 0 is the positive class).
func (m *Mean) Update(x data.Sparse, y float64) {
	m.n++
	m.sum += y
	if y > 0 {
		m.pos++
	} else {
		m.neg++
	}
}

// BiasSettings configures NewBias. The zero value is the documented default
// of every field.
type BiasSettings struct {
	// Eta is the learning-rate scale η of the 1/n schedule (see Bias). Zero
	// means ½, the Newton step of the Squared loss, which makes each bias a
	// ridge estimate.
	Eta float64
	// L2 is the ℓ₂ weight λ on the per-feature biases, in pseudo-
	// observations (see Bias). Zero means DefaultBiasL2; a negative value
	// is an error.
	L2 float64
	// Loss is the loss ℓ(ŷ, y); the zero value is Squared.
	Loss Loss
}

// DefaultBiasL2 is the default ℓ₂ weight λ of Bias, the best of λ = 3, 4
// and 5 with η = ½ on one shuffled pass of MovieLens-100K for shuffle seeds
// 1, 2 and 3; other η around ½ do worse, and a constant-rate SGD on the
// same model does worse at its best rate (docs/findings.md, "The
// baselines' defaults").
const DefaultBiasL2 = 4

func (s BiasSettings) withDefaults() BiasSettings {
	if s.Eta == 0 {
		s.Eta = 0.5
	}
	if s.L2 == 0 {
		s.L2 = DefaultBiasL2
	}
	if s.Eta < 0 || s.L2 < 0 {
		panic("core: invalid BiasSettings")
	}
	return s
}

// BiasSettingsFor maps the common registry Config onto Bias settings: η and
// the loss.
func BiasSettingsFor(c Config) BiasSettings {
	return BiasSettings{Eta: c.Eta, Loss: c.LossOf()}
}

// Bias is the global-plus-feature-biases model
//
//	ŷ = b + Σᵢbᵢxᵢ,
//
// trained by SGD on ℓ(ŷ, y) with a per-coordinate 1/n step schedule: after
// round t, in which feature i has appeared nᵢ times,
//
//	b ← b − η·ℓ'(ŷ, y)/t,   bᵢ ← bᵢ − η·ℓ'(ŷ, y)·xᵢ/(nᵢ + λ)  for xᵢ ≠ 0.
//
// With the Squared loss (ℓ' = 2(ŷ − y)) and η = ½, b is the running mean of
// the residuals y − Σbᵢxᵢ, and a feature seen with xᵢ = 1 gets the ℓ₂
// (ridge) estimate bᵢ = argmin Σₛ(bᵢ − rₛ)² + λbᵢ² = Σₛrₛ/(nᵢ + λ) of the
// residuals rₛ = y − ŷ + bᵢ it was given: λ acts as λ pseudo-observations of
// residual 0. On one-hot MovieLens rows (a user and an item) this is the
// classic "global mean + user bias + item bias" baseline of collaborative
// filtering (Koren 2008). A constant step (the textbook SGD) fits the same
// model worse in one pass, since its biases keep a window of about 1/(2η)
// ratings. A Bias is not safe for concurrent use.
//
// Memory (MemoryBytes): 16 bytes a feature.
type Bias struct {
	s BiasSettings
	t int
	b float64
	w []float64 // bᵢ
	n []float64 // nᵢ
}

var _ Learner = (*Bias)(nil)
var _ Configured = (*Bias)(nil)

// biasSpec registers Bias (see registry).
var biasSpec = Spec{
	Name:    "bias",
	Plain:   "The average plus one offset per feature (a user who rates high, a film everyone likes). No pairs.",
	Summary: "reference: global + per-feature biases by SGD with ℓ₂ (user + item biases on MovieLens)",
	NoPairs: true,
	Takes:   TakesEta,
	New:     func(c Config) Learner { return NewBias(BiasSettingsFor(c)) },
	state:   func() stateCoder { return new(Bias) },
}

// NewBias returns a Bias learner with all biases 0.
func NewBias(s BiasSettings) *Bias { return &Bias{s: s.withDefaults()} }

// Settings returns the settings in use, with defaults filled in.
func (m *Bias) Settings() BiasSettings { return m.s }

// Config returns η and the loss; it implements Configured.
func (m *Bias) Config() Config {
	loss := m.s.Loss
	return Config{Task: taskOf(loss), Eta: m.s.Eta, Loss: &loss}
}

// Predict returns b + Σᵢbᵢxᵢ. It does not change the learner's state.
func (m *Bias) Predict(x data.Sparse) float64 {
	return affine(m.b, m.w, x)
}

// Update takes one SGD step on (x, y).
func (m *Bias) Update(x data.Sparse, y float64) {
	m.extend(x)
	m.learn(x, m.s.Loss.Deriv(m.Predict(x), y))
}

// extend grows the biases with zeros to cover the features of x.
func (m *Bias) extend(x data.Sparse) {
	d := len(m.w)
	for _, i := range x.Ind {
		d = max(d, i+1)
	}
	extendZeros(d, &m.w, &m.n)
}

// learn takes the SGD step of a round whose loss has derivative g at the
// prediction; x's features must be covered (extend).
func (m *Bias) learn(x data.Sparse, g float64) {
	m.t++
	eta := m.s.Eta
	m.b -= eta * g / float64(m.t)
	for p, i := range x.Ind {
		m.n[i]++
		m.w[i] -= eta * g * x.Val[p] / (m.n[i] + m.s.L2)
	}
}

// LinearSettings configures NewLinear. The zero value is the documented
// default of every field.
type LinearSettings struct {
	// FTRLSettings are FTRL-Proximal's α, β, λ₁ and λ₂, on w (not on w₀).
	// A zero Alpha means DefaultLinearAlpha.
	FTRLSettings
	// Loss is the loss ℓ(ŷ, y); the zero value is Squared (linear
	// regression); Logistic gives logistic regression.
	Loss Loss
}

// DefaultLinearAlpha is the default α of Linear (and of CFM-FTRL's linear
// part), the best of a grid on one shuffled pass of MovieLens-100K
// (shuffle seeds 1–3 agree); IJCNN1 prefers a larger α
// (docs/findings.md, "The baselines' defaults").
const DefaultLinearAlpha = 0.3

func (s LinearSettings) withDefaults() LinearSettings {
	s.FTRLSettings = s.FTRLSettings.withDefaults(DefaultLinearAlpha)
	if !s.FTRLSettings.valid() {
		panic("core: invalid LinearSettings")
	}
	return s
}

// LinearSettingsFor maps the common registry Config onto Linear settings:
// α = Config.Eta and the loss.
func LinearSettingsFor(c Config) LinearSettings {
	return LinearSettings{FTRLSettings: FTRLSettings{Alpha: c.Eta}, Loss: c.LossOf()}
}

// Linear is the linear model ŷ = w₀ + wᵀx trained by per-coordinate
// FTRL-Proximal (McMahan et al. 2013; see ftrlProximal): online linear
// regression under the Squared loss, logistic regression under the
// Logistic loss. Coordinate i receives the gradient ℓ'(ŷ, y)·xᵢ, w₀ the
// gradient ℓ'(ŷ, y). It is FM-FTRL without V. A Linear is not safe for
// concurrent use.
//
// Memory (MemoryBytes): 24 bytes a feature (w and its FTRL accumulators).
type Linear struct {
	ftrlLinear
	s LinearSettings
}

var _ Learner = (*Linear)(nil)
var _ Configured = (*Linear)(nil)

// linearSpec registers Linear (see registry).
var linearSpec = Spec{
	Name:    "linear",
	Plain:   "Linear (or logistic) regression: one weight per feature. No pairs.",
	Summary: "reference: linear / logistic regression ŷ = w₀ + wᵀx by per-coordinate FTRL-Proximal",
	NoPairs: true,
	Takes:   TakesEta,
	New:     func(c Config) Learner { return NewLinear(LinearSettingsFor(c)) },
	state:   func() stateCoder { return new(Linear) },
}

// NewLinear returns a Linear learner with all weights 0.
func NewLinear(s LinearSettings) *Linear {
	s = s.withDefaults()
	return &Linear{ftrlLinear: newFTRLLinear(s.Alpha, s.Beta, s.L1, s.L2), s: s}
}

// Settings returns the settings in use, with defaults filled in.
func (m *Linear) Settings() LinearSettings { return m.s }

// Config returns α as Eta and the loss; it implements Configured.
func (m *Linear) Config() Config {
	loss := m.s.Loss
	return Config{Task: taskOf(loss), Eta: m.s.Alpha, Loss: &loss}
}

// Predict returns w₀ + wᵀx. It does not change the learner's state.
func (m *Linear) Predict(x data.Sparse) float64 { return m.value(x) }

// Update feeds ℓ'(ŷ, y)·x to the FTRL-Proximal accumulators.
func (m *Linear) Update(x data.Sparse, y float64) {
	d := len(m.w)
	for _, i := range x.Ind {
		d = max(d, i+1)
	}
	m.extend(d)
	if g := m.s.Loss.Deriv(m.Predict(x), y); g != 0 {
		m.learn(x, g)
	}
}

// MemoryBytes returns the size of m, which does not grow (see Sized).
func (m *Mean) MemoryBytes() int64 { return structBytes }

// MemoryBytes estimates the bytes m holds (see Sized): 16 bytes a feature,
// plus the slack of the growing slices.
func (m *Bias) MemoryBytes() int64 { return structBytes + sumF64Bytes(m.w, m.n) }

// growthBytes returns what learning a row of dimension dim allocates at
// once for bᵢ and nᵢ (see rowGrower).
func (m *Bias) growthBytes(_, dim int) int64 {
	if dim > cap(m.w) {
		return 16 * grownCap(cap(m.w), dim)
	}
	return 0
}

// MemoryNote says how many features m holds (see MemoryNoter).
func (m *Bias) MemoryNote() string { return countText(int64(len(m.w))) + " features" }

// MemoryBytes estimates the bytes m holds (see Sized): 24 bytes a feature
// (w and its FTRL accumulators), plus the slack of the growing slices.
func (m *Linear) MemoryBytes() int64 { return structBytes + m.ftrlLinear.memoryBytes() }

// MemoryNote says how many features m holds (see MemoryNoter).
func (m *Linear) MemoryNote() string { return countText(int64(len(m.w))) + " features" }

func (m *Mean) stateCode(c *stateCodec) {
	codeEnum(c, &m.s.Task, 2, "task")
	c.int(&m.n)
	c.float(&m.sum)
	c.int(&m.pos)
	c.int(&m.neg)
}

func (m *Bias) stateCode(c *stateCodec) {
	s := m.s
	c.float(&s.Eta)
	c.float(&s.L2)
	codeEnum(c, &s.Loss, 2, "loss")
	if !rebuild(c, m, s, NewBias, func(x *Bias) BiasSettings { return x.s }) {
		return
	}
	c.int(&m.t)
	c.float(&m.b)
	c.floats(&m.w)
	c.floats(&m.n)
	if c.violates(len(m.w) == len(m.n)) {
		c.fail(str.Itoa(len(m.w)) + " biases with " + str.Itoa(len(m.n)) + " counts")
	}
}

func (m *Linear) stateCode(c *stateCodec) {
	s := m.s
	c.ftrlSettings(&s.FTRLSettings)
	codeEnum(c, &s.Loss, 2, "loss")
	if !rebuild(c, m, s, NewLinear, func(x *Linear) LinearSettings { return x.s }) {
		return
	}
	d := len(m.w)
	c.int(&d)
	if c.violates(d >= 0) {
		c.fail(str.Itoa(d) + " features")
	}
	c.ftrlLinear(&m.ftrlLinear, d)
}

// ftrlProximal holds the settings of per-coordinate FTRL-Proximal
// (McMahan et al. 2013, "Ad click prediction: a view from the trenches",
// Algorithm 1). Each coordinate keeps z and n; after gradients g₁ … gₜ its
// weight is
//
//	wₜ₊₁ = argmin_w g₁:ₜ·w + ½Σₛσₛ(w − wₛ)² + β/(2α)·w² + λ₁|w| + ½λ₂w²
//	     = 0                                       if |z| ≤ λ₁,
//	     = −(z − sign(z)·λ₁) / ((β + √n)/α + λ₂)   otherwise,
//
// with n = Σgₛ², σₛ = (√n₁:ₛ − √n₁:ₛ₋₁)/α and z = g₁:ₜ − Σₛσₛwₛ: the
// per-coordinate rate is α/(β + √n). The weight w₁ before the first
// gradient is the coordinate's initial value (0, or FM's random factors).
type ftrlProximal struct {
	alpha, beta, l1, l2 float64
}

// step feeds the gradient g to the coordinate with weight w and
// accumulators z, n, and returns its new weight.
func (f ftrlProximal) step(w float64, z, n *float64, g float64) float64 {
	sigma := (math.Sqrt(*n+g*g) - math.Sqrt(*n)) / f.alpha
	*z += g - sigma*w
	*n += g * g
	return f.weight(*z, *n)
}

// weight returns the closed-form FTRL-Proximal weight for accumulators z, n.
func (f ftrlProximal) weight(z, n float64) float64 {
	if math.Abs(z) <= f.l1 {
		return 0
	}
	return -(z - math.Copysign(f.l1, z)) / ((f.beta+math.Sqrt(n))/f.alpha + f.l2)
}

// ftrlLinear is the affine part w₀ + wᵀx of Linear, FM-FTRL and CFM-FTRL,
// trained by per-coordinate FTRL-Proximal: w₀ by bias (no λ₁, λ₂), each wᵢ
// by prox, with the accumulators z, n of each coordinate beside it.
type ftrlLinear struct {
	prox, bias ftrlProximal
	w0, z0, n0 float64
	w, zw, nw  []float64 // one entry per feature
}

// newFTRLLinear returns an ftrlLinear with all weights 0.
func newFTRLLinear(alpha, beta, l1, l2 float64) ftrlLinear {
	return ftrlLinear{
		prox: ftrlProximal{alpha: alpha, beta: beta, l1: l1, l2: l2},
		bias: ftrlProximal{alpha: alpha, beta: beta},
	}
}

// affine returns b + Σᵢwᵢxᵢ over the features of x that w covers.
func affine(b float64, w []float64, x data.Sparse) float64 {
	for p, i := range x.Ind {
		if i < len(w) {
			b += w[i] * x.Val[p]
		}
	}
	return b
}

// value returns w₀ + wᵀx; features beyond w contribute nothing.
func (l *ftrlLinear) value(x data.Sparse) float64 { return affine(l.w0, l.w, x) }

// extend grows w (and its accumulators) with zeros to d features.
func (l *ftrlLinear) extend(d int) { extendZeros(d, &l.w, &l.zw, &l.nw) }

// learn feeds the gradient g·(1, x) of a round to w₀ and the wᵢ of x,
// which must be covered by w.
func (l *ftrlLinear) learn(x data.Sparse, g float64) {
	l.w0 = l.bias.step(l.w0, &l.z0, &l.n0, g)
	for p, i := range x.Ind {
		l.w[i] = l.prox.step(l.w[i], &l.zw[i], &l.nw[i], g*x.Val[p])
	}
}

// growthBytes returns what learning a row of dimension dim allocates at
// once for w, zw and nw (see rowGrower).
func (l *ftrlLinear) growthBytes(_, dim int) int64 {
	if dim > cap(l.w) {
		return 24 * grownCap(cap(l.w), dim)
	}
	return 0
}

// extendZeros appends zeros to each of bufs up to length d.
func extendZeros(d int, bufs ...*[]float64) {
	for _, b := range bufs {
		if n := len(*b); n < d {
			*b = append(*b, make([]float64, d-n)...)
		}
	}
}

// FTRLSettings are the settings of per-coordinate FTRL-Proximal (McMahan
// et al. 2013), which fm-ftrl, linear, ccfm-pairs and cfm-ftrl share:
// coordinate i moves at the rate α/(β + √nᵢ), nᵢ the sum of its squared
// gradients, with an ℓ₁ term λ₁|wᵢ| (which makes weights exactly zero) and
// an ℓ₂ term λ₂wᵢ²/2 beyond FTRL's own β/(2α)·wᵢ². The zero value is each
// learner's default α, β = 1 (McMahan et al.'s advice), and no λ₁ or λ₂.
type FTRLSettings struct {
	Alpha, Beta, L1, L2 float64
}

// withDefaults fills in alpha for a zero Alpha and 1 for a zero Beta.
func (s FTRLSettings) withDefaults(alpha float64) FTRLSettings {
	if s.Alpha == 0 {
		s.Alpha = alpha
	}
	if s.Beta == 0 {
		s.Beta = 1
	}
	return s
}

// valid reports whether α > 0 and β, λ₁, λ₂ ≥ 0.
func (s FTRLSettings) valid() bool { return s.Alpha > 0 && s.Beta >= 0 && s.L1 >= 0 && s.L2 >= 0 }

// memoryBytes estimates the bytes of w and its FTRL accumulators: 24 bytes
// a feature.
func (l *ftrlLinear) memoryBytes() int64 { return sumF64Bytes(l.w, l.zw, l.nw) }

// ftrlLinear codes w₀, w and their FTRL accumulators (the proximal
// settings come from the learner's settings), checking that w covers d
// features.
func (c *stateCodec) ftrlLinear(l *ftrlLinear, d int) {
	c.float(&l.w0)
	c.float(&l.z0)
	c.float(&l.n0)
	c.floats(&l.w)
	c.floats(&l.zw)
	c.floats(&l.nw)
	if c.violates(len(l.w) == d && len(l.zw) == d && len(l.nw) == d) {
		c.fail(str.Itoa(len(l.w)) + " linear weights for " + str.Itoa(d) + " features")
	}
}

// ftrlSettings codes FTRL-Proximal's α, β, λ₁ and λ₂, in that order.
func (c *stateCodec) ftrlSettings(s *FTRLSettings) {
	c.float(&s.Alpha)
	c.float(&s.Beta)
	c.float(&s.L1)
	c.float(&s.L2)
}

// nestedBias codes a Bias's state after its settings (those of the
// learner it belongs to), checking that it covers d features.
func (c *stateCodec) nestedBias(b *Bias, d int) {
	c.int(&b.t)
	c.float(&b.b)
	c.floats(&b.w)
	c.floats(&b.n)
	if c.violates(len(b.w) == d && len(b.n) == d) {
		c.fail(str.Itoa(len(b.w)) + " biases with " + str.Itoa(len(b.n)) + " counts for " + str.Itoa(d) + " features")
	}
}

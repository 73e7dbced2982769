package core

import (
	"math"

	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/internal/str"
)

// CCFMPairsSettings configures NewCCFMPairs. The zero value is the
// documented default of every field.
type CCFMPairsSettings struct {
	// FTRLSettings are FTRL-Proximal's α, β, λ₁ and λ₂ for every
	// coordinate, w and the pair weights (not w₀). A zero Alpha means
	// DefaultLinearAlpha, Linear's.
	FTRLSettings
	// Bits sets the size of the pair table, 2^Bits slots. Zero means
	// DefaultPairBits; it must be in [4, 24].
	Bits int
	// Loss is the loss ℓ(ŷ, y); the zero value is Squared.
	Loss Loss
	// MaxRowNonzeros is the most nonzeros a row may have for its pairs to
	// count: a row with more is predicted and learned by its affine part
	// w₀ + wᵀx alone, in O(nnz(x)), since its nnz(x)·(nnz(x) + 1)/2 pairs
	// would cost time quadratic in the row (though no memory). Zero means
	// DefaultMaxRowNonzeros; negative means no limit.
	MaxRowNonzeros int
}

// DefaultPairBits is CCFMPairs' default table size, 2^18 slots (6 MiB):
// every pair of the first 723 features has a slot of its own.
const DefaultPairBits = 18

func (s CCFMPairsSettings) withDefaults() CCFMPairsSettings {
	s.FTRLSettings = s.FTRLSettings.withDefaults(DefaultLinearAlpha)
	if s.Bits == 0 {
		s.Bits = DefaultPairBits
	}
	s.MaxRowNonzeros = zeroDefault(s.MaxRowNonzeros, DefaultMaxRowNonzeros, -1)
	if !s.FTRLSettings.valid() || s.Bits < 4 || s.Bits > 24 {
		panic("core: invalid CCFMPairsSettings")
	}
	return s
}

// CCFMPairsSettingsFor maps the common registry Config onto CCFMPairs
// settings: α = Config.Eta and the loss (δ, the rank and γ do not apply).
func CCFMPairsSettingsFor(c Config) CCFMPairsSettings {
	return CCFMPairsSettings{FTRLSettings: FTRLSettings{Alpha: c.Eta}, Loss: c.LossOf()}
}

// CCFMPairs learns every entry of C on its own: the CCFM model
//
//	ŷ = ½x̂ᵀCx̂ = w₀ + Σᵢ wᵢxᵢ + Σᵢ≤ⱼ uᵢⱼxᵢxⱼ
//
// (C's corner is 2w₀, its border w, C_ij = uᵢⱼ for i < j and C_ii = 2uᵢᵢ)
// trained by per-coordinate FTRL-Proximal (McMahan et al. 2013), with the
// same α, β, λ₁ and λ₂ for w and u, and no λ on w₀. It is all-pairs
// online linear or logistic regression, what Vowpal Wabbit runs with
// -q ff. Its regret is FTRL-Proximal's, against
// any fixed (w₀, w, u); it has no nuclear-norm bound and no low-rank
// structure, so it helps where pairs of features recur (dense features, as
// IJCNN1's) and cannot generalize over pairs never seen (a new user and an
// item). It is an expert of OCCFMAuto.
//
// The pair weights live in a table of 2^Bits slots, so that memory is
// fixed whatever the data: pair (i, j), i ≤ j, goes to the slot
// j(j+1)/2 + i, one slot a pair, while that is below 2^Bits (features
// numbered under 724 at the default size: IJCNN1, a9a and the demos), and
// beyond to a slot h(i, j) of a 64-bit mix of i and j (the hashing trick
// of Weinberger et al. 2009, "Feature hashing for large scale multitask
// learning"). Pairs that share a slot share a weight: C is then the matrix
// whose tied entries are that weight, still a CCFM model. A row costs
// O(nnz(x)²), up to MaxRowNonzeros nonzeros; a wider row's pairs are left
// out of both the prediction and the update (its feature map is (1, x, 0)),
// so that it costs O(nnz(x)). The regret bound is unchanged: it holds for
// any fixed feature map. A CCFMPairs is not safe for concurrent use.
//
// Memory (MemoryBytes): the affine part, 24 bytes a feature, and the table,
// 24·2^Bits bytes once the first row is learned.
type CCFMPairs struct {
	ftrlLinear
	s         CCFMPairsSettings
	u, zu, nu []float64 // the pair table: weight and FTRL accumulators
	used      int       // slots with nu > 0
	slot      []int32   // scratch: the slots of the current row's pairs
	xx        []float64 // scratch: their values xᵢxⱼ
	visits    int64     // pair terms read or written (see pairCounter)
}

var _ Learner = (*CCFMPairs)(nil)
var _ Configured = (*CCFMPairs)(nil)

// ccfmPairsSpec registers CCFMPairs (see registry).
var ccfmPairsSpec = Spec{
	Name:    "ccfm-pairs",
	Plain:   "One weight for every pair of features, learned directly: strong when the same pairs come back often, blind to pairs never seen.",
	Summary: "CCFM with every pair's entry of C its own weight (all-pairs linear or logistic regression), per-coordinate FTRL-Proximal, hashed",
	Takes:   TakesEta,
	New:     func(c Config) Learner { return NewCCFMPairs(CCFMPairsSettingsFor(c)) },
	state:   func() stateCoder { return new(CCFMPairs) },
}

// NewCCFMPairs returns a CCFMPairs learner with all weights 0.
func NewCCFMPairs(s CCFMPairsSettings) *CCFMPairs {
	s = s.withDefaults()
	return &CCFMPairs{ftrlLinear: newFTRLLinear(s.Alpha, s.Beta, s.L1, s.L2), s: s}
}

// Settings returns the settings in use, with defaults filled in.
func (m *CCFMPairs) Settings() CCFMPairsSettings { return m.s }

// Config returns α as Eta and the loss; it implements Configured.
func (m *CCFMPairs) Config() Config {
	loss := m.s.Loss
	return Config{Task: taskOf(loss), Eta: m.s.Alpha, Loss: &loss}
}

// pairSlot returns the slot of the pair (i, j), i ≤ j, in a table of 2^bits
// slots: its triangular index j(j+1)/2 + i when that is below 2^bits (no
// two pairs share one), otherwise the top bits of SplitMix64's finalizer
// of (i, j).
func pairSlot(i, j int, bits int) int32 {
	if t := uint64(j)*(uint64(j)+1)/2 + uint64(i); t < 1<<bits {
		return int32(t)
	}
	z := uint64(i)<<32 ^ uint64(j) + 0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	z ^= z >> 31
	return int32(z >> (64 - bits))
}

// withPairs reports whether x's pairs count: x has at most MaxRowNonzeros
// nonzeros, or there is no limit.
func (m *CCFMPairs) withPairs(x data.Sparse) bool {
	return m.s.MaxRowNonzeros < 0 || len(x.Ind) <= m.s.MaxRowNonzeros
}

// pairs fills m.slot and m.xx with the slots and values of x's pairs, none
// when they do not count (see withPairs).
func (m *CCFMPairs) pairs(x data.Sparse) {
	m.slot, m.xx = m.slot[:0], m.xx[:0]
	if !m.withPairs(x) {
		return
	}
	m.visits += pairTerms(len(x.Ind))
	for p, i := range x.Ind {
		for q := p; q < len(x.Ind); q++ {
			a, b := i, x.Ind[q]
			if a > b {
				a, b = b, a
			}
			m.slot = append(m.slot, pairSlot(a, b, m.s.Bits))
			m.xx = append(m.xx, x.Val[p]*x.Val[q])
		}
	}
}

// Predict returns w₀ + wᵀx + Σᵢ≤ⱼ uᵢⱼxᵢxⱼ, without the pair sum for a row
// over MaxRowNonzeros. It does not change the model, and it allocates
// nothing.
func (m *CCFMPairs) Predict(x data.Sparse) float64 {
	y := m.value(x)
	if m.u == nil || !m.withPairs(x) {
		return y
	}
	m.visits += pairTerms(len(x.Ind))
	for p, i := range x.Ind {
		for q := p; q < len(x.Ind); q++ {
			a, b := i, x.Ind[q]
			if a > b {
				a, b = b, a
			}
			y += m.u[pairSlot(a, b, m.s.Bits)] * x.Val[p] * x.Val[q]
		}
	}
	return y
}

// Update feeds ℓ'(ŷ, y) times each coordinate's value to its FTRL-Proximal
// accumulators.
func (m *CCFMPairs) Update(x data.Sparse, y float64) {
	d := len(m.w)
	for _, i := range x.Ind {
		d = max(d, i+1)
	}
	m.extend(d)
	if m.u == nil {
		n := 1 << m.s.Bits
		m.u, m.zu, m.nu = make([]float64, n), make([]float64, n), make([]float64, n)
	}
	// The pairs' slots are hashed once, for the prediction and the step;
	// the prediction adds up as Predict does, bit for bit.
	m.pairs(x)
	yhat, k := m.value(x), 0
	if len(m.slot) > 0 {
		for p := range x.Ind {
			for q := p; q < len(x.Ind); q++ {
				yhat += m.u[m.slot[k]] * x.Val[p] * x.Val[q]
				k++
			}
		}
	}
	g := m.s.Loss.Deriv(yhat, y)
	if g == 0 || math.IsNaN(g) {
		return
	}
	m.learn(x, g)
	for k, s := range m.slot {
		was := m.nu[s]
		m.u[s] = m.prox.step(m.u[s], &m.zu[s], &m.nu[s], g*m.xx[k])
		if was == 0 && m.nu[s] > 0 {
			m.used++
		}
	}
}

// MemoryBytes estimates the bytes m holds (see Sized).
func (m *CCFMPairs) MemoryBytes() int64 {
	return structBytes + m.ftrlLinear.memoryBytes() + sumF64Bytes(m.u, m.zu, m.nu, m.xx) + int64(4*cap(m.slot))
}

// MemoryNote says how many features m holds and its table (see MemoryNoter).
func (m *CCFMPairs) MemoryNote() string {
	return countText(int64(len(m.w))) + " features, " + countText(int64(m.used)) + " pair slots in use"
}

func (m *CCFMPairs) stateCode(c *stateCodec) {
	s := m.s
	c.ftrlSettings(&s.FTRLSettings)
	c.int(&s.Bits)
	c.int(&s.MaxRowNonzeros)
	codeEnum(c, &s.Loss, 2, "loss")
	if !rebuild(c, m, s, NewCCFMPairs, func(x *CCFMPairs) CCFMPairsSettings { return x.s }) {
		return
	}
	d := len(m.w)
	c.int(&d)
	if c.violates(d >= 0) {
		c.fail(str.Itoa(d) + " features")
	}
	c.ftrlLinear(&m.ftrlLinear, d)
	// The table: a flag for its allocation, then the slots in use in
	// increasing order, each with its accumulators z, n (its weight is
	// FTRL-Proximal's closed form of them).
	table := m.u != nil
	c.bool(&table)
	c.int(&m.used)
	n := 1 << s.Bits
	if c.violates(m.used >= 0 && m.used <= n && (table || m.used == 0)) {
		c.fail(str.Itoa(m.used) + " pair slots in use")
	}
	if c.err != nil {
		return
	}
	if c.dec && table {
		m.u, m.zu, m.nu = make([]float64, n), make([]float64, n), make([]float64, n)
	}
	last := -1
	for k, seen := 0, 0; seen < m.used && c.err == nil; k++ {
		if !c.dec {
			for m.nu[k] == 0 {
				k++
			}
		}
		c.int(&k)
		if c.violates(k > last && k < n) {
			c.fail("pair slot " + str.Itoa(k) + " after " + str.Itoa(last))
		}
		if c.err != nil {
			return
		}
		c.float(&m.zu[k])
		c.float(&m.nu[k])
		if c.violates(m.nu[k] > 0 && !math.IsInf(m.nu[k], 0)) {
			c.fail("pair slot " + str.Itoa(k) + ": n = " + str.Ftoa(m.nu[k]))
		}
		m.u[k] = m.prox.weight(m.zu[k], m.nu[k])
		last = k
		seen++
	}
}

// maxRowNonzeros codes a learner's MaxRowNonzeros setting at the end of its
// section, and only when it is not DefaultMaxRowNonzeros: files written
// before the setting existed load with the default and save to the same
// bytes.
func (c *stateCodec) maxRowNonzeros(p *int) {
	if !c.dec {
		if *p != DefaultMaxRowNonzeros {
			c.int(p)
		}
		return
	}
	if c.atEnd() {
		return
	}
	c.int(p)
	if c.violates(*p == -1 || *p > 0 && *p != DefaultMaxRowNonzeros) {
		c.fail("row nonzero limit " + str.Itoa(*p))
	}
}

// pairVisits counts the pair terms read or written (see pairCounter).
func (m *CCFMPairs) pairVisits() int64 { return m.visits }

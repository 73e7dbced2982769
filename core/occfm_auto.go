package core

import (
	"math"
	"slices"
	"strconv"

	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/internal/str"
)

// OCCFMAuto is a CCFM learner with no δ to choose: an exponentially
// weighted average forecaster (Cesa-Bianchi and Lugosi 2006, "Prediction,
// Learning, and Games", §3.3) over K CCFM experts: Bias and Linear, whose C
// has no interactions (δ = 0), a CCFMPairs for each α of its grid, an
// OCCFMLin for each δ of a geometric grid, and an OCCFMK for each δ of
// Tastes. Expert k, with cumulative loss Lₖ, has the weight
// pₖ ∝ exp(−ρ·Lₖ).
//
// Under the Squared loss the experts' predictions are clipped to the range
// [a, b] of the labels seen and combined by Vovk's Aggregating Algorithm
// (Vovk 2001, "Competitive on-line statistics", §2; Cesa-Bianchi and
// Lugosi, §3.5): with ρ = 2/(b − a)², the square loss is ρ-mixable on
// [a, b], and the prediction
//
//	ŷ = (a + b)/2 − (g(b) − g(a)) / (2(b − a)),  g(y) = −ln(Σₖ pₖ·exp(−ρ(y − ŷₖ)²))/ρ,
//
// which lies in [a, b], satisfies (ŷ − y)² ≤ g(y) for every y in [a, b].
// The regret against the best expert is then at most ln(K)/ρ =
// ½(b − a)²·ln K, a quarter of the exponentially weighted average's
// 2(b − a)²·ln K (Kivinen and Warmuth 1999). The regret is counted on the
// clipped predictions. Under the Logistic loss it mixes the probabilities
// σ(ŷₖ) with ρ = 1, the Bayes mixture, whose log loss is at most ln K above
// the best expert's, and predicts their log-odds. Either way each expert is
// ½x̂ᵀCₖx̂ for a C in its own ball (an affine part outside the ball sits in
// Cₖ's bias row and column).
//
// Retirement bounds the cost of the OCCFMLin, OCCFMK and CCFMPairs
// experts (Lanczos refreshes; O(nnz(x)²) pairs a row): once every expert
// has learned autoTrial rows, such an expert whose weight is below
// e^−Retire of the leader's, whose Lₖ is over autoGap above the leader's,
// and whose loss over about the last 1,000 rows is no lower than the
// leader's, stops learning and frees its memory. Bias and Linear cost
// O(nnz(x)) a row and are never retired. A CCFMPairs expert is retired
// like the others: one that memorizes pairs can trail Bias for many rows
// and lead it later, but not the leader (docs/performance.md). The bound
// above holds against the experts never retired. An expert whose
// prediction is not finite is retired at once, and so is one whose update
// fails (see fail). An OCCFMAuto is not safe for concurrent use.
type OCCFMAuto struct {
	s       OCCFMAutoSettings
	experts []Learner // nil once retired
	loss    []float64 // Lₖ
	mix     float64   // the forecaster's own cumulative loss
	over    float64   // Σ (ŷ − y)² − g(y) over rows whose y was outside [lo, hi]
	recent  []float64 // Lₖ discounted by autoRecent a row
	t       int
	lo, hi  float64 // label range (Squared)
	yk, p   []float64
	memo    rowMemo  // the prediction Predict made, with yk and p (see PredictUpdate)
	failed  []string // the experts' failures not yet taken (see takeFailures)
}

var _ Learner = (*OCCFMAuto)(nil)
var _ Configured = (*OCCFMAuto)(nil)
var _ Mixture = (*OCCFMAuto)(nil)

// occfmAutoSpec registers OCCFMAuto (see registry).
var occfmAutoSpec = Spec{
	Name:     "occfm-auto",
	Plain:    "The default: runs simple models and OCCFM at several budgets side by side, and trusts each as much as it has earned by predicting well so far. No δ to choose.",
	Summary:  "CCFM with no δ to choose: Vovk's aggregating algorithm (Bayes mixture for logistic) over bias, linear, ccfm-pairs (α = 0.3, 3), occfm-lin (δ = 10, 100, 1000) and occfm-k (δ = 18·√n)",
	Takes:    TakesDelta | TakesEta,
	Personal: "occfm-auto follows the whole stream: a new person's few ratings barely move it, so the list may not change (occfm-k adapts at once).",
	New:      func(c Config) Learner { return NewOCCFMAuto(OCCFMAutoSettingsFor(c)) },
	state:    func() stateCoder { return new(OCCFMAuto) },
}

// NewOCCFMAuto returns an OCCFMAuto whose experts are fresh.
func NewOCCFMAuto(s OCCFMAutoSettings) *OCCFMAuto {
	s = s.withDefaults()
	m := &OCCFMAuto{s: s}
	m.experts = append(m.experts, NewBias(BiasSettings{Loss: s.Loss}), NewLinear(LinearSettings{Loss: s.Loss}))
	for _, a := range s.Pairs {
		m.experts = append(m.experts, NewCCFMPairs(CCFMPairsSettings{FTRLSettings: FTRLSettings{Alpha: a}, Loss: s.Loss}))
	}
	for _, d := range s.Deltas {
		for _, eta := range s.Etas {
			m.experts = append(m.experts, NewOCCFMLin(OCCFMLinSettings{OCCFM: OCCFMSettings{Delta: d, Eta: eta, Seed: s.Seed}, Loss: s.Loss}))
		}
	}
	for _, d := range s.Tastes {
		m.experts = append(m.experts, NewOCCFMK(OCCFMKSettings{Delta: d, Eta: s.sharedEta(), Loss: s.Loss, Seed: s.Seed}))
	}
	k := len(m.experts)
	m.loss, m.recent = make([]float64, k), make([]float64, k)
	m.yk, m.p = make([]float64, k), make([]float64, k)
	return m
}

// Settings returns the settings in use, with defaults filled in.
func (m *OCCFMAuto) Settings() OCCFMAutoSettings {
	s := m.s
	s.Deltas = append([]float64(nil), s.Deltas...)
	s.Etas = append([]float64(nil), s.Etas...)
	s.Pairs = slices.Clone(s.Pairs)
	s.Tastes = slices.Clone(s.Tastes)
	return s
}

// Config returns the loss, the seed, and η when every OCCFM expert has the
// same one set (Etas = {η}, η > 0); it implements Configured.
func (m *OCCFMAuto) Config() Config {
	loss := m.s.Loss
	return Config{Task: taskOf(loss), Seed: m.s.Seed, Eta: m.s.sharedEta(), Loss: &loss}
}

// Experts returns the experts, in a new slice: Bias, Linear, the pairs
// experts, then the grid of δ.
func (m *OCCFMAuto) Experts() []Expert {
	m.weights()
	out := make([]Expert, len(m.experts))
	for k, e := range m.experts {
		x := Expert{Weight: m.p[k], Loss: m.loss[k], Retired: e == nil}
		np := len(m.s.Pairs)
		switch {
		case k == 0:
			x.Name = "bias"
		case k == 1:
			x.Name = "linear"
		case k >= len(m.experts)-len(m.s.Tastes):
			x.Delta = m.s.Tastes[k-len(m.experts)+len(m.s.Tastes)]
			x.Name = "tastes δ=" + strconv.FormatFloat(x.Delta, 'g', -1, 64)
			kx, isK := e.(*OCCFMK)
			if x.Delta == 0 {
				scale := float64(DefaultOCCFMKDeltaScale)
				if isK {
					scale = kx.ballScale
				}
				x.Name = "tastes δ=" + strconv.FormatFloat(scale, 'g', -1, 64) + "√n"
			}
			if isK {
				x.Delta = kx.Delta()
			}
		case k < 2+np:
			x.Eta = m.s.Pairs[k-2]
			x.Name = "pairs α=" + strconv.FormatFloat(x.Eta, 'g', -1, 64)
		default:
			ne := len(m.s.Etas)
			x.Delta, x.Eta = m.s.Deltas[(k-2-np)/ne], m.s.Etas[(k-2-np)%ne]
			x.Name = "δ=" + strconv.FormatFloat(x.Delta, 'g', -1, 64)
			if ne > 1 {
				eta := "default"
				if x.Eta != 0 {
					eta = strconv.FormatFloat(x.Eta, 'g', -1, 64)
				}
				x.Name += " η=" + eta
			}
		}
		out[k] = x
	}
	return out
}

// rho returns ρ, the rate of the exponential weights (0 before a Squared
// label range is known: uniform weights).
func (m *OCCFMAuto) rho() float64 {
	if m.s.Loss == Logistic {
		return 1
	}
	r := m.hi - m.lo
	if !(r > 0) {
		return 0
	}
	return 2 / (r * r)
}

// leader returns the live expert of least cumulative loss (there is
// always one: the last expert is never retired).
func (m *OCCFMAuto) leader() int {
	lead := -1
	for k, e := range m.experts {
		if e != nil && (lead < 0 || m.loss[k] < m.loss[lead]) {
			lead = k
		}
	}
	return lead
}

// weights sets m.p to the normalized weights of the live experts.
func (m *OCCFMAuto) weights() {
	best := m.loss[m.leader()]
	rho := m.rho()
	var sum float64
	for k, e := range m.experts {
		m.p[k] = 0
		if e != nil {
			m.p[k] = math.Exp(-rho * (m.loss[k] - best))
			sum += m.p[k]
		}
	}
	for k := range m.p {
		m.p[k] /= sum
	}
}

// clip returns a prediction in the label range (Squared, once a label is
// known).
func (m *OCCFMAuto) clip(y float64) float64 {
	if m.s.Loss == Squared && m.t > 0 {
		return min(max(y, m.lo), m.hi)
	}
	return y
}

// predict fills m.yk with the live experts' predictions and returns the
// mixture. An expert whose prediction is not finite gets no weight; when
// learn is set, it is retired.
func (m *OCCFMAuto) predict(x data.Sparse, learn bool) (float64, bool) {
	m.memo.ok = false
	m.weights()
	var sum float64
	finite := true
	for k, e := range m.experts {
		if e == nil {
			continue
		}
		y := e.Predict(x)
		if math.IsNaN(y) || math.IsInf(y, 0) {
			finite = false
			if learn {
				m.retire(k)
			}
			m.p[k], m.yk[k] = 0, math.NaN()
			continue
		}
		m.yk[k] = m.clip(y)
		sum += m.p[k]
	}
	if !(sum > 0) {
		return 0, finite
	}
	var y float64
	if m.s.Loss == Logistic {
		for k, p := range m.p {
			if p > 0 {
				y += p * Sigmoid(m.yk[k])
			}
		}
		y = min(max(y/sum, 1e-15), 1-1e-15)
		return math.Log(y / (1 - y)), finite
	}
	if rho := m.rho(); rho > 0 {
		// Vovk's substitution function (see OCCFMAuto).
		return (m.lo+m.hi)/2 - (m.mixLoss(m.hi, rho)-m.mixLoss(m.lo, rho))/(2*(m.hi-m.lo)), finite
	}
	for k, p := range m.p {
		if p > 0 {
			y += p * m.yk[k]
		}
	}
	return y / sum, finite
}

// mixLoss returns g(y) = −ln(Σₖ pₖ·exp(−ρ(y − ŷₖ)²))/ρ over the live experts
// of finite prediction, their weights m.p renormalized (predict zeroes the
// others; see OCCFMAuto).
func (m *OCCFMAuto) mixLoss(y, rho float64) float64 {
	var sum float64
	for _, p := range m.p {
		sum += p
	}
	least := math.Inf(1)
	for k, p := range m.p {
		if p > 0 {
			d := y - m.yk[k]
			least = min(least, d*d)
		}
	}
	var s float64
	for k, p := range m.p {
		if p > 0 {
			d := y - m.yk[k]
			s += p / sum * math.Exp(-rho*(d*d-least))
		}
	}
	return least - math.Log(s)/rho
}

// retire drops expert k, unless it is the last one.
func (m *OCCFMAuto) retire(k int) {
	live := 0
	for _, e := range m.experts {
		if e != nil {
			live++
		}
	}
	if live > 1 {
		m.experts[k] = nil
	}
}

// Shrink retires the live expert, other than the leader (least Lₖ), that
// holds the most memory, and returns the bytes it held; 0 when the leader
// is the only one left (see Shrinker). A run over its memory budget so
// gives up its losing experts before it stops: on rows that bring ever-new
// features the pair experts grow without bound while the linear one leads.
// The forecaster's bound then holds against the experts left.
func (m *OCCFMAuto) Shrink() int64 {
	lead := m.leader()
	pick, held := -1, int64(0)
	for k, e := range m.experts {
		if e == nil || k == lead {
			continue
		}
		var n int64
		if s, ok := e.(Sized); ok {
			n = s.MemoryBytes()
		}
		if pick < 0 || n > held {
			pick, held = k, n
		}
	}
	if pick < 0 {
		return 0
	}
	m.retire(pick)
	return max(held, 1)
}

// Predict returns the forecaster's prediction. It does not change the
// learner's state; it keeps the prediction for the PredictUpdate of x that
// follows (see rowMemo), when every live expert's was finite.
func (m *OCCFMAuto) Predict(x data.Sparse) float64 {
	y, finite := m.predict(x, false)
	if finite {
		m.memo.keep(x, m.t, y)
	}
	return y
}

// Update learns (x, y); see PredictUpdate.
func (m *OCCFMAuto) Update(x data.Sparse, y float64) { m.PredictUpdate(x, y) }

// PredictUpdate plays a round: it returns what Predict returns, then
// charges each live expert its loss, updates it, and retires the experts
// the rule says (see OCCFMAuto).
func (m *OCCFMAuto) PredictUpdate(x data.Sparse, y float64) float64 {
	yhat, ok := m.memo.take(x, m.t)
	if !ok {
		yhat, _ = m.predict(x, true)
	}
	if m.t == 0 {
		m.lo, m.hi = y, y
	}
	if rho := m.rho(); m.s.Loss == Squared && rho > 0 && (y < m.lo || y > m.hi) {
		// The mixability inequality (ŷ − y)² ≤ g(y) holds for y in [lo, hi]
		// only; Regret adds what a label outside it costs beyond g(y).
		d := yhat - y
		m.over += max(0, d*d-m.mixLoss(y, rho))
	}
	m.lo, m.hi = min(m.lo, y), max(m.hi, y)
	m.mix += m.s.Loss.Value(yhat, y)
	m.t++
	for k, e := range m.experts {
		if e == nil {
			continue
		}
		if math.IsNaN(m.yk[k]) {
			continue // not finite, and the last expert left
		}
		l := m.s.Loss.Value(m.yk[k], y) // clipped to the range known at prediction
		m.loss[k] += l
		m.recent[k] = autoRecent*m.recent[k] + l
		if msg := updateExpert(e, x, y); msg != "" {
			m.fail(k, msg)
		}
	}
	rho := m.rho()
	if m.s.Retire < 0 || rho == 0 || m.t < autoTrial {
		return yhat
	}
	lead := m.leader()
	best := m.loss[lead]
	for k, e := range m.experts {
		gap := m.loss[k] - best
		if costlyExpert(e) && rho*gap > m.s.Retire && gap > autoGap*best && m.recent[k] >= m.recent[lead] {
			m.retire(k)
		}
	}
	return yhat
}

// costlyExpert reports whether e is an expert retirement may stop: an
// OCCFMLin, an OCCFMK or a CCFMPairs.
func costlyExpert(e Learner) bool {
	switch e.(type) {
	case *OCCFMLin, *OCCFMK, *CCFMPairs:
		return true
	}
	return false
}

// MemoryBytes estimates the bytes m holds (see Sized): the live experts'.
func (m *OCCFMAuto) MemoryBytes() int64 {
	b := structBytes + sumF64Bytes(m.loss, m.recent, m.yk, m.p)
	for _, e := range m.experts {
		if s, ok := e.(Sized); ok {
			b += s.MemoryBytes()
		}
	}
	return b
}

// MemoryNote says what holds the largest expert's memory (see MemoryNoter).
func (m *OCCFMAuto) MemoryNote() string {
	var big int64 = -1
	note := ""
	for _, e := range m.experts {
		s, ok := e.(Sized)
		n, ok2 := e.(MemoryNoter)
		if ok && ok2 && s.MemoryBytes() > big {
			big, note = s.MemoryBytes(), n.MemoryNote()
		}
	}
	return note
}

// growthBytes sums its live experts' (see rowGrower).
func (m *OCCFMAuto) growthBytes(nnz, dim int) int64 {
	var g int64
	for _, e := range m.experts {
		if r, ok := e.(rowGrower); ok {
			g += r.growthBytes(nnz, dim)
		}
	}
	return g
}

// growsPerPair reports whether a live expert grows per pair of features.
func (m *OCCFMAuto) growsPerPair() bool {
	for _, e := range m.experts {
		if p, ok := e.(pairGrower); ok && p.growsPerPair() {
			return true
		}
	}
	return false
}

// MaxRowNonzeros returns DefaultMaxRowNonzeros, the OCCFMLin experts' limit
// (see RowLimited).
func (m *OCCFMAuto) MaxRowNonzeros() int { return DefaultMaxRowNonzeros }

// Regret returns the forecaster's regret to its best live expert,
// Σℓ(ŷₜ, yₜ) − min Lₖ over the experts never retired, and the bound the
// forecaster guarantees for it: ln K under the Logistic loss, and under
// the Squared loss ½(b − a)²·ln K for the label range [a, b] seen, plus
// what each row whose label fell outside the range seen before it cost
// beyond the mixability inequality (a label range that only grows lowers
// ρ, which the Aggregating Algorithm's bound allows).
func (m *OCCFMAuto) Regret() (regret, bound float64) {
	bound = math.Log(float64(len(m.experts)))
	if m.s.Loss == Squared {
		r := m.hi - m.lo
		bound = bound*r*r/2 + m.over
	}
	return m.mix - m.loss[m.leader()], bound
}

// Expert returns expert k of Experts' list, nil once it is retired; a
// view may read it (draw its C), never change it.
func (m *OCCFMAuto) Expert(k int) Learner { return m.experts[k] }

// pairVisits sums the live experts' counts (a retired expert's are gone
// with it).
func (m *OCCFMAuto) pairVisits() int64 {
	var n int64
	for _, e := range m.experts {
		if c, ok := e.(pairCounter); ok {
			n += c.pairVisits()
		}
	}
	return n
}

// fail retires expert k, whose update panicked with msg, and keeps a
// sentence saying so for takeFailures. An expert's update fails when its
// numbers leave float64's range (an OCCFMLin of δ = 10¹⁵⁰ on a regression
// row with a feature of 10⁸: its eigensolver meets an infinite H): its
// state, half updated, is dropped, and the other experts, which it does
// not touch, go on as if it had been retired by the rule. Only the last
// expert left is not retired: its failure is the mixture's, and fail
// panics again with msg for the caller (a Guarded: a divergence).
func (m *OCCFMAuto) fail(k int, msg string) {
	live := 0
	for _, e := range m.experts {
		if e != nil {
			live++
		}
	}
	if live == 1 {
		panic(msg)
	}
	name := m.Experts()[k].Name
	m.retire(k)
	m.failed = append(m.failed, "expert "+name+" failed ("+msg+"); the other experts go on")
}

// takeFailures returns the sentences of the experts that failed since its
// last call, and forgets them (see partFailer). They are not saved in model
// files: a Guarded takes them after every update, into its events.
func (m *OCCFMAuto) takeFailures() []string {
	f := m.failed
	m.failed = nil
	return f
}

// TraceSteps turns on (or off) the record of the Frank-Wolfe steps of
// every OCCFMLin and OCCFMK expert (see OCCFM.TraceSteps and
// OCCFMK.TraceSteps), so that the one a view picks among them has its last
// step on record.
func (m *OCCFMAuto) TraceSteps(on bool) {
	for _, e := range m.experts {
		if l, ok := e.(interface{ TraceSteps(bool) }); ok {
			l.TraceSteps(on)
		}
	}
}

// updateExpert calls e.Update(x, y) and returns "", or the text of the
// panic that stopped it.
func updateExpert(e Learner, x data.Sparse, y float64) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = str.PanicText(r)
		}
	}()
	e.Update(x, y)
	return ""
}

// DefaultAutoDeltas is the default grid of δ of OCCFMAuto's OCCFMLin
// experts: a factor of 10 apart, from δ = 10 (the paper's MovieLens value)
// to 1000 (above the ‖C‖* the ratings demo's C reaches with a ball that
// does not bind: docs/findings.md, "The δ grid").
var DefaultAutoDeltas = []float64{10, 100, 1000}

// DefaultAutoPairs is the default grid of α of OCCFMAuto's CCFMPairs
// experts: Linear's α, and ten times it, which all-pairs logistic
// regression needs on IJCNN1 and which loses on planted-classification
// (docs/findings.md, "The pairs experts: ccfm-pairs alone by α").
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

package core

import (
	"math"
	"slices"

	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/internal/str"
)

// ItemLiftSettings configures NewItemLift. The zero value is the
// documented default of every field.
type ItemLiftSettings struct {
	// Bias configures the biases that predict the label (see Bias).
	Bias BiasSettings
	// Gamma is the weight γ of a person's evidence against the log
	// popularity in the ranking score (see ItemLift). Zero means
	// DefaultItemLiftGamma.
	Gamma float64
	// Shrink is the pseudo-count c that shrinks each lift towards 1 (see
	// ItemLift). Zero means DefaultItemLiftShrink.
	Shrink float64
	// Agree is the weight β of the co-raters' agreement (see ItemLift).
	// Zero means DefaultItemLiftAgree; negative means none.
	Agree float64
}

// DefaultItemLiftGamma, DefaultItemLiftShrink and DefaultItemLiftAgree are
// ItemLift's γ, c and β, chosen on the held-out top-N protocol (occfm topn)
// of ML-100K and of ML-1M's first 2,999 users, seeds 1–3, K = 3, 10 and 20
// together (docs/findings.md, "Personalize for real people: item-lift's
// defaults", has the grids and their figures): γ trades the 3-rating lists
// (popularity) against the 20-rating ones (taste); c barely matters; a
// larger β raises ML-100K's tail hits and lowers ML-1M's hits at K = 20,
// and β = 1 is the one that keeps both above the baselines. A larger γ
// follows the synthetic catalog's planted tastes better (γ = 0.5: 2.78 /
// 3.52 / 3.44 of a person's true top 10 after 10 ratings, seeds 1–3,
// against 2.34 / 3.10 / 2.98) but takes ML-1M's hits at K = 20 below
// ease's (3.60 against 3.85).
const (
	DefaultItemLiftGamma  = 0.3
	DefaultItemLiftShrink = 5
	DefaultItemLiftAgree  = 1
)

// ItemLiftBiasL2 is the ℓ₂ weight λ of ItemLift's biases when Bias.L2 is
// 0 (Bias's own default is 4): a new person's bias after r ratings is their
// mean residual times r/(r + λ), and with λ = 4 three ratings moved it so
// far that the held-out people's RMSE on their later ratings rose above
// the cold start's; λ = 12 keeps it below on ML-100K and ML-1M
// (docs/findings.md, "Personalize for real people: item-lift's defaults").
const ItemLiftBiasL2 = 12

func (s ItemLiftSettings) withDefaults() ItemLiftSettings {
	if s.Bias.L2 == 0 {
		s.Bias.L2 = ItemLiftBiasL2
	}
	s.Bias = s.Bias.withDefaults()
	if s.Gamma == 0 {
		s.Gamma = DefaultItemLiftGamma
	}
	if s.Shrink == 0 {
		s.Shrink = DefaultItemLiftShrink
	}
	switch {
	case s.Agree == 0:
		s.Agree = DefaultItemLiftAgree
	case s.Agree < 0:
		s.Agree = -1
	}
	if !(s.Gamma > 0) || !(s.Shrink > 0) || math.IsInf(s.Gamma, 0) || math.IsInf(s.Shrink, 0) {
		panic("core: invalid ItemLiftSettings: Gamma and Shrink must be positive and finite")
	}
	return s
}

// ItemLiftSettingsFor maps the common registry Config onto ItemLift
// settings: η and the loss go to the biases.
func ItemLiftSettingsFor(c Config) ItemLiftSettings {
	return ItemLiftSettings{Bias: BiasSettingsFor(c)}
}

// ItemLift is a recommender for one-hot rows of a person and an item
// (MovieLens ratings): it predicts the label with the biases of Bias,
// ŷ = b + b_person + b_item, and ranks the items for a person (core.Ranker)
// by the items they rated, each a column of an item × item matrix of
// lifts:
//
//	score(k) = log(1 + nₖ) + γ·(10/r)^α·Σ_{j rated} wⱼ·[log((nⱼₖ + c) / (nⱼnₖ/N + c)) + β·aⱼₖ/(nⱼₖ + c)],
//	aⱼₖ = Σ_{p rated j and k} w_pⱼ·w_pₖ,
//
// with nₖ the rows item k was in (its popularity), nⱼₖ the people who rated
// both j and k, N the people, wⱼ = (yⱼ − m)/h the person's stars of j on a
// scale from −1 (the lowest label seen) through 0 (the middle, m) to +1
// (the highest; h is half the range), w_pⱼ the same for person p, c the
// pseudo-count Shrink, β the weight Agree and r the films the person rated
// with a weight other than 0 (α: itemLiftNorm). The log lift is the
// pointwise mutual information of rating j and rating k, shrunk towards 0
// when the counts are few (Church and Hanks 1990): that people who chose j
// also chose k. aⱼₖ/(nⱼₖ + c) is how much the people who rated both agree
// on them, shrunk the same way: that people who liked j also liked k. The
// sum is a naive-Bayes log-odds that k is a person's film given theirs, in
// which a film liked pulls its companions up and a film disliked pushes
// them down, and a middling star says nothing. With no rating the score is
// the popularity; each rating moves the list by its evidence, so that a
// person of three ratings gets mostly what people rate, and one of twenty
// what people like them rate. As a matrix this is the item × item block of
// a symmetric C whose diagonal holds the log popularity (ŷ-free: C ranks,
// the biases predict), read against the person's bag of rated items
// x̂ = Σⱼ wⱼeⱼ; a ranking score, not a prediction of stars.
//
// Learning is counting: a row of exactly two nonzero features a, b (a
// person and an item) is kept in both features' lists of companions with
// its label, O(1) a row; the lists are 2-colored as rows come (a feature
// seen first beside a known one takes the other side; of a row of two new
// features the first column is a person's side, as MovieLens files and
// the CSV reader order them), so that N counts the features on the other
// side than k's, the people when k is an item. Other rows train the biases only.
// Scoring a person costs O(Σⱼ Σ_{p rated j} (items p rated)) to count the
// nⱼₖ, plus O(items) per rated item; nothing is kept between calls.
//
// Memory (MemoryBytes): 16 bytes a two-feature row, 44 a feature with the
// biases. An ItemLift is not safe for concurrent use.
type ItemLift struct {
	s    ItemLiftSettings
	bias Bias
	// adj holds each feature's companions and the labels of their rows;
	// side each feature's color (0 unseen, 1 or 2) and sides the count of
	// each color.
	adj      [][]liftPair
	side     []int8
	sides    [3]int
	rows     int
	lo, hi   float64 // label range of the rows kept
	adjBytes int64   // capacity of the lists, in bytes
}

// liftPair is a companion feature and the label of the row they shared.
type liftPair struct {
	f int32
	y float32
}

var (
	_ Learner    = (*ItemLift)(nil)
	_ Configured = (*ItemLift)(nil)
	_ Ranker     = (*ItemLift)(nil)
)

// itemLiftSpec registers ItemLift (see registry).
var itemLiftSpec = Spec{
	Name: "item-lift",
	Plain: "Recommends what people who rated your films also rated: each film you liked pulls its companions up, " +
		"each you disliked pushes them down, on top of how popular a film is. Predicts stars with averages.",
	Summary: "recommender: log popularity + γ·Σ stars × shrunk log lift of co-rated items (naive Bayes over the bag of a person's items); user + item biases for ŷ",
	Takes:   TakesEta,
	New:     func(c Config) Learner { return NewItemLift(ItemLiftSettingsFor(c)) },
	state:   func() stateCoder { return new(ItemLift) },
}

// NewItemLift returns an ItemLift that has counted nothing.
func NewItemLift(s ItemLiftSettings) *ItemLift {
	s = s.withDefaults()
	return &ItemLift{s: s, bias: *NewBias(s.Bias)}
}

// Settings returns the settings in use, with defaults filled in.
func (m *ItemLift) Settings() ItemLiftSettings { return m.s }

// Config returns η and the loss of the biases; it implements Configured.
func (m *ItemLift) Config() Config { return m.bias.Config() }

// Predict returns the biases' ŷ. It does not change the learner's state.
func (m *ItemLift) Predict(x data.Sparse) float64 { return m.bias.Predict(x) }

// Update takes the biases' step on (x, y) and, for a row of two nonzero
// features, counts them as companions with the label y.
func (m *ItemLift) Update(x data.Sparse, y float64) {
	m.bias.Update(x, y)
	a, b, ok := twoFeatures(x)
	if !ok {
		return
	}
	m.grow(max(a, b) + 1)
	switch {
	case m.side[a] == 0 && m.side[b] == 0:
		m.color(a, 1)
		m.color(b, 2)
	case m.side[a] == 0:
		m.color(a, 3-m.side[b])
	case m.side[b] == 0:
		m.color(b, 3-m.side[a])
	}
	m.link(a, b, y)
	m.link(b, a, y)
	if m.rows == 0 {
		m.lo, m.hi = y, y
	}
	m.lo, m.hi = min(m.lo, y), max(m.hi, y)
	m.rows++
}

// twoFeatures returns the two features of a row with exactly two nonzero
// entries.
func twoFeatures(x data.Sparse) (a, b int, ok bool) {
	n := 0
	for k, i := range x.Ind {
		if x.Val[k] == 0 {
			continue
		}
		switch n {
		case 0:
			a = i
		case 1:
			b = i
		}
		n++
	}
	return a, b, n == 2 && a != b
}

func (m *ItemLift) grow(n int) {
	if n > len(m.adj) {
		m.adj = slices.Grow(m.adj, n-len(m.adj))[:n]
		m.side = slices.Grow(m.side, n-len(m.side))[:n]
	}
}

func (m *ItemLift) color(f int, c int8) {
	m.side[f] = c
	m.sides[c]++
}

func (m *ItemLift) link(a, b int, y float64) {
	old := cap(m.adj[a])
	m.adj[a] = append(m.adj[a], liftPair{f: int32(b), y: float32(y)})
	m.adjBytes += 8 * int64(cap(m.adj[a])-old)
}

// weight returns a rating's w = (y − m)/h on [−1, 1]; 1 when every label
// kept is the same (a choice without stars).
func (m *ItemLift) weight(y float64) float64 {
	if m.hi == m.lo {
		return 1
	}
	return (2*y - m.lo - m.hi) / (m.hi - m.lo)
}

// itemLiftEvidence bounds the films a ranking reads: a person's last 20
// films rated with a weight other than 0. Each costs a pass over its
// raters' lists (about 90,000 steps for a popular film of a 100,000-rating
// catalog), so without a bound a click would cost more with every rating
// (docs/performance.md, "Personalize on a real catalog's size"); the top-N
// protocol feeds at most 20, and a person's older ratings still set their
// bias (ŷ) and, in Personalize, their genre taste.
const itemLiftEvidence = 20

// bag returns the person's last itemLiftEvidence rated features with a
// weight other than 0 and the weights of their last labels, in the order
// they were last rated.
func (m *ItemLift) bag(person int) (feat []int, w []float64) {
	if person < 0 || person >= len(m.adj) {
		return nil, nil
	}
	seen := map[int32]bool{}
	l := m.adj[person]
	for k := len(l) - 1; k >= 0 && len(feat) < itemLiftEvidence; k-- {
		p := l[k]
		if seen[p.f] {
			continue
		}
		seen[p.f] = true
		if wp := m.weight(float64(p.y)); wp != 0 {
			feat = append(feat, int(p.f))
			w = append(w, wp)
		}
	}
	slices.Reverse(feat)
	slices.Reverse(w)
	return feat, w
}

// count returns nₖ, the rows feature k was in.
func (m *ItemLift) count(k int) float64 {
	if k < 0 || k >= len(m.adj) {
		return 0
	}
	return float64(len(m.adj[k]))
}

// people returns N for item k: the features colored opposite to k.
func (m *ItemLift) people(k int) float64 {
	if k < 0 || k >= len(m.side) || m.side[k] == 0 {
		return float64(max(m.sides[1], m.sides[2], 1))
	}
	return float64(max(m.sides[3-m.side[k]], 1))
}

// lift returns log((nⱼₖ + c)/(nⱼnₖ/N + c)).
func (m *ItemLift) lift(njk, nj, nk, people float64) float64 {
	c := m.s.Shrink
	return math.Log((njk + c) / (nj*nk/people + c))
}

// RankScores appends score(k) (see ItemLift) for each feature k of items,
// for the person whose rated items are the companions of feature person.
// It does not change the learner; it implements Ranker.
func (m *ItemLift) RankScores(person int, items []int, dst []float64) []float64 {
	feat, w := m.bag(person)
	acc := make([]float64, len(items))
	nk := make([]float64, len(items)) // nₖ, and N for k
	people := make([]float64, len(items))
	for k, item := range items {
		nk[k], people[k] = m.count(item), m.people(item)
	}
	co := make([]coCount, len(m.adj))
	var touched []int32
	for r, j := range feat {
		touched = m.coCounts(j, co, touched[:0])
		nj := m.count(j)
		for k, item := range items {
			var c coCount
			if item >= 0 && item < len(co) {
				c = co[item]
			}
			acc[k] += w[r] * m.term(c.n, c.agree, nj, nk[k], people[k])
		}
		for _, t := range touched {
			co[t] = coCount{}
		}
	}
	g := m.gamma(len(feat))
	for k := range items {
		dst = append(dst, math.Log1p(nk[k])+g*acc[k])
	}
	return dst
}

// coCount is nⱼₖ and aⱼₖ for one k.
type coCount struct{ n, agree float64 }

// coCounts adds to co[k], for every feature k, how many companions of j
// also have k as a companion (nⱼₖ) and their agreement (aⱼₖ), and appends
// to touched the k it touched.
func (m *ItemLift) coCounts(j int, co []coCount, touched []int32) []int32 {
	// weight(y) = scale·y + shift.
	scale, shift := 0.0, 1.0
	if m.hi != m.lo {
		scale, shift = 2/(m.hi-m.lo), -(m.lo+m.hi)/(m.hi-m.lo)
	}
	for _, p := range m.adj[j] {
		wp := scale*float64(p.y) + shift
		for _, q := range m.adj[p.f] {
			c := &co[q.f]
			if c.n == 0 {
				touched = append(touched, q.f)
			}
			c.n++
			c.agree += wp * (scale*float64(q.y) + shift)
		}
	}
	return touched
}

// itemLiftNorm is the exponent α of the weight γ·(10/r)^α of the evidence
// of r rated films: naive Bayes adds r terms as if independent, which
// overweighs a long list; α = 0.3 keeps ML-1M's 20-rating lists above
// ease's while the 3-rating ones get more of their few ratings
// (docs/findings.md, "Personalize for real people: item-lift's defaults").
const itemLiftNorm = 0.3

// gamma returns the weight of the evidence of r rated films: γ at 10.
func (m *ItemLift) gamma(r int) float64 {
	return m.s.Gamma * math.Pow(10/float64(max(r, 1)), itemLiftNorm)
}

// term returns log lift + β·agreement: the evidence that a person who
// rated j with weight +1 picks k.
func (m *ItemLift) term(njk, ajk, nj, nk, people float64) float64 {
	return m.lift(njk, nj, nk, people) + agreeW(m.s.Agree)*ajk/(njk+m.s.Shrink)
}

// RankTerms returns the parts of the score RankScores gives item for
// person: the prior log(1 + nₖ) and one term γ·wⱼ·log lift per rated
// feature j, in the order first rated, which sum to the score. It does not
// change the learner; it implements RankExplainer.
func (m *ItemLift) RankTerms(person, item int) (prior float64, terms []RankTerm) {
	feat, w := m.bag(person)
	nk := m.count(item)
	var raters map[int32]float64
	if item >= 0 && item < len(m.adj) {
		raters = make(map[int32]float64, len(m.adj[item]))
		for _, p := range m.adj[item] {
			raters[p.f] = m.weight(float64(p.y))
		}
	}
	for r, j := range feat {
		var njk, ajk float64
		for _, p := range m.adj[j] {
			if wk, ok := raters[p.f]; ok {
				njk++
				ajk += m.weight(float64(p.y)) * wk
			}
		}
		terms = append(terms, RankTerm{Feature: j, Value: m.gamma(len(feat)) * w[r] * m.term(njk, ajk, m.count(j), nk, m.people(item))})
	}
	return math.Log1p(nk), terms
}

// MemoryBytes estimates the bytes m holds (see Sized): the biases, the
// companion lists' capacity and 25 bytes a feature for their headers and
// colors.
func (m *ItemLift) MemoryBytes() int64 {
	return m.bias.MemoryBytes() + m.adjBytes + 25*int64(cap(m.adj))
}

// growthBytes returns what learning a row of dimension dim allocates at
// once (see rowGrower): the biases', and the companion lists' for a row
// of two features (Update counts no other).
func (m *ItemLift) growthBytes(nnz, dim int) int64 {
	g := m.bias.growthBytes(nnz, dim)
	if nnz == 2 && dim > cap(m.adj) {
		g += 25 * grownCap(cap(m.adj), dim)
	}
	return g
}

// MemoryNote says what m holds (see MemoryNoter).
func (m *ItemLift) MemoryNote() string {
	return countText(int64(m.rows)) + " rows counted over " + countText(int64(len(m.adj))) + " features"
}

// stateCode codes the settings, the biases, then the counts: the label
// range, the colors, each feature's list length, then the companions and
// labels of all lists in feature order.
func (m *ItemLift) stateCode(c *stateCodec) {
	s := m.s
	c.float(&s.Bias.Eta)
	c.float(&s.Bias.L2)
	codeEnum(c, &s.Bias.Loss, 2, "loss")
	c.float(&s.Gamma)
	c.float(&s.Shrink)
	c.float(&s.Agree)
	if !rebuild(c, m, s, NewItemLift, func(x *ItemLift) ItemLiftSettings { return x.s }) {
		return
	}
	m.bias.stateCode(c)
	c.int(&m.rows)
	c.float(&m.lo)
	c.float(&m.hi)
	var side, lens, comp []int32
	var ys []float64
	if !c.dec {
		for f, l := range m.adj {
			side = append(side, int32(m.side[f]))
			lens = append(lens, int32(len(l)))
			for _, p := range l {
				comp = append(comp, p.f)
				ys = append(ys, float64(p.y))
			}
		}
	}
	c.int32s(&side)
	c.int32s(&lens)
	c.int32s(&comp)
	c.floats(&ys)
	if !c.dec || c.err != nil {
		return
	}
	if c.violates(len(side) == len(lens) && len(comp) == len(ys)) {
		c.fail(str.Itoa(len(side)) + " colors for " + str.Itoa(len(lens)) + " lists, " + str.Itoa(len(comp)) + " companions for " + str.Itoa(len(ys)) + " labels")
		return
	}
	m.grow(len(lens))
	at := 0
	for f, n := range lens {
		if c.violates(n >= 0 && int(n) <= len(comp)-at && side[f] >= 0 && side[f] <= 2) {
			c.fail("feature " + str.Itoa(f) + ": a list or color out of range")
			return
		}
		m.side[f] = int8(side[f])
		m.sides[side[f]]++
		for _, p := range comp[at : at+int(n)] {
			if c.violates(p >= 0 && int(p) < len(lens)) {
				c.fail("feature " + str.Itoa(f) + ": companion " + str.Itoa(int(p)) + " out of range")
				return
			}
		}
		l := make([]liftPair, n)
		for k := range l {
			l[k] = liftPair{f: comp[at+k], y: float32(ys[at+k])}
		}
		m.adj[f] = l
		m.adjBytes += 8 * int64(n)
		at += int(n)
	}
	m.sides[0] = 0
	if c.violates(at == len(comp) && 2*m.rows == len(comp)) {
		c.fail(str.Itoa(len(comp)) + " companions for " + str.Itoa(m.rows) + " rows")
	}
}

// agreeW returns β, 0 for none (Agree < 0).
func agreeW(a float64) float64 { return max(a, 0) }

package core

import (
	"math"
	"math/rand/v2"
	"strconv"

	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/spectral"
)

// OCCFMK is online CCFM by follow-the-regularized-leader with the iterate
// kept in a tracked subspace. Its model is
//
//	ŷ = w₀ + wᵀx + Σ_{i<j} C_ij xᵢxⱼ,   C symmetric, ‖C‖* ≤ δ,
//
// the affine part outside the ball (Affine) and no self-interactions. The
// pairs are learned on the weighted row x̃ = D^(−½)x, D from the features'
// frequencies (Weights; see featureWeights), so that the ball is the
// weighted trace norm's ‖D^½CD^½‖* ≤ δ; what follows is in x̃'s
// coordinates. With Gₜ = Σ_{τ≤t} ℓ'(ŷ_τ, y_τ)·M_τ, M = ½(x̃x̃ᵀ −
// diag(x̃∘x̃)) the gradient of ŷ in C, the FTRL iterate of Algorithm 2's
// objective Fₜ = η⟨Gₜ, C⟩ + ‖C‖²_F is
//
//	C*ₜ₊₁ = argmin_{C∈K} Fₜ(C) = Π_K(−η·Gₜ/2),
//
// the soft-thresholding of the eigenvalues of −ηGₜ/2 onto the ℓ₁ ball of
// radius δ. OCCFMK plays that projection of G compressed to a subspace S
// with orthonormal columns, which it tracks,
//
//	Cₜ₊₁ = S·W·diag(μ)·Wᵀ·Sᵀ,   μ = soft(−η·diag(A)/2, θ),   A = WᵀSᵀGₜSW,
//
// with W orthonormal, A kept nearly diagonal and θ the ℓ₁-ball threshold of
// radius δ:
//
//   - per row, G gains the row's pairs and A the rank-nnz update
//     ½ℓ'(z'z'ᵀ − Σᵢxᵢ²s'ᵢs'ᵢᵀ), z' = WᵀSᵀx, s'ᵢ = WᵀSᵀeᵢ; when A's
//     off-diagonal part passes a tenth of the error allowed, Jacobi
//     diagonalizes it (W rotates, S stays);
//   - a feature seen for the first time has a zero row of G, so the
//     direction eᵢ extends S exactly (A and Y = GS grow by zeros), while
//     S holds fewer than k directions or every feature seen fits in 2k;
//     past that, new features enter S at its next recomputation (see
//     extendS), and until then their pairs are folded in to first order
//     from their rows of Y = GS (see foldIn): a person's first ratings
//     teach their row of C within their session;
//   - the certified error ε ≥ ‖Cₜ₊₁ − C*ₜ₊₁‖_F is kept up to date in
//     O(1) from ‖G‖_F, ‖Y‖_F and A's norms (see certify); its part
//     (η/√2)·‖(I − SSᵀ)GS‖_F measures how far S is from an invariant
//     subspace of G (Allen-Zhu, Hazan, Hu and Li 2017, "Linear convergence
//     of a Frank-Wolfe type algorithm over trace-norm balls", for the
//     projection onto the trace-norm ball from a low-rank subspace; Garber
//     2019, "On the convergence of projected-gradient methods with low-rank
//     projections for smooth convex minimization over trace-norm balls",
//     for warm-started low-rank projections). When it passes Tol·‖C‖_F, and
//     at least max(MinGap, (nnz(G) + n·(k+8))/50) rows after the last time
//     (see refreshGap), S is recomputed: Lanczos on
//     G (lanczos.go), warm-started from C's eigenvectors, keeping the k
//     Ritz vectors of largest |θ|.
//
// The step is ηₜ = η/(sₜ·κₜ) with sₜ = max(1, the 8th largest 2‖M_τ‖²_F
// of the unweighted rows τ ≤ t; see stepScale), which is 1 on rows of two
// one-hot features (a user and an item): the gradient of a row then moves
// its own prediction by at most η·|ℓ'|/4, however dense and large its
// features (normalized online learning: Ross, Mineiro and Langford 2013,
// "Normalized online learning"), and κₜ the mean ratio of the rows' pair
// norms with and without the weights, so that the weights move the pairs'
// steps relative to each other and not on average. FTRL with a
// non-increasing step keeps its regret bound; κ may move either way.
//
// Its regret is FTRL's with an approximate leader: with ‖∇fₜ‖_F ≤ L, FTRL
// with the regularizer ‖C‖²_F/η has regret at most D²/η + η·Σₜ‖∇fₜ‖²_F
// (Hazan, "Introduction to Online Convex Optimization", chapter 5), and
// playing Cₜ within εₜ of the leader adds at most Σₜ‖∇fₜ‖_F·εₜ; an η tuned
// to the horizon T gives O(√T) plus that term. The affine part adds its own
// rule's regret (as OCCFMLin's does).
//
// With AffineMix (the registry's choice for classification) the
// prediction is the Bayes mixture of three: this model, its affine part
// alone, and a wide model with a 10 times larger step and a 25 times
// larger ball, so that occfm-k is never much worse than `linear` and uses
// its pairs at the step the data want (see mixed).
//
// The ball's radius is Settings.Delta, or by default δₜ = 18·√nₜ (12·√nₜ
// with AffineMix) with nₜ the features seen in learned rows: it grows with
// the data, since the nuclear norm of the tastes a stream can teach grows
// with its users and items (the default was chosen on three data sets, see
// DefaultOCCFMKDeltaScale). The regret bound above is for a fixed ball and
// fixed weights; with a growing ball or moving weights it is not claimed.
//
// Cost per row of nnz features, with k' directions held (k, or up to 2k
// while every feature seen fits): O(nnz²) to store the pairs in G,
// O(nnz·k'²) for x's coordinates in A's basis, which the prediction and
// the update of A share; a Jacobi diagonalization of A, O(k'³) a sweep,
// when its off-diagonal part calls for it; a recomputation, a Lanczos run
// of k+8 steps on G, O(steps·(nnz(G) + d·steps) + d·k'²), once per
// refreshGap rows at most. Memory: about 80 bytes per stored pair of G and
// 32·k bytes a feature for S and Y. An OCCFMK is not safe for concurrent
// use.
type OCCFMK struct {
	s OCCFMKSettings
	t int
	d int // features covered

	bias *Bias      // the affine part, AffineBias
	lin  ftrlLinear // the affine part, AffineFTRL and AffineMix

	// AffineMix: the affine part alone, learned on its own, the wide model
	// (see wideSettings), and the summed log losses of the three's
	// predictions (see mixed).
	alone                          ftrlLinear
	wide                           *OCCFMK
	lossWhole, lossAlone, lossWide float64
	ballScale                      float64 // δₜ's scale when Delta is 0 (see Delta)

	g     symAccum
	gF2   float64        // ‖G‖²_F
	scale stepScale      // of the rows' 2‖M_x‖²_F: ηₜ = η/max(1, scale.value())
	fw    featureWeights // the pairs learn x̃ = D^(−½)x (see featureWeights); off for Weights < 0
	// legacy marks a model read from a file that predates the weights and
	// the fold-in: it uses neither, and is saved as it was read.
	legacy bool
	se     float64 // Σ(ŷ − y)² over the learned rows, each scored before it was learned (see ResidualVariance)

	seen  []bool // features that have been in a learned row
	nseen int    // how many

	// The subspace: S is d×kc (row-major, stride ld = 2k), Y = GS the same
	// shape; W is kc×kc orthonormal and A = WᵀSᵀGSW (both stride ld), kept
	// nearly diagonal: C = S·W·diag(μ)·Wᵀ·Sᵀ, μ from A's diagonal.
	kc, ld int
	sb     []float64
	yb     []float64
	yF2    float64 // ‖Y‖²_F
	a, w   []float64
	mu     []float64
	theta  float64
	active []int // indices of μ ≠ 0

	a2, off2          float64 // ‖A‖²_F and its off-diagonal part's (see normsA)
	eps, offEps, leak float64 // the certified error, its part from A's off-diagonal and from QGP
	last              int     // round of the last recomputation
	diagAt            int     // round of the last diagonalization of A
	refreshes         int
	tookLog           bool  // a file's log of cuts was taken at load (see cutLog): saved again, it has none
	out               []int // positions in the row of rowCoords of its features outside S (see foldIn)

	tr   *kTrace // the record of the last round, while TraceSteps is on
	memo rowMemo // x's coordinates (cs and z) and pairs' part, from Predict

	src *rand.PCG // rng's source, whose state a model file records
	rng *rand.Rand
	lw  spectral.LanczosWork

	// scratch
	z, u, ab, aw, av, st, abs, cs, hp []float64
	newf                              []int
}

var _ Learner = (*OCCFMK)(nil)
var _ Configured = (*OCCFMK)(nil)

// occfmKSpec registers OCCFMK (see registry).
var occfmKSpec = Spec{
	Name:      "occfm-k",
	Plain:     "Learns tastes: the best matrix of feature pairs for all the rows so far within the budget δ, kept in a small subspace of the directions that matter, with the bias and one weight per feature outside.",
	Summary:   "CCFM by follow-the-regularized-leader, Cₜ₊₁ = Π_K(−ηGₜ/2) within a certified ε in a tracked rank-k subspace; w₀ and w outside the ball",
	Takes:     TakesDelta | TakesEta,
	Personal:  "Folds you in from all your ratings after each one, so the list follows your taste at once. occfm-auto, the Learn view's default, and OCCFM barely move for a few ratings of a new person.",
	DeltaRule: strconv.FormatFloat(DefaultOCCFMKDeltaScale, 'g', -1, 64) + "·√n, " + strconv.FormatFloat(DefaultOCCFMKMixDeltaScale, 'g', -1, 64) + "·√n for classification (grows with the features seen)",
	New:       func(c Config) Learner { return NewOCCFMK(OCCFMKSettingsFor(c)) },
	Ball:      true,
	state:     func() stateCoder { return new(OCCFMK) },
}

// NewOCCFMK returns an OCCFMK with w₀ = 0, w = 0 and C = 0.
func NewOCCFMK(s OCCFMKSettings) *OCCFMK {
	s = s.withDefaults()
	src := rand.NewPCG(s.Seed, 0x6f6b)
	m := &OCCFMK{s: s, ld: 2 * s.Rank, src: src, rng: rand.New(src)}
	if s.Weights > 0 {
		m.fw.zeta = s.Weights
	}
	if s.Affine == AffineBias {
		m.bias = NewBias(BiasSettings{Loss: s.Loss})
	} else {
		m.lin = newFTRLLinear(DefaultLinearAlpha, 1, 0, 0)
	}
	m.ballScale = DefaultOCCFMKDeltaScale
	if s.Affine == AffineMix {
		m.ballScale = DefaultOCCFMKMixDeltaScale
		m.alone = newFTRLLinear(DefaultLinearAlpha, 1, 0, 0)
		m.wide = NewOCCFMK(s.wideSettings())
		m.wide.ballScale = mixWide * DefaultOCCFMKMixDeltaScale
	}
	ld := m.ld
	m.a, m.w = make([]float64, ld*ld), make([]float64, ld*ld)
	m.mu, m.z, m.u = make([]float64, ld), make([]float64, ld), make([]float64, ld)
	m.ab, m.aw, m.av = make([]float64, ld*ld), make([]float64, ld*ld), make([]float64, ld*ld)
	return m
}

// Settings returns the settings in use, with defaults filled in.
func (m *OCCFMK) Settings() OCCFMKSettings { return m.s }

// Config returns δ (0 for the default growing ball: see Delta), η, k, the
// seed and the loss; it implements Configured.
func (m *OCCFMK) Config() Config {
	loss := m.s.Loss
	return Config{Task: taskOf(loss), Delta: m.s.Delta, Eta: m.s.Eta, Rank: m.s.Rank, Seed: m.s.Seed, Loss: &loss}
}

// Predict returns w₀ + wᵀx + Σ_{i<j} C_ij xᵢxⱼ, or with AffineMix the
// mixture of that and the affine part alone (see mixed). It does not
// change the model; it keeps x's coordinates for an Update of the same x
// that follows (see rowMemo).
func (m *OCCFMK) Predict(x data.Sparse) float64 {
	p := m.pairs(m.fw.apply(x))
	if len(m.active) > 0 {
		m.memo.keep(x, m.t, p)
	}
	whole := m.affine(x) + p
	if m.wide != nil {
		return m.mixed(whole, m.alone.value(x), m.wide.Predict(x))
	}
	return whole
}

// mixed returns, with AffineMix, the margin of the Bayes mixture with
// prior ⅓ each of the probabilities σ(ŷ) that the model, its affine part
// alone and the wide model give (Vovk 1990, "Aggregating strategies"; the
// logistic loss is 1-mixable):
//
//	p = Σₑ e^{−Lₑ}·σ(ŷₑ) / Σₑ e^{−Lₑ},
//
// Lₑ the summed log losses of expert e so far, returned as log(p/(1−p)).
// Its summed log loss exceeds the best of the three's by at most ln 3:
// occfm-k is then never much worse than its affine part (Linear's rule)
// alone, and as good as its pairs at the smaller or the larger step and
// ball, whichever the data want (a9a's pairs carry no signal, IJCNN1's
// want η ≥ 30 and a ball of several hundred, the planted demo's η = 10 and
// the default ball: docs/findings.md).
func (m *OCCFMK) mixed(whole, alone, wide float64) float64 {
	lw, la, lv := -m.lossWhole, -m.lossAlone, -m.lossWide
	pos := logSumExp(logSumExp(lw-softplus(-whole), la-softplus(-alone)), lv-softplus(-wide))
	neg := logSumExp(logSumExp(lw-softplus(whole), la-softplus(alone)), lv-softplus(wide))
	return pos - neg
}

// logSumExp returns log(eᵃ + eᵇ) without overflow.
func logSumExp(a, b float64) float64 {
	if a < b {
		a, b = b, a
	}
	return a + math.Log1p(math.Exp(b-a))
}

func (m *OCCFMK) affine(x data.Sparse) float64 {
	if m.bias != nil {
		return m.bias.Predict(x)
	}
	return m.lin.value(x)
}

// row returns sᵢ, feature i's coordinates in S.
func (m *OCCFMK) row(i int) []float64 { return m.sb[i*m.ld : i*m.ld+m.kc] }

// pairs returns Σ_{i<j} C_ij xᵢxⱼ (see pairsAt), from x's coordinates.
func (m *OCCFMK) pairs(x data.Sparse) float64 {
	if len(m.active) == 0 {
		return 0
	}
	m.rowCoords(x)
	return m.pairsAt(x)
}

// rowCoords sets, for x's p-th feature i, s'ₚ = Wᵀsᵢ (row p of m.cs,
// stride ld; zero when i is not covered), its coordinates in the basis of
// A, and z' = Σₚ xₚs'ₚ (m.z): nnz products of W by a row of S, O(nnz·k'²),
// each a sum of W's rows skipping sᵢ's zeros (a feature added since the
// last recomputation has one nonzero).
func (m *OCCFMK) rowCoords(x data.Sparse) {
	m.memo.ok = false
	kc, ld := m.kc, m.ld
	m.cs = spectral.Grown(m.cs, len(x.Ind)*ld)
	m.out = m.out[:0]
	z := m.z[:kc]
	clear(z)
	for p, i := range x.Ind {
		u := m.cs[p*ld : p*ld+kc]
		clear(u)
		if i >= m.d {
			continue
		}
		held := false
		for j, v := range m.row(i) {
			if v != 0 {
				held = true
				spectral.Axpy(v, m.w[j*ld:j*ld+kc], u)
			}
		}
		if !held && !m.legacy {
			m.out = append(m.out, p)
		}
		spectral.Axpy(x.Val[p], u, z)
	}
}

// pairsAt returns Σ_{i<j} C_ij xᵢxⱼ = ½(Σₐ μₐ(z'ₐ² − Σₚ xₚ²s'ₚₐ²)) over
// C's eigenvectors uₐ = S·W[:, a] with μₐ ≠ 0 (uₐᵢ = s'ᵢₐ), from the
// coordinates rowCoords set for x, plus the pairs of x's features outside
// S (see foldIn).
func (m *OCCFMK) pairsAt(x data.Sparse) float64 {
	ld := m.ld
	var sum, self float64
	for _, a := range m.active {
		sum += m.mu[a] * m.z[a] * m.z[a]
	}
	for p, v := range x.Val {
		u := m.cs[p*ld : p*ld+m.kc]
		var ds float64
		for _, a := range m.active {
			ds += m.mu[a] * u[a] * u[a]
		}
		self += v * v * ds
	}
	return 0.5*(sum-self) + m.foldIn(x)
}

// Update learns (x, y): the affine part by its rule and C by one round of
// FTRL in the tracked subspace (see OCCFMK), both from ℓ'(ŷ, y) at the
// joint prediction. The coordinates of x that the prediction needs are
// the ones the update of A needs: they are computed once, unless new
// features change S in between.
func (m *OCCFMK) Update(x data.Sparse, y float64) { m.update(x, y) }

// update is Update, returning the model's prediction ŷ before it.
func (m *OCCFMK) update(x data.Sparse, y float64) float64 {
	d := m.d
	for _, i := range x.Ind {
		d = max(d, i+1)
	}
	m.grow(d)
	if m.tr != nil {
		m.tr.begin(m, x)
	}
	xt := m.fw.apply(x)
	yhat := m.affine(x)
	if p, ok := m.memo.take(x, m.t); ok {
		yhat += p
	} else {
		m.rowCoords(xt)
		if len(m.active) > 0 {
			yhat += m.pairsAt(xt)
		}
	}
	g := m.s.Loss.Deriv(yhat, y)
	m.t++
	m.se += (yhat - y) * (yhat - y)
	if m.wide != nil {
		a := m.alone.value(x)
		m.lossWide += m.s.Loss.Value(m.wide.update(x, y), y)
		m.lossWhole += m.s.Loss.Value(yhat, y)
		m.lossAlone += m.s.Loss.Value(a, y)
		if ga := m.s.Loss.Deriv(a, y); ga != 0 {
			m.alone.learn(x, ga)
		}
	}
	if m.bias != nil {
		m.bias.learn(x, g)
	} else if g != 0 {
		m.lin.learn(x, g)
	}
	changed := m.extendS(x)
	m.fw.observe(x)
	if g == 0 || math.IsNaN(g) {
		return yhat
	}
	if changed {
		m.rowCoords(xt)
	}
	v := pairNorm(x)
	m.scale.add(v)
	m.fw.addRatio(v, pairNorm(xt))
	m.addGradient(xt, g)
	m.project()
	if m.t-m.last >= m.refreshGap() && m.leak > m.allowed() {
		m.refresh()
		m.project()
	}
	if m.tr != nil {
		m.tr.end(m, yhat, y, g)
	}
	return yhat
}

// grow covers d features: zero rows of S and Y, and the affine part's.
func (m *OCCFMK) grow(d int) {
	if d <= m.d {
		return
	}
	extendZeros(d*m.ld, &m.sb, &m.yb)
	for len(m.seen) < d {
		m.seen = append(m.seen, false)
	}
	if m.bias != nil {
		extendZeros(d, &m.bias.w, &m.bias.n)
	} else {
		m.lin.extend(d)
	}
	if m.s.Affine == AffineMix {
		m.alone.extend(d)
	}
	m.d = d
}

// Delta returns δₜ, the bound on ‖C‖* in use: Delta of the settings, or,
// when that is zero, DefaultOCCFMKDeltaScale·√nₜ with nₜ ≥ 1 the features
// seen.
func (m *OCCFMK) Delta() float64 {
	if m.s.Delta > 0 {
		return m.s.Delta
	}
	return m.ballScale * math.Sqrt(float64(max(1, m.nseen)))
}

// refreshPairs is the number of G's stored pairs (or of features seen
// times Lanczos steps) a row pays for in recomputations of S (see
// refreshGap).
const refreshPairs = 50

// refreshGap returns the fewest rows between two recomputations of S:
// max(MinGap, (nnz(G) + n·s)/refreshPairs) for n features seen and s =
// k+8 Lanczos steps, so that a run, O(s·(nnz(G) + d·s) + d·k'²), costs a
// row O(s·refreshPairs) on average, however long the stream and however
// many its features.
func (m *OCCFMK) refreshGap() int {
	return max(m.s.MinGap, (m.g.nnz()+m.nseen*m.lanczosSteps())/refreshPairs)
}

// lanczosSteps returns the steps of a recomputation's Lanczos run: k+8.
func (m *OCCFMK) lanczosSteps() int { return m.s.Rank + 8 }

// eta returns ηₜ = η/(max(1, s)·κ) for s the step scale of the rows
// (see stepScale) and κ the mean ratio of their pairs' norms with and
// without the weights (see featureWeights.kappa).
func (m *OCCFMK) eta() float64 {
	return m.s.Eta / (max(1, m.scale.value()) * m.fw.kappa())
}

// MaxRowNonzeros returns the most nonzeros a row may have to be learned (see
// RowLimited).
func (m *OCCFMK) MaxRowNonzeros() int { return m.s.MaxRowNonzeros }

var _ RowLimited = (*OCCFMK)(nil)

// MemoryBytes estimates the bytes m holds (see Sized): G's pairs, S and Y
// (8 bytes a feature per direction each, room for 2k), the features'
// counts, the affine part, and the rest.
func (m *OCCFMK) MemoryBytes() int64 {
	b := structBytes + m.g.memoryBytes() + sumF64Bytes(m.sb, m.yb, m.a, m.w, m.fw.n) + int64(len(m.seen))
	if m.bias != nil {
		b += m.bias.MemoryBytes()
	} else {
		b += m.lin.memoryBytes() + m.alone.memoryBytes()
	}
	if m.wide != nil {
		b += m.wide.MemoryBytes()
	}
	return b + int64(8*len(m.lw.Qb))
}

// MemoryNote says what holds m's memory (see MemoryNoter).
func (m *OCCFMK) MemoryNote() string {
	return countText(int64(m.g.nnz())) + " stored pairs of G, " + countText(int64(m.d)) + " features"
}

func (m *OCCFMK) growsPerPair() bool { return true }

// pairVisits counts the pair terms read or written (see pairCounter).
func (m *OCCFMK) pairVisits() int64 {
	if m.wide != nil {
		return m.g.visits + m.wide.pairVisits()
	}
	return m.g.visits
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
// (docs/findings.md, "The subspace's size, its Lanczos steps and no cuts").
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

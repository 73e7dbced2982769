package core

import (
	"math"
	"math/rand/v2"

	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/internal/str"
	"github.com/occfm/occfm/core/spectral"
)

// CFMFTRLSettings configures NewCFMFTRL. The zero value is the documented
// default of every field.
type CFMFTRLSettings struct {
	// Delta is the nuclear-norm bound δ on Z. Zero means 10, the paper's
	// value for MovieLens-100K (§5.2; it uses 300 for IJCNN1, §5.3).
	Delta float64
	// Eta is η of the FTRL step on Z, taken with the rate ηₜ = η/√t.
	// Zero means DefaultCFMEta.
	Eta float64
	// FTRLSettings are the FTRL-Proximal settings of the linear part w₀,
	// w (λ₁, λ₂ do not apply to w₀). A zero Alpha means
	// DefaultLinearAlpha.
	FTRLSettings
	// Loss is the loss ℓ(ŷ, y); the zero value is Squared.
	Loss Loss
	// Tol sets how far, in Frobenius norm and relative to δ, the Z that
	// predicts may lag the exact FTRL iterate Zₜ₊₁: the eigenpairs are
	// refreshed only when the certified bound ‖ΔA‖_F exceeds Tol·δ and
	// the guard's interval has passed (see CFMFTRL). Zero means 0.05. A
	// tiny value, such as 1e-12, refreshes on every round that changes G.
	Tol float64
	// MaxRank caps the number of eigenpairs of −ηₜG/2 a refresh computes.
	// When the soft threshold needs more, Z keeps the eigenpairs found with
	// the threshold that puts ‖Z‖* = δ on them: still in the ball, but no
	// longer the exact projection (Stats counts these refreshes). Zero
	// means 64.
	MaxRank int
	// Seed seeds the small perturbation of Lanczos start vectors. Zero
	// means 1.
	Seed uint64
	// MaxRowNonzeros is the most nonzeros a row may have for a Guarded
	// learner to learn it (see RowLimited): each row stores its
	// nnz·(nnz+1)/2 pairs in G, so one row of 5,000 would cost about 1 GB.
	// Zero means DefaultMaxRowNonzeros; negative means no limit. The
	// learner itself learns any row it is given.
	MaxRowNonzeros int
}

// DefaultCFMEta is the default η of CFM-FTRL. The paper's rate 1/√t
// (η = 1) leaves −ηₜG/2 on MovieLens-100K with a flat spectrum whose
// nuclear norm is near δ = 10, so the projection keeps Z of rank in the
// hundreds and a refresh needs that many eigenpairs, too slow for a pass
// over the data. A larger η scales A against the fixed δ and thresholds
// all but the leading eigenpairs: Z's rank and a pass's time fall as η
// grows, at about the same RMSE on MovieLens-100K; on IJCNN1 (δ = 300) a
// smaller η never leaves the ball, and η = 1000 does better there. Chosen
// on one shuffled pass of MovieLens-100K and on IJCNN1 (docs/findings.md,
// "The baselines' defaults").
const DefaultCFMEta = 1000

func (s CFMFTRLSettings) withDefaults() CFMFTRLSettings {
	s.MaxRowNonzeros = zeroDefault(s.MaxRowNonzeros, DefaultMaxRowNonzeros, -1)
	if s.Delta == 0 {
		s.Delta = DefaultDelta
	}
	if s.Eta == 0 {
		s.Eta = DefaultCFMEta
	}
	s.FTRLSettings = s.FTRLSettings.withDefaults(DefaultLinearAlpha)
	if s.Tol == 0 {
		s.Tol = 0.05
	}
	if s.MaxRank == 0 {
		s.MaxRank = 64
	}
	if s.Seed == 0 {
		s.Seed = 1
	}
	if s.Delta < 0 || s.Eta < 0 || !s.FTRLSettings.valid() || s.Tol < 0 || s.MaxRank < 1 {
		panic("core: invalid CFMFTRLSettings")
	}
	return s
}

// CFMFTRLSettingsFor maps the common registry Config onto CFM-FTRL
// settings: δ, η (of Z), the seed and the loss.
func CFMFTRLSettingsFor(c Config) CFMFTRLSettings {
	return CFMFTRLSettings{Delta: c.Delta, Eta: c.Eta, Seed: c.Seed, Loss: c.LossOf()}
}

// CFMFTRL is the convex factorization machine of Yamada et al. (2017,
// "Convex factorization machine for toxicogenomics prediction") trained
// online by FTRL, the paper's CFM-FTRL baseline (§5.1):
//
//	ŷ = w₀ + wᵀx + Σ_{i<j}Zᵢⱼxᵢxⱼ = w₀ + wᵀx + ½⟨Z, xxᵀ − diag(x∘x)⟩,
//
// with Z symmetric and ‖Z‖* ≤ δ. Unlike CCFM the diagonal of Z never
// enters ŷ and w lies outside the norm ball. w₀ and w follow per-coordinate
// FTRL-Proximal (as Linear). Z follows FTRL with a Frobenius regularizer:
// with Gₜ the sum of the gradients ℓ'(ŷₛ, yₛ)·½(xₛxₛᵀ − diag(xₛ∘xₛ)),
//
//	Zₜ₊₁ = argmin_{‖Z‖*≤δ} ηₜ⟨Gₜ, Z⟩ + ‖Z‖²_F = Π(Aₜ),  Aₜ = −ηₜGₜ/2,
//
// ηₜ = η/√t, where Π, the Frobenius projection onto the ball, keeps A's
// eigenvectors and projects its eigenvalue vector onto the ℓ₁ ball of
// radius δ: λᵢ ↦ sign(λᵢ)·max(|λᵢ| − θ, 0), with θ = 0 when Σ|λᵢ| ≤ δ and
// otherwise Σᵢmax(|λᵢ| − θ, 0) = δ (Duchi et al. 2008).
//
// G is a sparse accumulator over the features that have occurred in a
// pair; Z is never dense. Two regimes:
//
//   - inside the ball (θ = 0), Z = A exactly, read from G. This is
//     certified by ‖A‖* ≤ Σᵢⱼ|Aᵢⱼ|, or after a refresh by
//     ‖A‖* ≤ Σ_{i≤m}|λᵢ| + √(n−m)·(‖A‖²_F − Σ_{i≤m}λᵢ²)^½ over the m
//     eigenvalues found, carried forward with ‖ΔA‖* ≤ Σᵢⱼ|ΔAᵢⱼ|;
//   - outside it, Z = U·diag(μ)·Uᵀ with the eigenpairs of |λ| > θ, found
//     by Lanczos on A warm-started from the previous U (a refresh). A
//     refresh finds leading eigenpairs until θ, computed from them, is at
//     least Lanczos' estimate of the next |λ|: then no eigenvalue left out
//     passes the threshold and the projection is exact (up to Lanczos'
//     accuracy, and except at the MaxRank cap).
//
// A refresh costs O(m·nnz(G) + m²n) for m Lanczos steps, too much for
// every round, so it is done only when needed. Between refreshes at s and
// t, Aₜ = c·Aₛ + ΔA with c = ηₜ/ηₛ and ΔA = −ηₜ(Gₜ − Gₛ)/2; Π(c·Aₛ) is
// exact from Aₛ's eigenpairs (the eigenvalues scale, θ is recomputed), and
// Π is nonexpansive, so
//
//	‖Π(c·Aₛ) − Zₜ₊₁‖_F ≤ ‖ΔA‖_F = ηₜ‖Gₜ − Gₛ‖_F/2,
//
// tracked exactly. CFM-FTRL predicts with Π(c·Aₛ) while that certified
// bound is at most Tol·δ; then |ŷ − ŷ_exact| ≤ Tol·δ·‖x‖²/2. For large η
// the bound is loose (Π contracts A far more than ΔA moves it), so
// CFM-FTRL also keeps Π(c·Aₛ) for a guarded number of rounds: each refresh
// measures how far Z moved, ‖Z' − Z‖_F, and the interval halves when that
// exceeds Tol·δ and doubles (up to 1024 rounds) when it is below Tol·δ/4,
// as OCCFM's LMOTracked guard does. The lag is then measured at the
// refreshes, not certified at every round. The iterate is always in the
// ball. A CFMFTRL is not safe for concurrent use.
//
// Memory (MemoryBytes): about 80 bytes per stored pair of G (a row of nnz
// features adds nnz(nnz−1)/2 pairs, so Guarded refuses rows over
// MaxRowNonzeros) and 28 per pair changed since the last refresh (ΔG), 28
// a feature for w and G's row map, and 8r bytes a feature of G for the r
// eigenvectors held.
type CFMFTRL struct {
	ftrlLinear // w₀ and w (length d)
	s          CFMFTRLSettings
	rng        *rand.Rand
	t          int // rounds played
	d          int // features seen

	// G lives on the n features that have occurred in a pair: pos maps a
	// feature to its row of G (−1 for none).
	pos []int32
	n   int
	g   symAccum // G, off-diagonal, rows by pos
	gF2 float64  // ‖G‖²_F
	gL1 float64  // Σᵢⱼ|Gᵢⱼ|

	// Since the last refresh at round s: ΔG = Gₜ − Gₛ (sparse), ‖ΔG‖²_F
	// and Σ|ΔGᵢⱼ|.
	dG       map[uint64]float64
	dF2, dL1 float64

	sparse bool    // Z = Aₜ exactly (inside the ball)
	etaZ   float64 // ηₜ of the current Z (0 before the first round)

	// The refresh at round s: ηₛ, the eigenvalues of Aₛ found (by
	// decreasing |λ|), their eigenvectors U (nS×r, row-major), the estimate
	// next of the largest |λ| left out, and nucS ≥ ‖Aₛ‖* (+Inf unless the
	// refresh found Aₛ inside the ball).
	refreshed bool
	etaS      float64
	lam       []float64
	u         []float64
	nS        int
	next      float64
	nucS      float64
	exact     bool // the refresh resolved every eigenvalue above θ

	mu []float64 // Z's eigenvalues: sign(λᵢ)·max(c|λᵢ| − θ, 0)

	spareU, spareMu []float64            // the previous U and μ, for the guard
	zx              []float64            // scratch: Uᵀx
	ab              []float64            // scratch: |c·λᵢ|
	lw              spectral.LanczosWork // scratch: the refresh's Lanczos workspace, reused

	since, interval int // rounds since the refresh, and the guard's interval

	refreshes, matvecs, inexact int

	src *rand.PCG // rng's source, whose state SaveModel records
}

var _ Learner = (*CFMFTRL)(nil)
var _ Configured = (*CFMFTRL)(nil)

// cfmFTRLSpec registers CFMFTRL (see registry).
var cfmFTRLSpec = Spec{
	Name:    "cfm-ftrl",
	Plain:   "A convex factorization machine: the classic one's pair matrix Z, kept inside a budget δ instead of a fixed number of tastes.",
	Summary: "convex FM (Yamada et al. 2017), ‖Z‖* ≤ δ: FTRL-Proximal on w, FTRL projection by Lanczos on Z (§5.1 baseline)",
	Takes:   TakesDelta | TakesEta,
	New:     func(c Config) Learner { return NewCFMFTRL(CFMFTRLSettingsFor(c)) },
	Ball:    true,
	state:   func() stateCoder { return new(CFMFTRL) },
}

// NewCFMFTRL returns a CFM-FTRL learner with w₀ = 0, Z = 0 and an empty
// feature space.
func NewCFMFTRL(s CFMFTRLSettings) *CFMFTRL {
	s = s.withDefaults()
	src := rand.NewPCG(s.Seed, 0xcf)
	return &CFMFTRL{
		ftrlLinear: newFTRLLinear(s.Alpha, s.Beta, s.L1, s.L2),
		s:          s,
		rng:        rand.New(src),
		src:        src,
		dG:         make(map[uint64]float64),
		sparse:     true,
		interval:   1,
	}
}

// Settings returns the settings in use, with defaults filled in.
func (m *CFMFTRL) Settings() CFMFTRLSettings { return m.s }

// Config returns δ, η, the seed and the loss; it implements Configured.
func (m *CFMFTRL) Config() Config {
	loss := m.s.Loss
	return Config{Task: taskOf(loss), Delta: m.s.Delta, Eta: m.s.Eta, Seed: m.s.Seed, Loss: &loss}
}

// row returns the row of G of feature i, or −1.
func (m *CFMFTRL) row(i int) int {
	if i >= len(m.pos) {
		return -1
	}
	return int(m.pos[i])
}

// Predict returns ŷ = w₀ + wᵀx + Σ_{i<j}Zᵢⱼxᵢxⱼ in O(nnz(x)²) inside the
// ball and O(nnz(x)·r) outside it. It does not change the learner's state.
func (m *CFMFTRL) Predict(x data.Sparse) float64 {
	return m.value(x) + m.interaction(x)
}

// interaction returns Σ_{i<j}Zᵢⱼxᵢxⱼ.
func (m *CFMFTRL) interaction(x data.Sparse) float64 {
	if m.etaZ == 0 {
		return 0
	}
	if m.sparse {
		if m.g.index == nil {
			return 0
		}
		var s float64
		for a, i := range x.Ind {
			ri := m.row(i)
			if ri < 0 {
				continue
			}
			for b := 0; b < a; b++ {
				if rj := m.row(x.Ind[b]); rj >= 0 {
					if g, ok := m.g.at(ri, rj); ok {
						s += g * x.Val[a] * x.Val[b]
					}
				}
			}
		}
		return -0.5 * m.etaZ * s
	}
	r := len(m.mu)
	if r == 0 {
		return 0
	}
	m.zx = spectral.Grown(m.zx, r)
	zx := m.zx
	clear(zx)
	var diag float64 // Σᵢxᵢ²Zᵢᵢ
	for p, i := range x.Ind {
		ri := m.row(i)
		if ri < 0 || ri >= m.nS {
			continue
		}
		xi := x.Val[p]
		ui := m.u[ri*r : ri*r+r]
		var zii float64
		for f, v := range ui {
			zx[f] += v * xi
			zii += m.mu[f] * v * v
		}
		diag += xi * xi * zii
	}
	var q float64
	for f, v := range zx {
		q += m.mu[f] * v * v
	}
	return 0.5 * (q - diag)
}

// Update plays the learning half of a round: FTRL-Proximal on w₀ and w,
// then G += ℓ'·½(xxᵀ − diag(x∘x)) and Z = Π(−ηₜG/2) (see CFMFTRL).
func (m *CFMFTRL) Update(x data.Sparse, y float64) {
	for _, i := range x.Ind {
		m.d = max(m.d, i+1)
	}
	m.extend(m.d)
	g := m.s.Loss.Deriv(m.Predict(x), y)
	m.t++
	if g != 0 {
		m.learn(x, g)
		for a, i := range x.Ind {
			for b := 0; b < a; b++ {
				if v := 0.5 * g * x.Val[a] * x.Val[b]; v != 0 && x.Ind[b] != i {
					m.addG(m.activate(i), m.activate(x.Ind[b]), v)
				}
			}
		}
	}
	m.project()
}

// activate returns the row of G of feature i, adding one if needed.
func (m *CFMFTRL) activate(i int) int {
	for len(m.pos) <= i {
		m.pos = append(m.pos, -1)
	}
	if m.pos[i] < 0 {
		m.pos[i] = int32(m.n)
		m.n++
	}
	return int(m.pos[i])
}

// addG adds v to Gᵢⱼ and Gⱼᵢ (rows i ≠ j), keeping ‖G‖²_F, Σ|Gᵢⱼ| and ΔG.
func (m *CFMFTRL) addG(i, j int, v float64) {
	old, _ := m.g.at(i, j)
	m.g.add(i, j, v)
	m.gF2 += 2 * (v*v + 2*old*v)
	m.gL1 += 2 * (math.Abs(old+v) - math.Abs(old))
	k := pairKey(min(i, j), max(i, j))
	od := m.dG[k]
	m.dG[k] = od + v
	m.dF2 += 2 * (v*v + 2*od*v)
	m.dL1 += 2 * (math.Abs(od+v) - math.Abs(od))
}

// project sets Z = Π(−ηₜGₜ/2) for the current round t, refreshing the
// eigenpairs only when the bounds of CFMFTRL ask for it.
func (m *CFMFTRL) project() {
	eta := m.s.Eta / math.Sqrt(float64(m.t))
	m.etaZ = eta
	delta := m.s.Delta
	// Inside the ball: Z = A exactly.
	nuc := 0.5 * eta * m.gL1
	if m.refreshed && !math.IsInf(m.nucS, 1) {
		nuc = min(nuc, eta/m.etaS*m.nucS+0.5*eta*m.dL1)
	}
	if nuc <= delta {
		m.sparse = true
		return
	}
	// Outside it: Π(c·Aₛ) from the last refresh, while the certified
	// bound or the guard's interval allows.
	m.since++
	if m.refreshed && math.IsInf(m.nucS, 1) &&
		(0.5*eta*math.Sqrt(max(m.dF2, 0)) <= m.s.Tol*delta || m.since < m.interval) &&
		m.scaled(eta/m.etaS) {
		m.sparse = false
		return
	}
	m.refresh(eta)
}

// guard adapts the refresh interval to the change ‖Z' − Z‖_F a refresh
// made, from Z = U·diag(μ)·Uᵀ (rows nS, rank r) to the new Z' (rows n):
// above Tol·δ the interval halves, below Tol·δ/4 it doubles, up to 1024.
func (m *CFMFTRL) guard(u []float64, mu []float64, nS int, res spectral.LanczosResult, mu2 []float64) {
	r := len(mu)
	// ‖Z' − Z‖² = Σμ'² + Σμ² − 2Σₐᵦμ'ₐμᵦ(u'ₐᵀuᵦ)².
	var ch float64
	for _, v := range mu {
		ch += v * v
	}
	for a, va := range mu2 {
		ch += va * va
		if va == 0 {
			continue
		}
		ua := res.Vecs[a]
		for b, vb := range mu {
			if vb == 0 {
				continue
			}
			var ip float64
			for i := 0; i < nS; i++ {
				ip += ua[i] * u[i*r+b]
			}
			ch -= 2 * va * vb * ip * ip
		}
	}
	ch = math.Sqrt(max(ch, 0))
	tol := m.s.Tol * m.s.Delta
	switch {
	case ch > tol:
		m.interval = max(1, m.interval/2)
	case ch < tol/4:
		m.interval = min(2*m.interval, 1024)
	}
}

// scaled sets μ from Π(c·Aₛ) and reports whether that projection is exact
// given the eigenvalues found at the refresh: false when the threshold
// falls to the estimate of the next eigenvalue, or when Π(c·Aₛ) is inside
// the ball (then only the sparse form is exact).
func (m *CFMFTRL) scaled(c float64) bool {
	r := len(m.lam)
	m.ab = spectral.Grown(m.ab, r)
	for i, l := range m.lam {
		m.ab[i] = c * math.Abs(l)
	}
	theta, inside := spectral.SortedL1Threshold(m.ab, m.s.Delta)
	if inside || (m.exact && theta < c*m.next) {
		return false
	}
	m.mu = spectral.Grown(m.mu, r)
	for i, l := range m.lam {
		m.mu[i] = math.Copysign(max(m.ab[i]-theta, 0), l)
	}
	return true
}

// cfmOp is A = scale·G on the rows of G.
type cfmOp struct {
	m     *CFMFTRL
	scale float64
}

func (o cfmOp) Dim() int             { return o.m.n }
func (o cfmOp) Apply(y, v []float64) { o.m.g.mulVec(y, o.scale, v); o.m.matvecs++ }

// refresh computes the eigenpairs of Aₜ = −ηₜGₜ/2 of |λ| above the
// projection's threshold by Lanczos, warm-started from the previous
// eigenvectors, and sets Z = Π(Aₜ).
func (m *CFMFTRL) refresh(eta float64) {
	n := m.n
	start := make([]float64, n)
	r := len(m.lam)
	for i := 0; i < m.nS; i++ {
		for _, v := range m.u[i*r : i*r+r] {
			start[i] += v
		}
	}
	scale := math.Sqrt(spectral.Dot(start, start))
	if scale == 0 {
		scale = 1
	}
	for i := range start {
		start[i] += 1e-2 * scale * m.rng.NormFloat64() / math.Sqrt(float64(n))
	}
	a2 := 0.25 * eta * eta * m.gF2 // ‖A‖²_F
	limit := min(m.s.MaxRank, n)
	k := min(max(r+r/2+4, 8), limit)
	var res spectral.LanczosResult
	var found int
	for {
		iters := min(n, 2*k+20)
		res = *m.lw.Run(cfmOp{m, -0.5 * eta}, start, k+1, iters, iters, 0)
		// Resolved pairs: the prefix whose residuals are small; the rest
		// count towards the estimate of the next |λ|.
		tol := 1e-6 * math.Abs(res.Theta[0])
		found = 0
		for found < min(k, len(res.Theta)) && res.Resid[found] <= tol {
			found++
		}
		next := res.Next
		for j := found; j < len(res.Theta); j++ {
			next = max(next, math.Abs(res.Theta[j])+res.Resid[j])
		}
		m.next = next
		m.ab = spectral.Grown(m.ab, found)
		var sum, sum2 float64
		for i := range found {
			m.ab[i] = math.Abs(res.Theta[i])
			sum += m.ab[i]
			sum2 += m.ab[i] * m.ab[i]
		}
		if sum <= m.s.Delta {
			// Inside the ball if the eigenvalues not found are too small
			// to matter.
			nuc := sum + math.Sqrt(float64(n-found)*max(a2-sum2, 0))
			if nuc <= m.s.Delta {
				m.setRefresh(eta, a2, res, 0, nuc, true)
				m.sparse = true
				return
			}
		} else if theta, _ := spectral.SortedL1Threshold(m.ab, m.s.Delta); theta >= next || found == n {
			m.adopt(eta, a2, res, found, true)
			return
		}
		if k >= limit {
			break
		}
		k = min(2*k, limit)
		for _, v := range res.Vecs[:found] {
			spectral.Axpy(1, v, start)
		}
	}
	// The rank cap: Z takes the eigenpairs found with the threshold that
	// puts ‖Z‖* = δ on them (or all of them, inside the ball), which is in
	// the ball but not the exact projection.
	m.inexact++
	m.adopt(eta, a2, res, found, false)
}

// adopt makes Z = Π from the first r eigenpairs of res (the projection
// when exact is set), feeding the change of Z to the guard.
func (m *CFMFTRL) adopt(eta, a2 float64, res spectral.LanczosResult, r int, exact bool) {
	old, oldMu, oldN := m.u, m.mu, m.nS
	wasLowRank := !m.sparse && len(oldMu) > 0
	if wasLowRank {
		m.spareU = append(m.spareU[:0], old...)
		m.spareMu = append(m.spareMu[:0], oldMu...)
	}
	m.setRefresh(eta, a2, res, r, math.Inf(1), exact)
	if !m.scaled(1) {
		m.mu = spectral.Grown(m.mu, r)
		copy(m.mu, m.lam)
	}
	m.sparse = false
	if wasLowRank {
		m.guard(m.spareU, m.spareMu, oldN, res, m.mu)
	}
}

// setRefresh records the first r eigenpairs of res as the refresh at the
// current round, and restarts ΔG.
func (m *CFMFTRL) setRefresh(eta, a2 float64, res spectral.LanczosResult, r int, nuc float64, exact bool) {
	m.refreshes++
	m.refreshed = true
	m.etaS = eta
	m.nucS = nuc
	m.exact = exact
	m.nS = m.n
	m.lam = append(m.lam[:0], res.Theta[:r]...)
	need := m.nS * r
	if cap(m.u) < need {
		m.u = make([]float64, need, 2*need)
	}
	m.u = m.u[:need]
	for f := range r {
		for i, v := range res.Vecs[f] {
			m.u[i*r+f] = v
		}
	}
	clear(m.dG)
	m.dF2, m.dL1 = 0, 0
	m.since = 0
}

// Dim returns the number of features seen.
func (m *CFMFTRL) Dim() int { return m.d }

// Rank returns the number of nonzero eigenvalues of Z, or −1 inside the
// ball, where Z = −ηₜG/2 is kept sparse and its rank is not computed.
func (m *CFMFTRL) Rank() int {
	if m.sparse {
		return -1
	}
	r := 0
	for _, v := range m.mu {
		if v != 0 {
			r++
		}
	}
	return r
}

// Stats reports the work so far: eigenpair refreshes, products with G, and
// refreshes that hit MaxRank (inexact projections).
func (m *CFMFTRL) Stats() (refreshes, matvecs, inexact int) {
	return m.refreshes, m.matvecs, m.inexact
}

// MemoryBytes estimates the bytes m holds (see Sized and CFMFTRL's
// memory): G's stored pairs and the changes ΔG since the last refresh
// dominate.
func (m *CFMFTRL) MemoryBytes() int64 {
	return structBytes + m.ftrlLinear.memoryBytes() + i32Bytes(m.pos) + m.g.memoryBytes() +
		int64(len(m.dG))*mapEntryBytes + sumF64Bytes(m.lam, m.u, m.mu, m.spareU, m.spareMu, m.zx, m.ab) + m.lw.MemoryBytes()
}

// MemoryNote says how many pairs G stores (see MemoryNoter).
func (m *CFMFTRL) MemoryNote() string {
	return countText(int64(m.g.nnz())) + " stored pairs of its gradient sum"
}

func (m *CFMFTRL) growsPerPair() bool { return true }

// MaxRowNonzeros returns the per-row limit of Guarded (see RowLimited and
// CFMFTRLSettings.MaxRowNonzeros): 0 for none.
func (m *CFMFTRL) MaxRowNonzeros() int { return max(m.s.MaxRowNonzeros, 0) }

var _ RowLimited = (*CFMFTRL)(nil)

func (m *CFMFTRL) stateCode(c *stateCodec) {
	s := m.s
	if c.dec {
		s.MaxRowNonzeros = DefaultMaxRowNonzeros // coded at the end, when not the default
	}
	c.float(&s.Delta)
	c.float(&s.Eta)
	c.ftrlSettings(&s.FTRLSettings)
	codeEnum(c, &s.Loss, 2, "loss")
	c.float(&s.Tol)
	c.int(&s.MaxRank)
	c.uint64(&s.Seed)
	if !rebuild(c, m, s, NewCFMFTRL, func(x *CFMFTRL) CFMFTRLSettings { return x.s }) {
		return
	}
	c.int(&m.t)
	c.int(&m.d)
	if c.violates(m.t >= 0 && m.d >= 0) {
		c.fail(str.Itoa(m.t) + " rounds, " + str.Itoa(m.d) + " features")
	}
	if c.err != nil {
		return
	}
	c.ftrlLinear(&m.ftrlLinear, m.d)
	c.int32s(&m.pos)
	c.int(&m.n)
	if c.violates(len(m.pos) <= m.d) {
		c.fail(str.Itoa(len(m.pos)) + " rows of G for " + str.Itoa(m.d) + " features")
	}
	checkNumbering(c, m.pos, 0, m.n, "row")
	if c.err != nil {
		return
	}
	c.accum(&m.g, m.n)
	c.float(&m.gF2)
	c.float(&m.gL1)
	c.pairMap(m.dG)
	c.float(&m.dF2)
	c.float(&m.dL1)
	c.bool(&m.sparse)
	c.float(&m.etaZ)
	c.bool(&m.refreshed)
	c.float(&m.etaS)
	c.floats(&m.lam)
	c.floats(&m.u)
	c.int(&m.nS)
	c.float(&m.next)
	c.floatOrInf(&m.nucS) // +Inf: unknown
	c.bool(&m.exact)
	c.floats(&m.mu)
	c.int(&m.since)
	c.int(&m.interval)
	c.check(m.nS >= 0 && m.nS <= m.n && len(m.u) == m.nS*len(m.lam), "eigenvectors of the wrong size")
	c.check(m.sparse || m.nS*len(m.mu) <= len(m.u), "eigenvalues of the wrong size")
	if c.violates(m.since >= 0 && m.interval >= 1) {
		c.fail("refresh interval " + str.Itoa(m.interval) + ", since " + str.Itoa(m.since))
	}
	c.pcg(m.src)
	c.int(&m.refreshes)
	c.int(&m.matvecs)
	c.int(&m.inexact)
	c.maxRowNonzeros(&m.s.MaxRowNonzeros)
}

// pairVisits counts the pair terms read or written (see pairCounter).
func (m *CFMFTRL) pairVisits() int64 { return m.g.visits }

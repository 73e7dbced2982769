package core

import (
	"math"
	"math/rand/v2"

	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/internal/str"
	"github.com/occfm/occfm/core/spectral"
)

// CCFMFTRLSettings configures NewCCFMFTRL. The zero value is the documented
// default of every field.
type CCFMFTRLSettings struct {
	// Delta is the nuclear-norm bound δ of K. Zero means 10, the paper's
	// value for MovieLens.
	Delta float64
	// Eta is η in ηₜ = η/√t. Zero means 1 (the paper's rate 1/√t, §5.1).
	Eta float64
	// Loss is the loss ℓ(ŷ, y); the zero value is Squared.
	Loss Loss
	// Seed seeds the random part of the Lanczos start vectors. Zero means 1.
	Seed uint64
	// MaxRowNonzeros is the most nonzeros a row may have for a Guarded
	// learner to learn it (see RowLimited): each row stores its
	// nnz·(nnz+1)/2 pairs in G, so one row of 5,000 would cost about 1 GB.
	// Zero means DefaultMaxRowNonzeros; negative means no limit. The
	// learner itself learns any row it is given.
	MaxRowNonzeros int
	// Refresh sets how often the eigenpairs of Gₜ are recomputed: after a
	// recomputation at round t the next one is at round t + ⌈Refresh·√t⌉.
	// Zero means 2 (a full MovieLens-100K pass in about 30 s; see CCFMFTRL
	// for the accuracy). Between recomputations the eigenvectors are held and
	// their eigenvalues follow Gₜ exactly along them (see CCFMFTRL).
	Refresh float64
	// Tol is the accuracy a recomputation asks of the eigenpairs that
	// survive the projection: their residuals ‖Gₜv − λv‖, in units of
	// ηₜ/2, must be at most Tol·θ, or the Lanczos run is lengthened. Zero
	// means 0.1; Exact uses 1e-10.
	Tol float64
	// Exact recomputes the eigenpairs of Gₜ on every round, to residuals
	// of 1e-10·θ: the iterate is Π_K(−ηₜGₜ/2) to working accuracy on every
	// round (Refresh is ignored), at the cost of a long Lanczos run per
	// round. For small d and tests.
	Exact bool
	// DenseProjection computes Π_K(−ηₜGₜ/2) on every round from the dense
	// (d+1)×(d+1) matrix by a full eigendecomposition, O(d³) per round: the
	// paper's cost model, for the efficiency figure on small d only.
	DenseProjection bool
}

func (s CCFMFTRLSettings) withDefaults() CCFMFTRLSettings {
	s.MaxRowNonzeros = zeroDefault(s.MaxRowNonzeros, DefaultMaxRowNonzeros, -1)
	s.Delta, s.Eta, s.Seed = projectedDefaults(s.Delta, s.Eta, s.Seed)
	if s.Refresh == 0 {
		s.Refresh = 2
	}
	if s.Tol == 0 {
		s.Tol = 0.1
	}
	if !(s.Refresh > 0) || !(s.Tol > 0) {
		panic("core: invalid CCFMFTRLSettings: Refresh and Tol must be positive")
	}
	return s
}

// CCFMFTRLSettingsFor maps the common registry Config onto CCFM-FTRL
// settings: δ, η, the seed and the loss (Gamma and Rank do not apply).
func CCFMFTRLSettingsFor(c Config) CCFMFTRLSettings {
	return CCFMFTRLSettings{Delta: c.Delta, Eta: c.Eta, Seed: c.Seed, Loss: c.LossOf()}
}

// CCFMFTRL is CCFM-FTRL, the baseline of §5.1 that runs
// follow-the-regularized-leader with the squared Frobenius regularizer on
// the CCFM model:
//
//	G₀ = 0
//	for t = 1, 2, …:
//	    predict ŷₜ = ½x̂ₜᵀCₜx̂ₜ (C₁ = 0), receive yₜ
//	    Gₜ = Gₜ₋₁ + ∇fₜ(Cₜ),   ∇fₜ(Cₜ) = ℓ'(ŷₜ, yₜ)·½x̂ₜx̂ₜᵀ
//	    Cₜ₊₁ = argmin_{C∈K} ηₜ⟨Gₜ, C⟩ + ‖C‖²_F = Π_K(−ηₜGₜ/2),   ηₜ = η/√t
//
// with Π_K the Frobenius projection onto K = {C symmetric, ‖C‖* ≤ δ}. With
// Gₜ = Σᵢ λᵢvᵢvᵢᵀ and αᵢ = −ηₜλᵢ/2,
//
//	Cₜ₊₁ = Σᵢ sign(αᵢ)·max(|αᵢ| − θ, 0)·vᵢvᵢᵀ,   Σᵢ max(|αᵢ| − θ, 0) = δ,
//
// so only the eigenpairs with |αᵢ| > θ matter. Gₜ is a sparse symmetric
// accumulator (symAccum); its eigenpairs come from Lanczos (lanczos.go),
// warm-started from the previous eigenvectors, with the number of steps
// grown until the smallest |α| found is at most the cut (θ, floored at
// roundoff when the ball does not bind) and the Ritz pairs above the cut
// have converged to Tol (see refresh). While the triangle bound
// (ηₜ/2)·Σ|ℓ'|·½‖x̂‖² ≥ ‖ηₜGₜ/2‖* is at most δ, the projection is the
// identity and Cₜ₊₁ = −ηₜGₜ/2 exactly, with no eigenproblem.
//
// The cost, and the schedule. On MovieLens-100K (δ = 10, η = 1) the
// spectrum of ηₜGₜ/2 is one large eigenvalue and a dense bulk around θ:
// Cₜ₊₁ has rank ≈ 110 at t = 10³, 65 at 10⁴, 5 at 10⁵, with neighbouring
// eigenvalues 3·10⁻⁴ apart near θ ≈ 0.07. A Lanczos run that resolves that
// takes 0.1–1 s, so the Exact setting (a run every round) is for small d and
// tests: a full pass would take hours. By default the eigenpairs are
// recomputed at rounds spaced ⌈Refresh·√t⌉ apart (the change of ηₜGₜ per
// round shrinks like 1/√t), and whenever a feature appears that the held
// vectors have not seen. In between, CCFM-FTRL holds the subspace V of the
// Ritz vectors (those above the cut plus a margin of max(8, r/4) below it)
// and runs FTRL exactly on the compression of Gₜ to it: VᵀGₜV =
// W·diag(λ)·Wᵀ is updated by each rank-one gradient (rankOneEig, the
// eigenvectors rotated in W at O(k³) per round, V untouched), so that
//
//	Cₜ₊₁ = Π_K(−ηₜ·P Gₜ P/2),   P = VVᵀ,
//
// which is exact whenever span(V) is invariant under Gₜ (on small d it is
// the whole space, and the tests check exactness). Its error is bounded by
// ‖C − Π_K(−ηₜGₜ/2)‖_F ≤ (ηₜ/√2)·‖(I − P)GₜP‖_F while the rest of the
// spectrum stays below the cut (Π_K is nonexpansive). Measured on
// MovieLens-100K (shuffle seed 1) against the exact Π_K(−ηₜGₜ/2) of the
// same Gₜ (a dense eigendecomposition at t = 10³, 900-step Lanczos runs,
// which agree with it, up to t = 10⁵): ‖C − C*‖_F = 0.05–0.28 with
// ‖C*‖_F = 6.7–8.3 (at most 4%), the predictions within 0.009 RMS of the
// exact iterate's; a recomputation alone leaves ≈ 0.01, the drift of span(V)
// between recomputations the rest. Its buffers, the Lanczos workspace
// among them, are kept in the learner, so that once they have grown to the
// dimension, the number of held vectors and the longest Lanczos run, an
// Update allocates nothing, a recomputation included (as long as Gₜ gains
// no new entry: a new pair of features grows the accumulator). A CCFMFTRL
// is not safe for concurrent use.
//
// Memory (MemoryBytes): about 80 bytes per stored pair of G (a row of nnz
// features adds up to (nnz+1)(nnz+2)/2 pairs, so Guarded refuses rows over
// MaxRowNonzeros), plus the k held vectors (8k bytes a feature) and the
// Lanczos workspace (8 bytes a feature per Lanczos step); with
// DenseProjection, 8(d+1)² bytes for the dense matrix.
type CCFMFTRL struct {
	s CCFMFTRLSettings
	t int
	n int

	g    symAccum
	mass float64 // Σ |ℓ'|·½‖x̂‖² ≥ ‖G‖*

	// The iterate: sparse means C = −(sparseEta/2)·G exactly; otherwise
	// C = Σᵢ μᵢvᵢvᵢᵀ over the held vectors.
	sparse    bool
	sparseEta float64
	k         int       // held vectors
	vecs      []float64 // V: n×k row-major, row j holds (v₁)ⱼ … (v_k)ⱼ
	rot       []float64 // W: k×k row-major, VᵀGₜV = W·diag(λ)·Wᵀ
	lam       []float64 // λ, the Ritz values of Gₜ on span(V)
	mu        []float64 // μᵢ = sign(αᵢ)·max(|αᵢ| − θ, 0), αᵢ = −ηₜλᵢ/2
	theta     float64   // θ of the last projection (α units)
	next      int       // round of the next recomputation

	dense eigSym // the iterate under DenseProjection

	rng *rand.Rand
	src *rand.PCG // rng's source, whose state SaveModel records

	// scratch
	a, z, alpha, abs, nu, vs, rot2 []float64
	start, ralpha, dd              []float64 // refresh and projectDense
	lw                             spectral.LanczosWork
	eig                            spectral.RankOneEig

	refreshes, matvecs int
}

// ccfmFTRLSpec registers CCFMFTRL (see registry).
var ccfmFTRLSpec = Spec{
	Name:      "ccfm-ftrl",
	Plain:     "Follow the regularized leader: C is recomputed from the sum of all gradients so far, then put back into the budget δ.",
	Summary:   "CCFM by FTRL: C = Π(−ηₜGₜ/2) onto ‖C‖* ≤ δ from Lanczos eigenpairs of the gradient sum (§5.1 baseline)",
	Takes:     TakesDelta | TakesEta,
	New:       func(c Config) Learner { return NewCCFMFTRL(CCFMFTRLSettingsFor(c)) },
	Guarantee: RegretGuarantee{0.5, "FTRL with linearized losses (Shalev-Shwartz 2012, §2)"},
	Ball:      true,
	state:     func() stateCoder { return new(CCFMFTRL) },
}

// NewCCFMFTRL returns a CCFM-FTRL learner with G₀ = 0 (so C₁ = 0) and an
// empty feature space.
func NewCCFMFTRL(s CCFMFTRLSettings) *CCFMFTRL {
	s = s.withDefaults()
	src := rand.NewPCG(s.Seed, 0xf7)
	o := &CCFMFTRL{s: s, rng: rand.New(src), src: src}
	o.n = 1
	o.sparse = true
	o.dense.grow(1)
	return o
}

var _ Learner = (*CCFMFTRL)(nil)
var _ Configured = (*CCFMFTRL)(nil)

// Settings returns the settings in use, with defaults filled in.
func (o *CCFMFTRL) Settings() CCFMFTRLSettings { return o.s }

// Config returns the effective common settings; it implements Configured.
func (o *CCFMFTRL) Config() Config { return configOf(o.s.Delta, o.s.Eta, o.s.Seed, o.s.Loss) }

// Predict returns ŷ = ½x̂ᵀCx̂: O(nnz(x)²) hash look-ups while C = −ηGₜ/2,
// else O(nnz(x)·k). It does not change the learner's state.
func (o *CCFMFTRL) Predict(x data.Sparse) float64 {
	if o.s.DenseProjection {
		return 0.5 * o.dense.quad(x)
	}
	if o.sparse {
		return -0.25 * o.sparseEta * o.quadG(x)
	}
	if o.k == 0 {
		return 0
	}
	z := o.coords(x)
	var y float64
	for i, m := range o.mu {
		y += m * z[i] * z[i]
	}
	return 0.5 * y
}

// quadG returns x̂ᵀGx̂ from the accumulator's hash index.
func (o *CCFMFTRL) quadG(x data.Sparse) float64 {
	at := func(i, j int) float64 {
		v, _ := o.g.at(i, j)
		return v
	}
	q := at(0, 0)
	for p, i := range x.Ind {
		if i+1 >= o.n {
			continue
		}
		q += 2 * x.Val[p] * at(0, i+1)
		for r, j := range x.Ind {
			if j+1 < o.n {
				q += x.Val[p] * x.Val[r] * at(i+1, j+1)
			}
		}
	}
	return q
}

// coords returns z = Wᵀ(Vᵀx̂), the coordinates of x̂ in the held Ritz
// basis V·W, in O(nnz(x)·k + k²). It uses scratch space and returns it.
func (o *CCFMFTRL) coords(x data.Sparse) []float64 {
	k := o.k
	o.a, o.z = spectral.Grown(o.a, k), spectral.Grown(o.z, k)
	a, z := o.a, o.z
	copy(a, o.vecs[:k])
	for p, j := range x.Ind {
		if (j+2)*k <= len(o.vecs) {
			spectral.Axpy(x.Val[p], o.vecs[(j+1)*k:(j+2)*k], a)
		}
	}
	clear(z)
	for i, ai := range a {
		if ai != 0 {
			spectral.Axpy(ai, o.rot[i*k:i*k+k], z)
		}
	}
	return z
}

// Update plays the learning half of round t: Gₜ = Gₜ₋₁ + ∇fₜ(Cₜ) and
// Cₜ₊₁ = Π_K(−ηₜGₜ/2).
func (o *CCFMFTRL) Update(x data.Sparse, y float64) {
	n := o.n
	for _, j := range x.Ind {
		n = max(n, j+2)
	}
	if o.s.DenseProjection {
		growTo(&o.dense, x)
	}
	o.t++
	yhat := o.Predict(x)
	w := 0.5 * o.s.Loss.Deriv(yhat, y) // ∇fₜ = w·x̂x̂ᵀ
	xx := 1.0
	for _, v := range x.Val {
		xx += v * v
	}
	o.n = n
	if w != 0 {
		o.g.addOuter(w, x, false)
		o.mass += math.Abs(w) * xx
	}
	eta := o.s.Eta / math.Sqrt(float64(o.t))
	if o.s.DenseProjection {
		o.projectDense(eta)
		return
	}
	if 0.5*eta*o.mass <= o.s.Delta {
		// ‖ηₜGₜ/2‖* ≤ (ηₜ/2)·Σ|w|‖x̂‖² ≤ δ: Π_K is the identity.
		o.sparse, o.sparseEta = true, eta
		return
	}
	if o.sparse || o.s.Exact || o.t >= o.next || n*o.k > len(o.vecs) {
		// A recomputation is due, or x has a feature the held vectors
		// have not seen (they are zero there, and would stay so).
		o.refresh(eta)
		return
	}
	// Rayleigh-Ritz in the held subspace: VᵀGₜV = W·diag(λ)·Wᵀ gains
	// w·aaᵀ (a = Vᵀx̂), a diagonal-plus-rank-one update of diag(λ) in the
	// coordinates z = Wᵀa.
	if w != 0 && o.k > 0 {
		k := o.k
		z := o.coords(x)
		o.vs = spectral.Grown(o.vs, k*k)
		o.nu = spectral.Grown(o.nu, k)
		o.eig.Solve(o.lam, z, w, o.nu, o.vs)
		copy(o.lam, o.nu)
		o.rot2 = spectral.Grown(o.rot2, k*k)
		spectral.Gemm(k, k, k, o.rot[:k*k], k, o.vs[:k*k], k, o.rot2[:k*k], k)
		o.rot, o.rot2 = o.rot2, o.rot
	}
	o.threshold(eta)
}

// threshold sets μ from the held λ for ηₜ = eta.
func (o *CCFMFTRL) threshold(eta float64) {
	o.alpha = spectral.Grown(o.alpha, o.k)
	for i, l := range o.lam {
		o.alpha[i] = -0.5 * eta * l
	}
	o.theta, o.abs = spectral.L1BallThreshold(o.alpha, o.s.Delta, o.abs)
	for i, al := range o.alpha {
		o.mu[i] = spectral.SoftThreshold(al, o.theta)
	}
}

// ftrlOp is Gₜ as a spectral.Operator.
type ftrlOp struct{ o *CCFMFTRL }

func (f ftrlOp) Dim() int             { return f.o.n }
func (f ftrlOp) Apply(y, v []float64) { f.o.g.mulVec(y, 1, v) }

// refresh recomputes the eigenpairs of Gₜ that Π_K(−ηₜGₜ/2) needs by
// Lanczos, warm-started from the held subspace (a fixed pseudo-random
// combination of its vectors plus a random component, so that the rest of
// the spectrum stays in reach). The run starts at k + max(16, k/4) steps
// for k held vectors and is lengthened by half until the smallest |α|
// found is at most the cut and every Ritz pair above the cut has a
// residual of at most Tol·cut (in α units), or the Krylov space is
// exhausted. The cut is θ, or ftrlRoundoff·|α₁| when that is larger. It then
// holds the Ritz pairs above the cut plus a margin below it, so that
// eigenvalues just below the cut can rise above it before the next
// refresh.
func (o *CCFMFTRL) refresh(eta float64) {
	n := o.n
	o.start = spectral.Grown(o.start, n)
	start := o.start
	for i := range start {
		start[i] = o.rng.NormFloat64() / math.Sqrt(float64(n))
	}
	if o.k > 0 {
		for i := 0; i < n && (i+1)*o.k <= len(o.vecs); i++ {
			var s float64
			row := o.vecs[i*o.k : (i+1)*o.k]
			for c, v := range row {
				s += v * ftrlWeight(c)
			}
			start[i] += 3 * s / math.Sqrt(float64(o.k))
		}
	}
	m := min(n, max(32, o.k+max(16, o.k/4)))
	tol := o.s.Tol
	if o.s.Exact {
		tol = 1e-10
	}
	var (
		res   *spectral.LanczosResult
		alpha []float64 // αᵢ = −ηₜθᵢ/2 of the Ritz values θᵢ
		cut   float64   // the cut: the ℓ₁-ball threshold θ of α, or the roundoff floor
	)
	for {
		res = o.lw.Run(ftrlOp{o}, start, m, m, m, 0)
		o.matvecs += res.Iters
		alpha = o.ritzAlpha(res.Theta, eta)
		cut = max(o.l1Threshold(alpha), ftrlRoundoff*math.Abs(alpha[0]))
		smallest := math.Abs(alpha[len(alpha)-1])
		bad := 0
		for i, a := range alpha {
			if math.Abs(a) > cut && 0.5*eta*res.Resid[i] > tol*cut {
				bad++
			}
		}
		if len(res.Theta) < m || m == n || (smallest <= cut && bad == 0) {
			break
		}
		m = min(n, m+m/2)
	}
	o.refreshes++
	// Hold the Ritz pairs above the cut (θ from all of them) and a margin.
	k := 0
	for k < len(alpha) && math.Abs(alpha[k]) > cut {
		k++
	}
	k = min(len(alpha), k+max(8, k/4))
	o.k = k
	o.vecs = spectral.Grown(o.vecs, n*k)
	for c := 0; c < k; c++ {
		for i, v := range res.Vecs[c] {
			o.vecs[i*k+c] = v
		}
	}
	o.lam = append(o.lam[:0], res.Theta[:k]...)
	o.mu = spectral.Grown(o.mu, k)
	o.rot = spectral.Grown(o.rot, k*k)
	clear(o.rot)
	for i := 0; i < k; i++ {
		o.rot[i*k+i] = 1
	}
	o.sparse = false
	o.threshold(eta)
	o.next = o.t + int(math.Ceil(o.s.Refresh*math.Sqrt(float64(o.t))))
}

// ritzAlpha returns αᵢ = −ηₜθᵢ/2 for the Ritz values θ, in scratch space.
func (o *CCFMFTRL) ritzAlpha(theta []float64, eta float64) []float64 {
	o.ralpha = spectral.Grown(o.ralpha, len(theta))
	for i, th := range theta {
		o.ralpha[i] = -0.5 * eta * th
	}
	return o.ralpha
}

// l1Threshold returns the threshold of the ℓ₁-ball projection of alpha onto
// radius δ, sorting in scratch space.
func (o *CCFMFTRL) l1Threshold(alpha []float64) float64 {
	var theta float64
	theta, o.abs = spectral.L1BallThreshold(alpha, o.s.Delta, o.abs)
	return theta
}

// ftrlRoundoff is the floor of the cut in refresh, relative to the largest
// |α|: a Ritz value below it is roundoff of a zero eigenvalue. The cut is
// the ℓ₁-ball threshold θ while the ball binds. When it does not (the
// Ritz values found sum to at most δ, so θ = 0 and Π_K is the identity on
// them), a cut of 0 would count every roundoff-level Ritz value of Gₜ's
// null space as above it and ask it to converge to a residual of 0: the
// run would be lengthened to the whole dimension, and that many vectors
// held. A MovieLens pass meets this early: on the full ML-1M, Gₜ has rank
// 13 at round 9, when 9,199 features have been seen.
const ftrlRoundoff = 1e-12

// ftrlWeight is a fixed pseudo-random weight in [−1, 1] for column c of the
// warm start.
func ftrlWeight(c int) float64 {
	return math.Sin(float64(c)*2.399963 + 0.5)
}

// projectDense sets C = Π_K(−ηₜGₜ/2) by a full eigendecomposition of the
// dense matrix (the paper's cost model), in scratch space.
func (o *CCFMFTRL) projectDense(eta float64) {
	n := o.n
	o.dd = spectral.Grown(o.dd, n*n)
	d := o.dd
	clear(d)
	for p, v := range o.g.val {
		i, j := int(o.g.row[p]), int(o.g.col[p])
		d[i*n+j] = -0.5 * eta * v
		d[j*n+i] = -0.5 * eta * v
	}
	c := &o.dense
	c.vals = spectral.Grown(c.vals, n)
	spectral.SymEigenInPlace(d, n, c.vals[:n], &c.work)
	c.setEigenvectors(d, n, c.vals[:n], o.s.Delta)
}

// NuclearNorm returns ‖C‖* = Σ|λᵢ(C)| ≤ δ. While C = −ηGₜ/2 it runs
// Lanczos to exhaustion on G, O(n·m²) for G of rank m − 1.
func (o *CCFMFTRL) NuclearNorm() float64 {
	var s float64
	for _, v := range o.eigenvalues() {
		s += math.Abs(v)
	}
	return s
}

// Rank returns the rank of C (eigenvalues above 1e-12·δ in magnitude).
func (o *CCFMFTRL) Rank() int {
	return RankOf(o.eigenvalues(), 1e-12*o.s.Delta)
}

// eigenvalues returns the nonzero eigenvalues of C.
func (o *CCFMFTRL) eigenvalues() []float64 {
	switch {
	case o.s.DenseProjection:
		return o.dense.lam
	case !o.sparse:
		return o.mu
	case o.g.nnz() == 0:
		return nil
	}
	start := make([]float64, o.n)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range start {
		start[i] = r.NormFloat64()
	}
	res := spectral.Lanczos(ftrlOp{o}, start, o.n, o.n, o.n, 0)
	for i := range res.Theta {
		res.Theta[i] *= -0.5 * o.sparseEta
	}
	return res.Theta
}

// Dim returns the dimension of C, 1 + the number of features seen.
func (o *CCFMFTRL) Dim() int { return o.n }

// Rounds returns the number of rounds played so far.
func (o *CCFMFTRL) Rounds() int { return o.t }

// MemoryBytes estimates the bytes o holds (see Sized and CCFMFTRL's
// memory). With DenseProjection it counts the dense n×n matrix of the next
// projection even before it is allocated.
func (o *CCFMFTRL) MemoryBytes() int64 {
	dd := f64Bytes(o.dd)
	if o.s.DenseProjection {
		dd = max(dd, 8*int64(o.n)*int64(o.n))
	}
	return structBytes + o.g.memoryBytes() + o.lw.MemoryBytes() + o.dense.memoryBytes() + o.eig.MemoryBytes() + dd +
		sumF64Bytes(o.vecs, o.rot, o.lam, o.mu, o.a, o.z, o.alpha, o.abs, o.nu, o.vs, o.rot2, o.start, o.ralpha)
}

// MemoryNote says how many pairs G stores (see MemoryNoter).
func (o *CCFMFTRL) MemoryNote() string {
	return countText(int64(o.g.nnz())) + " stored pairs of its gradient sum"
}

func (o *CCFMFTRL) growsPerPair() bool { return true }

// MaxRowNonzeros returns the per-row limit of Guarded (see RowLimited and
// CCFMFTRLSettings.MaxRowNonzeros): 0 for none.
func (o *CCFMFTRL) MaxRowNonzeros() int { return max(o.s.MaxRowNonzeros, 0) }

var _ RowLimited = (*CCFMFTRL)(nil)

func (o *CCFMFTRL) stateCode(c *stateCodec) {
	s := o.s
	if c.dec {
		s.MaxRowNonzeros = DefaultMaxRowNonzeros // coded at the end, when not the default
	}
	c.float(&s.Delta)
	c.float(&s.Eta)
	codeEnum(c, &s.Loss, 2, "loss")
	c.uint64(&s.Seed)
	c.float(&s.Refresh)
	c.float(&s.Tol)
	c.bool(&s.Exact)
	c.bool(&s.DenseProjection)
	if !rebuild(c, o, s, NewCCFMFTRL, func(x *CCFMFTRL) CCFMFTRLSettings { return x.s }) {
		return
	}
	c.int(&o.t)
	c.int(&o.n)
	if c.violates(o.t >= 0 && o.n >= 1) {
		c.fail(str.Itoa(o.t) + " rounds, dimension " + str.Itoa(o.n))
	}
	if c.err != nil {
		return
	}
	c.accum(&o.g, o.n)
	c.float(&o.mass)
	c.bool(&o.sparse)
	c.float(&o.sparseEta)
	c.int(&o.k)
	c.floats(&o.vecs)
	c.floats(&o.rot)
	c.floats(&o.lam)
	c.floats(&o.mu)
	c.float(&o.theta)
	c.int(&o.next)
	k := o.k
	if c.violates(k >= 0 && len(o.lam) == k && len(o.mu) == k && len(o.rot) >= k*k) {
		c.fail(str.Itoa(k) + " held vectors with " + str.Itoa(len(o.lam)) + " values")
	}
	c.check(k == 0 || len(o.vecs)%k == 0 && len(o.vecs)/k <= o.n, "held vectors of the wrong size")
	c.eigSym(&o.dense)
	if c.dec && c.err == nil {
		rows := o.dense.n
		if k > 0 {
			rows = max(rows, len(o.vecs)/k)
		}
		if c.violates(o.n <= max(o.g.n, rows)+maxUnbackedDim) {
			c.fail("dimension " + str.Itoa(o.n))
		}
	}
	c.pcg(o.src)
	c.int(&o.refreshes)
	c.int(&o.matvecs)
	c.maxRowNonzeros(&o.s.MaxRowNonzeros)
}

// pairVisits counts the pair terms read or written (see pairCounter).
func (o *CCFMFTRL) pairVisits() int64 { return o.g.visits }

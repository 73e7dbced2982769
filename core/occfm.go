package core

import (
	"math"
	"math/rand/v2"

	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/internal/str"
	"github.com/occfm/occfm/core/spectral"
)

// OCCFM is the Online Compact Convexified Factorization Machine, the
// projection-free online learner of Algorithm 2:
//
//	C₁ = 0, G₀ = 0
//	for t = 1, 2, …:
//	    predict ŷₜ = ½x̂ₜᵀCₜx̂ₜ, receive yₜ, suffer fₜ(Cₜ) = ℓ(ŷₜ, yₜ)
//	    Gₜ = Gₜ₋₁ + ∇fₜ(Cₜ),  ∇fₜ(Cₜ) = ℓ'(ŷₜ, yₜ)·½x̂ₜx̂ₜᵀ
//	    Hₜ = −(ηGₜ + 2(Cₜ − C₁))                 (= −∇Fₜ(Cₜ))
//	    (λ, q) = eigenpair of Hₜ of largest |λ|
//	    Ĉₜ = δ·sign(λ)·qqᵀ                        (Theorem 1)
//	    Cₜ₊₁ = (1 − γₜ)Cₜ + γₜĈₜ
//
// C stays in K = {C symmetric, ‖C‖* ≤ δ} at every step, since it is a convex
// combination of points of K. When λ = 0 every point of K minimizes
// ⟨C, ∇Fₜ⟩ and OCCFM takes Ĉₜ = 0. C is kept in factored form (lowRankSym),
// G as a sparse accumulator, and the eigenpair is found matrix-free (see
// LMOMethod). An OCCFM is not safe for concurrent use.
//
// Memory (MemoryBytes): about 80 bytes per stored pair of G (more with the
// slices' slack: docs/data-formats.md, "Limits and memory"), and a row of
// nnz features adds up to (nnz+1)(nnz+2)/2 pairs, so Guarded refuses rows
// over MaxRowNonzeros (see DefaultMaxRowNonzeros); plus about 1.3 KB a
// feature on one-hot data (C's basis rows, up to MaxRank + Subspace
// columns, the certificate's n×k rows B₀ and E, and the Lanczos workspace
// of a few dozen vectors of length n).
type OCCFM struct {
	s    OCCFMSettings
	n    int         // dimension of C: 1 + number of features seen
	dim  int         // 1 + the largest feature index seen + 1 (see Dim)
	t    int         // rounds played
	feat []int32     // feature → its coordinate in x̂ (0: not seen yet)
	xi   data.Sparse // scratch: x in internal coordinates

	c  lowRankSym // C = U·M·Uᵀ; the first sk columns of U are S
	g  symAccum   // G
	k  int        // target size of S
	sk int        // current size of S
	tG []float64  // k×k: −η·SᵀGS

	interval, since int // refresh schedule of the accuracy guard

	// The certificate of the tracked LMO. In the basis [S, S⊥],
	// H = [[A, Bᵀ], [B, D]] with A = SᵀHS tracked exactly (see certified).
	//
	// The gradients since the refresh add (I−SSᵀ)E = E − S·F to B, with
	// E = Σ c·x̂aᵀ (n×k, sparse rows) and F = Σ c·aaᵀ = SᵀE. The k×k Gram
	// matrix K = BᵀB of that part of B is kept exact in O(nnz(x)·k²) per
	// step; the rest of B (C's decay outside S·S, the recompression, the
	// feature diagonal without self-interactions) is bounded in norm by xB.
	// D changes by Σ c·rrᵀ with r = (I−SSᵀ)x̂: its largest eigenvalue grows
	// by at most the sum of the positive c·‖r‖² (eDp) and by at most gb's
	// structured bound (see growthBound), its smallest falls by
	// at most the sum of the negative ones (eDn).
	restP    float64   // bound on λmax(D) when S was last set (Lanczos' estimate at a refresh)
	restN    float64   // bound on −λmin(D) when S was last set
	eDp, eDn float64   // growth bounds of λmax(D) and −λmin(D) since S was set
	xD, xB   float64   // bounds on the untracked changes of D and B
	drop     float64   // perturbation of H by the last recompression
	hr       []float64 // scratch: C·s
	b0, e    []float64 // n×k row-major: B₀ = (I−SSᵀ)HS at the refresh, and E
	f        []float64 // k×k: F
	kB       []float64 // k×k: K = BᵀB for B = B₀ + (I−SSᵀ)E
	bx       []float64 // scratch: Bᵀx̂
	cs       float64   // Π(1−γ) since the refresh: C's blocks outside S·S scale by it
	cBW, cDW float64   // ‖M_SW‖₂ and max(λmax(M_WW), 0) right after the refresh (see blockNorms)
	cDWn     float64   // max(−λmin(M_WW), 0)
	blk      []float64 // scratch of blockNorms
	blkVals  []float64
	blkWork  []float64

	rng   *rand.Rand
	noise []float64 // a fixed N(0, 1) draw per coordinate, for Lanczos starts
	lw    spectral.LanczosWork

	z     []float64 // scratch: Uᵀx̂
	start []float64 // scratch: Lanczos start
	v     []float64 // scratch: Ritz vector in S coordinates
	vals  []float64 // scratch: eigenvalues of k×k problems
	aS    []float64 // k×k scratch: A = SᵀHS, as ritz assembled it
	wk    []float64 // k×k scratch for jacobiEigen
	ev    []float64 // k×k scratch: eigenvectors

	phi       float64 // ⟨G, C⟩, for the line search, within phiErr
	phiErr    float64 // bound on |phi − ⟨G, C⟩| (see refresh)
	gBound    float64 // estimate of ‖G‖₂ at the last refresh, for phiErr
	lsBinds   bool    // the last step took γ* < γₜ
	lambda    float64 // last LMO eigenvalue
	refreshes int
	matvecs   int
	guardErr  float64 // largest relative |λ| error seen at a refresh

	gb growthBound // D's growth since the refresh (see certified)
	// oldCert marks a learner read from a model file written before gb
	// and the recompression relative to ‖C‖* (see occfmTail): it goes on
	// as it would have, with the recompression relative to δ and
	// without gb.
	oldCert bool

	tr *fwTrace // the last round's step, when TraceSteps is on
}

// occfmSpec registers OCCFM (see registry).
var occfmSpec = Spec{
	Name:      "occfm",
	Plain:     "The paper's learner: one matrix C of feature pairs, kept inside a budget δ; each row moves C a small step towards the best corner of the budget, found with one eigenvector.",
	Summary:   "Online Compact Convexified FM: projection-free Frank-Wolfe on ‖C‖* ≤ δ (Algorithm 2; γₜ capped by exact line search)",
	Takes:     TakesDelta | TakesEta | TakesGamma,
	New:       func(c Config) Learner { return NewOCCFM(OCCFMSettingsFor(c)) },
	Personal:  "occfm follows the whole stream: a new person's few ratings barely move it, so the list may not change (occfm-k adapts at once).",
	Guarantee: RegretGuarantee{0.75, "Theorem 3 (online Frank-Wolfe)"},
	Ball:      true,
	state:     func() stateCoder { return new(OCCFM) },
}

// NewOCCFM returns an OCCFM learner with C₁ = 0 and an empty feature space.
func NewOCCFM(s OCCFMSettings) *OCCFM {
	s = s.withDefaults()
	o := &OCCFM{s: s, rng: rand.New(rand.NewPCG(s.Seed, 0x0cc4))}
	o.k = s.Subspace
	o.tG = make([]float64, o.k*o.k)
	o.f = make([]float64, o.k*o.k)
	o.kB = make([]float64, o.k*o.k)
	o.aS = make([]float64, o.k*o.k)
	o.wk = make([]float64, o.k*o.k)
	o.ev = make([]float64, o.k*o.k)
	o.v = make([]float64, o.k)
	o.bx = make([]float64, o.k)
	o.vals = make([]float64, o.k)
	o.interval = 1
	o.grow(1)
	return o
}

// Settings returns the settings in use, with defaults filled in.
func (o *OCCFM) Settings() OCCFMSettings { return o.s }

// Config returns the effective common settings (δ, η, seed, and the task
// of the loss); it implements Configured.
func (o *OCCFM) Config() Config {
	task := data.Regression
	if o.s.Loss == Logistic {
		task = data.Classification
	}
	loss := o.s.Loss
	return Config{Task: task, Delta: o.s.Delta, Eta: o.s.Eta, Seed: o.s.Seed, Gamma: o.s.Gamma, Loss: &loss}
}

var _ Configured = (*OCCFM)(nil)
var _ Learner = (*OCCFM)(nil)

// grow extends the model to dimension n = 1 + number of features. New
// features have zero rows in C, G and S, so everything tracked stays exact.
func (o *OCCFM) grow(n int) {
	if n <= o.n {
		return
	}
	if o.b0 != nil {
		extendZeros(n*o.k, &o.b0, &o.e)
	}
	for len(o.noise) < n {
		o.noise = append(o.noise, o.rng.NormFloat64())
	}
	o.n = n
	o.c.grow(n)
}

// Predict returns ŷ = ½x̂ᵀCx̂ (minus ½Σⱼxⱼ²Cⱼⱼ without self-interactions)
// in O(nnz(x)·b + b²) for C of b basis columns. It does not change the
// learner's state.
func (o *OCCFM) Predict(x data.Sparse) float64 {
	if o.c.b == 0 {
		return 0
	}
	return o.predict(o.intern(x, false))
}

// intern returns x in internal coordinates: feature j of the caller is
// feature feat[j]−1 inside (coordinate feat[j] of x̂), numbered in order of
// first appearance, so that C, G and S only span the features seen so far
// and their cost grows with them, not with the largest index. With add,
// unseen features get the next coordinates (and the model grows); without,
// they are dropped (their rows of C are zero). The result is scratch
// memory, valid until the next call.
func (o *OCCFM) intern(x data.Sparse, add bool) data.Sparse {
	o.xi.Ind, o.xi.Val = o.xi.Ind[:0], o.xi.Val[:0]
	for p, j := range x.Ind {
		if j >= len(o.feat) {
			if !add {
				continue
			}
			o.feat = append(o.feat, make([]int32, j+1-len(o.feat))...)
		}
		c := o.feat[j]
		if c == 0 {
			if !add {
				continue
			}
			c = int32(o.n)
			o.feat[j] = c
			o.grow(o.n + 1)
		}
		o.xi.Ind = append(o.xi.Ind, int(c)-1)
		o.xi.Val = append(o.xi.Val, x.Val[p])
	}
	return o.xi
}

// predict is Predict for x in internal coordinates.
func (o *OCCFM) predict(x data.Sparse) float64 {
	if o.c.b == 0 {
		return 0
	}
	o.z = spectral.Grown(o.z, o.c.b)
	o.c.project(o.z, x)
	y := 0.5 * o.c.quad(o.z)
	if o.s.NoSelfInteractions {
		for k, j := range x.Ind {
			y -= 0.5 * x.Val[k] * x.Val[k] * o.c.diag(j+1)
		}
	}
	return y
}

// Update plays the learning half of round t of Algorithm 2 on (x, y).
func (o *OCCFM) Update(x data.Sparse, y float64) { o.learn(x, y, 0) }

// learn is Update for a model whose prediction is off + ½x̂ᵀCx̂: the loss's
// derivative is taken at that sum, so that C learns the part of y the
// offset leaves (OCCFMLin's linear part is the offset).
func (o *OCCFM) learn(x data.Sparse, y, off float64) {
	for _, j := range x.Ind {
		o.dim = max(o.dim, j+2)
	}
	xc := x
	x = o.intern(x, true)
	o.t++
	yhat := o.predict(x)
	if o.tr != nil {
		o.tr.traceRow(o, xc, off+yhat, y)
	}
	// ∇fₜ(Cₜ) = w·M with w = ℓ'(ŷ, y)/2 and M = x̂x̂ᵀ (or without the
	// feature diagonal).
	w := 0.5 * o.s.Loss.Deriv(off+yhat, y)
	if o.s.GradientSum == ThroughPrevious {
		o.step(x) // may change U: addGradient projects x̂ again
		o.addGradient(w, x, false, 0)
		return
	}
	o.addGradient(w, x, true, 2*yhat) // o.z = Uᵀx̂ from Predict, C unchanged since
	o.step(x)
}

// addGradient sets G = G + w·M, ⟨G, C⟩ += w·⟨M, C⟩ and
// SᵀHS += −ηw·SᵀMS, where SᵀMS = aaᵀ (− Σⱼ xⱼ²SⱼSⱼᵀ without
// self-interactions) with a = Sᵀx̂. When fresh is set, o.z already holds
// Uᵀx̂ for the current U and mc is ⟨M, C⟩ = 2ŷ.
func (o *OCCFM) addGradient(w float64, x data.Sparse, fresh bool, mc float64) {
	if w == 0 {
		return
	}
	if !fresh {
		mc = 2 * o.predict(x) // sets o.z = Uᵀx̂ when C ≠ 0
	}
	o.phi += w * mc
	o.g.addOuter(w, x, o.s.NoSelfInteractions)
	sk, k := o.sk, o.k
	if sk == 0 {
		return
	}
	c := -o.s.Eta * w
	a := o.z[:sk]
	// c·x̂x̂ᵀ changes B by c·r·aᵀ (tracked exactly in K by trackB) and D
	// by c·rrᵀ, r = (I−SSᵀ)x̂ with ‖r‖² = ‖x̂‖² − ‖Sᵀx̂‖² (S orthonormal):
	// one end of D's spectrum moves by at most |c|·‖r‖².
	xx := 1.0
	var dmax float64
	for _, v := range x.Val {
		xx += v * v
		dmax = max(dmax, v*v)
	}
	rr := max(xx-spectral.Dot(a, a), 0) // ‖r‖², r = (I−SSᵀ)x̂
	if c > 0 {
		o.eDp += c * rr
	} else {
		o.eDn -= c * rr
	}
	o.trackB(c, x, a, rr)
	if !o.oldCert {
		o.gb.add(c, x)
	}
	if o.s.NoSelfInteractions {
		// −c·diag(0; x∘x): bounded crudely, it is rarely used.
		o.xB += math.Abs(c) * dmax
		o.xD += math.Abs(c) * dmax
	}
	for i := 0; i < sk; i++ {
		spectral.Axpy(c*a[i], a, o.tG[i*k:i*k+sk])
	}
	if o.s.NoSelfInteractions {
		for p, j := range x.Ind {
			sj := o.c.urow(j + 1)[:sk]
			v2 := x.Val[p] * x.Val[p]
			for i := 0; i < sk; i++ {
				spectral.Axpy(-c*v2*sj[i], sj, o.tG[i*k:i*k+sk])
			}
		}
	}
}

// step solves the linear problem of round t and moves C (Algorithm 2
// lines 5–7).
func (o *OCCFM) step(x data.Sparse) {
	var check func(float64)
	if testLMOCheck != nil {
		check = testLMOCheck(o)
	}
	lambda, v := o.lmo(x)
	if check != nil {
		check(lambda)
	}
	o.lambda = lambda
	if o.tr != nil {
		o.tr.traceLMO(o, lambda, v)
	}
	gamma := o.gamma()
	var qgq float64 // qᵀGq = −vᵀ(−ηSᵀGS)v/η
	o.lsBinds = false
	if lambda != 0 {
		qgq = -spectral.QuadFormStride(o.tG, o.k, v) / o.s.Eta
		if !o.s.PaperStep {
			ls := o.lineSearch(lambda, v)
			if o.phiErr > 0 && ls.step(o.phi-o.phiErr) < gamma {
				// ⟨G, C⟩ is only known within phiErr and the line search
				// may decide the step: compute it exactly.
				o.phi, o.phiErr = o.innerGC(), 0
			}
			if g := ls.step(o.phi); g < gamma {
				gamma, o.lsBinds = g, true
			}
		}
	}
	o.c.scale(1 - gamma)
	o.cs *= 1 - gamma
	o.phi *= 1 - gamma
	o.phiErr *= 1 - gamma
	if lambda != 0 && gamma != 0 {
		a := gamma * o.s.Delta * math.Copysign(1, lambda)
		o.c.addLeading(a, v)
		o.phi += a * qgq
	}
	if o.tr != nil {
		o.tr.traceMix(gamma)
	}
}

// lineSearch returns, as a lineStep, the exact line-search step on Fₜ
// along the Frank-Wolfe direction Ĉ − C, Ĉ = δ·sign(λ)·qqᵀ with q = S·v:
//
//	γ* = ⟨−∇Fₜ(C), Ĉ − C⟩ / (2‖Ĉ − C‖²_F), clipped to [0, 1].
//
// Fₜ(C) = η⟨Gₜ, C⟩ + ‖C − C₁‖²_F is a quadratic with Hessian 2I, so
// Fₜ(C + γ(Ĉ − C)) = Fₜ(C) − γ·g + γ²‖Ĉ − C‖² exactly, g the Frank-Wolfe
// gap of the atom, and γ* minimizes it. The step min(γₜ, γ*) therefore
// lowers Fₜ at least as much as γₜ does: the one-step inequality
// Fₜ(Cₜ₊₁) ≤ Fₜ(Cₜ) − γₜ·g + γₜ²D² on which the online conditional
// gradient analysis rests (Hazan, "Introduction to Online Convex
// Optimization", §7.3; the paper's Theorem 3) still holds, and so does the
// regret bound. With C₁ = 0 the terms are: ⟨−∇F, Ĉ⟩ = δ|λ| (λ = qᵀHq, the
// Ritz value), ⟨−∇F, C⟩ = −η⟨G, C⟩ − 2‖C‖², ‖Ĉ‖² = δ², ⟨Ĉ, C⟩ =
// δ·sign(λ)·qᵀCq; ⟨G, C⟩ = φ is left to lineStep.step (γ* grows with it),
// so that step can try a bound on φ before the exact value. At C = 0,
// γ* = |λ|/(2δ): the first step moves C by ½|λ|·qqᵀ whatever δ is,
// instead of jumping to the vertex δ·qqᵀ.
func (o *OCCFM) lineSearch(lambda float64, v []float64) lineStep {
	b := o.c.b
	var cc float64 // ‖C‖² = ‖M‖²_F (U orthonormal)
	for _, m := range o.c.m[:b*b] {
		cc += m * m
	}
	d := o.s.Delta
	sgn := math.Copysign(1, lambda)
	qcq := spectral.QuadFormStride(o.c.m, b, v)
	return lineStep{hq: d * math.Abs(lambda), eta: o.s.Eta, cc2: 2 * cc, den: 2 * (d*d - 2*d*sgn*qcq + cc)}
}

// lineStep holds the parts of γ* that do not depend on φ = ⟨G, C⟩.
type lineStep struct{ hq, eta, cc2, den float64 }

// step returns γ* for ⟨G, C⟩ = phi: (δ|λ| + ηφ + 2‖C‖²)/den, in [0, 1].
func (l lineStep) step(phi float64) float64 {
	num := l.hq + l.eta*phi + l.cc2
	switch {
	case !(num > 0):
		return 0
	case !(l.den > num):
		return 1
	}
	return num / l.den
}

// testLMOCheck, when set (by tests only), is called with the learner just
// before each LMO, while H is as the LMO sees it, and returns a function
// that receives the eigenvalue the LMO chose.
var testLMOCheck func(o *OCCFM) func(lambda float64)

// gamma returns γₜ.
func (o *OCCFM) gamma() float64 {
	t := float64(o.t)
	switch o.s.Gamma {
	case Harmonic:
		return 2 / (t + 1)
	case Constant:
		return o.s.GammaConst
	}
	return 1 / math.Sqrt(t)
}

// NuclearNorm returns ‖C‖* = Σ|λᵢ(C)|.
func (o *OCCFM) NuclearNorm() float64 { return o.c.nuclearNorm() }

// Rank returns the number of eigenvalues of C with |λ| > 1e-12·δ.
func (o *OCCFM) Rank() int {
	return RankOf(o.Eigenvalues(), 1e-12*o.s.Delta)
}

// Eigenvalues returns the nonzero eigenvalues of C by decreasing |λ|.
func (o *OCCFM) Eigenvalues() []float64 {
	return o.c.eigenvalues()
}

// Dim returns the dimension of C in the caller's coordinates: 1 + the
// largest feature index seen + 1. (Inside, C only spans the features
// seen: see intern.)
func (o *OCCFM) Dim() int { return max(o.dim, 1) }

// Rounds returns the number of rounds played so far.
func (o *OCCFM) Rounds() int { return o.t }

// LMOStats reports the LMO's work: Lanczos refreshes, products with H, and
// the largest eigenvalue error the accuracy guard saw, as a fraction of
// the error allowed (see lmoTol).
func (o *OCCFM) LMOStats() (refreshes, matvecs int, guardErr float64) {
	return o.refreshes, o.matvecs, o.guardErr
}

// MemoryBytes estimates the bytes o holds (see Sized and OCCFM's memory):
// G's stored pairs dominate, then C's basis and S's certificate.
func (o *OCCFM) MemoryBytes() int64 {
	return structBytes + o.g.memoryBytes() + o.c.memoryBytes() + o.lw.MemoryBytes() + o.gb.memoryBytes() +
		i32Bytes(o.feat) + intBytes(o.xi.Ind) + f64Bytes(o.xi.Val) +
		sumF64Bytes(o.tG, o.hr, o.b0, o.e, o.f, o.kB, o.bx, o.noise, o.z, o.start, o.v, o.vals, o.aS, o.wk, o.ev, o.blk, o.blkVals, o.blkWork)
}

// MemoryNote says how many pairs G stores (see MemoryNoter).
func (o *OCCFM) MemoryNote() string {
	return countText(int64(o.g.nnz())) + " stored pairs of its gradient sum"
}

func (o *OCCFM) growsPerPair() bool { return true }

// MaxRowNonzeros returns the per-row limit of Guarded (see RowLimited and
// OCCFMSettings.MaxRowNonzeros): 0 for none.
func (o *OCCFM) MaxRowNonzeros() int { return max(o.s.MaxRowNonzeros, 0) }

var _ RowLimited = (*OCCFM)(nil)

// pairVisits counts the pair terms read or written (see pairCounter).
func (o *OCCFM) pairVisits() int64 { return o.g.visits }

// GradientSum says which gradients the accumulator Gₜ holds when OCCFM
// builds −∇Fₜ(Cₜ). The zero value is ThroughT.
type GradientSum int

const (
	// ThroughT sums ∇f₁ … ∇fₜ, including the current round's gradient, as
	// the paper's proofs do.
	ThroughT GradientSum = iota
	// ThroughPrevious sums ∇f₁ … ∇fₜ₋₁, as Algorithm 2 line 4 is printed.
	ThroughPrevious
)

// LMOMethod selects how OCCFM finds the eigenpair of −∇Fₜ(Cₜ) of largest
// |λ|. The zero value is LMOTracked.
type LMOMethod int

const (
	// LMOTracked keeps a small subspace S (n×k) of dominant eigenvectors of
	// H = −∇F and the k×k matrix SᵀHS up to date under the rank-one changes
	// of G and C (docs/algorithms.md), and takes q = S·v
	// from a Rayleigh-Ritz step on it. C is stored in a basis whose leading
	// columns are S, so a step costs O(nnz(x)·(b + k²) + b² + k³) for C of
	// b basis columns, independent of the dimension. A certificate (see
	// OCCFM.certified) checks at every step that the Ritz value is within
	// the error Frank-Wolfe allows at that step (OCCFM.lmoTol) of the true
	// largest |λ|; when it cannot, S is refreshed by a warm-started Lanczos
	// run, O(nnz(G) + n·b) per product. A periodic guard refreshes anyway
	// every so many certified steps and compares the two values: the
	// interval halves when they differ by more than the allowed error and
	// doubles, up to 1024 steps, when they agree within it (within a
	// quarter of it under the fixed RefreshTol rule of old model files).
	LMOTracked LMOMethod = iota
	// LMOLanczos runs a warm-started Lanczos solve (full reorthogonalization)
	// on every step: the reference, O(nnz(G)) or more per step.
	LMOLanczos
)

// OCCFMSettings configures NewOCCFM. The zero value is the documented
// default of every field.
type OCCFMSettings struct {
	// Delta is the nuclear-norm bound δ of K. Zero means 10, the paper's
	// value for MovieLens. Else it must lie in [MinDelta, MaxDelta]
	// (NewOCCFM panics): beyond, the step's arithmetic leaves float64's
	// range and C never moves, or its eigensolver fails.
	Delta float64
	// Eta is η, the weight of the gradient sum in Fₜ (Algorithm 2 line 4).
	// Zero means DefaultEtaFor(Loss, Delta). Else it must lie in [MinEta,
	// MaxEta] (NewOCCFM panics). The theory's choice η = D/(4G·T^¾) with D = 2δ
	// needs the horizon T and a gradient bound G; see TheoryEta.
	Eta float64
	// Gamma is the step-size schedule; the zero value is InvSqrt.
	Gamma Schedule
	// GammaConst is γ for the Constant schedule. Zero means 0.01.
	GammaConst float64
	// Loss is the loss ℓ(ŷ, y); the zero value is Squared.
	Loss Loss
	// GradientSum selects Gₜ or Gₜ₋₁ in −∇Fₜ; the zero value is ThroughT.
	GradientSum GradientSum
	// NoSelfInteractions drops the feature diagonal of Z from ŷ:
	// ŷ = ½⟨C, x̂x̂ᵀ − diag(0; x∘x)⟩. The default (false) is the paper's
	// all-pairs form ½x̂ᵀCx̂.
	NoSelfInteractions bool
	// RecompressTol is ε: whenever the LMO subspace is refreshed, C is
	// re-diagonalized and its eigenpairs of smallest |λ| with total at most
	// ε·‖C‖* are dropped (this only lowers ‖C‖*, so C stays in K; model
	// files written before the rule drop up to ε·δ, see dropRule). Zero means
	// 1e-3: on MovieLens-100K it is as accurate as 1e-6 and keeps C's basis,
	// and so each step's cost, small (docs/findings.md, "The recompression
	// tolerance").
	RecompressTol float64
	// PaperStep takes γₜ from the schedule alone, as the paper does (and
	// `occfm paper`). By default (false) the step is min(γₜ, γ*) with γ*
	// the exact line-search step on Fₜ along Ĉₜ − Cₜ (see OCCFM.lineSearch),
	// so that a large δ does not make the first steps jump to a vertex of
	// a huge ball.
	PaperStep bool
	// MaxRank caps the rank of C: whenever the LMO subspace is refreshed,
	// C's eigenpairs of smallest |λ| beyond MaxRank are dropped, like
	// RecompressTol's (this only lowers ‖C‖*, so C stays in K). It bounds
	// the per-row cost O(nnz(x)·b + b²) and a refresh's O(n·b²) at large δ,
	// where the line-search steps leave many atoms of similar weight and b
	// would otherwise keep growing (docs/findings.md, "The rank cap"). Zero
	// means DefaultMaxRank; negative means no cap.
	MaxRank int
	// LMO selects the eigen-solver; the zero value is LMOTracked.
	LMO LMOMethod
	// Subspace is the size k of the tracked subspace. Zero means 6.
	Subspace int
	// RefreshTol, when positive, is a fixed eigenvalue error the LMOTracked
	// certificate and guard allow, relative to max(|λ|, 2δ): the rule of
	// model files written before the LMO's accuracy was tied to γₜ (they
	// store 1e-3). Zero (the default) ties it to the step: see LMOSlack.
	RefreshTol float64
	// LMOSlack is κ in the LMO's allowed value gap εₜ = κ·γₜ·D², D = 2δ:
	// the atom Ĉ the LMO returns satisfies ⟨Ĉ, −∇Fₜ⟩ ≥ max_K ⟨·, −∇Fₜ⟩ − εₜ,
	// that is, its |λ| is within εₜ/δ = 4κγₜδ of the largest. Zero means
	// DefaultLMOSlack. See OCCFM.lmoTol for the bound and its source.
	LMOSlack float64
	// Seed seeds the small perturbation of Lanczos start vectors that keeps
	// both ends of the spectrum in reach. Zero means 1.
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
	// nnz·(nnz+1)/2 pairs in G, so one row of 5,000 would cost about 1 GB.
	// Zero means DefaultMaxRowNonzeros; negative means no limit. The
	// learner itself learns any row it is given.
	MaxRowNonzeros int
}

// DefaultEta is the default η of OCCFM at the default δ = 10 (see
// DefaultEtaFor). It was chosen on MovieLens-100K, IJCNN1 and a9a over
// several shuffles (docs/findings.md, "η at δ = 10").
const DefaultEta = 1

// DefaultEtaFor returns OCCFM's default η for a loss and δ: DefaultEta for
// the logistic loss at any δ and for the squared loss at δ ≤ 10; for the
// squared loss at a larger δ, 10/δ, but never below 0.1.
//
// Why the squared loss needs it: Fₜ(C) = η⟨Gₜ, C⟩ + ‖C‖² is minimized over
// the whole space at −ηGₜ/2, and once δ is large enough that the ball no
// longer binds, the line-search steps follow that point. Each row then
// moves it by −(η/2)(ŷ − y)·x̂x̂ᵀ, which changes the row's own prediction by
// −(η/4)‖x̂‖⁴·(ŷ − y): with η = 1 and a user and an item (‖x̂‖² = 3), 2.25
// times the residual, an overshoot that grows into an oscillation (on
// MovieLens-100K at δ = 100 the RMSE is far above δ = 10's, and the
// planted-regression demo diverges from δ = 300). At δ = 10 the ball binds
// and bounds every step, and η = 1 is best. The logistic loss has a bounded
// gradient and curvature, and η = 1 is best or near it at every δ measured.
// The floor 0.1 was chosen on MovieLens-100K and the ratings and
// planted-regression demos over δ = 30 to 10⁴: 0.1 or 0.03 was best at
// every δ ≥ 100, and 0.01 learned too slowly everywhere (docs/findings.md,
// "η above δ = 10, squared loss" and "OCCFM at every δ"). It is the η at
// which a row of ‖x̂‖² = 3 corrects
// about a quarter of its own residual; data of much larger ‖x̂‖ may need a
// smaller η, which the guard's advice then names.
func DefaultEtaFor(loss Loss, delta float64) float64 {
	if loss != Squared || delta <= 10 {
		return DefaultEta
	}
	return max(10/delta, 0.1)
}

// DefaultLMOSlack is the default κ of OCCFMSettings.LMOSlack.
const DefaultLMOSlack = 4

// DefaultMaxRank is the default of OCCFMSettings.MaxRank. It does not bind
// at the default δ = 10 on MovieLens-100K, IJCNN1 or a9a, where C's rank
// stays below it (docs/findings.md, "The rank cap").
const DefaultMaxRank = 16

// TheoryEta returns Theorem 3's learning rate η = D/(4G·T^¾) for D = 2δ,
// a bound G on the gradients' Frobenius norm and horizon T.
func TheoryEta(delta, g float64, t int) float64 {
	return 2 * delta / (4 * g * math.Pow(float64(t), 0.75))
}

func (s OCCFMSettings) withDefaults() OCCFMSettings {
	s.MaxRowNonzeros = zeroDefault(s.MaxRowNonzeros, DefaultMaxRowNonzeros, -1)
	if s.Delta == 0 {
		s.Delta = DefaultDelta
	}
	if s.Eta == 0 {
		s.Eta = DefaultEtaFor(s.Loss, s.Delta)
	}
	if s.GammaConst == 0 {
		s.GammaConst = 0.01
	}
	if s.RecompressTol == 0 {
		s.RecompressTol = 1e-3
	}
	if s.Subspace == 0 {
		s.Subspace = 6
	}
	if s.LMOSlack == 0 {
		s.LMOSlack = DefaultLMOSlack
	}
	s.MaxRank = zeroDefault(s.MaxRank, DefaultMaxRank, -1)
	if s.Seed == 0 {
		s.Seed = 1
	}
	if s.Delta < 0 || s.Eta < 0 || s.GammaConst < 0 || s.GammaConst > 1 || s.Subspace < 1 {
		panic("core: invalid OCCFMSettings")
	}
	if !inRange(s.Delta, MinDelta, MaxDelta) || !inRange(s.Eta, MinEta, MaxEta) {
		panic("core: invalid OCCFMSettings: δ = " + str.Ftoa(s.Delta) + ", η = " + str.Ftoa(s.Eta) + " (see MaxDelta)")
	}
	return s
}

// OCCFMSettingsFor maps the common registry Config onto OCCFM settings:
// δ, η, the seed, the γ schedule and the loss.
func OCCFMSettingsFor(c Config) OCCFMSettings {
	return OCCFMSettings{Delta: c.Delta, Eta: c.Eta, Loss: c.LossOf(), Seed: c.Seed, Gamma: c.Gamma}
}

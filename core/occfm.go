package core

import (
	"math"
	"math/rand/v2"
)

// Schedule is a step-size schedule γₜ for the Frank-Wolfe update
// Cₜ₊₁ = (1 − γₜ)Cₜ + γₜĈₜ. The zero value is InvSqrt.
type Schedule int

const (
	// InvSqrt is γₜ = 1/√t, the paper's choice (Algorithm 2, footnote 3).
	InvSqrt Schedule = iota
	// Harmonic is γₜ = 2/(t + 1), the classic batch Frank-Wolfe step.
	Harmonic
	// Constant is γₜ = OCCFMSettings.GammaConst.
	Constant
)

// String returns "1/sqrt(t)", "2/(t+1)" or "constant".
func (s Schedule) String() string {
	switch s {
	case InvSqrt:
		return "1/sqrt(t)"
	case Harmonic:
		return "2/(t+1)"
	case Constant:
		return "constant"
	}
	return "Schedule(?)"
}

// GradientSum says which gradients the accumulator Gₜ holds when OCCFM
// builds −∇Fₜ(Cₜ). The zero value is ThroughT.
type GradientSum int

const (
	// ThroughT sums ∇f₁ … ∇fₜ, including the current round's gradient, as
	// the paper's proofs do (DESIGN §2).
	ThroughT GradientSum = iota
	// ThroughPrevious sums ∇f₁ … ∇fₜ₋₁, as Algorithm 2 line 4 is printed.
	ThroughPrevious
)

// LMOMethod selects how OCCFM finds the eigenpair of −∇Fₜ(Cₜ) of largest
// |λ|. The zero value is LMOTracked.
type LMOMethod int

const (
	// LMOTracked keeps a small subspace S of dominant eigenvectors of
	// H = −∇F and the product H·S up to date under the rank-one changes of
	// G and C (DESIGN §2, "Faster than the textbook"), takes q from a
	// Rayleigh-Ritz step on S, and refreshes S with a warm-started Lanczos
	// run at intervals set by an accuracy guard: at each refresh the tracked
	// eigenvalue is compared with Lanczos', and the interval halves when they
	// differ by more than RefreshTol (relative) and doubles when they agree
	// well within it.
	LMOTracked LMOMethod = iota
	// LMOLanczos runs a warm-started Lanczos solve (full reorthogonalization)
	// on every step: the reference, O(nnz(G)) or more per step.
	LMOLanczos
)

// OCCFMSettings configures NewOCCFM. The zero value is the documented
// default of every field.
type OCCFMSettings struct {
	// Delta is the nuclear-norm bound δ of K. Zero means 10, the paper's
	// value for MovieLens.
	Delta float64
	// Eta is η, the weight of the gradient sum in Fₜ (Algorithm 2 line 4).
	// Zero means DefaultEta. The theory's choice η = D/(4G·T^¾) with D = 2δ
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
	// RecompressTol is ε: every RecompressEvery steps C is re-diagonalized
	// and its eigenpairs of smallest |λ| with total at most ε·δ are dropped
	// (this only lowers ‖C‖*). Zero means 1e-6.
	RecompressTol float64
	// RecompressEvery is the number of steps between recompressions. Zero
	// means 8.
	RecompressEvery int
	// LMO selects the eigen-solver; the zero value is LMOTracked.
	LMO LMOMethod
	// Subspace is the size k of the tracked subspace. Zero means 6.
	Subspace int
	// RefreshTol is the relative eigenvalue error the LMOTracked accuracy
	// guard aims for. Zero means 1e-4.
	RefreshTol float64
	// Seed seeds the small perturbation of Lanczos start vectors that keeps
	// both ends of the spectrum in reach. Zero means 1.
	Seed uint64
}

// DefaultEta is the default η of OCCFM (see OCCFMSettings.Eta). It was
// chosen on MovieLens-100K, IJCNN1 and a9a over several shuffles; the README
// records the measurements.
const DefaultEta = 0.1

// TheoryEta returns Theorem 3's learning rate η = D/(4G·T^¾) for D = 2δ,
// a bound G on the gradients' Frobenius norm and horizon T.
func TheoryEta(delta, g float64, t int) float64 {
	return 2 * delta / (4 * g * math.Pow(float64(t), 0.75))
}

func (s OCCFMSettings) withDefaults() OCCFMSettings {
	if s.Delta == 0 {
		s.Delta = 10
	}
	if s.Eta == 0 {
		s.Eta = DefaultEta
	}
	if s.GammaConst == 0 {
		s.GammaConst = 0.01
	}
	if s.RecompressTol == 0 {
		s.RecompressTol = 1e-6
	}
	if s.RecompressEvery == 0 {
		s.RecompressEvery = 8
	}
	if s.Subspace == 0 {
		s.Subspace = 6
	}
	if s.RefreshTol == 0 {
		s.RefreshTol = 1e-4
	}
	if s.Seed == 0 {
		s.Seed = 1
	}
	if s.Delta < 0 || s.Eta < 0 || s.GammaConst < 0 || s.GammaConst > 1 || s.Subspace < 1 {
		panic("core: invalid OCCFMSettings")
	}
	return s
}

// OCCFMSettingsFor maps the common registry Config onto OCCFM settings:
// δ, η, the seed, and the loss of the task.
func OCCFMSettingsFor(c Config) OCCFMSettings {
	return OCCFMSettings{Delta: c.Delta, Eta: c.Eta, Loss: c.Task.Loss(), Seed: c.Seed}
}

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
type OCCFM struct {
	s OCCFMSettings
	n int // dimension of C: 1 + number of features
	t int // rounds played

	c lowRankSym
	g symAccum

	tr  tracker
	rng *rand.Rand

	z []float64 // scratch for predictions
	q []float64 // scratch: LMO direction

	// Last LMO result and accuracy-guard statistics.
	lambda    float64
	refreshes int
	matvecs   int
	guardErr  float64 // largest relative eigenvalue error seen at a refresh
}

// NewOCCFM returns an OCCFM learner with C₁ = 0 and an empty feature space.
func NewOCCFM(s OCCFMSettings) *OCCFM {
	s = s.withDefaults()
	o := &OCCFM{s: s, rng: rand.New(rand.NewPCG(s.Seed, 0x0cc4))}
	o.tr.k = s.Subspace
	o.tr.interval = 1
	o.grow(1)
	return o
}

// Settings returns the settings in use, with defaults filled in.
func (o *OCCFM) Settings() OCCFMSettings { return o.s }

// grow extends the model to dimension n = 1 + number of features.
func (o *OCCFM) grow(n int) {
	if n <= o.n {
		return
	}
	o.n = n
	o.c.grow(n)
	o.tr.grow(n)
}

// Predict returns ŷ = ½x̂ᵀCx̂ (minus ½Σⱼxⱼ²Cⱼⱼ without self-interactions)
// in O(nnz(x)·r + r²) for rank r. It does not change the learner's state.
func (o *OCCFM) Predict(x Sparse) float64 {
	r := o.c.r
	if r == 0 {
		return 0
	}
	o.z = grown(o.z, r)
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
func (o *OCCFM) Update(x Sparse, y float64) {
	n := o.n
	for _, j := range x.Ind {
		n = max(n, j+2)
	}
	o.grow(n)
	o.t++
	yhat := o.Predict(x)
	// ∇fₜ(Cₜ) = w·M with w = ℓ'(ŷ, y)/2 and M = x̂x̂ᵀ (or without the
	// feature diagonal).
	w := 0.5 * o.s.Loss.Deriv(yhat, y)
	if o.s.GradientSum == ThroughPrevious {
		o.step(x)
		o.addGradient(w, x)
		return
	}
	o.addGradient(w, x)
	o.step(x)
}

// addGradient sets G = G + w·M and keeps the tracked products current.
func (o *OCCFM) addGradient(w float64, x Sparse) {
	if w == 0 {
		return
	}
	o.g.addOuter(w, x, o.s.NoSelfInteractions)
	o.tr.addGradient(-o.s.Eta*w, x, o.s.NoSelfInteractions)
}

// step solves the linear problem of round t and moves C (Algorithm 2
// lines 5–7).
func (o *OCCFM) step(x Sparse) {
	lambda, q := o.lmo(x)
	o.lambda = lambda
	gamma := o.gamma()
	o.c.scale(1 - gamma)
	o.tr.scaleC(1 - gamma)
	if lambda != 0 {
		w := gamma * o.s.Delta * math.Copysign(1, lambda)
		o.c.addRankOne(w, q)
		o.tr.addRankOneC(-2*w, q)
	}
	if o.t%o.s.RecompressEvery == 0 {
		o.c.compress(o.s.RecompressTol*o.s.Delta, o.s.Delta)
		o.tr.resetC(&o.c)
	}
}

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

// applyH sets y = H·v = −η·G·v − 2·C·v (C₁ = 0).
func (o *OCCFM) applyH(y, v []float64) {
	o.g.mulVec(y, -o.s.Eta, v)
	o.c.mulVec(y, -2, v)
}

type occfmH struct{ o *OCCFM }

func (h occfmH) dim() int             { return h.o.n }
func (h occfmH) apply(y, v []float64) { h.o.applyH(y, v) }

// lmo returns the eigenpair (λ, q) of H of largest |λ|, with q unit.
func (o *OCCFM) lmo(x Sparse) (float64, []float64) {
	tr := &o.tr
	o.q = grown(o.q, o.n)
	q := o.q
	if o.s.LMO == LMOLanczos || tr.size() < min(tr.k, o.n) || tr.due() {
		var before float64
		tracked := tr.size() > 0 && o.s.LMO == LMOTracked
		if tracked {
			before, _ = tr.ritz(q)
		}
		res := o.refresh(x)
		if tracked && res != 0 {
			// The LMO's objective is δ|λ| (⟨Ĉ, H⟩ for Ĉ = δ·sign(λ)·qqᵀ), so
			// the guard compares |λ|: when the two ends of the spectrum are
			// nearly equal either choice is as good.
			rel := math.Abs(math.Abs(before)-math.Abs(res)) / math.Abs(res)
			o.guardErr = math.Max(o.guardErr, rel)
			tr.adapt(rel, o.s.RefreshTol)
		}
	}
	lambda, _ := tr.ritz(q)
	if lambda == 0 {
		return 0, q
	}
	return lambda, q
}

// refresh rebuilds the tracked subspace from a Lanczos run warm-started at
// the current direction, perturbed slightly (and towards x̂) so that both
// ends of the spectrum stay in reach. It returns Lanczos' eigenvalue.
func (o *OCCFM) refresh(x Sparse) float64 {
	tr := &o.tr
	n := o.n
	start := make([]float64, n)
	if tr.size() > 0 {
		tr.ritz(start)
	}
	for i := range start {
		start[i] += 1e-3 * o.rng.NormFloat64() / math.Sqrt(float64(n))
	}
	start[0] += 1e-3
	for k, j := range x.Ind {
		if j+1 < n {
			start[j+1] += 1e-3 * x.Val[k]
		}
	}
	k := min(tr.k, n)
	res := lanczos(occfmH{o}, start, k, k+2, 40, 1e-6)
	o.refreshes++
	o.matvecs += res.iters
	tr.set(res.vecs, res.ay, &o.c, o.s.Eta, &o.g)
	if len(res.theta) == 0 {
		return 0
	}
	return res.theta[0]
}

// NuclearNorm returns ‖C‖* = Σ|λᵢ(C)|.
func (o *OCCFM) NuclearNorm() float64 { return o.c.nuclearNorm() }

// Rank returns the number of columns of the factor U (an upper bound on
// the rank of C; exact right after a recompression).
func (o *OCCFM) Rank() int { return o.c.r }

// Eigenvalues returns the nonzero eigenvalues of C by decreasing |λ|.
func (o *OCCFM) Eigenvalues() []float64 {
	v, _ := o.c.eigen()
	return v
}

// Dim returns the dimension of C, 1 + the number of features seen.
func (o *OCCFM) Dim() int { return o.n }

// Rounds returns the number of rounds played so far.
func (o *OCCFM) Rounds() int { return o.t }

// LMOStats reports the LMO's work: Lanczos refreshes, products with H, and
// the largest relative eigenvalue error the accuracy guard saw.
func (o *OCCFM) LMOStats() (refreshes, matvecs int, guardErr float64) {
	return o.refreshes, o.matvecs, o.guardErr
}

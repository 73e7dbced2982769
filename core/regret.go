package core

import (
	"errors"
	"math"

	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/internal/str"
)

// RegretSettings configures NewRegret. The zero value is the documented
// default of every field.
type RegretSettings struct {
	// Comparator sets K and the loss; it must match the learners'.
	Comparator ComparatorSettings
	// First is the first checkpoint T. Zero means 100, or Every when that
	// is set.
	First int
	// Growth is the ratio between successive checkpoints (geometric
	// spacing). Zero means 1.5. Ignored when Every is set.
	Growth float64
	// Every, when positive, places a checkpoint every Every rows instead.
	Every int
	// MaxRows caps the rows kept for the comparator (each costs about
	// 12·nnz + 24 bytes, plus 8 for its prediction). Zero means 1,000,000;
	// later checkpoints are dropped and Truncated reports it.
	MaxRows int
	// GapTol: a checkpoint is final when the comparator's gap is at most
	// GapTol times the smallest learner's cumulative loss. Zero means 2e-3.
	GapTol float64
	// MaxIters caps the Frank-Wolfe iterations spent on one checkpoint.
	// Zero means 400; a checkpoint that reaches it is final with its wider
	// band.
	MaxIters int
	// ZeroBest says that K holds a C of loss 0 on every row (a noise-free
	// planted stream whose C* has ‖C*‖* ≤ δ, demo.Spec.ZeroLossDelta): then
	// F* = 0 and regretᵢ(T) is the learner's cumulative loss, exactly, at
	// each checkpoint as soon as it is reached, with no comparator run and
	// no row kept.
	ZeroBest bool
}

// RegretPoint is a finished checkpoint: for each learner i,
// regretᵢ(T) = Σₜ≤T fₜ(Cₜ⁽ⁱ⁾) − F* lies in [RegretLo[i], RegretHi[i]].
type RegretPoint struct {
	T              int
	CumLoss        []float64 // Σₜ≤T fₜ(Cₜ) per learner
	ComparatorLoss float64   // F(Cₖ) ≥ F*, the best point found in K
	Gap            float64   // F(Cₖ) − lower bound: the band's width
	RegretLo       []float64 // CumLoss − F(Cₖ)
	RegretHi       []float64 // CumLoss − F(Cₖ) + Gap
	G              float64   // largest ‖∇fₜ‖_F seen through T
	Bound          float64   // Theorem 3: 12·D·G·T^¾ + D·G·T^¼ with D = 2δ
	Iters          int       // comparator iterations so far
}

// Regret follows the regret of one or more learners on the same stream
// against the comparator in hindsight, at checkpoints. Observe
// records each round; Solve does bounded comparator work for the oldest
// pending checkpoint, so a caller can interleave it with learning (the
// comparator may lag behind the stream).
type Regret struct {
	s        RegretSettings
	comp     *Comparator
	learners int
	t        int
	cum      []float64
	g        float64
	next     int // next checkpoint T
	queue    []data.Example
	pending  []RegretPoint // checkpoints waiting for the comparator
	spent    int           // iterations on the current pending checkpoint
	points   []RegretPoint
	full     bool
	left     int // rows left out: a feature or label beyond the guard's ±1e9
}

// MaxRegretGrowth bounds RegretSettings.Growth: a larger ratio leaves a
// checkpoint or two in a million rows, and past about 1e15 the next T no
// longer fits an int.
const MaxRegretGrowth = 100

// Check returns why s cannot place checkpoints, or nil: First and Every
// must be ≥ 0, Growth 0 (the default) or in (1, MaxRegretGrowth].
func (s RegretSettings) Check() error {
	switch {
	case s.First < 0:
		return errors.New("core: first regret checkpoint " + str.Itoa(s.First) + ": want T ≥ 0 (0: the default)")
	case s.Every < 0:
		return errors.New("core: regret checkpoint every " + str.Itoa(s.Every) + " rows: want N ≥ 0 (0: geometric spacing)")
	case s.Growth != 0 && !(s.Growth > 1 && s.Growth <= MaxRegretGrowth):
		return errors.New("core: regret checkpoint growth " + str.Ftoa(s.Growth) + ": want a ratio in (1, " + str.Itoa(MaxRegretGrowth) + "]")
	}
	return nil
}

// NewRegret returns a Regret for the given number of learners. It panics
// when s fails Check: callers check settings from users first.
func NewRegret(s RegretSettings, learners int) *Regret {
	if err := s.Check(); err != nil || learners < 1 {
		panic("core: invalid RegretSettings")
	}
	if s.First == 0 {
		s.First = 100
		if s.Every > 0 {
			s.First = s.Every
		}
	}
	if s.Growth == 0 {
		s.Growth = 1.5
	}
	if s.MaxRows == 0 {
		s.MaxRows = 1_000_000
	}
	if s.GapTol == 0 {
		s.GapTol = 2e-3
	}
	if s.MaxIters == 0 {
		s.MaxIters = 400
	}
	return &Regret{s: s, comp: NewComparator(s.Comparator), learners: learners,
		cum: make([]float64, learners), next: s.First}
}

// Observe records round t: the example (label in the task's form) and each
// learner's loss fₜ(Cₜ). It keeps a copy of the example.
//
// A row with a feature value or a label that is not finite or beyond ±1e9,
// or with more nonzeros than DefaultMaxRowNonzeros (1,000: the CCFM
// learners do not learn it, and the comparator's memory and time would
// follow its width: a row of 1.5 million features took it to 2.3 GB), is
// left out, for the learners and the comparator alike, and counted
// (LeftOut): a
// Guarded learner predicts such a row but does not learn from it, so its
// predictions on the other rows are those it would make on the stream
// without it, and the regret is that stream's. (The comparator's
// eigensolver could not take such values anyway.)
func (r *Regret) Observe(ex data.Example, losses []float64) {
	if len(losses) != r.learners {
		panic("core: Regret.Observe: wrong number of losses")
	}
	if r.full {
		return
	}
	if !(math.Abs(ex.Y) <= defaultMaxLabel) || len(ex.X.Ind) > DefaultMaxRowNonzeros {
		r.left++
		return
	}
	for _, v := range ex.X.Val {
		if !(math.Abs(v) <= defaultMaxFeature) {
			r.left++
			return
		}
	}
	r.t++
	xx := 1.0
	for _, v := range ex.X.Val {
		xx += v * v
	}
	for i, f := range losses {
		r.cum[i] += f
		// ‖∇fₜ‖_F = |ℓ'|·½‖x̂‖², and |ℓ'| follows from f: 2√f for the
		// squared loss, σ(−yŷ) = 1 − e^(−f) for the logistic.
		d := 2 * math.Sqrt(f)
		if r.s.Comparator.Loss == Logistic {
			d = -math.Expm1(-f)
		}
		r.g = max(r.g, d*0.5*xx)
	}
	if !r.s.ZeroBest {
		r.queue = append(r.queue, ex.Clone())
	}
	if r.t == r.next {
		r.pending = append(r.pending, RegretPoint{T: r.t, CumLoss: append([]float64(nil), r.cum...), G: r.g})
		r.zeroBest()
		if r.s.Every > 0 {
			r.next += r.s.Every
		} else {
			r.next = max(r.next+1, int(math.Ceil(float64(r.next)*r.s.Growth)))
		}
	}
	if r.t >= r.s.MaxRows {
		r.full = true
	}
}

// Checkpoint adds a checkpoint at the current round, unless there is one
// already (for the end of a stream).
func (r *Regret) Checkpoint() {
	last := 0
	if n := len(r.pending); n > 0 {
		last = r.pending[n-1].T
	} else if n := len(r.points); n > 0 {
		last = r.points[n-1].T
	}
	if r.t > last && !r.full {
		r.pending = append(r.pending, RegretPoint{T: r.t, CumLoss: append([]float64(nil), r.cum...), G: r.g})
		r.zeroBest()
	}
}

// zeroBest finishes the checkpoint just added when F* = 0 is known.
func (r *Regret) zeroBest() {
	if r.s.ZeroBest {
		r.finish(0, 0)
	}
}

// Solve runs at most iters comparator iterations on the oldest pending
// checkpoint and returns the iterations run. A checkpoint becomes a Point
// when its gap meets GapTol or it has used MaxIters.
func (r *Regret) Solve(iters int) int {
	ran := 0
	for ran < iters && len(r.pending) > 0 {
		p := &r.pending[0]
		if k := p.T - r.comp.Rows(); k > 0 {
			for _, ex := range r.queue[:k] {
				r.comp.Add(ex.X, ex.Y)
			}
			r.queue = r.queue[k:]
		}
		n := r.comp.Iterate(min(iters-ran, r.s.MaxIters-r.spent))
		ran += n
		r.spent += n
		lo, hi := r.comp.Bounds()
		minCum := p.CumLoss[0]
		for _, c := range p.CumLoss {
			minCum = min(minCum, c)
		}
		if hi-lo <= r.s.GapTol*minCum || r.spent >= r.s.MaxIters || n == 0 {
			r.finish(lo, hi)
		}
	}
	return ran
}

func (r *Regret) finish(lo, hi float64) {
	p := r.pending[0]
	r.pending = r.pending[1:]
	r.spent = 0
	p.ComparatorLoss, p.Gap, p.Iters = hi, hi-lo, r.comp.Iterations()
	if r.s.ZeroBest {
		p.ComparatorLoss, p.Gap, p.Iters = 0, 0, 0
	}
	d := 2 * r.s.Comparator.Delta
	if d == 0 {
		d = 20
	}
	T := float64(p.T)
	p.Bound = 12*d*p.G*math.Pow(T, 0.75) + d*p.G*math.Pow(T, 0.25)
	for _, c := range p.CumLoss {
		p.RegretLo = append(p.RegretLo, c-hi)
		p.RegretHi = append(p.RegretHi, c-lo)
	}
	r.points = append(r.points, p)
}

// Points returns the finished checkpoints, oldest first.
func (r *Regret) Points() []RegretPoint { return r.points }

// Delta returns the comparator's δ: the ball K of the best C in hindsight.
func (r *Regret) Delta() float64 { return r.comp.s.Delta }

// ZeroBest reports whether the best C's loss is known to be 0
// (RegretSettings.ZeroBest): the regret is then the cumulative loss.
func (r *Regret) ZeroBest() bool { return r.s.ZeroBest }

// Pending returns the number of checkpoints waiting for the comparator.
func (r *Regret) Pending() int { return len(r.pending) }

// LeftOut returns the number of rows Observe left out (see Observe).
func (r *Regret) LeftOut() int { return r.left }

// Truncated reports whether MaxRows was reached: rows after it take part
// in no checkpoint.
func (r *Regret) Truncated() bool { return r.full }

// Slope returns the least-squares slope of log(regret) against log(T)
// over the last n points for learner i, using the middle of each band and
// skipping non-positive regrets; NaN with fewer than two usable points.
// Sub-linear regret shows as a slope below 1 (Theorem 3 gives ¾).
func Slope(points []RegretPoint, i, n int) float64 {
	var xs, ys []float64
	for _, p := range points[max(0, len(points)-n):] {
		mid := 0.5 * (p.RegretLo[i] + p.RegretHi[i])
		if mid > 0 {
			xs = append(xs, math.Log(float64(p.T)))
			ys = append(ys, math.Log(mid))
		}
	}
	if len(xs) < 2 {
		return math.NaN()
	}
	var mx, my float64
	for k := range xs {
		mx += xs[k]
		my += ys[k]
	}
	mx /= float64(len(xs))
	my /= float64(len(xs))
	var sxy, sxx float64
	for k := range xs {
		sxy += (xs[k] - mx) * (ys[k] - my)
		sxx += (xs[k] - mx) * (xs[k] - mx)
	}
	return sxy / sxx
}

// DecadeSlope returns Slope over the points of the last decade of T
// (T ≥ T_last/10), and NaN until the points span a decade, from a point at
// T ≤ T_last/10 (at least 4 points): over less, the slope of a learner
// still far from its long run reads as linear or worse when the theorem
// speaks of T → ∞. It is NaN too when a regret of the decade is not
// positive: a log–log slope cannot describe it.
func DecadeSlope(points []RegretPoint, i int) float64 {
	n := len(points)
	if n < 4 {
		return math.NaN()
	}
	last := points[n-1].T
	from := n - 1
	for from > 0 && points[from].T*10 > last {
		from--
	}
	if points[from].T*10 > last || n-from < 4 {
		return math.NaN()
	}
	for _, p := range points[from:] {
		if !(p.RegretLo[i]+p.RegretHi[i] > 0) {
			return math.NaN()
		}
	}
	return Slope(points, i, n-from)
}

// MemoryBytes estimates the bytes r holds (see Sized): its comparator,
// the rows queued for it (about 64 bytes plus 16 a nonzero each, counted
// at 2 nonzeros) and its checkpoints.
func (r *Regret) MemoryBytes() int64 {
	return structBytes + r.comp.MemoryBytes() + 96*int64(cap(r.queue)) +
		int64(cap(r.points)+cap(r.pending))*(200+24*int64(r.learners))
}

package evaluate

import (
	"encoding/binary"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"time"

	"github.com/occfm/occfm/core"
	"github.com/occfm/occfm/core/data"
)

// Settings configures Protocol, the experimental protocol of the
// paper's §5.1: k-fold cross-validation, and for every fold several passes
// over the training folds in fresh random orders, predict-then-update. The
// zero value is one run of five-fold cross-validation with seed 1.
type Settings struct {
	// Runs is the number of random permutations of the training rows per
	// fold. Zero means 1; the paper uses 20.
	Runs int
	// Folds is k of k-fold cross-validation. Zero means 5, the paper's
	// value. One means no held-out fold: every run streams all rows.
	Folds int
	// FoldsRun is how many of the folds are played (the first ones). Zero
	// means all of them; the quick mode of `occfm paper` plays 1.
	FoldsRun int
	// Seed seeds the fold split and the permutations. Zero means 1.
	Seed uint64
	// TracePoints bounds the points of each pass's loss-versus-time trace.
	// Zero means 200.
	TracePoints int
	// Done, when not nil, returns a pass played before (a resumed run's),
	// which Protocol takes in place of playing it again when its Order is
	// the one the pass would have: the split and each run's permutation
	// depend only on Seed, so the passes left give what an uninterrupted
	// run would have given.
	Done func(run, fold int) (Pass, bool)
}

func (s Settings) withDefaults() Settings {
	if s.Runs == 0 {
		s.Runs = 1
	}
	if s.Folds == 0 {
		s.Folds = 5
	}
	if s.FoldsRun == 0 || s.FoldsRun > s.Folds {
		s.FoldsRun = s.Folds
	}
	if s.Seed == 0 {
		s.Seed = 1
	}
	if s.TracePoints == 0 {
		s.TracePoints = 200
	}
	if s.Runs < 0 || s.Folds < 1 || s.FoldsRun < 0 || s.TracePoints < 2 {
		panic("core: invalid Settings")
	}
	return s
}

// TracePoint is one point of a pass's efficiency curve (the paper's
// Figs. 1–2): after Rows training rows and Seconds of learning time, the
// progressive average loss was AvgLoss.
type TracePoint struct {
	Rows    int     `json:"rows"`
	Seconds float64 `json:"seconds"`
	AvgLoss float64 `json:"avg_loss"`
}

// Pass is one pass of the protocol: one permutation of one fold's training
// rows.
type Pass struct {
	Run, Fold int
	// Order fingerprints the rows of the pass: FNV-1a (64 bits) of the
	// training rows' indices in the order played, then of the held-out
	// rows' indices, each a little-endian uint32. Two passes with the same
	// Order saw the same rows in the same order.
	Order uint64
	// Progressive holds the predict-then-update metrics over the training
	// rows, each scored before the learner saw its label.
	Progressive core.Summary
	// HeldOut holds the metrics of the final model on the held-out fold
	// (predictions only, no updates). Its Rows is 0 when Folds is 1.
	HeldOut core.Summary
	// Seconds is the wall-clock time of the training pass (Predict and
	// Update of every row, not the metrics).
	Seconds float64
	// Trace is the loss-versus-time curve of the training pass.
	Trace []TracePoint
}

// Protocol plays the §5.1 protocol for one learner on rows, whose labels
// must already be in task's form. The rows are split into s.Folds folds by
// a seeded permutation; for each of the first s.FoldsRun folds and each of
// s.Runs runs, a fresh learner from newLearner streams the other folds'
// rows in a fresh seeded order (predict-then-update), then predicts the
// held-out fold. The loss of the metrics is loss. Protocol calls progress,
// when not nil, after each pass it plays (not after those s.Done gives).
// rows is not changed.
func Protocol(rows []data.Example, task data.Task, loss core.Loss, newLearner func() core.Learner, s Settings, progress func(Pass)) []Pass {
	s = s.withDefaults()
	n := len(rows)
	split := rand.New(rand.NewPCG(s.Seed, 0x5eed)).Perm(n)
	var passes []Pass
	order := make([]int, 0, n)
	for fold := range s.FoldsRun {
		lo, hi := 0, 0
		if s.Folds > 1 {
			lo, hi = fold*n/s.Folds, (fold+1)*n/s.Folds
		}
		for run := range s.Runs {
			order = append(order[:0], split[:lo]...)
			order = append(order, split[hi:]...)
			rng := rand.New(rand.NewPCG(s.Seed, uint64(1+run)))
			rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
			p := Pass{Run: run, Fold: fold, Order: orderHash(order, split[lo:hi])}
			if s.Done != nil {
				if q, ok := s.Done(run, fold); ok && q.Order == p.Order && q.Run == run && q.Fold == fold {
					passes = append(passes, q)
					continue
				}
			}
			l := newLearner()
			p.Progressive, p.Seconds, p.Trace = trainPass(l, rows, order, task, loss, s.TracePoints)
			if hi > lo {
				m := core.NewMetrics(task, loss)
				for _, i := range split[lo:hi] {
					m.Add(l.Predict(rows[i].X), rows[i].Y)
				}
				p.HeldOut = m.Summary()
			}
			if progress != nil {
				progress(p)
			}
			passes = append(passes, p)
		}
	}
	return passes
}

// orderHash returns FNV-1a (64 bits) of the indices of train, then of
// held, each as a little-endian uint32 (see Pass.Order).
func orderHash(train, held []int) uint64 {
	h := fnv.New64a()
	var buf [4]byte
	for _, part := range [][]int{train, held} {
		for _, i := range part {
			binary.LittleEndian.PutUint32(buf[:], uint32(i))
			h.Write(buf[:])
		}
	}
	return h.Sum64()
}

// trainPass plays rows[order] through l, each row a round of core.Play
// (predict, then update), and returns the progressive summary, the
// learning time and a trace of at most points points (evenly spaced in
// rows, always including the last row). Rows are played in blocks between
// trace points; only the rounds are on the clock, their scoring is not,
// as in the paper's efficiency figures.
func trainPass(l core.Learner, rows []data.Example, order []int, task data.Task, loss core.Loss, points int) (core.Summary, float64, []TracePoint) {
	m := core.NewMetrics(task, loss)
	every := max(1, (len(order)+points-2)/(points-1))
	trace := make([]TracePoint, 0, points)
	yhat := make([]float64, every)
	var spent time.Duration
	var sumLoss float64
	for lo := 0; lo < len(order); lo += every {
		block := order[lo:min(lo+every, len(order))]
		start := time.Now()
		for k, i := range block {
			yhat[k] = core.Play(l, rows[i], nil)
		}
		spent += time.Since(start)
		for k, i := range block {
			m.Add(yhat[k], rows[i].Y)
			sumLoss += loss.Value(yhat[k], rows[i].Y)
		}
		n := lo + len(block)
		trace = append(trace, TracePoint{Rows: n, Seconds: spent.Seconds(), AvgLoss: sumLoss / float64(n)})
	}
	return m.Summary(), spent.Seconds(), trace
}

// Stat is a mean and a sample standard deviation over passes.
type Stat struct {
	Mean float64 `json:"mean"`
	Std  float64 `json:"std"`
	N    int     `json:"n"`
}

// MeanStd returns the mean and the sample standard deviation (n − 1 in the
// denominator; 0 for a single value) of the finite values of xs.
func MeanStd(xs []float64) Stat {
	var s Stat
	var sum float64
	for _, x := range xs {
		if !math.IsNaN(x) && !math.IsInf(x, 0) {
			sum += x
			s.N++
		}
	}
	if s.N == 0 {
		return Stat{Mean: math.NaN(), Std: math.NaN()}
	}
	s.Mean = sum / float64(s.N)
	if s.N > 1 {
		var ss float64
		for _, x := range xs {
			if !math.IsNaN(x) && !math.IsInf(x, 0) {
				ss += (x - s.Mean) * (x - s.Mean)
			}
		}
		s.Std = math.Sqrt(ss / float64(s.N-1))
	}
	return s
}

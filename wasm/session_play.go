package main

import (
	"errors"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/occfm/occfm/core"
	"github.com/occfm/occfm/core/data"
)

// player is one learner racing on the session's rows.
type player struct {
	core.Player
	tally  tally        // the checkpoints' metrics, kept row by row
	sum    core.Summary // the last metrics.Summary(), from clock() sumAt
	sumAt  time.Duration
	summed bool
}

// tally keeps what a checkpoint shows, in O(1) a row, the way core.Metrics
// computes it (so the values are the same to the bit): core.Metrics.Summary
// costs O(rows) on a classification stream (the exact AUC), and a
// checkpoint can come every row.
type tally struct {
	rows    int
	errs    int
	sumLoss float64
	sumSq   float64
}

func (t *tally) add(yhat, y, loss float64) {
	if !(math.Abs(y) <= data.MaxMetricLabel) {
		return // left out, as core.Metrics leaves it out
	}
	t.rows++
	t.sumLoss += loss
	d := yhat - y
	t.sumSq += d * d
	if (yhat >= 0) != (y > 0) {
		t.errs++
	}
}

// metric returns the RMSE (regression) or the error rate (classification)
// and the average loss.
func (t *tally) metric(task data.Task) (m, avgLoss float64) {
	if t.rows == 0 {
		return 0, 0
	}
	n := float64(t.rows)
	if task == data.Classification {
		return float64(t.errs) / n, t.sumLoss / n
	}
	return math.Sqrt(t.sumSq / n), t.sumLoss / n
}

// prediction is a row of the latest-predictions table: the first
// describeFeatures features of the row, kept raw (described only when the
// table is drawn, at most 10 times a second, not for every row).
type prediction struct {
	ind  [describeFeatures]int
	val  [describeFeatures]float64
	nnz  int // all the row's features
	Yhat float64
	Y    float64
	Loss float64
}

// describeFeatures is how many features a prediction shows by name.
const describeFeatures = 4

// step learns at most maxRows rows (0: no limit) until the deadline and
// returns the number learned. The rows go through core.Run, the loop the
// command line plays them with, one row a batch: a row can cost from
// microseconds to milliseconds (a Lanczos refresh), so the deadline is
// checked after every row, on the clock the last learner read.
func (s *session) step(deadline time.Time, maxRows int) int {
	if s.state == "done" {
		// The comparator may still owe checkpoints.
		s.solveRegret(clock()+time.Until(deadline), false)
		return 0
	}
	if s.state == "error" {
		return 0
	}
	if s.file != nil && !s.open() {
		if s.state != "error" {
			s.state = "waiting"
		}
		return 0
	}
	s.state = "running"
	start := clock()
	end := start + time.Until(deadline)
	s.until = end
	if !s.taskSet {
		t, err := s.src.Choose(s.cfg.Task)
		if errors.Is(err, data.ErrAgain) {
			return 0 // waiting for bytes, or past the deadline
		}
		if err != nil {
			s.fail(err)
			return 0
		}
		s.setTask(t)
	}
	solving := s.reg != nil && s.reg.Pending() > 0
	if solving && s.regretCredit > 0 {
		// The comparator has earned time: the end of the slice, up to
		// half of it.
		s.until = end - min(s.regretCredit, (end-start)/2)
	}
	n, err := s.runner().Step(s.until, maxRows)
	timedOut := false
	switch {
	case err == nil:
		timedOut = maxRows <= 0 || n < maxRows
	case errors.Is(err, data.ErrAgain):
		// Waiting for bytes (s.state says so), or past the deadline while
		// skipping malformed rows.
		timedOut = s.state == "running"
	case err == io.EOF:
		s.state = "done"
		s.release()
		if err := s.src.AllSkipped(); err != nil {
			s.fail(err)
		}
	default:
		s.fail(err) // a malformed row under "stop", a read error, the memory budget
	}
	if solving {
		s.regretCredit = min(s.regretCredit+time.Duration(float64(clock()-start)*regretShare/(1-regretShare)), maxRegretCredit)
	}
	// Stopped by the clock, the comparator spends its credit; stopped by
	// maxRows or the stream, it may have the rest of the slice.
	s.solveRegret(end, timedOut)
	return n
}

// runner returns the session's core.Run, made for the current players on
// first use: rows from s.src, the comparator, the memory budget, and
// what the views record of each row (played).
func (s *session) runner() *core.Run {
	if s.run != nil {
		return s.run
	}
	ps := make([]*core.Player, len(s.players))
	for i, p := range s.players {
		ps[i] = &p.Player
	}
	var rest []core.MemoryPart
	if s.reg != nil {
		rest = append(rest, core.MemoryPart{Name: "regret comparator", Value: s.reg})
	}
	if s.stream != nil {
		rest = append(rest, core.MemoryPart{Name: "feature dictionaries", Value: s.stream})
	}
	var src data.ExampleSource = &s.src
	if s.cfg.Shuffle != 0 && s.file != nil {
		// Every row is read into memory (counted against the budget),
		// then played in -shuffle's seeded order.
		s.shuffled = &data.Shuffled{Source: src, Seed: s.cfg.Shuffle, Check: func(int64) error {
			return core.MemoryBudget{Limit: s.cfg.MaxMemory}.Check(
				core.MemoryPart{Name: "rows held to be shuffled", Value: &s.shuffled.Held},
				core.MemoryPart{Name: "feature dictionaries", Value: s.stream})
		}}
		src = s.shuffled
		rest = append(rest, core.MemoryPart{Name: "rows held to be shuffled", Value: &s.shuffled.Held})
	}
	budget := core.NewBudgetCheck(core.MemoryBudget{Limit: s.cfg.MaxMemory}, ps, rest...)
	budget.Every, budget.Wide = memoryEvery, wideRow
	s.run = &core.Run{
		Source:  src,
		Players: ps,
		Regret:  s.reg,
		Budget:  budget,
		Batch:   1,
		Clock:   clock,
		Row:     s.played,
	}
	return s.run
}

// memoryEvery and wideRow space the budget checks of a session (see
// core.BudgetCheck) and of a library learner (libLearner.play): every
// memoryEvery rows, and after any row of more than
// wideRow nonzeros, which adds at most wideRow² pairs to a learner's
// gradient sum (about 400 KB): the run passes the budget by at most a few
// MB before it is stopped.
const (
	memoryEvery = 16
	wideRow     = 64
)

// fileRows is the raw rows of a file session (data.Rows' Source): the
// stream's, read in the coroutine, which may have to wait for the page to
// feed more bytes (data.ErrAgain, state "waiting").
type fileRows struct{ s *session }

func (r fileRows) Next(ex *data.Example) error {
	s := r.s
	if !s.rd.resume() {
		s.state = "waiting"
		return data.ErrAgain
	}
	if s.rd.err != nil {
		return s.rd.err
	}
	// Copy into ex's own storage: the coroutine reads the next row into
	// s.ex.
	ex.X.Ind = append(ex.X.Ind[:0], s.ex.X.Ind...)
	ex.X.Val = append(ex.X.Val[:0], s.ex.X.Val...)
	ex.Y = s.ex.Y
	return nil
}

// Line is the line of the row read last, for messages.
func (r fileRows) Line() int { return r.s.stream.Line() }

// played records what the views show of a row every learner has played
// (core.Run's Row): the checkpoints' tallies, the features and labels seen,
// the latest predictions, the curves' checkpoints.
func (s *session) played(ex data.Example, yhat, loss []float64) {
	for i, p := range s.players {
		p.tally.add(yhat[i], ex.Y, loss[i])
	}
	if s.observe != nil {
		s.observe(ex)
	}
	s.countFeatures(ex.X)
	s.labels.add(ex.Y)
	if s.file != nil { // a demo's rows are random: only a file's order is told
		s.order.Observe(ex.Y)
	}
	s.rows++
	if len(s.players) > 0 {
		s.record(ex, yhat[min(s.follow, len(s.players)-1)])
	}
	if s.rows%s.spacing == 0 {
		s.checkpoint()
	}
}

// learnTime is the time the learners have spent in core.Play.
func (s *session) learnTime() time.Duration {
	var t time.Duration
	for _, p := range s.players {
		t += p.Elapsed
	}
	return t
}

// clockBase and clock are a cheap monotonic clock: time.Now reads the wall
// clock too, a second call into JS under wasm.
var clockBase = time.Now()

func clock() time.Duration { return time.Since(clockBase) }

// record keeps the row in the ring of latest predictions, without
// formatting anything (describe does that when the table is drawn).
func (s *session) record(ex data.Example, yhat float64) {
	if len(s.preds) < keepPredictions {
		s.preds = append(s.preds, prediction{})
	}
	if s.predNext >= len(s.preds) {
		s.predNext = 0
	}
	p := &s.preds[s.predNext]
	s.predNext++
	copy(p.ind[:], ex.X.Ind)
	copy(p.val[:], ex.X.Val)
	p.nnz = len(ex.X.Ind)
	p.Yhat, p.Y = yhat, ex.Y
	p.Loss = s.players[0].Metrics.Loss().Value(yhat, ex.Y)
}

// latest returns the i-th latest prediction (0: the newest); i must be
// below len(s.preds).
func (s *session) latest(i int) *prediction {
	k := s.predNext - 1 - i
	if k < 0 {
		k += len(s.preds)
	}
	return &s.preds[k]
}

// describe summarizes a prediction's features: up to four "name=value"
// entries.
func (s *session) describe(p *prediction) string {
	var b strings.Builder
	for k := range p.nnz {
		if k == describeFeatures {
			b.WriteString(" … (+" + strconv.Itoa(p.nnz-describeFeatures) + ")")
			break
		}
		if k > 0 {
			b.WriteString(", ")
		}
		j := p.ind[k]
		name := strconv.Itoa(j)
		if s.names != nil {
			name = s.names.FeatureName(j)
		}
		b.WriteString(name)
		if v := p.val[k]; v != 1 || !strings.Contains(name, "=") {
			b.WriteString(":" + strconv.FormatFloat(v, 'g', 3, 64))
		}
	}
	return b.String()
}

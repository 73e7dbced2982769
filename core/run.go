package core

import (
	"time"

	"github.com/occfm/occfm/core/data"
)

// Player is one learner of a run: its name, the learner, its progressive
// metrics (every row scored before it is learned) and the time it has spent
// in Play.
type Player struct {
	Name    string
	Learner Learner
	Metrics *Metrics
	Elapsed time.Duration
}

// Run is the one loop that plays rows through learners, for the command
// line and the page alike: every player plays every row, predict then
// update (Play), in the order Source gives them, and the run observes the
// regret and holds the memory budget as it goes. Learners never own the
// loop; the caller decides how long a Step lasts.
//
// Rows are played in batches of Batch rows: each player plays the whole
// batch under one reading of the clock, so that a learner that takes
// nanoseconds a row is not timed by a clock that takes as long. The page
// plays batches of one row, to keep within its deadline when a row costs
// milliseconds.
type Run struct {
	// Source yields the labelled rows (labels already in the task's
	// form), then io.EOF. Any other error ends the step; the rows before
	// it in its batch are played first.
	Source data.ExampleSource
	// Players are the learners, each with its metrics.
	Players []*Player
	// Regret, when not nil, observes every row with the players' losses.
	// Solving its checkpoints is the caller's (Regret.Solve), at its own
	// pace.
	Regret *Regret
	// Budget, when not nil, is checked after the rows of every player
	// (BudgetCheck: O(1) a row); a run over it stops with its error.
	Budget *BudgetCheck
	// Batch is the number of rows a batch holds. Zero means 256.
	Batch int
	// Clock returns the time since any fixed origin; nil means time.Now's
	// monotonic clock. The page passes a cheaper one.
	Clock func() time.Duration
	// Row, when not nil, is called after every row has been played by
	// every player, with the players' predictions and losses (valid until
	// it returns).
	Row func(ex data.Example, yhat, loss []float64)

	// Rows is the number of rows played so far.
	Rows int

	batch      []data.Example
	yhat, loss [][]float64   // [row][player]
	lastRow    int           // the rows of the batch played when the budget stopped it
	last       time.Duration // the clock's last reading
	start      time.Time
}

// defaultBatch is Run.Batch's default.
const defaultBatch = 256

// Step plays rows until maxRows rows have been played in this step (0: no
// limit), the clock reaches until (checked after each batch; 0: no
// deadline), or Source ends. It returns the rows it played and io.EOF when
// Source has ended, the source's error when it failed, or the budget's
// error; the rows of a batch before such an error are played and counted.
func (r *Run) Step(until time.Duration, maxRows int) (int, error) {
	r.init()
	played := 0
	for maxRows <= 0 || played < maxRows {
		n := len(r.batch)
		if maxRows > 0 {
			n = min(n, maxRows-played)
		}
		k, err := r.read(n)
		if perr := r.play(k); perr != nil {
			r.Rows += r.lastRow
			return played + r.lastRow, perr
		}
		played += k
		r.Rows += k
		if err != nil {
			return played, err
		}
		if until > 0 && r.last >= until {
			break
		}
	}
	return played, nil
}

// init makes the batch buffers on the first Step.
func (r *Run) init() {
	if r.batch != nil {
		return
	}
	size := r.Batch
	if size <= 0 {
		size = defaultBatch
	}
	r.batch = make([]data.Example, size)
	r.yhat = make([][]float64, size)
	r.loss = make([][]float64, size)
	for i := range size {
		r.yhat[i] = make([]float64, len(r.Players))
		r.loss[i] = make([]float64, len(r.Players))
	}
	if r.Clock == nil {
		r.start = time.Now()
	}
}

// now reads the clock.
func (r *Run) now() time.Duration {
	if r.Clock != nil {
		return r.Clock()
	}
	return time.Since(r.start)
}

// read fills the batch with up to n rows and returns how many, with the
// error that ended it early (io.EOF at the end of the source).
func (r *Run) read(n int) (int, error) {
	for k := range n {
		if err := r.Source.Next(&r.batch[k]); err != nil {
			return k, err
		}
	}
	return n, nil
}

// play plays the first n rows of the batch through every player, then
// observes them. The clock is read once before the batch and once after each
// player (the page's clock is a call into JS): player j's time runs from
// the previous reading to its own. Over the budget, it stops at once and
// returns the budget's error, with lastRow the rows of the batch played by
// the player stopped.
func (r *Run) play(n int) error {
	if n == 0 {
		return nil
	}
	observe := r.Regret != nil || r.Row != nil
	t := r.now()
	for j, p := range r.Players {
		r.Budget.start(j)
		var loss Loss
		if observe {
			loss = p.Metrics.Loss()
		}
		for i := range n {
			ex := r.batch[i]
			if !r.Budget.admits(j, ex) {
				r.last = r.now()
				p.Elapsed += r.last - t
				r.lastRow = i
				return r.Budget.Err()
			}
			yhat := Play(p.Learner, ex, p.Metrics)
			if observe {
				r.yhat[i][j] = yhat
				r.loss[i][j] = loss.Value(yhat, ex.Y)
			}
			if r.Budget.over(j, r.Rows+i+1, ex) {
				r.last = r.now()
				p.Elapsed += r.last - t
				r.lastRow = i
				return r.Budget.Err()
			}
		}
		r.last = r.now()
		p.Elapsed += r.last - t
		t = r.last
	}
	for i := range n {
		if r.Regret != nil {
			r.Regret.Observe(r.batch[i], r.loss[i])
		}
		if r.Row != nil {
			r.Row(r.batch[i], r.yhat[i], r.loss[i])
		}
	}
	return nil
}

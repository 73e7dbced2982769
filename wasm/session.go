package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/occfm/occfm/core"
)

// config is what the page's start() passes (see doc.go).
type config struct {
	Source   string            `json:"source"` // "demo" or "file"
	Demo     string            `json:"demo"`
	File     string            `json:"file"`
	Learners []string          `json:"learners"`
	Task     string            `json:"task"`   // auto, regression, classification
	Format   string            `json:"format"` // auto, libsvm, csv, movielens
	Roles    map[string]string `json:"roles"`
	Delta    float64           `json:"delta"`
	Eta      float64           `json:"eta"`
	Gamma    string            `json:"gamma"` // 1/sqrt(t), 2/(t+1), constant
	Loss     string            `json:"loss"`  // auto, squared, logistic
	Seed     uint64            `json:"seed"`
	// NoRegret turns the regret comparator off (it is on by default).
	NoRegret bool `json:"noRegret"`
	// RegretGrowth is the ratio between regret checkpoints (0: 1.5);
	// RegretEvery, when positive, spaces them every RegretEvery rows.
	RegretGrowth float64 `json:"regretGrowth"`
	RegretEvery  int     `json:"regretEvery"`
	// Clip is auto (on for ratings: the ratings demo or a MovieLens file),
	// on or off: regression predictions clipped to the label range seen
	// (core.GuardSettings.Clip).
	Clip string `json:"clip"`
	// OnDiverge is reset (the default: a diverged learner is reset up to 3
	// times, then paused) or pause (paused at once).
	OnDiverge string `json:"onDiverge"`
	// OnError is what a malformed row does: "stop" (or "") ends the
	// session with its error, "skip" passes over it and counts it.
	OnError string `json:"onError"`
	// MaxMemory is the memory budget in bytes of the learners, their
	// metrics, the comparator and the feature dictionaries
	// (core.MemoryBudget): 0 means core.DefaultMemoryLimit (512 MiB),
	// negative no limit. Past it the session stops with the budget's
	// message, as occfm run -max-memory does, before wasm memory runs out.
	MaxMemory int64 `json:"maxMemory"`
}

const (
	// aheadBytes is how much unread input the session asks the page for
	// (wanted): the page's feeder, which reads the file between the
	// learning slices, then keeps ahead of a fast learner instead of the
	// session waiting at every chunk. The feed buffer holds at most about
	// this plus a chunk.
	aheadBytes = 9 << 20
	// headBytes is how much of the file's start the session keeps for the
	// preview (and, for gzip, decompresses there).
	headBytes = 16 << 10
	// previewBytes and previewLines bound the preview's text.
	previewBytes = 4096
	previewLines = 6
	// guessRows is how many leading labels decide an "auto" task, as in
	// the CLI.
	guessRows = 1000
	// maxPoints bounds the stored checkpoints per session; when reached,
	// every other one is dropped and the spacing doubles.
	maxPoints = 2000
	// keepPredictions is the length of the latest-predictions table.
	keepPredictions = 12
	// regretRows caps the rows the page's regret comparator keeps (each
	// costs about 12·nnz + 32 bytes, and every Frank-Wolfe iteration passes
	// over all of them); later rows take part in no checkpoint.
	regretRows = 20000
	// regretShare is the share of each slice the comparator may take from
	// the learners when it has checkpoints to solve. It matters only at full
	// speed: a slice whose rows are learned early (a set speed, or the end of
	// the stream) leaves the comparator the rest of it. At full speed the
	// chart of regret lags, and catches up once the stream is done.
	regretShare = 0.15
	// maxRegretCredit caps the comparator's unspent credit.
	maxRegretCredit = 50 * time.Millisecond
)

// errStopped is what feedBuffer.Read returns once the session let its
// reader go (a reset, a new file, an error): the coroutine then unwinds.
var errStopped = errors.New("the session stopped reading this file")

// feedBuffer holds the bytes the page fed and the stream has not read yet.
// It is the io.Reader of the file's core.Stream, which runs in a coroutine
// (reader.go): when it has no bytes and the file is not finished, Read
// calls wait, which suspends the coroutine until the page fed more, and
// then goes on; the stream never sees the page's chunking.
type feedBuffer struct {
	data   []byte
	off    int
	closed bool
	// wait suspends the reading coroutine ("waiting" for the session) and
	// reports whether to go on (false: the session stopped reading).
	wait func() bool
	head []byte // the first headBytes fed, for the preview
}

func (b *feedBuffer) Read(p []byte) (int, error) {
	for b.off == len(b.data) {
		b.data, b.off = b.data[:0], 0 // all read: the next chunk starts at 0
		if b.closed {
			return 0, io.EOF
		}
		if b.wait == nil || !b.wait() {
			return 0, errStopped
		}
	}
	n := copy(p, b.data[b.off:])
	b.off += n
	return n, nil
}

// write appends a chunk, first compacting what was read when the chunk
// would not fit otherwise: the buffer grows only when its unread bytes and
// the chunk need more room, so it stays near aheadBytes plus a chunk
// however long the file is.
func (b *feedBuffer) write(p []byte) {
	if len(b.head) < headBytes {
		b.head = append(b.head, p[:min(len(p), headBytes-len(b.head))]...)
	}
	if b.off > 0 && len(b.data)+len(p) > cap(b.data) {
		n := copy(b.data, b.data[b.off:])
		b.data = b.data[:n]
		b.off = 0
	}
	if n := len(b.data) + len(p); n > cap(b.data) {
		// Doubling, but not past what the page feeds: aheadBytes wanted
		// and the chunk that crosses it.
		grown := make([]byte, len(b.data), max(n, min(2*cap(b.data), aheadBytes+len(p))))
		copy(grown, b.data)
		b.data = grown
	}
	b.data = append(b.data, p...)
}

func (b *feedBuffer) buffered() int { return len(b.data) - b.off }

// player is one learner racing on the session's rows.
type player struct {
	name    string
	learner core.Learner
	metrics *core.Metrics
	elapsed time.Duration
	tally   tally        // the checkpoints' metrics, kept row by row
	sum     core.Summary // the last metrics.Summary(), from clock() sumAt
	sumAt   time.Duration
	summed  bool
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
	if !(math.Abs(y) <= core.MaxMetricLabel) {
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
func (t *tally) metric(task core.Task) (m, avgLoss float64) {
	if t.rows == 0 {
		return 0, 0
	}
	n := float64(t.rows)
	if task == core.Classification {
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

// pendingRow is a row read ahead to guess the task, with its line.
type pendingRow struct {
	ex   core.Example
	line int
}

// namer names features for the predictions table.
type namer interface{ FeatureName(i int) string }

// session is one learning run on a demo or a file: the source, the racing
// learners, the checkpoints for the curves and the latest predictions. It
// never blocks: step learns what the buffered input allows and returns.
type session struct {
	cfg    config
	source core.ExampleSource
	names  namer
	file   *feedBuffer // nil for demos
	rd     *reader     // the file's stream in its coroutine (reader.go), nil for demos
	stream *core.Stream
	known  string

	task    core.Task
	taskSet bool
	players []*player
	pending []pendingRow // rows read to guess the task, to play first
	ex      core.Example

	bad         core.BadRows // the OnError policy and the rows it skipped
	reasonsSent int          // bad.First already in a snapshot
	badRow      bool         // the error is a malformed row

	rows     int
	state    string // waiting, running, done, error
	err      string
	deferred string // an error met while guessing the task, after the pending rows
	elapsed  time.Duration

	points    [][]float64 // stored checkpoints
	sent      int         // points already in a snapshot
	spacing   int
	decimated bool
	preview   *preview
	memParts  []core.MemoryPart // what memoryBudget checks, listed at its first call

	// warningsSent is how many warnings the page has (the preview's, then
	// the snapshots').
	warningsSent int
	preds        []prediction // ring of at most keepPredictions, the newest at predNext-1
	predNext     int

	reg *core.Regret // nil when off
	// regretCredit is the time the comparator has earned (regretShare of
	// the learners' time while it had work) and not yet spent.
	regretCredit time.Duration
	losses       []float64 // scratch: this round's loss per learner
	regSent      int       // regret points already in a snapshot
	delta        float64   // δ in effect for the first learner, 0 for none (occfm-auto)

	config core.Config // the learners' common settings (setTask)
	base   *core.Model // the loaded model the first learner continues, or nil (model.go)

	// observe, when set, sees every row learned (the Personalize view
	// counts the items' ratings: personalize.go).
	observe func(core.Example)
}

type preview struct {
	Format  string          `json:"format"`
	Layout  string          `json:"layout"`
	Lines   []string        `json:"lines"`
	Columns []previewColumn `json:"columns,omitempty"`
	// Warnings is what the reader guessed or read past that the person
	// should know (see session.warnings).
	Warnings []string `json:"warnings"`
	sent     bool
}

type previewColumn struct {
	Name string `json:"name"`
	Role string `json:"role"`
}

var roleNames = map[core.Role]string{
	core.RoleLabel: "label", core.RoleCategorical: "categorical",
	core.RoleNumeric: "numeric", core.RoleIgnore: "ignore",
}

// newSession checks cfg and starts a session; a file session then waits
// for feed.
func newSession(cfg config) (*session, error) {
	if len(cfg.Learners) == 0 {
		cfg.Learners = []string{core.DefaultLearner}
	}
	if cfg.RegretGrowth != 0 && !(cfg.RegretGrowth > 1) || cfg.RegretEvery < 0 {
		return nil, fmt.Errorf("regret checkpoints: growth %v must be > 1 and every %d ≥ 0", cfg.RegretGrowth, cfg.RegretEvery)
	}
	s := &session{cfg: cfg, state: "waiting", spacing: 1}
	policy, err := core.ParseOnError(cfg.OnError)
	if err != nil {
		return nil, err
	}
	s.bad.Policy = policy
	for _, name := range cfg.Learners {
		if _, err := core.NewLearner(name, core.Config{}); err != nil {
			return nil, err
		}
	}
	switch cfg.Clip {
	case "", "auto", "on", "off":
	default:
		return nil, fmt.Errorf("clip %q: want auto, on or off", cfg.Clip)
	}
	switch cfg.OnDiverge {
	case "", "reset", "pause":
	default:
		return nil, fmt.Errorf("on divergence %q: want reset or pause", cfg.OnDiverge)
	}
	switch cfg.Task {
	case "", "auto":
	default:
		t, err := core.ParseTask(cfg.Task)
		if err != nil {
			return nil, err
		}
		s.setTask(t)
	}
	switch cfg.Source {
	case "demo":
		d, ok := core.DemoByName(cfg.Demo)
		if !ok {
			return nil, fmt.Errorf("unknown demo %q", cfg.Demo)
		}
		ds := d.New(max(cfg.Seed, 1))
		s.source, s.names, s.known = ds, ds, d.Known
		if !s.taskSet {
			s.setTask(d.Task)
		}
		s.state = "running"
	case "file":
		s.file = &feedBuffer{}
	default:
		return nil, fmt.Errorf("unknown source %q (want demo or file)", cfg.Source)
	}
	return s, nil
}

// setTask fixes the task and creates the learners for it.
func (s *session) setTask(t core.Task) {
	s.task, s.taskSet = t, true
	c := core.Config{Task: t, Delta: s.cfg.Delta, Eta: s.cfg.Eta, Seed: s.cfg.Seed}
	switch s.cfg.Gamma {
	case "2/(t+1)":
		c.Gamma = core.Harmonic
	case "constant":
		c.Gamma = core.Constant
	}
	switch s.cfg.Loss {
	case "squared":
		l := core.Squared
		c.Loss = &l
	case "logistic":
		l := core.Logistic
		c.Loss = &l
	}
	s.players = s.players[:0]
	s.memParts = nil // listed again at the next check
	guard := s.guardSettings(t)
	for _, name := range s.cfg.Learners {
		l, _ := core.NewGuarded(name, c, guard) // names were checked in newSession
		s.players = append(s.players, &player{name: name, learner: l, metrics: core.NewMetrics(t, c.LossOf())})
	}
	s.config = c
	s.delta = c.Delta
	if cf, ok := s.players[0].learner.(core.Configured); ok {
		s.delta = cf.Config().Delta
	}
	if !s.cfg.NoRegret {
		s.reg = core.NewRegret(core.RegretSettings{
			Comparator: core.ComparatorSettings{Delta: s.delta, Loss: c.LossOf(), CorrectWork: 2e6},
			MaxRows:    regretRows, Growth: s.cfg.RegretGrowth, Every: s.cfg.RegretEvery,
		}, len(s.players))
	}
}

// feed appends a chunk of the file.
func (s *session) feed(p []byte) {
	if s.file != nil && !s.file.closed && s.state != "error" && s.state != "done" {
		s.file.write(p)
	}
}

// end marks the file complete: a Read past the last byte is io.EOF.
func (s *session) end() {
	if s.file != nil {
		s.file.closed = true
	}
}

// release lets the file's reading coroutine go (reset, a new file, an error,
// the end). The stream stays readable for the views (names, layout, Dim).
func (s *session) release() {
	if s.rd != nil {
		s.rd.stop()
	}
}

// wanted returns how many more bytes the session would like buffered.
func (s *session) wanted() int {
	if s.file == nil || s.file.closed || s.state == "done" || s.state == "error" {
		return 0
	}
	return max(0, aheadBytes-s.file.buffered())
}

func (s *session) fail(err error) {
	s.release()
	s.state, s.err = "error", err.Error()
	var pe *core.ParseError
	s.badRow = errors.As(err, &pe)
}

// open starts the file's reading coroutine and returns true once its
// core.NewStream has returned (false: waiting for bytes, or an error).
func (s *session) open() bool {
	if s.stream != nil {
		return true
	}
	if s.rd == nil {
		s.rd = startReader(s.file, s.readerSettings(), &s.ex)
	}
	if !s.rd.resume() {
		return false
	}
	if s.rd.err != nil {
		s.fail(s.rd.err)
		return false
	}
	st := s.rd.stream
	s.stream, s.source, s.names = st, st, st
	p := &preview{Format: string(st.Format()), Layout: st.Layout(), Lines: headLines(s.file.head), Warnings: []string{}}
	for _, c := range st.Columns() {
		p.Columns = append(p.Columns, previewColumn{Name: c.Name, Role: roleNames[c.Role]})
	}
	p.Warnings = s.warnings()
	s.warningsSent = len(p.Warnings)
	s.preview = p
	if !s.taskSet && st.Format() == core.FormatMovieLens {
		s.setTask(core.Regression)
	}
	return true
}

// readerSettings are the file's core.ReaderSettings: the config's format
// and column roles, and the loaded model's feature numbering.
func (s *session) readerSettings() core.ReaderSettings {
	set := core.ReaderSettings{Name: s.cfg.File, Format: core.Format(s.cfg.Format)}
	if s.cfg.Format == "" {
		set.Format = core.FormatAuto
	}
	if len(s.cfg.Roles) > 0 {
		set.Roles = map[string]core.Role{}
		for col, r := range s.cfg.Roles {
			role := core.RoleGuess
			for k, v := range roleNames {
				if v == r {
					role = k
				}
			}
			set.Roles[col] = role
		}
	}
	if s.base != nil {
		set.Vocabulary = s.base.Vocabulary
	}
	return set
}

// warnings returns what the reader noticed and read past (the stream's
// Warnings: UTF-16, decimal commas, a header of numbers, a .gz name on
// plain bytes), then the first rows with a huge label.
func (s *session) warnings() []string {
	out := []string{}
	if s.stream != nil {
		out = append(out, s.stream.Warnings()...)
	}
	// Rows with a huge label, with their line, as the CLI's report lists
	// them (core.BadRows.HugeFirst).
	return append(out, s.bad.HugeFirst...)
}

// The outcomes of next.
const (
	rowRead    = iota // s.ex holds the next row
	rowSkipped        // a malformed row, skipped (and counted) by s.bad
	rowNone           // the session must stop for now: waiting, done or error
)

// next reads the next raw row into s.ex. A malformed row is skipped under
// the skip policy, and ends the session under stop.
func (s *session) next() int {
	var err error
	if s.rd != nil {
		if !s.rd.resume() {
			s.state = "waiting"
			return rowNone
		}
		err = s.rd.err
	} else {
		err = s.source.Next(&s.ex)
	}
	switch {
	case err == nil:
		return rowRead
	case s.bad.Skip(err):
		return rowSkipped
	case err == io.EOF:
		s.state = "done"
		s.release()
		if err := s.bad.AllSkipped(s.rows + len(s.pending)); err != nil {
			s.fail(err)
		}
	default:
		s.fail(err)
	}
	return rowNone
}

// skipCheck is how many skipped rows pass between two readings of the
// clock: a file of malformed rows must not hold a slice past its deadline.
const skipCheck = 32

// step learns at most maxRows rows (0: no limit) until the deadline and
// returns the number learned.
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
	if !s.taskSet && !s.guessTask(deadline) {
		return 0
	}
	n, skipped := 0, 0
	start := clock()
	end := start + time.Until(deadline)
	now, learnUntil := start, end
	solving := s.reg != nil && s.reg.Pending() > 0
	if solving && s.regretCredit > 0 {
		// The comparator has earned time: the end of the slice, up to
		// half of it.
		learnUntil = end - min(s.regretCredit, (end-start)/2)
	}
	timedOut := false
	for maxRows <= 0 || n < maxRows {
		// Rows can cost from microseconds to milliseconds (a Lanczos
		// refresh), so the deadline is checked before every row, on the
		// clock the last learner read.
		if (n > 0 || skipped > 0) && now >= learnUntil {
			timedOut = true
			break
		}
		var ex core.Example
		var line int
		if len(s.pending) > 0 {
			ex, line = s.pending[0].ex, s.pending[0].line
			s.pending = s.pending[1:]
		} else if s.deferred != "" {
			s.state, s.err, s.deferred = "error", s.deferred, ""
			break
		} else {
			r := s.next()
			if r == rowNone {
				break
			}
			if r == rowSkipped {
				if skipped++; skipped%skipCheck == 0 {
					now = clock()
				}
				continue
			}
			ex, line = s.ex, s.lineOf()
		}
		y, err := s.bad.Label(s.task, s.cfg.File, line, ex.Y)
		if s.bad.Skip(err) {
			skipped++
			continue
		}
		if err != nil {
			s.fail(err)
			break
		}
		now = s.play(core.Example{X: ex.X, Y: y}, clock())
		n++
		if s.state == "error" {
			break // over the memory budget
		}
	}
	if solving {
		s.regretCredit = min(s.regretCredit+time.Duration(float64(now-start)*regretShare/(1-regretShare)), maxRegretCredit)
	}
	// Stopped by the clock, the comparator spends its credit; stopped by
	// maxRows or the stream, it may have the rest of the slice.
	s.solveRegret(end, timedOut)
	return n
}

func (s *session) lineOf() int {
	if s.stream != nil {
		return s.stream.Line()
	}
	return s.rows + 1
}

// solveRegret gives the comparator Frank-Wolfe iterations, one at a time,
// until end (on clock) and, when budgeted, while it has credit (each
// iteration is paid from it); at the end of the stream it adds a final
// checkpoint.
func (s *session) solveRegret(end time.Duration, budgeted bool) {
	if s.reg == nil {
		return
	}
	if s.state == "done" {
		s.reg.Checkpoint()
	}
	for s.reg.Pending() > 0 {
		t := clock()
		if t >= end || budgeted && s.regretCredit <= 0 {
			break
		}
		s.reg.Solve(1)
		if budgeted {
			s.regretCredit -= clock() - t
		}
	}
}

// guessTask reads up to guessRows rows and picks the task from their
// labels with core.GuessTask, as the CLI does; the rows are played first.
// Past the deadline it returns false, to go on in the next slice.
func (s *session) guessTask(deadline time.Time) bool {
	for reads := 1; len(s.pending) < guessRows; reads++ {
		if reads%skipCheck == 0 && time.Now().After(deadline) {
			return false
		}
		r := s.next()
		if r == rowSkipped {
			continue
		}
		if r == rowNone {
			if s.state == "error" && len(s.pending) > 0 {
				// Learn the rows before the error first: it comes after
				// them.
				s.deferred, s.err = s.err, ""
			} else if s.state != "done" {
				return false
			}
			s.state = "running"
			break
		}
		s.pending = append(s.pending, pendingRow{ex: s.ex.Clone(), line: s.lineOf()})
	}
	labels := make([]float64, len(s.pending))
	for i, p := range s.pending {
		labels[i] = p.ex.Y
	}
	s.setTask(core.GuessTask(labels))
	if len(s.pending) == 0 {
		s.state = "done"
		return false
	}
	return true
}

// play runs one round for every learner and records what the views show.
// now is the clock (time since clockBase) after the row was read; play
// returns it after the last learner, reading the clock once per learner:
// each reading crosses into JS under wasm (performance.now).
func (s *session) play(ex core.Example, now time.Duration) time.Duration {
	var first float64
	for i, p := range s.players {
		yhat := core.Play(p.learner, ex, p.metrics)
		t := clock()
		d := t - now
		now = t
		p.elapsed += d
		s.elapsed += d
		if i == 0 {
			first = yhat
		}
		loss := p.metrics.Loss().Value(yhat, ex.Y)
		p.tally.add(yhat, ex.Y, loss)
		if s.reg != nil {
			s.losses = append(s.losses[:i], loss)
		}
	}
	if s.reg != nil {
		s.reg.Observe(ex, s.losses[:len(s.players)])
	}
	if s.observe != nil {
		s.observe(ex)
	}
	s.rows++
	if s.rows%memoryEvery == 0 || len(ex.X.Ind) > wideRow {
		if err := s.memoryBudget(); err != nil {
			s.fail(err)
		}
	}
	if len(s.players) > 0 {
		s.record(ex, first)
	}
	if s.rows%s.spacing == 0 {
		s.checkpoint()
	}
	return now
}

// memoryEvery and wideRow space the session's budget checks: every
// memoryEvery rows, and after any row of more than wideRow nonzeros. A row
// of at most wideRow nonzeros adds at most wideRow² pairs to a learner's
// gradient sum (about 400 KB), so the run passes the budget by at most a
// few MB before it is stopped, while a check costs O(learners) calls of
// MemoryBytes rather than one per row.
const (
	memoryEvery = 16
	wideRow     = 64
)

// memoryBudget checks the session's parts against cfg.MaxMemory. The parts
// are listed once, at the first check: the players, the comparator and the
// stream are all in place before the first row is played, so a check then
// allocates nothing.
func (s *session) memoryBudget() error {
	if s.memParts == nil {
		for _, p := range s.players {
			if v, ok := p.learner.(core.Sized); ok {
				s.memParts = append(s.memParts, core.MemoryPart{Name: p.name, Value: v})
			}
			s.memParts = append(s.memParts, core.MemoryPart{Name: p.name + " metrics", Value: p.metrics})
		}
		if s.reg != nil {
			s.memParts = append(s.memParts, core.MemoryPart{Name: "regret comparator", Value: s.reg})
		}
		if s.stream != nil {
			s.memParts = append(s.memParts, core.MemoryPart{Name: "feature dictionaries", Value: s.stream})
		}
	}
	return core.MemoryBudget{Limit: s.cfg.MaxMemory}.Check(s.memParts...)
}

// clockBase and clock are a cheap monotonic clock: time.Now reads the wall
// clock too, a second call into JS under wasm.
var clockBase = time.Now()

func clock() time.Duration { return time.Since(clockBase) }

// record keeps the row in the ring of latest predictions, without
// formatting anything (describe does that when the table is drawn).
func (s *session) record(ex core.Example, yhat float64) {
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
	p.Loss = s.players[0].metrics.Loss().Value(yhat, ex.Y)
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
			fmt.Fprintf(&b, " … (+%d)", p.nnz-describeFeatures)
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

// checkpoint stores [rows, ms, metric₁, loss₁, …], thinning when full,
// followed, when an occfm-auto races, by its regret to its best expert and
// the forecaster's bound on it (core.OCCFMAuto.Regret).
func (s *session) checkpoint() {
	pt := []float64{float64(s.rows), float64(s.elapsed.Microseconds()) / 1000}
	var auto *core.OCCFMAuto
	for _, p := range s.players {
		m, avgLoss := p.tally.metric(s.task)
		pt = append(pt, m, avgLoss)
		if a, ok := p.inner().(*core.OCCFMAuto); ok && auto == nil {
			auto = a
		}
	}
	if auto != nil {
		reg, bound := auto.Regret()
		pt = append(pt, reg, bound)
	}
	s.points = append(s.points, pt)
	if len(s.points) >= maxPoints {
		kept := s.points[:0]
		for i, p := range s.points {
			if i%2 == 1 {
				kept = append(kept, p)
			}
		}
		s.points = kept
		s.sent = min(s.sent, len(kept))
		s.spacing *= 2
		s.decimated = true
	}
}

// snapshot is the compact JSON the page reads (see doc.go).
type snapshot struct {
	State     string          `json:"state"`
	Error     string          `json:"error,omitempty"`
	Source    string          `json:"source"`
	Layout    string          `json:"layout,omitempty"`
	Task      string          `json:"task,omitempty"`
	Rows      int             `json:"rows"`
	Features  int             `json:"features"`
	Learners  []learnerStatus `json:"learners"`
	Points    numRows         `json:"points"`
	Decimated bool            `json:"decimated"`
	Preview   *preview        `json:"preview,omitempty"`
	Known     string          `json:"known,omitempty"`
	Regret    *regretStatus   `json:"regret,omitempty"`
	// BadRow: the error is a malformed row (skip would pass over it).
	BadRow bool `json:"badRow,omitempty"`
	// Skipped counts the rows skipped; SkippedFirst holds the first
	// reasons (at most core.MaxReasons), sent when a new one is kept.
	Skipped      int      `json:"skipped,omitempty"`
	SkippedFirst []string `json:"skippedFirst,omitempty"`
	// Warnings is the list of the reader's warnings (see session.warnings)
	// when it has grown since the preview or the last snapshot.
	Warnings []string `json:"warnings,omitempty"`
}

// regretStatus is the regret part of a snapshot. Each point is
// [T, comparator loss, gap, bound, G, then per learner: cumulative loss,
// regret lo, regret hi]; points holds the new ones since the last snapshot.
type regretStatus struct {
	Points    numRows    `json:"points"`
	Pending   int        `json:"pending"`   // checkpoints waiting for the comparator
	Lag       int        `json:"lag"`       // rows learned since the last finished checkpoint
	Slope     []*float64 `json:"slope"`     // per learner, last six checkpoints
	D         num        `json:"d"`         // 2δ
	MaxRows   int        `json:"maxRows"`   // the comparator's cap
	Truncated bool       `json:"truncated"` // the cap was reached
	LeftOut   int        `json:"leftOut"`   // rows left out: a feature or label beyond ±1e9, or over 1,000 nonzeros (core.Regret.Observe)
	// NoDelta: the first learner has no δ (occfm-auto); the comparator's
	// ball is its default, δ = D/2.
	NoDelta bool `json:"noDelta,omitempty"`
}

type learnerStatus struct {
	Name      string       `json:"name"`
	Clip      bool         `json:"clip,omitempty"`
	Guard     *guardStatus `json:"guard,omitempty"`
	Rows      int          `json:"rows"`
	Seconds   float64      `json:"seconds"`
	AvgLoss   num          `json:"avg_loss"`
	RMSE      *float64     `json:"rmse,omitempty"`
	MAE       *float64     `json:"mae,omitempty"`
	ErrorRate *float64     `json:"error_rate,omitempty"`
	AUC       *float64     `json:"auc,omitempty"`
	LogLoss   *float64     `json:"logloss,omitempty"`
	// Experts are occfm-auto's experts with their weights: which δ is
	// winning.
	Experts []core.AutoExpert `json:"experts,omitempty"`
	// ExpertRegret is occfm-auto's regret to its best expert never
	// retired, and ExpertBound the forecaster's bound on it.
	ExpertRegret *float64 `json:"expertRegret,omitempty"`
	ExpertBound  *float64 `json:"expertBound,omitempty"`
}

// summaryEvery is how old the learners' metrics in a snapshot of a running
// session may be (runSnapshotJSON): core.Metrics.Summary costs O(rows) on a
// classification stream, and run returns a snapshot after every slice.
const summaryEvery = 250 * time.Millisecond

// snapshotJSON returns the snapshot with the learners' metrics of now, and
// marks its points and preview sent.
func (s *session) snapshotJSON() string { return s.snapshotJSONAt(true) }

// runSnapshotJSON is snapshotJSON after a slice: while the session runs,
// the learners' metrics are at most summaryEvery old.
func (s *session) runSnapshotJSON() string { return s.snapshotJSONAt(false) }

func (s *session) snapshotJSONAt(fresh bool) string {
	snap := snapshot{State: s.state, Error: s.err, Rows: s.rows, Points: s.points[s.sent:], Decimated: s.decimated, Known: s.known,
		Learners: []learnerStatus{}}
	s.sent, s.decimated = len(s.points), false
	if s.cfg.Source == "demo" {
		snap.Source = s.cfg.Demo
	} else {
		snap.Source = s.cfg.File
	}
	if s.stream != nil {
		snap.Layout = s.stream.Layout()
		snap.Features = s.stream.Dim()
	} else if d, ok := s.source.(interface{ Dim() int }); ok {
		snap.Features = d.Dim()
	}
	if s.taskSet {
		snap.Task = s.task.String()
	}
	snap.Skipped = s.bad.Skipped
	if len(s.bad.First) > s.reasonsSent {
		snap.SkippedFirst, s.reasonsSent = s.bad.Reasons(), len(s.bad.First)
	}
	snap.BadRow = s.badRow
	if s.preview != nil {
		if w := s.warnings(); len(w) > s.warningsSent {
			snap.Warnings, s.warningsSent = w, len(w)
		}
	}
	if s.preview != nil && !s.preview.sent {
		snap.Preview, s.preview.sent = s.preview, true
	}
	now := clock()
	for _, p := range s.players {
		if fresh || s.state != "running" || !p.summed || now-p.sumAt >= summaryEvery {
			p.sum, p.sumAt, p.summed = p.metrics.Summary(), now, true
		}
		sum := p.sum
		ls := learnerStatus{Name: p.name, Rows: p.metrics.Rows(), Seconds: p.elapsed.Seconds(), AvgLoss: num(sum.AvgLoss)}
		ls.Clip, ls.Guard = guardStatusOf(p)
		if a, ok := p.inner().(*core.OCCFMAuto); ok {
			ls.Experts = a.Experts()
			reg, bound := a.Regret()
			ls.ExpertRegret, ls.ExpertBound = finite(reg), finite(bound)
		}
		if s.task == core.Classification {
			ls.ErrorRate, ls.AUC, ls.LogLoss = finite(sum.ErrorRate), finite(sum.AUC), finite(sum.LogLoss)
		} else {
			ls.RMSE, ls.MAE = finite(sum.RMSE), finite(sum.MAE)
		}
		snap.Learners = append(snap.Learners, ls)
	}
	if snap.Points == nil {
		snap.Points = numRows{}
	}
	if s.reg != nil {
		pts := s.reg.Points()
		rs := &regretStatus{Points: numRows{}, Pending: s.reg.Pending(), D: num(2 * s.reg.Delta()), NoDelta: s.delta == 0, MaxRows: regretRows, Truncated: s.reg.Truncated(), LeftOut: s.reg.LeftOut()}
		for _, p := range pts[s.regSent:] {
			row := []float64{float64(p.T), p.ComparatorLoss, p.Gap, p.Bound, p.G}
			for i := range p.CumLoss {
				row = append(row, p.CumLoss[i], p.RegretLo[i], p.RegretHi[i])
			}
			rs.Points = append(rs.Points, row)
		}
		s.regSent = len(pts)
		rs.Lag = s.rows
		if len(pts) > 0 {
			rs.Lag = s.rows - pts[len(pts)-1].T
		}
		for i := range s.players {
			rs.Slope = append(rs.Slope, finite(core.Slope(pts, i, 6)))
		}
		snap.Regret = rs
	}
	b, err := json.Marshal(snap)
	if err != nil {
		return `{"state":"error","error":` + strconv.Quote(err.Error()) + `}`
	}
	return string(b)
}

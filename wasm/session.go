package main

import (
	"errors"
	"strconv"
	"time"

	"github.com/occfm/occfm/core"
	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/demo"
)

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

// namer names features for the predictions table.
type namer interface{ FeatureName(i int) string }

// session is one learning run on a demo or a file: the source, the racing
// learners, the checkpoints for the curves and the latest predictions. It
// never blocks: step learns what the buffered input allows and returns.
type session struct {
	cfg    config
	source data.ExampleSource
	names  namer
	file   *feedBuffer // nil for demos
	rd     *reader     // the file's stream in its coroutine (reader.go), nil for demos
	stream *data.Stream
	known  string

	task    data.Task
	taskSet bool
	players []*player
	follow  int       // the player the model panel and saveModel follow
	src     data.Rows // the labelled rows, read as the command line reads them
	ex      data.Example

	bad         data.BadRows // the OnError policy and the rows it skipped
	reasonsSent int          // bad.First already in a snapshot
	badRow      bool         // the error is a malformed row

	rows  int
	state string // waiting, running, done, error
	err   string

	points    [][]float64 // stored checkpoints
	sent      int         // points already in a snapshot
	spacing   int
	decimated bool
	preview   *preview
	run       *core.Run     // plays the rows through the players (made at the first step)
	until     time.Duration // the clock at which the step in progress stops learning

	// warningsSent is how many warnings the page has (the preview's, then
	// the snapshots').
	warningsSent int
	preds        []prediction // ring of at most keepPredictions, the newest at predNext-1
	predNext     int

	reg *core.Regret // nil when off
	// regretCredit is the time the comparator has earned (regretShare of
	// the learners' time while it had work) and not yet spent.
	regretCredit time.Duration
	regSent      int     // regret points already in a snapshot
	delta        float64 // δ in effect for the first learner, 0 for none (occfm-auto)

	config core.Config // the learners' common settings (setTask)
	base   *core.Model // the loaded model the first learner continues, or nil (model.go)

	// observe, when set, sees every row learned (a Recommender learning a
	// catalog counts the items' ratings: lib_rec_catalog.go).
	observe func(data.Example)

	freq []uint32 // occurrences of each feature below freqFeatures (picture.go)
	// drawn is what the picture on the page shows, drawnNext what the
	// last picture() returned, until the page has drawn it (pictureDrawn).
	drawn, drawnNext drawnModel
	order            data.LabelOrder
	// shuffled reads a file's rows into memory and plays them in a seeded
	// random order (config shuffle), nil otherwise.
	shuffled *data.Shuffled
	labels   labelStats // the labels seen, for the reference lines (reference.go)
}

// newSession checks cfg and starts a session; a file session then waits
// for feed.
func newSession(cfg config) (*session, error) {
	if len(cfg.Learners) == 0 {
		cfg.Learners = []string{core.DefaultLearner}
	}
	if err := (core.RegretSettings{Growth: cfg.RegretGrowth, Every: cfg.RegretEvery}).Check(); err != nil {
		return nil, err
	}
	if err := (core.Config{Delta: cfg.Delta, Eta: cfg.Eta}).Check(); err != nil {
		return nil, err
	}
	s := &session{cfg: cfg, state: "waiting", spacing: 1}
	policy, err := data.ParseOnError(cfg.OnError)
	if err != nil {
		return nil, err
	}
	s.bad.Policy = policy
	s.src = data.Rows{File: cfg.File, Bad: &s.bad, Pause: func() bool { return clock() >= s.until }}
	if err := core.CheckLearners(cfg.Learners); err != nil {
		return nil, err
	}
	c, err := cfg.coreConfig(0)
	if err != nil {
		return nil, err
	}
	if cfg.resume == nil {
		if err := core.CheckTaken(cfg.Learners, c); err != nil {
			return nil, err
		}
	}
	switch cfg.Clip {
	case "", "auto", "on", "off":
	default:
		return nil, errors.New("clip " + strconv.Quote(cfg.Clip) + ": want auto, on or off")
	}
	switch cfg.OnDiverge {
	case "", "reset", "pause":
	default:
		return nil, errors.New("on divergence " + strconv.Quote(cfg.OnDiverge) + ": want reset or pause")
	}
	switch cfg.Task {
	case "", "auto":
	default:
		t, err := data.ParseTask(cfg.Task)
		if err != nil {
			return nil, err
		}
		s.setTask(t)
	}
	switch cfg.Source {
	case "demo":
		d, ok := demo.ByName(cfg.Demo)
		if !ok {
			return nil, errors.New("unknown demo " + strconv.Quote(cfg.Demo))
		}
		// Its features numbered as the command line numbers those of its
		// file (occfm gen), so that "copy as command" replays the run.
		ds := d.New(max(cfg.Seed, 1))
		fs := &data.FirstSeen{Source: ds, Names: ds}
		s.source, s.names, s.known = fs, fs, d.Known
		s.src.Source = fs
		if !s.taskSet {
			s.setTask(d.Task)
		}
		s.state = "running"
	case "file":
		s.file = &feedBuffer{}
	default:
		return nil, errors.New("unknown source " + strconv.Quote(cfg.Source) + " (want demo or file)")
	}
	return s, nil
}

// setTask fixes the task and creates the learners for it.
func (s *session) setTask(t data.Task) {
	s.task, s.taskSet = t, true
	s.src.SetTask(t)
	c, _ := s.cfg.coreConfig(t) // checked in newSession
	s.players = s.players[:0]
	s.run = nil // made again, for these players, at the next step
	rs := core.RunSettings{Learners: s.cfg.Learners, Config: c, Guard: s.guardSettings(t), Resume: s.cfg.resume}
	if rs.Resume != nil {
		rs.Config = rs.Resume.Config
	}
	if !s.cfg.NoRegret {
		rs.Regret = &core.RegretSettings{
			Comparator: core.ComparatorSettings{CorrectWork: 2e6},
			MaxRows:    regretRows, Growth: s.cfg.RegretGrowth, Every: s.cfg.RegretEvery,
		}
		// On a noise-free planted demo whose C* fits the ball, F* = 0 is
		// known: the regret is the cumulative loss, with no comparator.
		if d, ok := demo.ByName(s.cfg.Demo); ok && s.cfg.Source == "demo" {
			rs.ZeroLossDelta = d.ZeroLossDelta
		}
	}
	players, reg, err := core.Assemble(rs) // names were checked in newSession
	if err != nil {
		s.fail(err)
		return
	}
	for _, p := range players {
		s.players = append(s.players, &player{Player: *p})
	}
	s.setFollow(s.cfg.Follow)
	s.config = rs.Config
	s.delta = core.RunDelta(players, rs.Config)
	s.reg = reg
}

// release lets the file's reading coroutine go (reset, a new file, an error,
// the end). The stream stays readable for the views (names, layout, Dim).
func (s *session) release() {
	if s.rd != nil {
		s.rd.stop()
	}
}

func (s *session) fail(err error) {
	s.release()
	s.state, s.err = "error", err.Error()
	var pe *data.ParseError
	s.badRow = errors.As(err, &pe)
}

// setFollow makes the model panel and saveModel follow the learner name,
// and reports whether it races; otherwise they follow the first.
func (s *session) setFollow(name string) bool {
	s.cfg.Follow, s.follow = name, 0
	found := false
	for i, p := range s.players {
		if p.Name == name {
			s.follow, found = i, true
			break
		}
	}
	s.traceFollowed()
	return found
}

// followed returns the player the model panel and saveModel follow, or nil
// before the learners start.
func (s *session) followed() *player {
	if len(s.players) == 0 {
		return nil
	}
	return s.players[min(s.follow, len(s.players)-1)]
}

// orderText says that the labels arrive sorted or in long runs, for a
// file in its own order ("" otherwise: a demo's rows are random).
func (s *session) orderText() string {
	if s.file == nil || s.shuffled != nil {
		return ""
	}
	if sorted, text := s.order.Sorted(); sorted {
		return text
	}
	return ""
}

// heldRows returns the rows read to be shuffled while they are read.
func (s *session) heldRows() int {
	if s.shuffled == nil || !s.shuffled.Reading() {
		return 0
	}
	return s.shuffled.Held.Len()
}

package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/occfm/occfm/core"
)

// The Personalize view (doc.go: occfm.personal): a catalog's ratings are
// learned online first, in a session of its own (the Learn view's session
// is left alone), then a new person rates items in the same model
// (core.Personalizer) and gets recommendations. The catalog is the built-in
// synthetic one (core.SyntheticCatalog) or the person's MovieLens files: the
// ratings are fed in chunks as a file session's, the item list is given
// whole (items).

// personalConfig is what the page's personal.start passes.
type personalConfig struct {
	Catalog string `json:"catalog"` // "synthetic" (default) or "files"
	Learner string `json:"learner"` // a registry name; "" is occfm
	Seed    uint64 `json:"seed"`    // of the synthetic catalog and the learner; 0 is 1
	Ratings string `json:"ratings"` // the ratings file's name (files)
	Size    int64  `json:"size"`    // its size in bytes, for the progress (files)
}

// personal is the Personalize view's state.
type personal struct {
	cfg   personalConfig
	s     *session
	synth *core.SyntheticCatalog // nil for files
	items []core.CatalogItem     // the item list (files; set by setItems)
	pop   core.Popularity
	fed   int64 // bytes fed to the ratings file
	p     *core.Personalizer
	err   string // why the personalizer could not be built
	// unlisted counts the items of the ratings missing from the item list
	// (listed as "item ID").
	unlisted int
}

// newPersonal starts learning a catalog.
func newPersonal(cfg personalConfig) (*personal, error) {
	if cfg.Learner == "" {
		cfg.Learner = "occfm"
	}
	cfg.Seed = max(cfg.Seed, 1)
	sc := config{
		Source: "file", Learners: []string{cfg.Learner}, Task: "regression", Seed: cfg.Seed,
		// Ratings: predictions clipped to the range seen; no regret
		// comparator (it would only take time from the learner).
		Clip: "on", NoRegret: true,
	}
	pe := &personal{cfg: cfg}
	switch cfg.Catalog {
	case "", "synthetic":
		pe.cfg.Catalog = "synthetic"
		sc.File = "the synthetic catalog"
	case "files":
		if cfg.Ratings == "" {
			return nil, errors.New("personal.start: the ratings file's name is missing")
		}
		sc.File, sc.Format = cfg.Ratings, string(core.FormatMovieLens)
	default:
		return nil, fmt.Errorf("catalog %q: want synthetic or files", cfg.Catalog)
	}
	s, err := newSession(sc)
	if err != nil {
		return nil, err
	}
	if pe.cfg.Catalog == "synthetic" {
		// A session over the catalog's stream, as over a demo's.
		pe.synth = core.NewSyntheticCatalog(cfg.Seed)
		s.file, s.source, s.names, s.state = nil, pe.synth, pe.synth, "running"
	}
	s.observe = pe.pop.Observe
	pe.s = s
	return pe, nil
}

// setItems reads the item list (u.item, movies.dat or movies.csv).
// Gzip bytes are decompressed first, as the ratings file's are by the core.
func (pe *personal) setItems(data []byte, name string) (int, error) {
	if isGzip(data) {
		var err error
		if data, err = gunzip(data); err != nil {
			return 0, fmt.Errorf("%s: gzip: %v", name, err)
		}
	}
	items, err := core.ReadItems(bytes.NewReader(data), name)
	if err != nil {
		return 0, err
	}
	if len(items) == 0 {
		return 0, fmt.Errorf("%s: no items", name)
	}
	pe.items = items
	return len(items), nil
}

func (pe *personal) feed(p []byte) {
	if pe.s.file != nil && !pe.s.file.closed {
		pe.fed += int64(len(p))
	}
	pe.s.feed(p)
}

// run learns for at most d, and builds the personalizer once the whole
// catalog is learned.
func (pe *personal) run(d time.Duration) {
	if pe.p != nil || pe.err != "" {
		return
	}
	pe.s.step(time.Now().Add(d), 0)
	if pe.s.state == "done" {
		if err := pe.build(); err != nil {
			pe.err = err.Error()
		}
	}
}

// build binds the items to the learned stream and makes the person.
func (pe *personal) build() error {
	var names interface {
		FeatureName(int) string
		Dim() int
	}
	items := pe.items
	switch {
	case pe.synth != nil:
		names, items = pe.synth, pe.synth.Items()
	case pe.s.stream == nil:
		return errors.New("the ratings file holds no rating")
	case items == nil:
		return errors.New("the item list is missing")
	default:
		names = pe.s.stream
	}
	if len(pe.s.players) == 0 {
		return errors.New("the ratings file holds no rating")
	}
	cat := core.NewCatalog(items, names, &pe.pop)
	// NewCatalog appends the items of the ratings missing from the list.
	listed := 0
	for _, it := range cat.Items[:len(items)] {
		if it.Feature >= 0 {
			listed++
		}
	}
	pe.unlisted = len(cat.Items) - len(items)
	if listed == 0 {
		return errors.New("no item of the item list is in the ratings: are the two files of the same MovieLens set?")
	}
	p, err := core.NewPersonalizer(pe.s.players[0].learner, cat, names.Dim())
	if err != nil {
		return err
	}
	pe.p = p
	return nil
}

// personalSnapshot is what personal.start and personal.run return.
type personalSnapshot struct {
	State    string   `json:"state"` // waiting, running, done, error
	Error    string   `json:"error,omitempty"`
	Rows     int      `json:"rows"`
	Skipped  int      `json:"skipped,omitempty"`
	Features int      `json:"features"`
	Seconds  float64  `json:"seconds"`
	RMSE     *float64 `json:"rmse,omitempty"` // progressive
	Progress *float64 `json:"progress,omitempty"`
	Ready    bool     `json:"ready"` // the person can rate
	Items    int      `json:"items,omitempty"`
	Unlisted int      `json:"unlisted,omitempty"` // items rated but not in the item list
	Layout   string   `json:"layout,omitempty"`
	Learner  string   `json:"learner"`
}

func (pe *personal) snapshotJSON() string {
	s := pe.s
	snap := personalSnapshot{State: s.state, Error: s.err, Rows: s.rows, Skipped: s.bad.Skipped,
		Seconds: s.elapsed.Seconds(), Ready: pe.p != nil, Learner: pe.cfg.Learner}
	if pe.err != "" {
		snap.State, snap.Error = "error", pe.err
	}
	if d, ok := s.source.(interface{ Dim() int }); ok {
		snap.Features = d.Dim()
	}
	if s.stream != nil {
		snap.Layout = s.stream.Layout()
	}
	if len(s.players) > 0 {
		if m, _ := s.players[0].tally.metric(core.Regression); s.rows > 0 {
			snap.RMSE = finite(m)
		}
	}
	var prog float64
	switch {
	case pe.synth != nil:
		prog = float64(s.rows) / float64(max(1, pe.synth.Rows()))
	case s.file != nil && pe.cfg.Size > 0:
		prog = float64(pe.fed-int64(s.file.buffered())) / float64(pe.cfg.Size)
	default:
		prog = -1
	}
	if s.state == "done" {
		prog = 1
	}
	if prog >= 0 {
		prog = min(prog, 1)
		snap.Progress = &prog
	}
	if pe.p != nil {
		snap.Unlisted = pe.unlisted
		for _, it := range pe.p.Catalog().Items {
			if it.Feature >= 0 {
				snap.Items++
			}
		}
	}
	return marshal(snap)
}

// personalItem is an item as the page lists it.
type personalItem struct {
	ID     string   `json:"id"`
	Title  string   `json:"title"`
	Genres []string `json:"genres"`
	Count  int      `json:"count"`
	Mean   float64  `json:"mean"`
	Known  bool     `json:"known"` // in the ratings: it can be rated and recommended
}

// catalogJSON returns {"items": [...], "you": feature} (the items in the
// order of their indices).
func (pe *personal) catalogJSON() string {
	if pe.p == nil {
		return `{"items":[]}`
	}
	items := pe.p.Catalog().Items
	out := make([]personalItem, len(items))
	for k, it := range items {
		g := it.Genres
		if g == nil {
			g = []string{}
		}
		out[k] = personalItem{ID: it.ID, Title: it.Title, Genres: g, Count: it.Count, Mean: round3(it.Mean), Known: it.Feature >= 0}
	}
	return marshal(map[string]any{"items": out, "you": pe.p.You()})
}

// personalReason and personalRec are a core.Reason and core.Recommendation
// for the page.
type personalReason struct {
	Kind  string  `json:"kind"`
	Value float64 `json:"value"`
	Item  int     `json:"item"`
	Text  string  `json:"text"`
}

type personalRec struct {
	Item  int              `json:"item"`
	Score float64          `json:"score"`
	Why   []personalReason `json:"why"`
}

type personalRated struct {
	Item   int     `json:"item"`
	Stars  num     `json:"stars"`
	Before float64 `json:"before"`
}

// personalUpdate is what rate, recommend and clear return.
type personalUpdate struct {
	Error     string          `json:"error,omitempty"`
	Before    *float64        `json:"before,omitempty"` // rate: ŷ just before the rating
	ColdStart bool            `json:"coldStart"`
	Recs      []personalRec   `json:"recs"`
	Rated     []personalRated `json:"rated"`
	// Ms is the time in Go: the rating's update (rate) and the top n.
	Ms float64 `json:"ms"`
}

// update returns the top n and the ratings; start is when the call began.
func (pe *personal) update(n int, start time.Time) personalUpdate {
	u := personalUpdate{Recs: []personalRec{}, Rated: []personalRated{}}
	recs := pe.p.Recommend(n)
	u.ColdStart = len(pe.p.Rated()) == 0
	for _, r := range recs {
		pr := personalRec{Item: r.Item, Score: round3(r.Score), Why: []personalReason{}}
		for _, w := range r.Why {
			pr.Why = append(pr.Why, personalReason{Kind: w.Kind, Value: round3(w.Value), Item: w.Item, Text: w.Text})
		}
		u.Recs = append(u.Recs, pr)
	}
	for _, r := range pe.p.Rated() {
		u.Rated = append(u.Rated, personalRated{Item: r.Item, Stars: num(r.Stars), Before: round3(r.Before)})
	}
	u.Ms = float64(time.Since(start).Microseconds()) / 1000
	return u
}

// rate makes one online update for the person's rating and returns the new
// top n.
func (pe *personal) rate(item int, stars float64, n int) string {
	start := time.Now()
	if pe.p == nil {
		return marshal(personalUpdate{Error: "the catalog is not learned yet"})
	}
	before, err := pe.p.Rate(item, stars)
	if err != nil {
		return marshal(personalUpdate{Error: err.Error()})
	}
	u := pe.update(n, start)
	b := round3(before)
	u.Before = &b
	return marshal(u)
}

// recommend returns the top n without changing anything.
func (pe *personal) recommend(n int) string {
	if pe.p == nil {
		return marshal(personalUpdate{Error: "the catalog is not learned yet"})
	}
	return marshal(pe.update(n, time.Now()))
}

// clear forgets the person's ratings (the model goes back to the learned
// catalog's) and returns the top n.
func (pe *personal) clear(n int) string {
	if pe.p == nil {
		return marshal(personalUpdate{Error: "the catalog is not learned yet"})
	}
	start := time.Now()
	pe.p.Clear()
	return marshal(pe.update(n, start))
}

func round3(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0
	}
	return math.Round(x*1000) / 1000
}

func marshal(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		b, _ = json.Marshal(map[string]string{"state": "error", "error": err.Error()})
	}
	return string(b)
}

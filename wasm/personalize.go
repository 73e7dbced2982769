package main

import (
	"bytes"
	"errors"
	"math"
	"strconv"
	"time"

	"github.com/occfm/occfm/core"
	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/personal"
)

// The Personalize view (doc.go: occfm.personal): a catalog's ratings are
// learned online first, in a session of its own (the Learn view's session
// is left alone), then a new person rates items in the same model
// (personal.Personalizer) and gets recommendations. The catalog is the built-in
// synthetic one (personal.SyntheticCatalog) or the person's MovieLens files: the
// ratings are fed in chunks as a file session's, the item list is given
// whole (items).

// personalConfig is what the page's personal.start passes.
type personalConfig struct {
	Catalog string `json:"catalog"` // "synthetic" (default) or "files"
	Learner string `json:"learner"` // a registry name; "" is personal.DefaultLearner
	Seed    uint64 `json:"seed"`    // of the synthetic catalog and the learner; 0 is 1
	Ratings string `json:"ratings"` // the ratings file's name (files)
	Size    int64  `json:"size"`    // its size in bytes, for the progress (files)
}

// decodeJSON reads the page's config JSON s into c as
// json.Unmarshal(s, c) would (jsonr.go).
func (c *personalConfig) decodeJSON(s string) error {
	return decodeJSONObject(s, func(r *jsonReader, key string) error {
		switch jsonKey(key) {
		case "CATALOG":
			return r.stringField(`"catalog"`, &c.Catalog)
		case "LEARNER":
			return r.stringField(`"learner"`, &c.Learner)
		case "SEED":
			return r.uint64Field(`"seed"`, &c.Seed)
		case "RATINGS":
			return r.stringField(`"ratings"`, &c.Ratings)
		case "SIZE":
			return r.int64Field(`"size"`, &c.Size)
		}
		return r.skip()
	})
}

// personal is the Personalize view's state.
type personalView struct {
	cfg   personalConfig
	s     *session
	synth *personal.SyntheticCatalog // nil for files
	items []personal.CatalogItem     // the item list (files; set by setItems)
	pop   personal.Popularity
	fed   int64 // bytes fed to the ratings file
	p     *personal.Personalizer
	err   string // why the personalizer could not be built
	// unlisted counts the items of the ratings missing from the item list
	// (listed as "item ID").
	unlisted int
}

// newPersonal starts learning a catalog.
func newPersonal(cfg personalConfig) (*personalView, error) {
	if cfg.Learner == "" {
		cfg.Learner = personal.DefaultLearner
	}
	cfg.Seed = max(cfg.Seed, 1)
	sc := config{
		Source: "file", Learners: []string{cfg.Learner}, Task: "regression", Seed: cfg.Seed,
		// Ratings: predictions clipped to the range seen; no regret
		// comparator (it would only take time from the learner).
		Clip: "on", NoRegret: true,
	}
	pe := &personalView{cfg: cfg}
	switch cfg.Catalog {
	case "", "synthetic":
		pe.cfg.Catalog = "synthetic"
		sc.File = "the synthetic catalog"
	case "files":
		if cfg.Ratings == "" {
			return nil, errors.New("personal.start: the ratings file's name is missing")
		}
		sc.File, sc.Format = cfg.Ratings, string(data.FormatMovieLens)
	default:
		return nil, errors.New("catalog " + strconv.Quote(cfg.Catalog) + ": want synthetic or files")
	}
	s, err := newSession(sc)
	if err != nil {
		return nil, err
	}
	if pe.cfg.Catalog == "synthetic" {
		// A session over the catalog's stream, as over a demo's.
		pe.synth = personal.NewSyntheticCatalog(cfg.Seed)
		s.file, s.source, s.names, s.state = nil, pe.synth, pe.synth, "running"
		s.src.Source = pe.synth
	}
	s.observe = pe.pop.Observe
	pe.s = s
	return pe, nil
}

// setItems reads the item list (u.item, movies.dat or movies.csv).
// Gzip bytes are decompressed first, as the ratings file's are by the core.
func (pe *personalView) setItems(data []byte, name string) (int, error) {
	if isGzip(data) {
		var err error
		if data, err = gunzip(data); err != nil {
			return 0, errors.New(name + ": gzip: " + err.Error())
		}
	}
	items, err := personal.ReadItems(bytes.NewReader(data), name)
	if err != nil {
		return 0, err
	}
	if len(items) == 0 {
		return 0, errors.New(name + ": no items")
	}
	pe.items = items
	return len(items), nil
}

func (pe *personalView) feed(p []byte) {
	if pe.s.file != nil && !pe.s.file.closed {
		pe.fed += int64(len(p))
	}
	pe.s.feed(p)
}

// run learns for at most d, and builds the personalizer once the whole
// catalog is learned.
func (pe *personalView) run(d time.Duration) {
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
func (pe *personalView) build() error {
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
	cat := personal.NewCatalog(items, names, &pe.pop)
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
	p, err := personal.NewPersonalizer(pe.s.players[0].Learner, cat, names.Dim())
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

func (s *personalSnapshot) appendJSON(b []byte) []byte {
	b = core.AppendString(append(b, `{"state":`...), s.State)
	if s.Error != "" {
		b = core.AppendString(append(b, `,"error":`...), s.Error)
	}
	b = appendInt(append(b, `,"rows":`...), s.Rows)
	if s.Skipped != 0 {
		b = appendInt(append(b, `,"skipped":`...), s.Skipped)
	}
	b = appendInt(append(b, `,"features":`...), s.Features)
	b = core.AppendNum(append(b, `,"seconds":`...), s.Seconds)
	if s.RMSE != nil {
		b = core.AppendNum(append(b, `,"rmse":`...), *s.RMSE)
	}
	if s.Progress != nil {
		b = core.AppendNum(append(b, `,"progress":`...), *s.Progress)
	}
	b = appendBool(append(b, `,"ready":`...), s.Ready)
	if s.Items != 0 {
		b = appendInt(append(b, `,"items":`...), s.Items)
	}
	if s.Unlisted != 0 {
		b = appendInt(append(b, `,"unlisted":`...), s.Unlisted)
	}
	if s.Layout != "" {
		b = core.AppendString(append(b, `,"layout":`...), s.Layout)
	}
	b = core.AppendString(append(b, `,"learner":`...), s.Learner)
	return append(b, '}')
}

func (pe *personalView) snapshotJSON() string {
	s := pe.s
	snap := personalSnapshot{State: s.state, Error: s.err, Rows: s.rows, Skipped: s.bad.Skipped,
		Seconds: s.learnTime().Seconds(), Ready: pe.p != nil, Learner: pe.cfg.Learner}
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
		if m, _ := s.players[0].tally.metric(data.Regression); s.rows > 0 {
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
	return jsonString(&snap)
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

func (it *personalItem) appendJSON(b []byte) []byte {
	b = core.AppendString(append(b, `{"id":`...), it.ID)
	b = core.AppendString(append(b, `,"title":`...), it.Title)
	b = appendStrings(append(b, `,"genres":`...), it.Genres)
	b = appendInt(append(b, `,"count":`...), it.Count)
	b = core.AppendNum(append(b, `,"mean":`...), it.Mean)
	b = appendBool(append(b, `,"known":`...), it.Known)
	return append(b, '}')
}

// catalogJSON returns {"items": [...], "you": feature, "scale": {lo, hi,
// step, text}} (the items in the order of their indices; the scale of the
// catalog's ratings, which rate takes, and its words).
func (pe *personalView) catalogJSON() string {
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
	b := make([]byte, 0, 128*len(out))
	b = append(b, `{"items":[`...)
	for i := range out {
		if i > 0 {
			b = append(b, ',')
		}
		b = out[i].appendJSON(b)
	}
	b = appendInt(append(b, `],"you":`...), pe.p.You())
	sc := pe.p.Catalog().Scale
	b = core.AppendNum(append(b, `,"scale":{"lo":`...), sc.Lo)
	b = core.AppendNum(append(b, `,"hi":`...), sc.Hi)
	b = core.AppendNum(append(b, `,"step":`...), sc.Step)
	b = core.AppendString(append(b, `,"text":`...), sc.String())
	return string(append(b, "}}"...))
}

// personalReason and personalRec are a personal.Reason and personal.Recommendation
// for the page.
type personalReason struct {
	Kind  string  `json:"kind"`
	Value float64 `json:"value"`
	Item  int     `json:"item"`
	Text  string  `json:"text"`
}

type personalRec struct {
	Item  int              `json:"item"`
	Score float64          `json:"score"` // the predicted stars
	Rank  float64          `json:"rank"`  // what the list is ranked by, highest first
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
	RankedBy  string          `json:"rankedBy"` // "match" (the learner's own score, item-lift's) or "stars" (ŷ)
	Recs      []personalRec   `json:"recs"`
	Rated     []personalRated `json:"rated"`
	// Ms is the time in Go: the rating's update (rate) and the top n.
	Ms float64 `json:"ms"`
}

func (r *personalReason) appendJSON(b []byte) []byte {
	b = core.AppendString(append(b, `{"kind":`...), r.Kind)
	b = core.AppendNum(append(b, `,"value":`...), r.Value)
	b = appendInt(append(b, `,"item":`...), r.Item)
	b = core.AppendString(append(b, `,"text":`...), r.Text)
	return append(b, '}')
}

func (r *personalRec) appendJSON(b []byte) []byte {
	b = appendInt(append(b, `{"item":`...), r.Item)
	b = core.AppendNum(append(b, `,"score":`...), r.Score)
	b = core.AppendNum(append(b, `,"rank":`...), r.Rank)
	b = append(b, `,"why":`...)
	b = appendList(b, r.Why, (*personalReason).appendJSON)
	return append(b, '}')
}

func (r *personalRated) appendJSON(b []byte) []byte {
	b = appendInt(append(b, `{"item":`...), r.Item)
	b = core.AppendNum(append(b, `,"stars":`...), float64(r.Stars))
	b = core.AppendNum(append(b, `,"before":`...), r.Before)
	return append(b, '}')
}

func (u *personalUpdate) appendJSON(b []byte) []byte {
	b = append(b, '{')
	if u.Error != "" {
		b = core.AppendString(appendKey(b, "error"), u.Error)
	}
	if u.Before != nil {
		b = core.AppendNum(appendKey(b, "before"), *u.Before)
	}
	b = appendBool(appendKey(b, "coldStart"), u.ColdStart)
	b = core.AppendString(append(b, `,"rankedBy":`...), u.RankedBy)
	b = append(b, `,"recs":`...)
	b = appendList(b, u.Recs, (*personalRec).appendJSON)
	b = append(b, `,"rated":`...)
	b = appendList(b, u.Rated, (*personalRated).appendJSON)
	b = core.AppendNum(append(b, `,"ms":`...), u.Ms)
	return append(b, '}')
}

// notLearned is what rate, recommend and clear return before the catalog
// is learned.
var notLearned = jsonString(&personalUpdate{Error: "the catalog is not learned yet"})

// update returns the top n and the ratings; start is when the call began.
func (pe *personalView) update(n int, start time.Time) personalUpdate {
	u := personalUpdate{Recs: []personalRec{}, Rated: []personalRated{}}
	recs := pe.p.Recommend(n)
	u.ColdStart = len(pe.p.Rated()) == 0
	u.RankedBy = "stars"
	if pe.p.RanksOwnScore() {
		u.RankedBy = "match"
	}
	for _, r := range recs {
		pr := personalRec{Item: r.Item, Score: round3(r.Score), Rank: r.Rank, Why: []personalReason{}}
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
func (pe *personalView) rate(item int, stars float64, n int) string {
	start := time.Now()
	if pe.p == nil {
		return notLearned
	}
	before, err := pe.p.Rate(item, stars)
	if err != nil {
		return jsonString(&personalUpdate{Error: err.Error()})
	}
	u := pe.update(n, start)
	b := round3(before)
	u.Before = &b
	return jsonString(&u)
}

// recommend returns the top n without changing anything.
func (pe *personalView) recommend(n int) string {
	if pe.p == nil {
		return notLearned
	}
	u := pe.update(n, time.Now())
	return jsonString(&u)
}

// clear forgets the person's ratings (the model goes back to the learned
// catalog's) and returns the top n.
func (pe *personalView) clear(n int) string {
	if pe.p == nil {
		return notLearned
	}
	start := time.Now()
	pe.p.Clear()
	u := pe.update(n, start)
	return jsonString(&u)
}

func round3(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0
	}
	return math.Round(x*1000) / 1000
}

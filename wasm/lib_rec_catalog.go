package main

import (
	"bytes"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/occfm/occfm/core"
	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/personal"
)

// A Recommender learns a whole catalog in slices that never hold the page
// up: the built-in synthetic one (personal.SyntheticCatalog: films with
// genres, rated by made-up people), or a MovieLens ratings file (u.data,
// ratings.dat, ratings.csv; gzip or not) fed in chunks, beside its item list
// read whole (itemFile). The page's Personalize view learns its catalogs so,
// and occfm.js's Recommender a data file (learn) and the synthetic catalog
// (learnSynthetic).

// libCatalogRun is a catalog a Recommender is learning: a session of its
// own (session.go: the file's reading coroutine, the bad-row policy, the
// errors that name file, line and field, the memory budget), with the
// Recommender's learner, guarded with predictions clipped, and no regret
// comparator. Once its stream is done, the Recommender takes its learner,
// metrics, popularity and feature names (adopt); stopped or failed, it
// leaves the Recommender as it was.
type libCatalogRun struct {
	s     *session
	synth *personal.SyntheticCatalog // the synthetic catalog, or nil for a file
	pop   personal.Popularity        // the ratings learned, per feature
	size  int64                      // the file's size in bytes (0: unknown), for the progress
	fed   int64                      // bytes fed
}

// libSyntheticName names the synthetic catalog in the session's messages.
const libSyntheticName = "the synthetic catalog"

// learnCatalog starts learning a catalog: the synthetic one of the
// Recommender's seed (file "") or the MovieLens ratings file named file, of
// size bytes (0: unknown), which feed and end then give. Only a
// Recommender that has learned no rating takes one, and the synthetic
// catalog, which brings its items, one with no items either.
func (r *libRecommender) learnCatalog(file string, size int64) error {
	switch {
	case r.cat != nil:
		return errors.New("a catalog is being learned already")
	case r.rows > 0:
		return errors.New("a catalog is learned by a new Recommender: this one has learned " + strconv.Itoa(r.rows) + " ratings")
	case file == "" && len(r.items) > 0:
		return errors.New("the synthetic catalog brings its own items: learn it with a new Recommender")
	}
	cfg := config{Source: "file", Learners: []string{r.name}, Task: "regression", Seed: r.seed, File: file,
		// Ratings: predictions clipped to the range seen, as learn's; no
		// regret comparator (it would only take time from the learner).
		Clip: "on", NoRegret: true}
	if file == "" {
		cfg.File = libSyntheticName
	} else {
		cfg.Format = string(data.FormatMovieLens)
	}
	s, err := newSession(cfg)
	if err != nil {
		return err
	}
	c := &libCatalogRun{s: s, size: size}
	if file == "" {
		// A session over the catalog's stream, as over a demo's.
		c.synth = personal.NewSyntheticCatalog(max(r.seed, 1))
		s.file, s.source, s.names, s.state = nil, c.synth, c.synth, "running"
		s.src.Source = c.synth
	}
	s.observe = c.pop.Observe
	r.cat = c
	return nil
}

// catalogFile returns the catalog run of a ratings file being learned.
func (r *libRecommender) catalogFile() (*libCatalogRun, error) {
	if r.cat == nil || r.cat.s.file == nil {
		return nil, errors.New("no ratings file is being learned: start one first (recLearnFile)")
	}
	return r.cat, nil
}

// feed gives the ratings file being learned the chunk p (copied).
func (c *libCatalogRun) feed(p []byte) {
	if !c.s.file.closed {
		c.fed += int64(len(p))
	}
	c.s.feed(p)
}

// stopCatalog stops the catalog being learned, if any, and lets its
// reading coroutine go: the Recommender stays as it was before it.
func (r *libRecommender) stopCatalog() {
	if r.cat != nil {
		r.cat.s.release()
		r.cat = nil
	}
}

// libProgress is what recRun answers while a catalog is learned.
type libProgress struct {
	State    string   `json:"state"`              // "waiting" (for bytes), "running" or "done" (learned: the visitor can rate)
	Rows     int      `json:"rows"`               // ratings learned
	Seconds  float64  `json:"seconds"`            // the learner's time
	RMSE     *float64 `json:"rmse,omitempty"`     // progressive
	Progress *float64 `json:"progress,omitempty"` // 0 to 1: rows of the synthetic catalog, or bytes of the file read (of its size)
	Scale    libScale `json:"scale"`              // of the ratings learned so far
}

func (p *libProgress) appendJSON(b []byte) []byte {
	b = core.AppendString(append(b, `{"state":`...), p.State)
	b = appendInt(append(b, `,"rows":`...), p.Rows)
	b = core.AppendNum(append(b, `,"seconds":`...), p.Seconds)
	if p.RMSE != nil {
		b = core.AppendNum(appendKey(b, "rmse"), *p.RMSE)
	}
	if p.Progress != nil {
		b = core.AppendNum(appendKey(b, "progress"), *p.Progress)
	}
	b = p.Scale.appendJSON(appendKey(b, "scale"))
	return append(b, '}')
}

// libScale is a rating scale (personal.Scale) as the library gives it,
// with its words when Text is set.
type libScale struct {
	Lo   float64 `json:"lo"`
	Hi   float64 `json:"hi"`
	Step float64 `json:"step"`
	Text string  `json:"text,omitempty"` // "1 to 5 in whole stars"
}

func (s *libScale) appendJSON(b []byte) []byte {
	b = core.AppendNum(append(b, `{"lo":`...), s.Lo)
	b = core.AppendNum(append(b, `,"hi":`...), s.Hi)
	b = core.AppendNum(append(b, `,"step":`...), s.Step)
	if s.Text != "" {
		b = core.AppendString(appendKey(b, "text"), s.Text)
	}
	return append(b, '}')
}

func scaleOf(s personal.Scale) libScale { return libScale{Lo: s.Lo, Hi: s.Hi, Step: s.Step} }

// run learns the catalog for at most d. Once its stream is done, the
// Recommender takes what was learned and builds the visitor: the state is
// then "done". A malformed row (its error names the file, the line and
// the field), a file that holds no rating, or an item list that names none
// of the ratings' items ends the catalog with an error, nothing of it
// learned.
func (r *libRecommender) run(d time.Duration) (libProgress, error) {
	c := r.cat
	if c == nil {
		return libProgress{}, errors.New("no catalog is being learned: start one first (recLearnSynthetic or recLearnFile)")
	}
	c.s.step(time.Now().Add(d), 0)
	prog := c.progress()
	switch c.s.state {
	case "error":
		r.stopCatalog()
		return prog, errors.New(c.s.err)
	case "done":
		r.cat = nil
		if err := r.adopt(c); err != nil {
			return prog, err
		}
	}
	return prog, nil
}

// progress returns where the catalog's learning is.
func (c *libCatalogRun) progress() libProgress {
	s := c.s
	p := libProgress{State: s.state, Rows: s.rows, Seconds: s.learnTime().Seconds(), Scale: scaleOf(c.pop.Scale())}
	if len(s.players) > 0 && s.rows > 0 {
		m, _ := s.players[0].tally.metric(data.Regression)
		p.RMSE = finite(m)
	}
	share := -1.0
	switch {
	case s.state == "done":
		share = 1
	case c.synth != nil:
		share = float64(s.rows) / float64(max(1, c.synth.Rows()))
	case s.file != nil && c.size > 0:
		share = float64(c.fed-int64(s.file.buffered())) / float64(c.size)
	}
	if share >= 0 {
		share = min(share, 1)
		p.Progress = &share
	}
	return p
}

// adopt makes the catalog c learned to its end the Recommender's: its
// learner, metrics, popularity and feature names (the stream's, or the
// synthetic catalog's, as they numbered them), and the synthetic
// catalog's items; then builds the visitor. It changes nothing when the catalog holds no rating, or when
// none of the items given is in the ratings (the item list of another
// MovieLens set).
func (r *libRecommender) adopt(c *libCatalogRun) error {
	s := c.s
	var names libNames
	switch {
	case c.synth != nil:
		names = c.synth
	case s.stream == nil || s.rows == 0:
		return errors.New("the ratings file holds no rating")
	default:
		names = s.stream
	}
	if len(s.players) == 0 {
		return errors.New("the ratings file holds no rating")
	}
	g, ok := s.players[0].Learner.(*core.Guarded)
	if !ok {
		return errors.New("the catalog's learner is not guarded")
	}
	if c.synth == nil && len(r.items) > 0 && !r.namesAnItem(names) {
		return errors.New("no item of the item list is in the ratings: are the two files of the same MovieLens set?")
	}
	if c.synth != nil {
		// r has no items (learnCatalog and addItems see to it).
		if err := r.addItems(c.synth.Items(), func(k int) string { return libSyntheticName + ": item " + strconv.Itoa(k) }); err != nil {
			return err
		}
	}
	r.l, r.m, r.rows, r.pop = g, s.players[0].Metrics, s.rows, c.pop
	r.base, r.names, r.feat = names, nil, nil
	r.p = nil
	_, err := r.person()
	return err
}

// namesAnItem reports whether an item given is among the features of
// names ("item=ID").
func (r *libRecommender) namesAnItem(names libNames) bool {
	for i := range names.Dim() {
		if id, ok := strings.CutPrefix(names.FeatureName(i), "item="); ok && r.byID[id] {
			return true
		}
	}
	return false
}

// itemFile adds the items of a MovieLens item list, b, named name (u.item,
// movies.dat or movies.csv: personal.ReadItems; gzip or not), their genres
// as tags. A malformed line is an error naming the file, the line and the
// field, and adds no item.
func (r *libRecommender) itemFile(b []byte, name string) error {
	if isGzip(b) {
		var err error
		if b, err = gunzip(b); err != nil {
			return errors.New(name + ": gzip: " + err.Error())
		}
	}
	items, err := personal.ReadItems(bytes.NewReader(b), name)
	if err != nil {
		return err
	}
	if len(items) == 0 {
		return errors.New(name + ": no items")
	}
	return r.addItems(items, func(k int) string { return name + ": item " + strconv.Itoa(k+1) })
}

// libCatalogItem is an item as recCatalog answers it.
type libCatalogItem struct {
	ID    string   `json:"id"`
	Title string   `json:"title"`
	Tags  []string `json:"tags"`
	Count int      `json:"count"` // ratings of it learned
	Mean  float64  `json:"mean"`  // their mean (0 with none)
	Known bool     `json:"known"` // a feature of the model: it can be rated and recommended
}

func (it *libCatalogItem) appendJSON(b []byte) []byte {
	b = core.AppendString(append(b, `{"id":`...), it.ID)
	b = core.AppendString(append(b, `,"title":`...), it.Title)
	b = appendStrings(append(b, `,"tags":`...), it.Tags)
	b = appendInt(append(b, `,"count":`...), it.Count)
	b = core.AppendNum(append(b, `,"mean":`...), it.Mean)
	b = appendBool(append(b, `,"known":`...), it.Known)
	return append(b, '}')
}

// libCatalog is the catalog as recCatalog answers it.
type libCatalog struct {
	// items are the items given (setItems, itemFile) in the order given,
	// then those of the ratings that none names, titled "item ID": its
	// "items", each written as a libCatalogItem (item).
	items []personal.CatalogItem
	// Listed is the number of items given: the first Listed of Items.
	Listed int `json:"listed"`
	// Scale is the ratings' scale, which rate takes, with its words.
	Scale libScale `json:"scale"`
	// RankedBy is what a recommendation's rank is: "match" (the learner's
	// own score, item-lift's, with the visitor's tag taste) or "stars"
	// (ŷ unclipped).
	RankedBy string `json:"rankedBy"`
}

// item returns the catalog's item k as recCatalog writes it.
func (c *libCatalog) item(k int) libCatalogItem {
	it := c.items[k]
	tags := it.Genres
	if tags == nil {
		tags = []string{}
	}
	return libCatalogItem{ID: it.ID, Title: it.Title, Tags: tags, Count: it.Count, Mean: it.Mean, Known: it.Feature >= 0}
}

func (c *libCatalog) appendJSON(b []byte) []byte {
	b = append(b, `{"items":[`...)
	for k := range c.items {
		if k > 0 {
			b = append(b, ',')
		}
		it := c.item(k)
		b = it.appendJSON(b)
	}
	b = appendInt(append(b, `],"listed":`...), c.Listed)
	b = c.Scale.appendJSON(append(b, `,"scale":`...))
	b = core.AppendString(append(b, `,"rankedBy":`...), c.RankedBy)
	return append(b, '}')
}

// catalog returns the catalog the visitor rates from, building the
// visitor as top does.
func (r *libRecommender) catalog() (libCatalog, error) {
	p, err := r.person()
	if err != nil {
		return libCatalog{}, err
	}
	pc := p.Catalog()
	out := libCatalog{items: pc.Items, Listed: len(r.items), Scale: scaleOf(pc.Scale), RankedBy: "stars"}
	out.Scale.Text = pc.Scale.String()
	if p.RanksOwnScore() {
		out.RankedBy = "match"
	}
	return out, nil
}

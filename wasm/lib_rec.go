package main

import (
	"errors"
	"math"
	"strconv"
	"time"

	"github.com/occfm/occfm/core"
	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/personal"
)

// libRecommender is a Recommender of the library calls (occfm.lib.rec*, see
// lib_js.go and lib_rec_js.go): Personalize's recommender, which the page's
// Personalize view and occfm.js's Recommender both drive. People's ratings
// {user, item, rating} are learned online as rows
// x = {user=U: 1, item=I: 1}, y = rating, by a registry learner (default
// personal.DefaultLearner), guarded with predictions clipped to the
// ratings seen: from lists (learn), or a whole catalog in slices (the
// built-in synthetic one, or a MovieLens ratings file fed in chunks: see
// lib_rec_catalog.go). The items {id, title, tags} are the catalog, their
// tags its genres: given as lists (setItems) or as a MovieLens item list
// (itemFile). A visitor then rates items and gets the top n with reasons
// (personal.Personalizer), built when first asked for and again after more
// ratings or items arrive, the visitor's own ratings replayed.
type libRecommender struct {
	name string
	seed uint64
	l    *core.Guarded
	// The features, "user=U" and "item=I", are numbered by base (the
	// stream of a catalog learned in slices, or the synthetic catalog; nil
	// for none), then by names, those lists added (learn), from base.Dim()
	// on. feat indexes them all by name: made when a list first needs it.
	base  libNames
	names []string
	feat  map[string]int
	items []personal.CatalogItem
	byID  map[string]bool // ids of items, to refuse a repeat
	pop   personal.Popularity
	m     *core.Metrics
	rows  int

	// cat is the catalog being learned in slices (lib_rec_catalog.go),
	// nil when none is.
	cat *libCatalogRun

	p     *personal.Personalizer // nil until needed, and after learn or items
	at    map[string]int         // p's catalog index of an item id
	rated []libRated             // the visitor's ratings, in order
}

// libRated is one rating of the visitor.
type libRated struct {
	item  string
	stars float64
}

// libItem is an item as lib.recItems takes it.
type libItem struct {
	id, title string
	tags      []string
}

// libRating is a rating as lib.recLearn takes it.
type libRating struct {
	user, item string
	rating     float64
}

// libRec is one recommendation as recTop and recRate answer it.
type libRec struct {
	ID      string   `json:"id"`
	Title   string   `json:"title"`
	Score   float64  `json:"score"` // the predicted stars
	Rank    float64  `json:"rank"`  // what the list is ranked by, highest first
	Reasons []string `json:"reasons"`
}

func (r *libRec) appendJSON(b []byte) []byte {
	b = core.AppendString(append(b, `{"id":`...), r.ID)
	b = core.AppendString(append(b, `,"title":`...), r.Title)
	b = core.AppendNum(append(b, `,"score":`...), r.Score)
	b = core.AppendNum(append(b, `,"rank":`...), r.Rank)
	b = appendStrings(append(b, `,"reasons":`...), r.Reasons)
	return append(b, '}')
}

// libRateAnswer is what recRate answers: the new top n, what the model
// expected of the visitor for the item just before the rating (clipped to
// the scale, as rated gives it), and the time in Go of the rating's update
// and the top n.
type libRateAnswer struct {
	Top    []libRec `json:"top"`
	Before float64  `json:"before"`
	Ms     float64  `json:"ms"`
}

func (a *libRateAnswer) appendJSON(b []byte) []byte {
	b = appendList(append(b, `{"top":`...), a.Top, (*libRec).appendJSON)
	b = core.AppendNum(append(b, `,"before":`...), a.Before)
	b = core.AppendNum(append(b, `,"ms":`...), a.Ms)
	return append(b, '}')
}

// libTop is a top list as recTop answers it.
type libTop []libRec

func (t libTop) appendJSON(b []byte) []byte { return appendList(b, t, (*libRec).appendJSON) }

// libMaxFeatures bounds the distinct users and items (features) of one
// Recommender: memory grows with them, and a page that feeds ids without
// end gets an error, not an exhausted tab. (A Learner's features are
// bounded by its memory budget instead: see libFloor.)
const libMaxFeatures = 1 << 20

// newLibRecommender makes a Recommender with the registry learner name
// ("": personal.DefaultLearner) and seed.
func newLibRecommender(name string, seed uint64) (*libRecommender, error) {
	if name == "" {
		name = personal.DefaultLearner
	}
	cfg := core.Config{Task: data.Regression, Seed: seed}
	g, err := core.NewGuarded(name, cfg, core.GuardFor("on", "", true))
	if err != nil {
		return nil, err
	}
	return &libRecommender{name: name, seed: seed, l: g, byID: map[string]bool{},
		m: core.NewMetrics(data.Regression, core.TaskLoss(data.Regression))}, nil
}

// setItems adds items to the catalog (an id given before is an error);
// every item is checked before any is added.
func (r *libRecommender) setItems(items []libItem) error {
	list := make([]personal.CatalogItem, len(items))
	for k, it := range items {
		list[k] = personal.CatalogItem{ID: it.id, Title: it.title, Genres: it.tags}
	}
	return r.addItems(list, func(k int) string { return "items[" + strconv.Itoa(k) + "]" })
}

// addItems adds items to the catalog, an item without a title titled by
// its id; every item is checked before any is added, and an error names
// the item by where(k): an empty id, or one given before. While the
// synthetic catalog is learned, which brings its own, it adds none. The
// Recommender keeps items (the first list given is not copied).
func (r *libRecommender) addItems(items []personal.CatalogItem, where func(k int) string) error {
	if r.cat != nil && r.cat.synth != nil {
		return errors.New("items: the synthetic catalog being learned brings its own items")
	}
	seen := map[string]bool{}
	for k, it := range items {
		switch {
		case it.ID == "":
			return errors.New(where(k) + ": id is empty")
		case r.byID[it.ID] || seen[it.ID]:
			return errors.New(where(k) + `: id "` + it.ID + `" is given twice`)
		}
		seen[it.ID] = true
	}
	for k := range items {
		it := &items[k]
		if it.Title == "" {
			it.Title = it.ID
		}
		it.Feature = -1
		r.byID[it.ID] = true
	}
	if r.items == nil {
		r.items = items
	} else {
		r.items = append(r.items, items...)
	}
	r.p = nil
	return nil
}

// learn learns the ratings in order (each predicted first: the
// progressive RMSE). Every rating is checked before any is learned; an
// error names it, ratings[0] being number first.
func (r *libRecommender) learn(ratings []libRating, first int) error {
	if r.cat != nil {
		return errors.New("ratings: a catalog is being learned: learn more ratings once it is done")
	}
	fresh := map[string]bool{}
	for k, x := range ratings {
		what := ""
		switch {
		case x.user == "" || x.item == "":
			what = "user and item must not be empty"
		case math.IsNaN(x.rating) || math.IsInf(x.rating, 0):
			what = "rating is " + fmtG(x.rating) + ": want a finite number (stars: the ratings learned set the scale)"
		}
		if what != "" {
			return errors.New("ratings[" + strconv.Itoa(first+k) + "]: " + what)
		}
		for _, name := range [2]string{"user=" + x.user, "item=" + x.item} {
			if _, ok := r.features()[name]; !ok {
				fresh[name] = true
			}
		}
	}
	if r.Dim()+len(fresh) > libMaxFeatures {
		return errors.New("more than " + strconv.Itoa(libMaxFeatures) + " users and items in one Recommender: none of these ratings learned")
	}
	var ex data.Example
	ex.X.Val = []float64{1, 1}
	for _, x := range ratings {
		u, i := r.index("user="+x.user), r.index("item="+x.item)
		ex.X.Ind = append(ex.X.Ind[:0], min(u, i), max(u, i))
		ex.Y = x.rating
		core.Play(r.l, ex, r.m)
		r.pop.Observe(ex)
		r.rows++
	}
	if len(ratings) > 0 {
		r.p = nil
	}
	return nil
}

// scale returns the scale of the ratings learned (personal.DefaultScale,
// 1 to 5 whole stars, before any).
func (r *libRecommender) scale() personal.Scale { return r.pop.Scale() }

// libNames numbers features by name: a *data.Stream, the synthetic
// catalog, a libRecommender.
type libNames interface {
	FeatureName(int) string
	Dim() int
}

// features returns the index of every feature by name, made from base
// the first time.
func (r *libRecommender) features() map[string]int {
	if r.feat == nil {
		r.feat = make(map[string]int, r.Dim())
		for i := range r.Dim() {
			r.feat[r.FeatureName(i)] = i
		}
	}
	return r.feat
}

// index returns the feature index of name, a new one for a name not seen.
func (r *libRecommender) index(name string) int {
	feat := r.features()
	i, ok := feat[name]
	if !ok {
		i = r.Dim()
		r.names = append(r.names, name)
		feat[name] = i
	}
	return i
}

// baseDim returns the number of features base numbers.
func (r *libRecommender) baseDim() int {
	if r.base == nil {
		return 0
	}
	return r.base.Dim()
}

// FeatureName and Dim name the learned features for personal.NewCatalog.
func (r *libRecommender) FeatureName(i int) string {
	if d := r.baseDim(); i >= d {
		return r.names[i-d]
	}
	return r.base.FeatureName(i)
}

func (r *libRecommender) Dim() int { return r.baseDim() + len(r.names) }

// person returns the visitor, building it (and replaying their ratings)
// when the catalog or the ratings changed since it was last built.
func (r *libRecommender) person() (*personal.Personalizer, error) {
	if r.p != nil {
		return r.p, nil
	}
	switch {
	case r.cat != nil:
		return nil, errors.New("the catalog is not learned yet")
	case r.rows == 0:
		return nil, errors.New("no ratings learned yet: call learn with people's ratings first")
	}
	cat := personal.NewCatalog(r.items, r, &r.pop)
	p, err := personal.NewPersonalizer(r.l, cat, r.Dim())
	if err != nil {
		return nil, err
	}
	at := make(map[string]int, len(cat.Items))
	for k, it := range cat.Items {
		at[it.ID] = k
	}
	for _, x := range r.rated {
		if _, err := p.Rate(at[x.item], x.stars); err != nil {
			return nil, err
		}
	}
	r.p, r.at = p, at
	return p, nil
}

// rate records the visitor's stars for the item id, a rating of the
// catalog's scale (the ratings learned: their lowest to highest, in whole
// or half stars; see personal.Scale); rating it again replaces them. It
// returns ŷ for the visitor and the item just before, clipped to the scale.
func (r *libRecommender) rate(id string, stars float64) (before float64, err error) {
	p, err := r.person()
	if err != nil {
		return 0, err
	}
	if err := p.Catalog().Scale.Check(stars); err != nil {
		return 0, err
	}
	k, listed := r.at[id]
	switch {
	case !listed:
		return 0, errors.New(`item "` + id + `": not in the items nor in the ratings learned`)
	case p.Catalog().Items[k].Feature < 0:
		return 0, errors.New(`item "` + id + `": nobody has rated it yet, so the model knows nothing of it`)
	}
	if before, err = p.Rate(k, stars); err != nil {
		return 0, err
	}
	for j := range r.rated {
		if r.rated[j].item == id {
			r.rated[j].stars = stars
			return before, nil
		}
	}
	r.rated = append(r.rated, libRated{item: id, stars: stars})
	return before, nil
}

// top returns the n best items for the visitor, best first, with the
// reasons in words.
func (r *libRecommender) top(n int) ([]libRec, error) {
	if n < 0 || n > 1000 {
		return nil, errors.New("n " + strconv.Itoa(n) + ": want 0 to 1000")
	}
	p, err := r.person()
	if err != nil {
		return nil, err
	}
	items := p.Catalog().Items
	out := []libRec{}
	for _, rec := range p.Recommend(n) {
		it := items[rec.Item]
		why := make([]string, len(rec.Why))
		for k, w := range rec.Why {
			why[k] = w.Text
		}
		out = append(out, libRec{ID: it.ID, Title: it.Title, Score: rec.Score, Rank: rec.Rank, Reasons: why})
	}
	return out, nil
}

// rateTop rates as rate does, then returns the top n as top does, with
// the time both took in Go.
func (r *libRecommender) rateTop(id string, stars float64, n int) (libRateAnswer, error) {
	start := time.Now()
	before, err := r.rate(id, stars)
	if err != nil {
		return libRateAnswer{}, err
	}
	top, err := r.top(n)
	if err != nil {
		return libRateAnswer{}, err
	}
	return libRateAnswer{Top: top, Before: before, Ms: float64(time.Since(start).Microseconds()) / 1000}, nil
}

// libGiven is one of the visitor's ratings as recRated answers it.
type libGiven struct {
	ID     string  `json:"id"`
	Stars  float64 `json:"stars"`
	Before float64 `json:"before"` // ŷ just before the rating, clipped to the scale
}

func (g *libGiven) appendJSON(b []byte) []byte {
	b = core.AppendString(append(b, `{"id":`...), g.ID)
	b = core.AppendNum(append(b, `,"stars":`...), g.Stars)
	b = core.AppendNum(append(b, `,"before":`...), g.Before)
	return append(b, '}')
}

// libGivenList is the visitor's ratings as recRated answers them.
type libGivenList []libGiven

func (l libGivenList) appendJSON(b []byte) []byte { return appendList(b, l, (*libGiven).appendJSON) }

// given returns the visitor's ratings in the order first given, each with
// what the model expected of the visitor just before it.
func (r *libRecommender) given() (libGivenList, error) {
	out := libGivenList{}
	if len(r.rated) == 0 {
		return out, nil
	}
	p, err := r.person()
	if err != nil {
		return nil, err
	}
	items := p.Catalog().Items
	for _, g := range p.Rated() {
		out = append(out, libGiven{ID: items[g.Item].ID, Stars: g.Stars, Before: g.Before})
	}
	return out, nil
}

// ratingsCSV returns the visitor's ratings as CSV: the header
// "item_id,title,stars" and a line per rating, in the order first given
// (personal.Personalizer.RatingsCSV).
func (r *libRecommender) ratingsCSV() (string, error) {
	p, err := r.person()
	if err != nil {
		return "", err
	}
	return string(p.RatingsCSV()), nil
}

// clear forgets the visitor's ratings.
func (r *libRecommender) clear() {
	r.rated = nil
	if r.p != nil {
		r.p.Clear()
	}
}

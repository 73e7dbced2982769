package main

import (
	"errors"
	"math"
	"strconv"

	"github.com/occfm/occfm/core"
	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/personal"
)

// libRecommender is a Recommender of the library calls (occfm.lib.rec*, see
// lib_js.go): the Personalize view's recommender over a host page's own
// catalog. People's ratings {user, item, rating} are learned online as rows
// x = {user=U: 1, item=I: 1}, y = rating, by a registry learner (default
// personal.DefaultLearner), guarded with predictions clipped to the
// ratings seen; the items {id, title, tags} are the catalog, their tags its
// genres. A visitor then rates items and gets the top n with reasons
// (personal.Personalizer), built when first asked for and again after more
// ratings or items arrive, the visitor's own ratings replayed.
type libRecommender struct {
	name  string
	l     *core.Guarded
	names []string       // feature names, "user=U" and "item=I", by index
	feat  map[string]int // index of a name
	items []personal.CatalogItem
	byID  map[string]bool // ids of items, to refuse a repeat
	pop   personal.Popularity
	m     *core.Metrics
	rows  int

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

// libRec is one recommendation as the library returns it.
type libRec struct {
	ID, Title   string
	Score, Rank float64 // the predicted stars; what the list is ranked by
	Reasons     []string
}

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
	return &libRecommender{name: name, l: g, feat: map[string]int{}, byID: map[string]bool{},
		m: core.NewMetrics(data.Regression, core.TaskLoss(data.Regression))}, nil
}

// setItems adds items to the catalog (an id given before is an error);
// every item is checked before any is added.
func (r *libRecommender) setItems(items []libItem) error {
	seen := map[string]bool{}
	for k, it := range items {
		where := "items[" + strconv.Itoa(k) + "]"
		switch {
		case it.id == "":
			return errors.New(where + ": id is empty")
		case r.byID[it.id] || seen[it.id]:
			return errors.New(where + `: id "` + it.id + `" is given twice`)
		}
		seen[it.id] = true
	}
	for _, it := range items {
		title := it.title
		if title == "" {
			title = it.id
		}
		r.items = append(r.items, personal.CatalogItem{ID: it.id, Title: title, Genres: it.tags, Feature: -1})
		r.byID[it.id] = true
	}
	r.p = nil
	return nil
}

// learn learns the ratings in order (each predicted first: the
// progressive RMSE). Every rating is checked before any is learned; an
// error names it, ratings[0] being number first.
func (r *libRecommender) learn(ratings []libRating, first int) error {
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
			if _, ok := r.feat[name]; !ok {
				fresh[name] = true
			}
		}
	}
	if len(r.names)+len(fresh) > libMaxFeatures {
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

// index returns the feature index of name, a new one for a name not seen.
func (r *libRecommender) index(name string) int {
	i, ok := r.feat[name]
	if !ok {
		i = len(r.names)
		r.names = append(r.names, name)
		r.feat[name] = i
	}
	return i
}

// FeatureName and Dim name the learned features for personal.NewCatalog.
func (r *libRecommender) FeatureName(i int) string { return r.names[i] }
func (r *libRecommender) Dim() int                 { return len(r.names) }

// person returns the visitor, building it (and replaying their ratings)
// when the catalog or the ratings changed since it was last built.
func (r *libRecommender) person() (*personal.Personalizer, error) {
	if r.p != nil {
		return r.p, nil
	}
	if r.rows == 0 {
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
// or half stars; see personal.Scale); rating it again replaces them.
func (r *libRecommender) rate(id string, stars float64) error {
	p, err := r.person()
	if err != nil {
		return err
	}
	if err := p.Catalog().Scale.Check(stars); err != nil {
		return err
	}
	k, listed := r.at[id]
	switch {
	case !listed:
		return errors.New(`item "` + id + `": not in the items nor in the ratings learned`)
	case p.Catalog().Items[k].Feature < 0:
		return errors.New(`item "` + id + `": nobody has rated it yet, so the model knows nothing of it`)
	}
	if _, err := p.Rate(k, stars); err != nil {
		return err
	}
	for j := range r.rated {
		if r.rated[j].item == id {
			r.rated[j].stars = stars
			return nil
		}
	}
	r.rated = append(r.rated, libRated{item: id, stars: stars})
	return nil
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

// clear forgets the visitor's ratings.
func (r *libRecommender) clear() {
	r.rated = nil
	if r.p != nil {
		r.p.Clear()
	}
}

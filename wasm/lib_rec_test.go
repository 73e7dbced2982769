package main

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/occfm/occfm/core"
	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/personal"
)

// synthRecommender returns a Recommender that learned the synthetic
// catalog of seed (its items with their genres as tags, its ratings as
// {user, item, rating}), and the catalog.
func synthRecommender(t *testing.T, learner string, seed uint64) (*libRecommender, *personal.SyntheticCatalog) {
	t.Helper()
	s := personal.NewSyntheticCatalog(seed)
	r, err := newLibRecommender(learner, seed)
	if err != nil {
		t.Fatal(err)
	}
	var items []libItem
	for _, it := range s.Items() {
		items = append(items, libItem{id: it.ID, title: it.Title, tags: it.Genres})
	}
	if err := r.setItems(items); err != nil {
		t.Fatal(err)
	}
	var ratings []libRating
	var ex data.Example
	for s.Next(&ex) == nil {
		ratings = append(ratings, libRating{
			user:   strings.TrimPrefix(s.FeatureName(ex.X.Ind[0]), "user="),
			item:   strings.TrimPrefix(s.FeatureName(ex.X.Ind[1]), "item="),
			rating: ex.Y})
	}
	// In two calls: the second rebuilds nothing yet, and learns on.
	half := len(ratings) / 2
	for _, part := range [][]libRating{ratings[:half], ratings[half:]} {
		if err := r.learn(part, 0); err != nil {
			t.Fatal(err)
		}
	}
	s.Reset()
	return r, s
}

func mustTop(t *testing.T, r *libRecommender, n int) []libRec {
	t.Helper()
	top, err := r.top(n)
	if err != nil {
		t.Fatal(err)
	}
	return top
}

// TestLibRecommenderMatchesPersonalize checks the Recommender against the
// Personalize view's path (a guarded learner over the catalog's stream,
// personal.NewCatalog, NewPersonalizer): the same top 10, scores and
// reasons, cold and after five ratings, although the Recommender numbers
// its features in the order the ratings name them. The learners checked
// do not depend on that numbering (occfm-k and fm-ftrl do: their random
// starts are drawn by feature index).
func TestLibRecommenderMatchesPersonalize(t *testing.T) {
	for _, learner := range []string{"", "bias"} {
		r, s := synthRecommender(t, learner, 3)
		name := cmp(learner, personal.DefaultLearner)
		g, err := core.NewGuarded(name, core.Config{Task: data.Regression, Seed: 3}, core.GuardFor("on", "", true))
		if err != nil {
			t.Fatal(err)
		}
		var pop personal.Popularity
		m := core.NewMetrics(data.Regression, core.TaskLoss(data.Regression))
		var ex data.Example
		for s.Next(&ex) == nil {
			core.Play(g, ex, m)
			pop.Observe(ex)
		}
		p, err := personal.NewPersonalizer(g, personal.NewCatalog(s.Items(), s, &pop), s.Dim())
		if err != nil {
			t.Fatal(err)
		}
		check := func(when string) {
			t.Helper()
			got, want := mustTop(t, r, 10), p.Recommend(10)
			if len(got) != len(want) {
				t.Fatalf("%s %s: %d recommendations, want %d", name, when, len(got), len(want))
			}
			for k, w := range want {
				it := p.Catalog().Items[w.Item]
				if got[k].ID != it.ID || math.Abs(got[k].Score-w.Score) > 1e-9 || len(got[k].Reasons) != len(w.Why) {
					t.Fatalf("%s %s: #%d is %s (%.6f, %d reasons), want %s (%.6f, %d)", name, when, k,
						got[k].ID, got[k].Score, len(got[k].Reasons), it.ID, w.Score, len(w.Why))
				}
			}
		}
		check("cold")
		for k, id := range []string{"4", "40", "17", "230", "9"} {
			stars := float64(1 + k)
			if err := r.rate(id, stars); err != nil {
				t.Fatal(err)
			}
			if _, err := p.Rate(slices.IndexFunc(p.Catalog().Items, func(it personal.CatalogItem) bool { return it.ID == id }), stars); err != nil {
				t.Fatal(err)
			}
		}
		check("after 5 ratings")
	}
}

func cmp(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// TestLibRecommenderRebuild checks that ratings or items added after the
// visitor rated keep the visitor's ratings (replayed into the new model),
// that rated items never come back, and that clear gives the cold list.
func TestLibRecommenderRebuild(t *testing.T) {
	r, _ := synthRecommender(t, "", 5)
	cold := mustTop(t, r, 10)
	for _, id := range []string{cold[0].ID, cold[1].ID} {
		if err := r.rate(id, 5); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.learn([]libRating{{user: "new", item: "3", rating: 4}}, 0); err != nil {
		t.Fatal(err)
	}
	if err := r.setItems([]libItem{{id: "extra", title: "An item nobody rated"}}); err != nil {
		t.Fatal(err)
	}
	after := mustTop(t, r, 10)
	for _, rec := range after {
		if rec.ID == cold[0].ID || rec.ID == cold[1].ID || rec.ID == "extra" {
			t.Errorf("top 10 after the rebuild holds %s, rated or never rated", rec.ID)
		}
	}
	if len(r.rated) != 2 {
		t.Errorf("%d ratings of the visitor after the rebuild, want 2", len(r.rated))
	}
	r.clear()
	again := mustTop(t, r, 10)
	if len(again) != 10 || len(r.rated) != 0 {
		t.Fatalf("after clear: %d items, %d ratings", len(again), len(r.rated))
	}
}

// TestLibRecommenderBad feeds each bad input and checks the error names
// it, and that the recommender still answers as before.
func TestLibRecommenderBad(t *testing.T) {
	if _, err := newLibRecommender("no-such", 1); err == nil {
		t.Error("an unknown learner was accepted")
	}
	empty, _ := newLibRecommender("", 1)
	if _, err := empty.top(10); err == nil || !strings.Contains(err.Error(), "no ratings") {
		t.Errorf("top before any rating: %v", err)
	}
	r, _ := synthRecommender(t, "", 2)
	want := mustTop(t, r, 10)
	for _, c := range []struct {
		name string
		f    func() error
		msg  string
	}{
		{"empty id", func() error { return r.setItems([]libItem{{id: "a"}, {id: ""}}) }, "items[1]: id is empty"},
		{"twice", func() error { return r.setItems([]libItem{{id: "a"}, {id: "a"}}) }, `items[1]: id "a" is given twice`},
		{"known id", func() error { return r.setItems([]libItem{{id: "7"}}) }, `items[0]: id "7" is given twice`},
		{"NaN", func() error { return r.learn([]libRating{{"u", "1", 4}, {"u", "2", math.NaN()}}, 0) }, "ratings[1]: rating is NaN"},
		{"no user", func() error { return r.learn([]libRating{{"", "1", 4}}, 0) }, "ratings[0]: user and item must not be empty"},
		{"stars", func() error { return r.rate("7", 0) }, "0 stars: off this catalog's scale, 1 to 5 in whole stars"},
		{"half a star", func() error { return r.rate("7", 2.5) }, "2.5 stars: off this catalog's scale, 1 to 5 in whole stars"},
		{"ten", func() error { return r.rate("7", 10) }, "10 stars: off this catalog's scale"},
		{"unknown", func() error { return r.rate("nope", 4) }, `item "nope": not in the items`},
		{"n", func() error { _, err := r.top(-1); return err }, "n -1"},
	} {
		err := c.f()
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: error %v, want one with %q", c.name, err, c.msg)
		}
		got := mustTop(t, r, 10)
		if len(got) != len(want) || got[0].ID != want[0].ID || got[9].ID != want[9].ID {
			t.Errorf("%s: the top 10 changed after the error", c.name)
		}
	}
	if err := r.setItems([]libItem{{id: "never"}}); err != nil {
		t.Fatal(err)
	}
	if err := r.rate("never", 4); err == nil || !strings.Contains(err.Error(), "nobody has rated it") {
		t.Errorf("rating an item nobody rated: %v", err)
	}
}

// TestLibRecommenderBounded checks that a Recommender refuses ratings that
// would take it past libMaxFeatures users and items, learning none of them.
func TestLibRecommenderBounded(t *testing.T) {
	r, _ := newLibRecommender("", 1)
	r.names = make([]string, libMaxFeatures-1)
	err := r.learn([]libRating{{"u1", "i1", 3}}, 0)
	if err == nil || !strings.Contains(err.Error(), "more than") || r.rows != 0 {
		t.Fatalf("past the bound: error %v, %d rows learned", err, r.rows)
	}
}

// TestLibRecommenderScale: the Recommender takes the scale of the ratings
// it learned: half stars from 0.5 on a catalog that has them, ratings to 10
// on a 1–10 one; a rating off the scale is refused, naming it.
func TestLibRecommenderScale(t *testing.T) {
	for _, c := range []struct {
		lift    func(y float64) float64 // from the synthetic 1–5 stars
		want    personal.Scale
		ok, bad []float64
	}{
		{func(y float64) float64 {
			if y == 1 || y == 3 {
				return y - 0.5
			}
			return y
		}, personal.Scale{Lo: 0.5, Hi: 5, Step: 0.5}, []float64{0.5, 2.5, 5}, []float64{0.7, 0, 5.5}},
		{func(y float64) float64 { return 2 * y }, personal.Scale{Lo: 2, Hi: 10, Step: 1}, []float64{2, 7, 10}, []float64{1, 2.5, 11}},
	} {
		s := personal.NewSyntheticCatalog(1)
		r, err := newLibRecommender("", 1)
		if err != nil {
			t.Fatal(err)
		}
		var ratings []libRating
		var ex data.Example
		for s.Next(&ex) == nil {
			ratings = append(ratings, libRating{user: s.FeatureName(ex.X.Ind[0]), item: strings.TrimPrefix(s.FeatureName(ex.X.Ind[1]), "item="), rating: c.lift(ex.Y)})
		}
		if err := r.learn(ratings, 0); err != nil {
			t.Fatal(err)
		}
		if got := r.scale(); got != c.want {
			t.Fatalf("scale %v, want %v", got, c.want)
		}
		item := ratings[0].item
		for _, v := range c.ok {
			if err := r.rate(item, v); err != nil {
				t.Errorf("%v: rate %v: %v", c.want, v, err)
			}
		}
		for _, v := range c.bad {
			if err := r.rate(item, v); err == nil || !strings.Contains(err.Error(), c.want.String()) {
				t.Errorf("%v: rate %v: error %v, want one naming the scale", c.want, v, err)
			}
		}
	}
}

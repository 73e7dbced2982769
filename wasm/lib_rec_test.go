package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

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
			if _, err := r.rate(id, stars); err != nil {
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
		if _, err := r.rate(id, 5); err != nil {
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
		{"stars", func() error { _, err := r.rate("7", 0); return err }, "0 stars: off this catalog's scale, 1 to 5 in whole stars"},
		{"half a star", func() error { _, err := r.rate("7", 2.5); return err }, "2.5 stars: off this catalog's scale, 1 to 5 in whole stars"},
		{"ten", func() error { _, err := r.rate("7", 10); return err }, "10 stars: off this catalog's scale"},
		{"unknown", func() error { _, err := r.rate("nope", 4); return err }, `item "nope": not in the items`},
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
	if _, err := r.rate("never", 4); err == nil || !strings.Contains(err.Error(), "nobody has rated it") {
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
			if _, err := r.rate(item, v); err != nil {
				t.Errorf("%v: rate %v: %v", c.want, v, err)
			}
		}
		for _, v := range c.bad {
			if _, err := r.rate(item, v); err == nil || !strings.Contains(err.Error(), c.want.String()) {
				t.Errorf("%v: rate %v: error %v, want one naming the scale", c.want, v, err)
			}
		}
	}
}

// movielens100k holds u.data and u.item (tests skip without them).
const movielens100k = "../../shared/data/movielens-100k"

// catalogItems returns c's items as recCatalog writes them.
func catalogItems(c libCatalog) []libCatalogItem {
	out := make([]libCatalogItem, len(c.items))
	for k := range out {
		out[k] = c.item(k)
	}
	return out
}

// runCatalog runs r's catalog until it is learned, failing on an error.
func runCatalog(t *testing.T, r *libRecommender) libProgress {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		p, err := r.run(10 * time.Millisecond)
		if err != nil {
			t.Fatalf("learning the catalog: %v", err)
		}
		if p.State == "done" {
			return p
		}
		if time.Now().After(deadline) {
			t.Fatalf("not learned: %+v", p)
		}
	}
}

// fileRecommender returns a Recommender learning the ratings file named
// name (its bytes fed in chunks of 1 MiB, then its end) with the item list
// items named itemsName.
func fileRecommender(t *testing.T, name string, ratings []byte, itemsName string, items []byte) *libRecommender {
	t.Helper()
	r, err := newLibRecommender("", 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.learnCatalog(name, int64(len(ratings))); err != nil {
		t.Fatal(err)
	}
	if err := r.itemFile(items, itemsName); err != nil {
		t.Fatal(err)
	}
	c, err := r.catalogFile()
	if err != nil {
		t.Fatal(err)
	}
	for off := 0; off < len(ratings); off += 1 << 20 {
		c.feed(ratings[off:min(len(ratings), off+1<<20)])
	}
	c.s.end()
	return r
}

// TestPersonalSynthetic: the synthetic catalog, as the page's Personalize
// view learns it (a Recommender of the default learner, seed 1), is learned
// to the end with the progress reaching 1; then every rating returns a top
// 10 that holds no rated item; clear brings back the cold-start list.
func TestPersonalSynthetic(t *testing.T) {
	r, err := newLibRecommender("", 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.learnCatalog("", 0); err != nil {
		t.Fatal(err)
	}
	if _, err := r.top(10); err == nil || err.Error() != "the catalog is not learned yet" {
		t.Errorf("top while learning: %v", err)
	}
	p := runCatalog(t, r)
	if p.Progress == nil || *p.Progress != 1 || p.Rows != personal.NewSyntheticCatalog(1).Rows() || p.RMSE == nil || r.rows != p.Rows {
		t.Fatalf("progress when done: %+v (%d rows learned)", p, r.rows)
	}
	cat, err := r.catalog()
	if err != nil || len(catalogItems(cat)) == 0 || cat.Listed != len(catalogItems(cat)) || cat.RankedBy != "match" || cat.Scale.Text != "1 to 5 in whole stars" {
		t.Fatalf("catalog: %v, %d items, %d listed, ranked by %q, scale %+v", err, len(catalogItems(cat)), cat.Listed, cat.RankedBy, cat.Scale)
	}
	cold := mustTop(t, r, 10)
	if len(cold) != 10 {
		t.Fatalf("cold start: %+v", cold)
	}
	rated := map[string]bool{}
	for k, id := range []string{cold[0].ID, cold[3].ID, "17", "42", "99"} {
		a, err := r.rateTop(id, float64(1+k%5), 10)
		if err != nil {
			t.Fatal(err)
		}
		rated[id] = true
		given, err := r.given()
		if err != nil || len(given) != len(rated) || len(a.Top) != 10 || a.Ms < 0 || given[len(given)-1].Before != a.Before {
			t.Fatalf("rating %d: %v, ratings given %+v, %+v", k, err, given, a)
		}
		for _, rec := range a.Top {
			if rated[rec.ID] {
				t.Fatalf("rating %d: rated item %s recommended", k, rec.ID)
			}
			if len(rec.Reasons) == 0 {
				t.Errorf("rating %d: no reason for item %s", k, rec.ID)
			}
		}
	}
	csv, err := r.ratingsCSV()
	if n := strings.Count(csv, "\n"); err != nil || n != 6 || !strings.HasPrefix(csv, "item_id,title,stars\n") {
		t.Errorf("CSV (%v) has %d lines, want 6:\n%s", err, n, csv)
	}
	r.clear()
	again := mustTop(t, r, 10)
	for i := range again {
		if again[i].ID != cold[i].ID || again[i].Score != cold[i].Score {
			t.Fatalf("after clear, rec %d is %+v, want %+v", i, again[i], cold[i])
		}
	}
	if given, _ := r.given(); len(given) != 0 {
		t.Errorf("after clear: %d ratings given", len(given))
	}
	if _, err := r.rate("-1", 3); err == nil {
		t.Error("rating item -1 gave no error")
	}
}

// TestPersonalMovieLens: MovieLens 100K from its two files, the ratings fed
// in chunks as the page feeds them: Latin-1 titles decoded, the progress
// reaches 1, and a rating with its top 10 is one update and one ranking of
// the catalog.
func TestPersonalMovieLens(t *testing.T) {
	ratings, err := os.ReadFile(movielens100k + "/u.data")
	if err != nil {
		t.Skipf("MovieLens 100K: %v", err)
	}
	items, err := os.ReadFile(movielens100k + "/u.item")
	if err != nil {
		t.Skipf("MovieLens 100K: %v", err)
	}
	r := fileRecommender(t, "u.data", ratings, "u.item", items)
	p := runCatalog(t, r)
	cat, err := r.catalog()
	if err != nil || p.Rows != 100000 || len(catalogItems(cat)) != 1682 || cat.Listed != 1682 || *p.Progress != 1 {
		t.Fatalf("progress %+v; catalog: %v, %d items, %d listed", p, err, len(catalogItems(cat)), cat.Listed)
	}
	if !slices.ContainsFunc(catalogItems(cat), func(it libCatalogItem) bool { return it.Title == "Misérables, Les (1995)" }) {
		t.Error("the catalog lacks “Misérables, Les (1995)” (Latin-1 decoded)")
	}
	if k := slices.IndexFunc(catalogItems(cat), func(it libCatalogItem) bool { return !it.Known }); k >= 0 {
		t.Errorf("item %+v of ML-100K is not known", catalogItems(cat)[k])
	}
	// A rating is one update and one ranking of the catalog, whatever the
	// file's size: bounded in predictions (personal.Personalizer.Predictions:
	// Rate's one, one RankScores call of the default item-lift for all the
	// unrated items and one ŷ for each of the 10 returned; item-lift gives
	// its reasons from its own terms), not in milliseconds, which a busy
	// machine stretches. The time is logged; core's BenchmarkPersonalize
	// times it.
	n0 := r.p.Predictions()
	a, err := r.rateTop("50", 5, 10) // Star Wars (1977)
	if err != nil {
		t.Fatal(err)
	}
	preds := r.p.Predictions() - n0
	t.Logf("rate + top 10 on ML-100K: %d predictions, %.2f ms in Go; first: %+v", preds, a.Ms, a.Top[0])
	if want := 1 + 1 + 10; preds != want || len(a.Top) != 10 {
		t.Errorf("a rating made %d predictions and returned %d items, want %d and 10", preds, len(a.Top), want)
	}
}

// TestPersonalFilesMismatch: a ratings file whose items are not in the
// item list is an error, and leaves the Recommender as it was; so does a
// malformed row, named by its file, line and field.
func TestPersonalFilesMismatch(t *testing.T) {
	r := fileRecommender(t, "u.data", []byte("1\t1\t5\t881250949\n2\t2\t3\t881250949\n"),
		"u.item", []byte("900|Nowhere (1999)|01-Jan-1999||http://x|0|0|0|0|0|0|0|0|1|0|0|0|0|0|0|0|0|0|0\n"))
	var err error
	for range 100 {
		if _, err = r.run(10 * time.Millisecond); err != nil {
			break
		}
	}
	if err == nil || !strings.Contains(err.Error(), "same MovieLens set") || r.rows != 0 || r.cat != nil {
		t.Fatalf("error %v; %d rows learned, catalog %v", err, r.rows, r.cat)
	}
	if _, err := r.run(10 * time.Millisecond); err == nil || !strings.Contains(err.Error(), "no catalog is being learned") {
		t.Errorf("run after the error: %v", err)
	}

	r = fileRecommender(t, "u.data", []byte("1\t1\t5\t1\n2\t2\tfive\t2\n"), "u.item",
		[]byte("1|A (1999)|01-Jan-1999||http://x|0|0|0|0|0|0|0|0|1|0|0|0|0|0|0|0|0|0|0\n"))
	for range 100 {
		if _, err = r.run(10 * time.Millisecond); err != nil {
			break
		}
	}
	if err == nil || !strings.Contains(err.Error(), `u.data:2`) || !strings.Contains(err.Error(), `field "rating"`) || r.rows != 0 {
		t.Fatalf("a malformed row: error %v, %d rows learned", err, r.rows)
	}

	// A catalog goes to a new Recommender, and lists wait for its end.
	r, _ = synthRecommender(t, "", 2)
	if err := r.learnCatalog("u.data", 0); err == nil || !strings.Contains(err.Error(), "new Recommender") {
		t.Errorf("a catalog after ratings: %v", err)
	}
	r, _ = newLibRecommender("", 1)
	r.learnCatalog("", 0)
	if err := r.learn([]libRating{{"u", "1", 4}}, 0); err == nil || !strings.Contains(err.Error(), "a catalog is being learned") {
		t.Errorf("ratings while a catalog is learned: %v", err)
	}
	if err := r.setItems([]libItem{{id: "x"}}); err == nil || !strings.Contains(err.Error(), "brings its own items") {
		t.Errorf("items while the synthetic catalog is learned: %v", err)
	}
	r.stopCatalog()
	if r.cat != nil || r.rows != 0 {
		t.Errorf("after stop: catalog %v, %d rows", r.cat, r.rows)
	}
}

// TestPersonalLayouts: the other MovieLens layouts, ratings.csv (with its
// header) + movies.csv, and ratings.dat + movies.dat (the ratings gzip,
// fed as they are: the session gunzips them).
func TestPersonalLayouts(t *testing.T) {
	gz := func(b []byte) []byte {
		var buf bytes.Buffer
		w := gzip.NewWriter(&buf)
		w.Write(b)
		w.Close()
		return buf.Bytes()
	}
	for _, c := range []struct {
		ratings, items string
		rdata, idata   []byte
	}{
		{"ratings.csv", "movies.csv",
			[]byte("userId,movieId,rating,timestamp\n1,10,4.0,1\n1,20,2.5,2\n2,10,5.0,3\n2,30,3.0,4\n"),
			[]byte("movieId,title,genres\n10,\"Amélie (2001)\",Comedy|Romance\n20,Heat (1995),Action|Crime|Thriller\n30,\"Matrix, The (1999)\",Action|Sci-Fi\n")},
		{"ratings.dat.gz", "movies.dat",
			gz([]byte("1::10::4::1\n1::20::2::2\n2::10::5::3\n2::30::3::4\n")),
			[]byte("10::Am\xe9lie (2001)::Comedy|Romance\n20::Heat (1995)::Action|Crime|Thriller\n30::Matrix, The (1999)::Action|Sci-Fi\n")},
	} {
		t.Run(c.ratings, func(t *testing.T) {
			r := fileRecommender(t, c.ratings, c.rdata, c.items, c.idata)
			p := runCatalog(t, r)
			cat, err := r.catalog()
			if err != nil || p.Rows != 4 || len(catalogItems(cat)) != 3 || cat.Listed != 3 {
				t.Fatalf("progress %+v; catalog %v, %+v", p, err, cat)
			}
			if it := catalogItems(cat)[0]; it.Title != "Amélie (2001)" || it.Count != 2 || !slices.Equal(it.Tags, []string{"Comedy", "Romance"}) {
				t.Errorf("item 0: %+v", it)
			}
			a, err := r.rateTop("10", 5, 10)
			given, _ := r.given()
			if err != nil || len(a.Top) != 2 || len(given) != 1 {
				t.Errorf("after a rating: %v, %+v, %+v", err, a, given)
			}
		})
	}
}

// TestPersonalFiniteJSON: a rating of 1e300 in the catalog leaves every
// JSON of the Recommender valid.
func TestPersonalFiniteJSON(t *testing.T) {
	r := fileRecommender(t, "u.data", []byte("1\t1\t1e300\t1\n2\t2\t3\t2\n1\t2\t4\t3\n"), "u.item",
		[]byte("1|A|01-Jan-1995||x|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0\n2|B|01-Jan-1995||x|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0\n"))
	var out []string
	for range 100 {
		p, err := r.run(time.Second)
		if err != nil {
			out = append(out, errorOnlyJSON(err.Error()))
			break
		}
		out = append(out, jsonString(&p))
		if p.State == "done" {
			break
		}
	}
	if cat, err := r.catalog(); err == nil {
		out = append(out, jsonString(&cat))
	}
	if top, err := r.top(10); err == nil {
		out = append(out, jsonString(libTop(top)))
	}
	if a, err := r.rateTop("1", 4, 10); err == nil {
		out = append(out, jsonString(&a))
	}
	if g, err := r.given(); err == nil {
		out = append(out, jsonString(g))
	}
	for _, js := range out {
		if !json.Valid([]byte(js)) || strings.Contains(js, "json:") {
			t.Errorf("not JSON, or a JSON error: %s", js)
		}
	}
	t.Logf("%d answers, the last %.200s", len(out), out[len(out)-1])
}

// TestLibItemFileErrors: an item list that is not gzip after its magic
// bytes, or holds no item, is refused, naming the file.
func TestLibItemFileErrors(t *testing.T) {
	r, _ := newLibRecommender("", 1)
	if err := r.itemFile([]byte("\x1f\x8b\x08junk"), "u.item"); err == nil || !strings.HasPrefix(err.Error(), "u.item: gzip: ") {
		t.Errorf("gzip: %v", err)
	}
	if err := r.itemFile([]byte("movieId,title,genres\n"), "movies.csv"); err == nil || err.Error() != "movies.csv: no items" {
		t.Errorf("no items: %v", err)
	}
	if err := r.itemFile([]byte("1::A::Drama\n1::B::Drama\n"), "movies.dat"); err == nil || !strings.Contains(err.Error(), "movies.dat:2") {
		t.Errorf("an id twice: %v", err)
	}
	if len(r.items) != 0 {
		t.Errorf("%d items added by files refused", len(r.items))
	}
}

// TestLibRecJSONMatchesEncodingJSON: what the Recommender's calls answer
// (a top list, a rating's answer, the ratings given, a catalog's progress,
// the catalog), byte for byte as encoding/json writes the same values.
func TestLibRecJSONMatchesEncodingJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	randRec := func() libRec {
		return libRec{ID: randString(rng), Title: randString(rng), Score: randFloat(rng), Rank: randFloat(rng), Reasons: randStrings(rng)}
	}
	for range 5000 {
		top := maybe(rng, func() libTop { return make(libTop, rng.IntN(3)) })
		for i := range top {
			top[i] = randRec()
		}
		sameJSON(t, top)
		a := libRateAnswer{Top: top, Before: randFloat(rng), Ms: randFloat(rng)}
		sameJSON(t, &a)
		g := maybe(rng, func() libGivenList { return make(libGivenList, rng.IntN(3)) })
		for i := range g {
			g[i] = libGiven{ID: randString(rng), Stars: randFloat(rng), Before: randFloat(rng)}
		}
		sameJSON(t, g)
		sc := libScale{Lo: randFloat(rng), Hi: randFloat(rng), Step: randFloat(rng), Text: maybe(rng, func() string { return randString(rng) })}
		p := libProgress{State: randString(rng), Rows: randInt(rng), Seconds: randFloat(rng), Scale: sc}
		p.RMSE = maybe(rng, func() *float64 { return randFinitePtr(rng) })
		p.Progress = maybe(rng, func() *float64 { return randFinitePtr(rng) })
		sameJSON(t, &p)
		c := libCatalog{Listed: randInt(rng), Scale: sc, RankedBy: randString(rng)}
		c.items = maybe(rng, func() []personal.CatalogItem { return make([]personal.CatalogItem, rng.IntN(3)) })
		for i := range c.items {
			c.items[i] = personal.CatalogItem{ID: randString(rng), Title: randString(rng), Genres: randStrings(rng), Count: randInt(rng), Mean: randFloat(rng), Feature: rng.IntN(3) - 1}
		}
		sameCatalogJSON(t, &c)
		for i := range c.items {
			it := c.item(i)
			sameJSON(t, &it)
		}
	}
	sameJSON(t, &libProgress{})
	sameCatalogJSON(t, &libCatalog{})
	sameJSON(t, &libRateAnswer{})
}

// sameCatalogJSON fails unless c's JSON is what encoding/json writes for
// the same catalog, its items as libCatalogItem.
func sameCatalogJSON(t *testing.T, c *libCatalog) {
	t.Helper()
	want, err := json.Marshal(struct {
		Items    []libCatalogItem `json:"items"`
		Listed   int              `json:"listed"`
		Scale    libScale         `json:"scale"`
		RankedBy string           `json:"rankedBy"`
	}{catalogItems(*c), c.Listed, c.Scale, c.RankedBy})
	if err != nil {
		t.Fatal(err)
	}
	if got := c.appendJSON(nil); !bytes.Equal(got, want) {
		t.Fatalf("libCatalog:\nappendJSON    %s\nencoding/json %s", got, want)
	}
}

// TestLibRecommenderAfterCatalog: ratings given as lists after a catalog
// learned in slices extend its numbering: a new person is a new feature,
// a film of the catalog keeps its own; the visitor's ratings are replayed.
func TestLibRecommenderAfterCatalog(t *testing.T) {
	r, _ := newLibRecommender("", 1)
	if err := r.learnCatalog("", 0); err != nil {
		t.Fatal(err)
	}
	runCatalog(t, r)
	dim, rows := r.Dim(), r.rows
	if _, err := r.rate("3", 5); err != nil {
		t.Fatal(err)
	}
	if err := r.learn([]libRating{{"newcomer", "3", 4}, {"newcomer", "5", 2}}, 0); err != nil {
		t.Fatal(err)
	}
	if r.Dim() != dim+1 || r.rows != rows+2 || r.FeatureName(dim) != "user=newcomer" {
		t.Fatalf("after the lists: %d features (was %d), %d rows (was %d), feature %d %q", r.Dim(), dim, r.rows, rows, dim, r.FeatureName(dim))
	}
	if i, ok := r.features()["item=3"]; !ok || i >= dim || r.FeatureName(i) != "item=3" {
		t.Errorf("item=3 is feature %d (%v) of %d", i, ok, dim)
	}
	top := mustTop(t, r, 10)
	if given, _ := r.given(); len(top) != 10 || len(given) != 1 || given[0].ID != "3" {
		t.Errorf("after the lists: %d recommended, ratings given %+v", len(top), given)
	}
}

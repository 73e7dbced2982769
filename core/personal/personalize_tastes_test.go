package personal

import (
	"math"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/occfm/occfm/core"
)

// The tests of whether Personalize follows a person's tastes on the
// synthetic catalog, whose people have planted ones.

// plantedHits rates, for persons new persons, the 10 items each chooses
// first (SyntheticCatalog.Chosen: as the catalog's people chose theirs)
// with their rounded TrueRating, and returns the mean
// hits@10 of Recommend(10) and of popularity alone against the person's true
// top 10 among the unrated items.
func plantedHits(t testing.TB, l core.Learner, c *Catalog, s *SyntheticCatalog, persons int, seed uint64) (model, popular, coldHits float64) {
	t.Helper()
	byCount := make([]int, len(c.Items))
	for k := range byCount {
		byCount[k] = k
	}
	sort.SliceStable(byCount, func(a, b int) bool { return c.Items[byCount[a]].Count > c.Items[byCount[b]].Count })
	for k := range persons {
		ps := seed*1000 + uint64(k) + 1
		person := s.NewPerson(ps)
		p, err := NewPersonalizer(l, c, s.Dim())
		if err != nil {
			t.Fatal(err)
		}
		cold0 := p.Recommend(len(c.Items))
		rated := map[int]bool{}
		for _, it := range s.Chosen(person, 10, ps) {
			rated[it] = true
			if _, err := p.Rate(it, math.Round(s.TrueRating(person, it))); err != nil {
				t.Fatal(err)
			}
		}
		var unrated []int
		for i, it := range c.Items {
			if it.Feature >= 0 && !rated[i] {
				unrated = append(unrated, i)
			}
		}
		truth := slices.Clone(unrated)
		sort.SliceStable(truth, func(a, b int) bool { return s.TrueRating(person, truth[a]) > s.TrueRating(person, truth[b]) })
		var cold []Recommendation
		for _, rec := range cold0 {
			if !rated[rec.Item] && len(cold) < 10 {
				cold = append(cold, rec)
			}
		}
		fav := map[int]bool{}
		for _, i := range truth[:10] {
			fav[i] = true
		}
		for _, rec := range cold {
			if fav[rec.Item] {
				coldHits++
			}
		}
		for _, rec := range p.Recommend(10) {
			if fav[rec.Item] {
				model++
			}
		}
		n := 0
		for _, i := range byCount {
			if n == 10 {
				break
			}
			if !rated[i] && c.Items[i].Feature >= 0 {
				n++
				if fav[i] {
					popular++
				}
			}
		}
	}
	return model / float64(persons), popular / float64(persons), coldHits / float64(persons)
}

// TestPersonalPlantedTastes: on the synthetic catalog (planted tastes,
// people who choose what they rate), after 10 ratings the top-10
// recommendations hit the person's true favourites far better than
// popularity alone, and occfm-k's, folded in (see folding), at least as
// well as fm-ftrl's on average.
//
// Measured (50 persons per seed, each rating the 10 items they choose
// first, SyntheticCatalog.Chosen, with their rounded TrueRating; hits@10
// against the true top 10 among the unrated items; default Config):
//
//	learner    seed  after 10 ratings  popularity  before rating
//	fm-ftrl    1     2.72              0.38        0.76
//	fm-ftrl    2     3.98              0.94        1.62
//	fm-ftrl    3     3.12              0.68        1.72
//	occfm      1     1.20              0.38        1.20
//	occfm      2     1.76              0.94        1.76
//	occfm      3     1.34              0.68        1.34
//	occfm-auto 1     1.38              0.38        1.30
//	occfm-auto 2     2.56              0.94        1.68
//	occfm-auto 3     1.94              0.68        1.46
//	occfm-k    1     3.06              0.38        1.30
//	occfm-k    2     4.14              0.94        1.68
//	occfm-k    3     3.56              0.68        1.46
//	item-lift  1     2.34              0.38        0.38
//	item-lift  2     3.10              0.94        0.94
//	item-lift  3     2.98              0.68        0.68
//
// item-lift ranks by what people who rated the person's films also rated
// and how they agree: since the catalog's people choose by taste, the
// person's chosen films point to their taste's films, and it gains at
// least one hit over popularity on every seed (on the catalog before the
// choice, whose people rated by popularity alone, 0.78 / 1.64 / 1.28). It
// stays below occfm-k and fm-ftrl: the measure is a person's top 10 by
// their true rating, what a rating model fits, while item-lift's weights
// are set for what people choose and like on MovieLens (docs/findings.md).
//
// occfm and occfm-auto, which learn the person by online updates, do not
// personalize: 10 Frank-Wolfe steps of size γₜ ≈ 0.005 toward the dominant
// eigenvector of the whole gradient sum leave the new person's row of C
// near 0, so their ranking after the ratings is their cold-start ranking,
// which beats popularity only through the item biases; occfm-auto's
// experts move the person's bias, which shifts every item alike. Their
// numbers are logged and checked to be at least popularity's on average.
func TestPersonalPlantedTastes(t *testing.T) {
	seeds := []uint64{1, 2, 3}
	if testing.Short() {
		seeds = seeds[:1]
	}
	mean := map[string]float64{}
	for _, name := range []string{"fm-ftrl", "occfm", "occfm-auto", "occfm-k", "item-lift"} {
		var sumM, sumP float64
		for _, seed := range seeds {
			t0 := time.Now()
			l, c, s := learnSynthetic(t, name, seed)
			m, pop, cold := plantedHits(t, l, c, s, 50, seed)
			t.Logf("%s seed %d: hits@10 after 10 ratings %.2f, popularity %.2f, before rating %.2f (50 persons, %v)",
				name, seed, m, pop, cold, time.Since(t0).Round(time.Millisecond))
			sumM += m
			sumP += pop
			if name == "item-lift" && m < pop+1 {
				t.Errorf("%s seed %d: hits@10 %.2f after 10 ratings, popularity %.2f: want ≥ popularity + 1", name, seed, m, pop)
			}
			if name == "fm-ftrl" && (m < pop+1 || m < 2*pop || m < cold+0.8) {
				t.Errorf("%s seed %d: hits@10 %.2f after 10 ratings, popularity %.2f, before rating %.2f: want ≥ popularity + 1, ≥ 2× popularity and ≥ before + 0.8",
					name, seed, m, pop, cold)
			}
		}
		if sumM < sumP {
			t.Errorf("%s: mean hits@10 %.2f below popularity's %.2f", name, sumM/float64(len(seeds)), sumP/float64(len(seeds)))
		}
		mean[name] = sumM / float64(len(seeds))
	}
	if mean["occfm-k"] < mean["fm-ftrl"] {
		t.Errorf("occfm-k: mean hits@10 %.2f, below fm-ftrl's %.2f", mean["occfm-k"], mean["fm-ftrl"])
	}
}

// TestPersonalGenres rates, on the synthetic catalogs of seeds 1–3 (1 is
// the page's default), the 5 most rated films of one genre at 5★ and the 5
// most rated of another at 1★, for three pairs of genres of opposed tastes
// (see SyntheticCatalog): no top 10 may hold more than 1 film of the second
// genre, and the top 10s must hold on average at least 5 of the first; the
// default learner, item-lift (with Personalize's genre taste), at least 5 in
// every one. One pair on one catalog is too close to call for occfm-k: it
// finds 4, 5 or 6 films of a genre as rounding moves a film in or out of
// the top 10 (Romance on seed 1: 5 natively, 4 under wasm). Measured, liked
// films in the top 10 for Horror/Romance, Romance/Horror, Fantasy/Crime on
// seeds 1, 2, 3: occfm-k 6 5 5, 8 5 8, 4 5 8 (mean 6.0; at most 1 disliked),
// fm-ftrl 4 4 5, 6 6 7, 6 6 4 (5.3); item-lift 10 for each.
func TestPersonalGenres(t *testing.T) {
	pairs := [][2]string{{"Horror", "Romance"}, {"Romance", "Horror"}, {"Fantasy", "Crime"}}
	for _, name := range []string{"occfm-k", DefaultLearner} {
		sum, n := 0, 0
		for seed := uint64(1); seed <= 3; seed++ {
			l, c, s := learnSynthetic(t, name, seed)
			for _, g := range pairs {
				like, hate := genreTop(t, l, c, s.Dim(), g[0], g[1])
				t.Logf("%s seed %d: %s 5★, %s 1★: %d and %d in the top 10", name, seed, g[0], g[1], like, hate)
				if hate > 1 || name == DefaultLearner && like < 5 {
					t.Errorf("%s seed %d: %s 5★, %s 1★: %d %s and %d %s films in the top 10", name, seed, g[0], g[1], like, g[0], hate, g[1])
				}
				sum, n = sum+like, n+1
			}
		}
		if mean := float64(sum) / float64(n); mean < 5 {
			t.Errorf("%s: %.2f films of the genre rated 5★ in the top 10 on average, want at least 5", name, mean)
		}
	}
}

// mostRated returns the indices of c's items, the most rated first (ties
// in catalog order).
func mostRated(c *Catalog) []int {
	byCount := make([]int, len(c.Items))
	for k := range byCount {
		byCount[k] = k
	}
	sort.SliceStable(byCount, func(a, b int) bool { return c.Items[byCount[a]].Count > c.Items[byCount[b]].Count })
	return byCount
}

// genreTop rates the 5 most rated films of genre like (and not hate) at 5★
// and the 5 most rated of hate (and not like) at 1★, and returns how many of
// the top 10 have each genre.
func genreTop(t testing.TB, l core.Learner, c *Catalog, you int, like, hate string) (nLike, nHate int) {
	t.Helper()
	p, err := NewPersonalizer(l, c, you)
	if err != nil {
		t.Fatal(err)
	}
	byCount := mostRated(c)
	pick := func(g, not string) []int {
		var out []int
		for _, k := range byCount {
			gs := c.Items[k].Genres
			if c.Items[k].Feature >= 0 && slices.Contains(gs, g) && !slices.Contains(gs, not) && len(out) < 5 {
				out = append(out, k)
			}
		}
		return out
	}
	for _, k := range pick(like, hate) {
		if _, err := p.Rate(k, 5); err != nil {
			t.Fatal(err)
		}
	}
	for _, k := range pick(hate, like) {
		if _, err := p.Rate(k, 1); err != nil {
			t.Fatal(err)
		}
	}
	for _, r := range p.Recommend(10) {
		gs := c.Items[r.Item].Genres
		if slices.Contains(gs, like) {
			nLike++
		}
		if slices.Contains(gs, hate) {
			nHate++
		}
		checkGenreReasons(t, p, r, like, hate)
	}
	return nLike, nHate
}

// checkGenreReasons checks a pick's reasons against the person's genre
// taste, for a learner that ranks by its own score (item-lift): a pick of
// a genre the taste adds to names it (a genre reason, or a liked film of
// the genre named with it), and a pick of the disliked genre has a reason
// for it beyond the films disliked (a liked film or genre).
func checkGenreReasons(t testing.TB, p *Personalizer, r Recommendation, like, hate string) {
	t.Helper()
	if !p.RanksOwnScore() {
		return
	}
	gs := p.cat.Items[r.Item].Genres
	var texts []string
	named, beyond := false, false
	for _, w := range r.Why {
		texts = append(texts, w.Text)
		switch {
		case w.Kind == "genre" && strings.Contains(w.Text, " "+like+" "),
			w.Kind == "similar" && strings.HasPrefix(w.Text, "because you liked") && strings.Contains(w.Text, "("+like+","):
			named, beyond = true, true
		case w.Kind == "genre", w.Kind == "similar" && strings.HasPrefix(w.Text, "because you liked"):
			beyond = true
		}
	}
	if p.genreScore(p.aff, r.Item) > 0 && slices.Contains(gs, like) && !named {
		t.Errorf("%q (%v), picked with the taste for %s: reasons %q do not name it", p.cat.Items[r.Item].Title, gs, like, texts)
	}
	if slices.Contains(gs, hate) && !beyond {
		t.Errorf("%q (%v), of the genre rated 1★, picked with reasons %q: none beyond the dislike", p.cat.Items[r.Item].Title, gs, texts)
	}
}

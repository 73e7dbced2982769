package personal

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/occfm/occfm/core"
	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/internal/str"
)

// TopNSettings configures TopN. The zero value holds out 100 people with at
// least 40 ratings, seed 1, feeds each 3, 10 and 20 ratings, and compares
// DefaultLearner with the baselines.
type TopNSettings struct {
	// Learners are registry names, each learned and asked as Personalize
	// asks it. Nil means {DefaultLearner}.
	Learners []string
	// People is how many people are held out. Zero means 100.
	People int
	// Seeds draw the held-out people, one protocol per seed, and seed the
	// learners. Nil means {1}.
	Seeds []uint64
	// Feed is the numbers K of first ratings given to each held-out person.
	// Nil means {3, 10, 20}.
	Feed []int
	// MinRatings is how many ratings a person needs to be held out. Zero
	// means 40; it must exceed every K.
	MinRatings int
	// EASELambda is the ridge weight λ of the ease baseline. Zero means
	// DefaultEASELambda.
	EASELambda float64
	// RP3Alpha and RP3Beta are the rp3beta baseline's α and β (see
	// newRP3Beta). A zero α means DefaultRP3Alpha; β's default,
	// DefaultRP3Beta, is 0.
	RP3Alpha, RP3Beta float64
	// Items is the item list (ReadItems), for the titles; nil lists the
	// items of the ratings as "item ID".
	Items []CatalogItem
	// Progress, when not nil, is told what is being done ("seed 2: occfm-k
	// learns 99,287 ratings").
	Progress func(msg string)

	// extra are recommenders measured after the learners, for tests.
	extra []topnExtra
}

// topnExtra is a recommender built from a seed's learned stream and catalog.
type topnExtra struct {
	name string
	make func(stream *learned, cat *Catalog, seed uint64) topnModel
}

// Like is the rating from which a held-out rating counts as liked: a hit.
const Like = 4

// Baseline names: the lists TopN always compares against.
const (
	MostRated   = "most-rated"
	HighestBias = "highest-bias"
	EASE        = "ease"
)

// Stat is a mean over people with its standard error (the standard
// deviation over √N); N = 0 when it was not measured.
type Stat struct {
	Mean, SE float64
	N        int
}

// TopNResult is one line of the top-N table: a learner (or baseline) after
// Feed ratings, for one seed (Seed 0: every seed's people pooled).
type TopNResult struct {
	Learner string
	Feed    int
	Seed    uint64 // 0: all seeds
	People  int
	// Hits10: how many of the top 10 are liked later (a rating ≥ Like
	// among the person's remaining ratings).
	Hits10 Stat
	// TailHits10: the same for a top 10 drawn from the items outside the
	// 10 % most rated, against the liked items among them.
	TailHits10 Stat
	// NDCG10 of the top 10 with the liked items as relevant, and Recall20,
	// the liked items in the top 20 over min(20, liked): over the people
	// with a liked item left.
	NDCG10, Recall20 Stat
	// RMSE of the clipped ŷ on the remaining ratings, per person, and
	// RMSECold the same learner's with no rating fed, on the same ratings;
	// N = 0 for lists that predict no rating.
	RMSE, RMSECold Stat
}

// TopN runs the held-out top-N protocol: for each seed, the people with at
// least MinRatings ratings are drawn from (People of them, by the seed);
// everyone else's ratings are learned online in time order, by each learner
// through core.Play as the page learns a catalog; each held-out person is
// then a new person of a Personalizer (Clear, Rate their first K ratings by
// time, Rank), exactly the page's path, and is measured on their remaining
// ratings. A first rating of an item nobody else rated is given to no
// model. Results come per learner, K and seed, then per learner and K over
// all seeds (Seed 0), learners in the order asked after the baselines
// MostRated, HighestBias and EASE.
func TopN(rs *Ratings, s TopNSettings) ([]TopNResult, error) {
	s, err := s.withDefaults()
	if err != nil {
		return nil, err
	}
	names := append([]string{MostRated, HighestBias, EASE, RP3Beta}, s.Learners...)
	for _, e := range s.extra {
		names = append(names, e.name)
	}
	pooled := map[string]*topnTally{}
	var out []TopNResult
	for _, seed := range s.Seeds {
		tallies, err := topnSeed(rs, s, seed)
		if err != nil {
			return nil, err
		}
		for _, name := range names {
			for _, k := range s.Feed {
				t := tallies[tallyKey(name, k)]
				out = append(out, t.result(name, k, seed))
				key := tallyKey(name, k)
				if pooled[key] == nil {
					pooled[key] = &topnTally{}
				}
				pooled[key].merge(t)
			}
		}
	}
	for _, name := range names {
		for _, k := range s.Feed {
			out = append(out, pooled[tallyKey(name, k)].result(name, k, 0))
		}
	}
	return out, nil
}

func (s TopNSettings) withDefaults() (TopNSettings, error) {
	if s.Learners == nil {
		s.Learners = []string{DefaultLearner}
	}
	for _, name := range s.Learners {
		if err := core.CheckLearners([]string{name}); err != nil {
			return s, err
		}
		if name == MostRated || name == HighestBias || name == EASE || name == RP3Beta {
			return s, errors.New("core: TopN: " + str.Quote(name) + " is a baseline, always compared: name registry learners only")
		}
	}
	if s.People == 0 {
		s.People = 100
	}
	if s.Seeds == nil {
		s.Seeds = []uint64{1}
	}
	if s.Feed == nil {
		s.Feed = []int{3, 10, 20}
	}
	s.Feed = slices.Clone(s.Feed)
	slices.Sort(s.Feed)
	s.Feed = slices.Compact(s.Feed)
	if s.MinRatings == 0 {
		s.MinRatings = 40
	}
	if s.EASELambda == 0 {
		s.EASELambda = DefaultEASELambda
	}
	if s.RP3Alpha == 0 {
		s.RP3Alpha = DefaultRP3Alpha
	}
	switch {
	case s.People < 1:
		return s, errors.New("core: TopN: " + str.Itoa(s.People) + " people: want at least 1")
	case s.Feed[0] < 0:
		return s, errors.New("core: TopN: feed " + str.Itoa(s.Feed[0]) + ": want 0 or more ratings")
	case s.MinRatings <= s.Feed[len(s.Feed)-1]:
		return s, errors.New("core: TopN: min ratings " + str.Itoa(s.MinRatings) + " must exceed the largest feed, " +
			str.Itoa(s.Feed[len(s.Feed)-1]) + ": a held-out person needs ratings left to measure")
	case !(s.EASELambda > 0) || math.IsInf(s.EASELambda, 0):
		return s, errors.New("core: TopN: ease λ " + str.Ftoa(s.EASELambda) + ": want a positive number")
	case !(s.RP3Alpha > 0 && s.RP3Alpha <= 10):
		return s, errors.New("core: TopN: rp3beta α " + str.Ftoa(s.RP3Alpha) + ": want a number in (0, 10]")
	case !(s.RP3Beta >= 0 && s.RP3Beta <= 10):
		return s, errors.New("core: TopN: rp3beta β " + str.Ftoa(s.RP3Beta) + ": want a number in [0, 10]")
	}
	return s, nil
}

func tallyKey(name string, k int) string { return name + "\x00" + str.Itoa(k) }

// heldPerson is a held-out person: their ratings in time order, items as
// catalog indices (−1 for an item the learned stream never had).
type heldPerson struct {
	item  []int
	stars []float64
}

// topnModel is a recommender the protocol asks: a Personalizer or a
// baseline.
type topnModel interface {
	reset()                                     // a new person, no rating
	rate(item int, stars float64)               // one rating, in time order
	rank(n int, keep func(item int) bool) []int // the n best unrated items
	predict(item int) (float64, bool)           // clipped ŷ; false: no ratings predicted
}

// topnSeed plays the protocol for one seed: tallies by learner and K.
func topnSeed(rs *Ratings, s TopNSettings, seed uint64) (map[string]*topnTally, error) {
	held, err := drawHeld(rs, s, seed)
	if err != nil {
		return nil, err
	}
	stream := rs.newLearned(held)
	var pop Popularity
	var ex data.Example
	for stream.Next(&ex) == nil {
		pop.Observe(ex)
	}
	cat := NewCatalog(s.Items, stream, &pop)
	cat.Scale = rs.scale // the file's: a held-out person's ratings are on it
	people := heldPeople(rs, held, cat)
	tail := tailItems(cat)
	say := func(msg string) {
		if s.Progress != nil {
			s.Progress("seed " + str.Ftoa(float64(seed)) + ": " + msg)
		}
	}
	tallies := map[string]*topnTally{}
	measure := func(name string, m topnModel) {
		say(name + " asked by " + str.Itoa(len(people)) + " held-out people")
		for _, k := range s.Feed {
			tallies[tallyKey(name, k)] = &topnTally{}
		}
		for _, p := range people {
			measurePerson(m, p, s.Feed, tail, func(k int) *topnTally { return tallies[tallyKey(name, k)] })
		}
	}
	measure(MostRated, newMostRated(cat))
	say("bias learns " + str.Thousands(int64(len(stream.rows))) + " ratings")
	hb, err := newHighestBias(stream, cat, seed)
	if err != nil {
		return nil, err
	}
	measure(HighestBias, hb)
	say("ease: λ = " + str.Ftoa(s.EASELambda) + ", " + str.Itoa(len(cat.Items)) + " items")
	ease, err := newEASE(stream, cat, s.EASELambda)
	if err != nil {
		return nil, err
	}
	measure(EASE, ease)
	say("rp3beta: α = " + str.Ftoa(s.RP3Alpha) + ", β = " + str.Ftoa(s.RP3Beta))
	rp3, err := newRP3Beta(stream, cat, s.RP3Alpha, s.RP3Beta)
	if err != nil {
		return nil, err
	}
	measure(RP3Beta, rp3)
	for _, name := range s.Learners {
		say(name + " learns " + str.Thousands(int64(len(stream.rows))) + " ratings")
		l, err := learnStream(name, stream, seed)
		if err != nil {
			return nil, err
		}
		p, err := NewPersonalizer(l, cat, stream.Dim())
		if err != nil {
			return nil, err
		}
		measure(name, personModel{p})
	}
	for _, e := range s.extra {
		measure(e.name, e.make(stream, cat, seed))
	}
	return tallies, nil
}

// drawHeld draws s.People of the people with at least s.MinRatings ratings,
// by the seed, from the list of such people in order of first rating.
func drawHeld(rs *Ratings, s TopNSettings, seed uint64) (map[int32]bool, error) {
	count := map[int32]int{}
	var order []int32
	for _, r := range rs.rows {
		if count[r.user] == 0 {
			order = append(order, r.user)
		}
		count[r.user]++
	}
	var eligible []int32
	for _, u := range order {
		if count[u] >= s.MinRatings {
			eligible = append(eligible, u)
		}
	}
	if len(eligible) <= s.People {
		return nil, errors.New("core: TopN: " + str.Itoa(len(eligible)) + " people have " + str.Itoa(s.MinRatings) +
			" ratings or more: too few to hold out " + str.Itoa(s.People) + " and learn from the rest")
	}
	r := rand.New(rand.NewPCG(seed, 0x746f706e)) // "topn"
	r.Shuffle(len(eligible), func(i, j int) { eligible[i], eligible[j] = eligible[j], eligible[i] })
	held := make(map[int32]bool, s.People)
	for _, u := range eligible[:s.People] {
		held[u] = true
	}
	return held, nil
}

// heldPeople returns the held-out people's ratings in time order, in order
// of their first rating.
func heldPeople(rs *Ratings, held map[int32]bool, cat *Catalog) []heldPerson {
	byID := make(map[string]int, len(cat.Items))
	for k, it := range cat.Items {
		if it.Feature >= 0 {
			byID[it.ID] = k
		}
	}
	index := map[int32]int{}
	var people []heldPerson
	for _, r := range rs.rows {
		if !held[r.user] {
			continue
		}
		k, ok := index[r.user]
		if !ok {
			k = len(people)
			index[r.user] = k
			people = append(people, heldPerson{})
		}
		item, known := byID[rs.id(r.item)]
		if !known {
			item = -1
		}
		people[k].item = append(people[k].item, item)
		people[k].stars = append(people[k].stars, r.stars)
	}
	return people
}

// tailItems marks the catalog items outside the 10 % most rated (of the
// items with a feature; ties at the cut by index).
func tailItems(cat *Catalog) []bool {
	var known []int
	for k, it := range cat.Items {
		if it.Feature >= 0 {
			known = append(known, k)
		}
	}
	slices.SortStableFunc(known, func(a, b int) int { return cat.Items[b].Count - cat.Items[a].Count })
	head := (len(known) + 9) / 10
	tail := make([]bool, len(cat.Items))
	for _, k := range known[head:] {
		tail[k] = true
	}
	return tail
}

// measurePerson asks m for one held-out person: cold-start predictions,
// then after each K of feed (ascending) the top 10, the tail's top 10, the
// top 20 and the predictions, against the ratings after the first K.
func measurePerson(m topnModel, p heldPerson, feed []int, tail []bool, tally func(k int) *topnTally) {
	m.reset()
	cold := make([]float64, len(p.item))
	predicts := true
	for j, it := range p.item {
		if it >= 0 {
			cold[j], predicts = m.predict(it)
		}
	}
	fed := 0
	for _, k := range feed {
		for ; fed < k; fed++ {
			if p.item[fed] >= 0 {
				m.rate(p.item[fed], p.stars[fed])
			}
		}
		liked := map[int]bool{}
		likedTail := map[int]bool{}
		nLiked := 0
		for j := k; j < len(p.item); j++ {
			if p.stars[j] >= Like {
				nLiked++
				if it := p.item[j]; it >= 0 {
					liked[it] = true
					if tail[it] {
						likedTail[it] = true
					}
				}
			}
		}
		t := tally(k)
		top := m.rank(20, nil)
		tailTop := m.rank(10, func(item int) bool { return tail[item] })
		t.hits.add(float64(countIn(top[:min(10, len(top))], liked)))
		t.tail.add(float64(countIn(tailTop, likedTail)))
		if nLiked > 0 {
			t.ndcg.add(ndcg(top[:min(10, len(top))], liked, nLiked))
			t.recall.add(float64(countIn(top, liked)) / float64(min(20, nLiked)))
		}
		if predicts {
			var se, seCold float64
			n := 0
			for j := k; j < len(p.item); j++ {
				if it := p.item[j]; it >= 0 {
					y, _ := m.predict(it)
					se += (y - p.stars[j]) * (y - p.stars[j])
					seCold += (cold[j] - p.stars[j]) * (cold[j] - p.stars[j])
					n++
				}
			}
			if n > 0 {
				t.rmse.add(math.Sqrt(se / float64(n)))
				t.rmseCold.add(math.Sqrt(seCold / float64(n)))
			}
		}
	}
}

func countIn(items []int, set map[int]bool) int {
	c := 0
	for _, it := range items {
		if set[it] {
			c++
		}
	}
	return c
}

// ndcg returns the NDCG of the list with binary relevance: DCG =
// Σ_{rank r from 1} rel/log₂(r+1), over the ideal list's with min(len,
// nLiked) relevant items first.
func ndcg(top []int, liked map[int]bool, nLiked int) float64 {
	var dcg, ideal float64
	for r, it := range top {
		if liked[it] {
			dcg += 1 / math.Log2(float64(r+2))
		}
	}
	for r := range min(10, nLiked) {
		ideal += 1 / math.Log2(float64(r+2))
	}
	return dcg / ideal
}

// topnTally accumulates one line's per-person values.
type topnTally struct {
	hits, tail, ndcg, recall, rmse, rmseCold moments
}

func (t *topnTally) merge(o *topnTally) {
	for _, p := range [...]struct{ a, b *moments }{{&t.hits, &o.hits}, {&t.tail, &o.tail}, {&t.ndcg, &o.ndcg},
		{&t.recall, &o.recall}, {&t.rmse, &o.rmse}, {&t.rmseCold, &o.rmseCold}} {
		p.a.n += p.b.n
		p.a.sum += p.b.sum
		p.a.sq += p.b.sq
	}
}

func (t *topnTally) result(name string, k int, seed uint64) TopNResult {
	return TopNResult{Learner: name, Feed: k, Seed: seed, People: t.hits.n,
		Hits10: t.hits.stat(), TailHits10: t.tail.stat(), NDCG10: t.ndcg.stat(), Recall20: t.recall.stat(),
		RMSE: t.rmse.stat(), RMSECold: t.rmseCold.stat()}
}

// moments are the count, sum and sum of squares of values.
type moments struct {
	n       int
	sum, sq float64
}

func (m *moments) add(v float64) { m.n++; m.sum += v; m.sq += v * v }

func (m moments) stat() Stat {
	if m.n == 0 {
		return Stat{}
	}
	mean := m.sum / float64(m.n)
	se := 0.0
	if m.n > 1 {
		v := (m.sq - float64(m.n)*mean*mean) / float64(m.n-1)
		se = math.Sqrt(max(v, 0) / float64(m.n))
	}
	return Stat{Mean: mean, SE: se, N: m.n}
}

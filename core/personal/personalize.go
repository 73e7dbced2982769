package personal

import (
	"bytes"
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/occfm/occfm/core"
	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/internal/str"
)

// DefaultLearner is the registry name of the learner Personalize learns a
// catalog with when none is named: core.ItemLift, which ranks by what
// people who rated the person's films also rated. On the held-out top-N
// protocol (TopN, docs/personalize.md) it is the only learner whose top 10
// holds more liked films than the most rated list at 3, 10 and 20 ratings
// on ML-100K and ML-1M. It is the one place this default is set: the
// page's Personalize view and the JS library's Recommender get it from the
// wasm (occfm.lib.defaults, wasm/lib_js.go).
const DefaultLearner = "item-lift"

// Personalizer is a new person in a learned model: Rate makes one online
// update of the learner with x = {you: 1, item: 1}, or, for a learner that
// keeps C as its eigenvectors (OCCFMK), folds the person in from all their
// ratings (see folding); Recommend scores every unrated catalog item with
// Feature ≥ 0 by the learner's prediction for that x.
//
// It works on its own copy of the learner it is given (decoded from the
// model file of that learner), so the caller's learner never changes; Learner
// returns the copy. Contributions are read from predictions only, so they
// hold for any learner of degree ≤ 2 on one-hot features (the prediction
// ŷ(S) for the set S of active features):
//
//	global    g     = ŷ(∅)
//	item      b_i   = ŷ({i}) − g
//	you       b_you = ŷ({you}) − g               (the same for every item: no reason)
//	you×item  z_i   = ŷ({you,i}) − ŷ({you}) − ŷ({i}) + g
//	similar   s_ij  = ŷ({i,j}) − ŷ({i}) − ŷ({j}) + g
//
// so that ŷ({you,i}) = g + b_you + b_i + z_i. For OCCFM (all-pairs form)
// b_i = w_i + ½Z_ii, z_i = Z_you,i and s_ij = Z_ij; for FM z_i = ⟨v_you, v_i⟩
// and s_ij = ⟨v_i, v_j⟩; linear and bias learners have z_i = s_ij = 0.
//
// A Personalizer is not safe for concurrent use.
type Personalizer struct {
	cat   *Catalog
	you   int
	snap  []byte              // the model file of the learner as given
	guard *core.GuardSettings // set when the learner is a *Guarded
	l     core.Learner        // the working copy

	rated  []PersonalRating
	byItem map[int]int // item → index in rated

	// fold is the person folded into a learner with C in eigen-form (see
	// folding), nil for other learners.
	fold *folding

	x        data.Sparse // scratch
	preds    int         // predictions made (see Predictions)
	cand     []int       // scratch of Rank: candidate items, their features and scores
	candFeat []int
	scores   []float64
	aff      map[string]float64 // the genre taste the last rank used (genreAffinity)
	base     []float64
	feat     []int
	stars    []float64
}

// PersonalRating is one rating of the person.
type PersonalRating struct {
	Item   int     // index in the catalog's Items
	Stars  float64 // on the catalog's Scale
	Before float64 // ŷ just before the rating, clipped to the catalog's Scale
}

// Recommendation is one recommended item.
type Recommendation struct {
	Item      int      // index in the catalog's Items
	Score     float64  // the predicted stars: ŷ for you, clipped to the catalog's Scale
	Rank      float64  // what the list is ranked by, highest first: a core.Ranker's score plus your genre taste (item-lift), else ŷ unclipped
	ColdStart bool     // no rating yet: ranked by what the model predicts for a newcomer (the items' biases), said so
	Why       []Reason // the largest contributions first, at most 3
}

// Reason is one contribution to a recommendation's ŷ.
type Reason struct {
	Kind  string  // "item" (the item's bias), "you" (you × this item), "similar" (a similar item you rated), "global"
	Value float64 // its contribution to ŷ
	Item  int     // for "similar": the rated item; -1 otherwise
	Text  string  // "liked by most: +0.42 ★", "your ratings so far: +0.31 ★", "you gave ★5 to “Star Wars (1977)”, which people rate alike: +0.12 ★", "the model's starting guess for anyone, ★3.53"
}

// NewPersonalizer returns a new person in the model l learned from the
// catalog's stream. l is any registry learner, or a *Guarded wrapping one;
// you is a feature index no row used (e.g. the stream's Dim()). It snapshots
// l (its model file: Guarded.Model, or the learner's state) so that Clear can
// restore it, and works on a copy: l is not changed, now or later. It returns
// an error when l cannot be saved (not a registry learner), when you is
// negative or the feature of a catalog item.
func NewPersonalizer(l core.Learner, c *Catalog, you int) (*Personalizer, error) {
	if c == nil {
		return nil, errors.New("core: NewPersonalizer: no catalog")
	}
	if you < 0 {
		return nil, errors.New("core: NewPersonalizer: feature " + str.Itoa(you) + " for you: expected an index ≥ 0 that no row used")
	}
	for _, it := range c.Items {
		if it.Feature == you {
			return nil, errors.New("core: NewPersonalizer: feature " + str.Itoa(you) + " for you is the feature of item " + it.ID)
		}
	}
	p := &Personalizer{cat: c, you: you, byItem: map[int]int{}}
	m := core.Model{Learner: l}
	if g, ok := l.(*core.Guarded); ok {
		m = g.Model()
		set := g.Settings()
		p.guard = &set
	}
	var snap bytes.Buffer
	if err := core.SaveModel(&snap, m); err != nil {
		return nil, err
	}
	p.snap = snap.Bytes()
	var err error
	if p.l, err = p.restore(); err != nil {
		return nil, err
	}
	if ep, ok := p.raw().(core.EigenPairs); ok {
		items := make(map[int]bool, len(c.Items))
		for _, it := range c.Items {
			items[it.Feature] = true
		}
		p.fold = newFolding(p.raw(), ep, items)
	}
	return p, nil
}

// restore decodes a fresh copy of the snapshot.
func (p *Personalizer) restore() (core.Learner, error) {
	m, err := core.LoadModel(bytes.NewReader(p.snap))
	if err != nil {
		return nil, err
	}
	if p.guard != nil {
		return core.ResumeGuarded(m, *p.guard)
	}
	return m.Learner, nil
}

// raw returns the learner whose predictions are read: the learner the guard
// wraps for a *Guarded, so that contributions are not clipped.
func (p *Personalizer) raw() core.Learner {
	if g, ok := p.l.(*core.Guarded); ok {
		return g.Learner()
	}
	return p.l
}

// predict returns the raw ŷ for the one-hot x with the features f (−1 for
// none).
func (p *Personalizer) predict(f ...int) float64 {
	p.x.Ind, p.x.Val = p.x.Ind[:0], p.x.Val[:0]
	for _, i := range f {
		if i >= 0 {
			p.x.Ind = append(p.x.Ind, i)
			p.x.Val = append(p.x.Val, 1)
		}
	}
	p.x.Sort()
	p.preds++
	y := p.raw().Predict(p.x)
	if p.fold != nil && slices.Contains(f, p.you) {
		ep := p.raw().(core.EigenPairs)
		y += p.fold.b
		for _, i := range f {
			if i >= 0 && i != p.you {
				y += p.fold.pair(ep, i)
			}
		}
	}
	return y
}

// Predictions returns how many predictions p has made, the unit of its
// cost: Rate makes one and one update of the learner, or, folding in, one
// plus one per rating and a solve of size 1 + rank(C) (see folding);
// Recommend one per candidate item and a few per item returned (see
// Recommend).
func (p *Personalizer) Predictions() int { return p.preds }

// clipStars clips v to the catalog's scale.
func (p *Personalizer) clipStars(v float64) float64 { return p.cat.Scale.Clip(v) }

// Rate records that the person gives item (an index in the catalog's Items)
// stars, a rating of the catalog's Scale (1 to 5 whole stars, 0.5 to 5 in
// halves, …), and makes one online update of the learner with
// x = {you: 1, item: 1}, y = stars. It returns ŷ for x just before the
// update, clipped to the scale. Rating an item again replaces its stars in
// Rated (keeping its place) and updates once more. It returns an error, and
// changes nothing, when item is out of range or its Feature is −1, or stars
// is off the scale (the error names the scale).
func (p *Personalizer) Rate(item int, stars float64) (before float64, err error) {
	if item < 0 || item >= len(p.cat.Items) {
		return math.NaN(), errors.New("core: Personalizer.Rate: item " + str.Itoa(item) + " out of range [0, " + str.Itoa(len(p.cat.Items)) + ")")
	}
	f := p.cat.Items[item].Feature
	if f < 0 {
		return math.NaN(), errors.New("core: Personalizer.Rate: item " + p.cat.Items[item].ID + " was never rated in the learned stream")
	}
	if err := p.cat.Scale.Check(stars); err != nil {
		return math.NaN(), errors.New("core: Personalizer.Rate: " + err.Error())
	}
	before = p.clipStars(p.predict(p.you, f))
	r := PersonalRating{Item: item, Stars: stars, Before: before}
	if k, ok := p.byItem[item]; ok {
		p.rated[k] = r
	} else {
		p.byItem[item] = len(p.rated)
		p.rated = append(p.rated, r)
	}
	if p.fold != nil {
		p.refold()
	} else {
		x := data.Sparse{Ind: []int{min(p.you, f), max(p.you, f)}, Val: []float64{1, 1}}
		p.l.Update(x, stars)
	}
	return before, nil
}

// refold fits the folded person to every rating (see folding): R
// predictions, one per rating, and a solve of size 1 + rank(C).
func (p *Personalizer) refold() {
	p.feat, p.base, p.stars = p.feat[:0], p.base[:0], p.stars[:0]
	for _, r := range p.rated {
		fi := p.cat.Items[r.Item].Feature
		p.feat = append(p.feat, fi)
		p.base = append(p.base, p.predict(fi))
		p.stars = append(p.stars, r.Stars)
	}
	p.fold.fit(p.raw().(core.EigenPairs), p.feat, p.base, p.stars)
}

// Rated returns a copy of the person's ratings, in the order first rated.
func (p *Personalizer) Rated() []PersonalRating { return slices.Clone(p.rated) }

// Recommend returns the n unrated items with Feature ≥ 0 of highest ŷ for
// you (x = {you: 1, item: 1}), highest first; ties (in the raw ŷ, before
// clipping) by Count, higher first, then by Item. It never returns a rated
// item; it returns fewer than n when fewer items are left, none for n ≤ 0.
// It costs one prediction per candidate (an unrated item with Feature ≥ 0),
// then 2 + R for the reasons' baselines and 1 + R for each item returned,
// with R the person's ratings.
//
// Why holds at most 3 reasons, the largest |Value| first, leaving out those
// under 0.005: "item" (b_i) and, with no rating or no similar item, "you"
// (z_i); once rated items are similar, z_i split over the rated items j in
// proportion to s_ij·(stars_j − before_j), the first-order effect of rating j
// on a gradient step (for FM's gradient step v_you moves by a multiple of
// (y − ŷ)·v_j, changing z_i by that multiple of s_ij); the split sums to z_i.
// Its text says "you gave ★5 to “Title”, which people rate alike: +0.12 ★"
// when s_ij ≥ 0, and "…, which people rate the other way: +0.19 ★" when the
// items are dissimilar.
// "global" (g) is added when fewer than 3 others are left.
func (p *Personalizer) Recommend(n int) []Recommendation {
	if n <= 0 {
		return nil
	}
	top, score := p.rank(n, nil)
	items := p.cat.Items
	ranker := p.ranker() != nil
	// The baselines of the reasons read from predictions; a RankExplainer
	// gives its reasons itself.
	var g, gy float64
	var gj []float64
	if _, ok := p.ranker().(core.RankExplainer); !ok {
		g, gy = p.predict(), p.predict(p.you)
		gj = make([]float64, len(p.rated))
		for k, r := range p.rated {
			gj[k] = p.predict(items[r.Item].Feature)
		}
	}
	recs := make([]Recommendation, len(top))
	for k, item := range top {
		raw := score[k]
		if ranker {
			raw = p.predict(p.you, items[item].Feature)
		}
		recs[k] = Recommendation{Item: item, Score: p.clipStars(raw), Rank: score[k], ColdStart: len(p.rated) == 0,
			Why: p.reasons(item, raw, g, gy, gj)}
	}
	return recs
}

// Rank returns the catalog indices of the n unrated items with Feature ≥ 0
// for which keep (nil: all) holds, best first: by the learner's RankScores
// plus the person's genre taste (genreWeight) for a core.Ranker, else by ŷ
// for you (x = {you: 1, item: 1}); ties by
// Count, higher first, then by index. It returns fewer than n when fewer
// items are left, none for n ≤ 0. It costs one prediction per candidate
// (or one RankScores call).
func (p *Personalizer) Rank(n int, keep func(item int) bool) []int {
	top, _ := p.rank(n, keep)
	return top
}

// rank is Rank, also returning the scores of the items returned.
func (p *Personalizer) rank(n int, keep func(item int) bool) ([]int, []float64) {
	if n <= 0 {
		return nil, nil
	}
	p.cand, p.candFeat = p.cand[:0], p.candFeat[:0]
	for k, it := range p.cat.Items {
		if it.Feature < 0 || keep != nil && !keep(k) {
			continue
		}
		if _, ok := p.byItem[k]; ok {
			continue
		}
		p.cand = append(p.cand, k)
		p.candFeat = append(p.candFeat, it.Feature)
	}
	p.scores = p.scoreFeatures(p.candFeat, p.scores[:0])
	if p.ranker() != nil {
		p.aff = p.genreAffinity()
		for k, item := range p.cand {
			p.scores[k] += p.genreScore(p.aff, item)
		}
	}
	return topByScore(p.cand, p.scores, n, p.cat.Items)
}

// RanksOwnScore reports whether Recommend ranks by the learner's own score
// (a core.Ranker's, such as item-lift's, plus the person's genre taste:
// Recommendation.Rank then differs from the predicted stars) rather than
// by ŷ.
func (p *Personalizer) RanksOwnScore() bool { return p.ranker() != nil }

// ranker returns the learner as a core.Ranker when it ranks by a score of
// its own, nil when the ranking is by ŷ.
func (p *Personalizer) ranker() core.Ranker {
	if r, ok := p.raw().(core.Ranker); ok && p.fold == nil {
		return r
	}
	return nil
}

// scoreFeatures appends the ranking score of each item feature for you.
func (p *Personalizer) scoreFeatures(feat []int, dst []float64) []float64 {
	if r := p.ranker(); r != nil {
		p.preds++
		return r.RankScores(p.you, feat, dst)
	}
	for _, f := range feat {
		dst = append(dst, p.predict(p.you, f))
	}
	return dst
}

// topByScore returns the n items of highest score (items[k] has score[k]),
// highest first, ties by the catalog's Count, higher first, then by index.
// It keeps the best n seen in one pass over the items, O(len(items)·n) at
// worst and O(len(items)) in practice, instead of sorting them all.
func topByScore(items []int, score []float64, n int, cat []CatalogItem) ([]int, []float64) {
	better := func(a, b int) bool {
		switch {
		case score[a] != score[b]:
			return score[a] > score[b]
		case cat[items[a]].Count != cat[items[b]].Count:
			return cat[items[a]].Count > cat[items[b]].Count
		}
		return items[a] < items[b]
	}
	n = min(n, len(items))
	order := make([]int, 0, n) // positions in items, best first
	for k := range items {
		if len(order) == n && !better(k, order[n-1]) {
			continue
		}
		at := len(order)
		for at > 0 && better(k, order[at-1]) {
			at--
		}
		if len(order) < n {
			order = append(order, 0)
		}
		copy(order[at+1:], order[at:len(order)-1])
		order[at] = k
	}
	top := make([]int, len(order))
	sc := make([]float64, len(order))
	for k, o := range order {
		top[k], sc[k] = items[o], score[o]
	}
	return top, sc
}

// Predict returns ŷ for you and item (an index in the catalog's Items),
// clipped to [1, 5], without changing anything; NaN when item is out of
// range or has no feature.
func (p *Personalizer) Predict(item int) float64 {
	if item < 0 || item >= len(p.cat.Items) || p.cat.Items[item].Feature < 0 {
		return math.NaN()
	}
	return p.clipStars(p.predict(p.you, p.cat.Items[item].Feature))
}

// reasons returns the reasons of item's ŷ = raw (see Recommend).
func (p *Personalizer) reasons(item int, raw, g, gy float64, gj []float64) []Reason {
	if e, ok := p.ranker().(core.RankExplainer); ok {
		return p.rankReasons(e, item)
	}
	why := p.reasonList(item, raw, g, gy, gj)
	why = slices.DeleteFunc(why, func(r Reason) bool {
		return !(math.Abs(r.Value) >= 0.005) || r.Kind == "similar" && r.Value < 0
	})
	sortReasons(why)
	why = why[:min(len(why), 3)]
	if len(why) < 3 {
		why = append(why, Reason{Kind: "global", Value: g, Item: -1, Text: "the model's starting guess for anyone, ★" + strconv.FormatFloat(g, 'f', 2, 64)})
	}
	return why
}

// sortReasons puts the rated film that most supports the pick first (the
// "similar" reason of the largest positive value), then the others by
// |Value|, largest first.
func sortReasons(why []Reason) {
	slices.SortStableFunc(why, func(a, b Reason) int {
		switch {
		case math.Abs(a.Value) > math.Abs(b.Value):
			return -1
		case math.Abs(a.Value) < math.Abs(b.Value):
			return 1
		}
		return 0
	})
	best := -1
	for k, r := range why {
		if r.Kind == "similar" && r.Value > 0 && (best < 0 || r.Value > why[best].Value) {
			best = k
		}
	}
	if best > 0 {
		r := why[best]
		copy(why[1:best+1], why[:best])
		why[0] = r
	}
}

// filmReason words a rated film's support for the pick item: "because you
// liked “Alien (1979)” (Horror, 5★)" (with the genres or tags, at most two,
// that the liked film shares with the pick), "unlike “Shrek (2001)”, which
// you disliked (1★)", or "because you rated “Heat (1995)” 3★", with the
// value appended when unit is not "".
func (p *Personalizer) filmReason(r PersonalRating, item int, v float64, unit string) Reason {
	title := "“" + p.cat.Items[r.Item].Title + "”"
	stars := strconv.FormatFloat(r.Stars, 'g', -1, 64) + "★"
	var text string
	switch {
	case r.Stars > p.cat.Scale.Mid():
		var shared []string
		for _, g := range p.cat.Items[r.Item].Genres {
			if len(shared) < 2 && slices.Contains(p.cat.Items[item].Genres, g) {
				shared = append(shared, g)
			}
		}
		if len(shared) > 0 {
			stars = strings.Join(shared, ", ") + ", " + stars
		}
		text = "because you liked " + title + " (" + stars + ")"
	case r.Stars < p.cat.Scale.Mid():
		text = "unlike " + title + ", which you disliked (" + stars + ")"
	default:
		text = "because you rated " + title + " " + stars
	}
	if unit != "" {
		text += ": " + signed(v) + unit
	}
	return Reason{Kind: "similar", Value: v, Item: r.Item, Text: text}
}

// rankReasons returns the reasons of a pick of a core.RankExplainer: its
// terms from the rated films that support it, largest first, then the
// genres the person likes that it has (genreReasons), at most 2 of these,
// then its prior: how many rated the item, and their mean stars ("rated
// ★4.4 by 583 people"). Values are in the units of the ranking score, not
// stars.
func (p *Personalizer) rankReasons(e core.RankExplainer, item int) []Reason {
	prior, terms := e.RankTerms(p.you, p.cat.Items[item].Feature)
	byFeature := make(map[int]int, len(p.rated))
	for k, r := range p.rated {
		byFeature[p.cat.Items[r.Item].Feature] = k
	}
	var why []Reason
	for _, t := range terms {
		k, ok := byFeature[t.Feature]
		if !ok || !(t.Value > 0) {
			continue
		}
		why = append(why, p.filmReason(p.rated[k], item, t.Value, ""))
	}
	slices.SortStableFunc(why, func(a, b Reason) int {
		switch {
		case a.Value > b.Value:
			return -1
		case a.Value < b.Value:
			return 1
		}
		return 0
	})
	// Two reasons: the rated films that most support the pick, or, when
	// the person's genre taste adds to its score, the best film and the
	// genre (the genre is why as much as a film is).
	if genres := p.genreReasons(p.aff, item); len(genres) > 0 {
		why = append(why[:min(len(why), 1)], genres[0])
	}
	why = why[:min(len(why), 2)]
	it := p.cat.Items[item]
	text := "rated by "
	if it.Count > 0 {
		text = "rated ★" + strconv.FormatFloat(it.Mean, 'f', 1, 64) + " by "
	}
	text += str.Itoa(it.Count) + " " + plural(it.Count, "person", "people")
	return append(why, Reason{Kind: "item", Value: prior, Item: -1, Text: text})
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// reasonList returns every candidate reason of item's ŷ = raw, unsorted:
// "item", then "you" or one "similar" per rated item.
func (p *Personalizer) reasonList(item int, raw, g, gy float64, gj []float64) []Reason {
	fi := p.cat.Items[item].Feature
	gi := p.predict(fi)
	z := raw - gy - gi + g
	why := []Reason{{Kind: "item", Value: gi - g, Item: -1, Text: byMost(gi-g) + signed(gi-g) + " ★"}}
	w := make([]float64, len(p.rated))
	sum := 0.0
	for k, r := range p.rated {
		sim := p.predict(fi, p.cat.Items[r.Item].Feature) - gi - gj[k] + g
		w[k] = sim * (r.Stars - r.Before)
		sum += w[k]
	}
	if scale := z / sum; len(p.rated) > 0 && math.Abs(sum) > 1e-12 && scale > 0 && !math.IsInf(scale, 0) {
		for k, r := range p.rated {
			why = append(why, p.filmReason(r, item, scale*w[k], " ★"))
		}
	} else {
		n := len(p.rated)
		why = append(why, Reason{Kind: "you", Value: z, Item: -1,
			Text: "your taste as your " + str.Itoa(n) + " " + plural(n, "rating shows", "ratings show") + " it: " + signed(z) + " ★"})
	}
	return why
}

// byMost says how most people rate an item whose bias is v.
func byMost(v float64) string {
	if v < 0 {
		return "disliked by most: "
	}
	return "liked by most: "
}

// signed formats v as "+0.42" or "−0.42".
func signed(v float64) string {
	s := strconv.FormatFloat(math.Abs(v), 'f', 2, 64)
	if v < 0 {
		return "−" + s
	}
	return "+" + s
}

// Clear forgets the person's ratings: the learner goes back to the snapshot
// taken by NewPersonalizer (a fresh copy, so predictions are bit-identical to
// those before the first rating). Learner returns the new copy afterwards.
func (p *Personalizer) Clear() {
	l, err := p.restore()
	if err != nil {
		panic("core: Personalizer.Clear: the snapshot no longer decodes: " + err.Error())
	}
	p.l = l
	p.rated = nil
	clear(p.byItem)
	if p.fold != nil {
		p.fold.reset()
	}
}

// RatingsCSV returns the person's ratings as CSV: the header
// "item_id,title,stars" and one line per rating in the order of Rated, with
// RFC-4180 quoting.
func (p *Personalizer) RatingsCSV() []byte {
	b := appendCSVRecord(nil, "item_id", "title", "stars")
	for _, r := range p.rated {
		it := p.cat.Items[r.Item]
		b = appendCSVRecord(b, it.ID, it.Title, strconv.FormatFloat(r.Stars, 'g', -1, 64))
	}
	return b
}

// Learner returns the learner the Personalizer updates (its copy of the
// learner given to NewPersonalizer; a new copy after Clear).
func (p *Personalizer) Learner() core.Learner { return p.l }

// You returns the feature index of the person.
func (p *Personalizer) You() int { return p.you }

// Catalog returns the catalog the Personalizer recommends from.
func (p *Personalizer) Catalog() *Catalog { return p.cat }

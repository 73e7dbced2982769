package personal

import (
	"cmp"
	"io"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/demo"
	"github.com/occfm/occfm/core/internal/str"
)

// The synthetic catalog's sizes and planted structure.
const (
	synthItems   = 400
	synthUsers   = 300
	synthTastes  = 5    // latent tastes; each owns two genres
	synthMean    = 3.5  // the global mean before biases
	synthNoise   = 0.45 // standard deviation of a rating's noise
	synthMinRate = 20   // ratings per user: 20 + a geometric tail
	synthAvgRate = 150  // … with this mean
	synthChoice  = 1.5  // c: a person chooses item i with chance ∝ P(i)·exp(c·p·q_i)
)

// synthGenres are the genres, two per taste: taste t owns genres 2t and
// 2t+1.
var synthGenres = [2 * synthTastes]string{
	"Action", "Thriller", // taste 0
	"Comedy", "Romance", // taste 1
	"Drama", "War", // taste 2
	"Sci-Fi", "Fantasy", // taste 3
	"Horror", "Crime", // taste 4
}

// Word lists for the made-up titles.
var (
	synthAdjectives = []string{"Silent", "Last", "Broken", "Golden", "Hidden", "Crimson", "Lonely",
		"Distant", "Burning", "Frozen", "Secret", "Wild", "Dark", "Endless", "Little", "Forgotten",
		"Electric", "Midnight", "Iron", "Quiet", "Savage", "Gentle", "Northern", "Lost", "Bright"}
	synthNouns = []string{"Harbor", "Garden", "River", "Empire", "Witness", "Stranger", "Summer",
		"Road", "Kingdom", "Promise", "Signal", "Mountain", "Letter", "Island", "Machine", "Heart",
		"Shadow", "Train", "Orchard", "Detective", "Voyage", "Circus", "Frontier", "Mirror", "Storm"}
	synthNames = []string{"Anna", "Marco", "Lucy", "Oscar", "Elena", "Jack", "Nora", "Felix", "Rosa",
		"Hugo", "Vera", "Samuel"}
)

// SyntheticCatalog is the built-in catalog: generated items (made-up titles
// such as "The Silent Harbor (1987)", 1–3 of 10 genres each), users with
// planted tastes, and their ratings, as a MovieLens-like stream ("user=U",
// "item=I" features, ratings 1–5). No real data.
//
// From the seed: 5 latent tastes, each owning two genres (Action/Thriller,
// Comedy/Romance, Drama/War, Sci-Fi/Fantasy, Horror/Crime). Each of the 400
// items has a main taste (and, for 30%, a second one at half weight); its
// latent vector is q_i = e_main (+ ½ e_second) + N(0, 0.15²) noise, its
// genres one or both of its main taste's (plus one of the second's), its
// bias b_i ~ N(0, 0.4²). Each of the 300 users has a favourite taste (+1),
// for half of them a second liked one (+0.6), a disliked one (−0.7), N(0,
// 0.2²) noise: p_u; and a bias b_u ~ N(0, 0.35²). The mean rating is
// m(u, i) = 3.5 + b_u + b_i + 1.2·p_u·q_i, and a rating is
// clamp(round(m + ε), 1, 5) with ε ~ N(0, 0.45²). Items have Zipf-like
// popularities P(i) ∝ (8 + rank)^(−1), ranked by b_i + N(0, 0.6²) (the
// better liked tend to be more popular) and unrelated to their tastes.
// People rate what they chose to watch: each user rates 20 + Geometric
// items (mean 150, at most 350), distinct, drawn with chance
//
//	P(u rates i) ∝ P(i)·exp(c·p_u·q_i),  c = 1.5,
//
// so that a taste makes its films likelier to be rated (a favourite taste
// about 4.5 times), in random order over users (about 45,000 ratings). c is
// set so that the choice signal matches real people's: on a catalog of
// `occfm gen -demo catalog`, item-lift's and rp3beta's hits@10 over
// most-rated's (1.21 and 1.05 at K = 10) are ML-100K's and ML-1M's (1.13–1.21
// and 1.05–1.06), and the genres of a person's ratings stray from
// everyone's about as far (docs/findings.md, "Synthetic people who choose
// what they rate"). User u is feature u ("user=u"), item i feature 300 + i
// ("item=i"), the users first (NewSyntheticCatalogSize makes other sizes).
type SyntheticCatalog struct {
	users, n int // users and items
	avg      int // mean ratings per user
	items    []CatalogItem
	bi, q    []float64 // item biases and latent vectors (synthTastes each)
	bu, p    []float64 // user biases and tastes
	pop      []float64 // item popularity weights
	ratingStream
	draws   int // items drawn by choose, those drawn again for a user included
	weighed int // items' weights summed by choose
}

// synthRating is one row of the stream.
type synthRating struct {
	u, i int16
	y    int8
}

// ratingStream is the ratings of a synthetic catalog or shop as a stream
// of rows {user=u: 1, item=i: 1} with the rating as label: user u is
// feature u, item i feature itemBase + i (the users first).
type ratingStream struct {
	rows     []synthRating
	row      int
	itemBase int
}

// Rows returns the length of the stream.
func (s *ratingStream) Rows() int { return len(s.rows) }

// Next fills ex with the next rating, reusing the slices of ex.X, or sets ex
// empty and returns io.EOF at the end (and on every later call). The
// features are {user=u: 1, item=i: 1}, the label the rating 1–5.
func (s *ratingStream) Next(ex *data.Example) error {
	ex.X.Ind, ex.X.Val, ex.Y = ex.X.Ind[:0], ex.X.Val[:0], 0
	if s.row >= len(s.rows) {
		return io.EOF
	}
	r := s.rows[s.row]
	s.row++
	ex.X.Ind = append(ex.X.Ind, int(r.u), s.itemBase+int(r.i))
	ex.X.Val = append(ex.X.Val, 1, 1)
	ex.Y = float64(r.y)
	return nil
}

// Reset rewinds the stream to its first row.
func (s *ratingStream) Reset() { s.row = 0 }

// cloneItems returns a copy of items whose Genres are copies too.
func cloneItems(items []CatalogItem) []CatalogItem {
	out := make([]CatalogItem, len(items))
	for i, it := range items {
		it.Genres = slices.Clone(it.Genres)
		out[i] = it
	}
	return out
}

// Person is a new person's planted taste (see SyntheticCatalog.NewPerson).
type Person struct {
	bias  float64
	taste [synthTastes]float64
	// Favourite is the person's favourite taste, 0–4; Genres are its two
	// genres.
	Favourite int
	Genres    [2]string
}

// NewSyntheticCatalog returns the synthetic catalog for seed (0 means 1),
// its stream at the first row. The same seed gives the same catalog and
// stream.
func NewSyntheticCatalog(seed uint64) *SyntheticCatalog {
	return NewSyntheticCatalogSize(seed, 0)
}

// MaxSyntheticRatings is the most ratings NewSyntheticCatalogSize draws a
// catalog of: ratings/10.3 items, at most 32,767 (items and users are
// numbered in 16 bits).
const MaxSyntheticRatings = 337_000

// NewSyntheticCatalogSize returns a synthetic catalog drawn as the built-in
// one but of about ratings ratings (0: the built-in's 400 items and 300
// users): ratings/10.3 items and users who each rate 20 + Geometric items
// (mean 164 before the cap at 350, 149 after), about the shape of
// MovieLens' 100,836-rating ml-latest-small (9,742 films, 610 people). It is what
// `occfm gen -demo catalog` writes, for measuring Personalize on a catalog
// of a real one's size. It panics for ratings under 0 or over
// MaxSyntheticRatings.
func NewSyntheticCatalogSize(seed uint64, ratings int) *SyntheticCatalog {
	if ratings < 0 || ratings > MaxSyntheticRatings {
		panic("core: NewSyntheticCatalogSize: " + str.Itoa(ratings) + " ratings")
	}
	s := &SyntheticCatalog{users: synthUsers, n: synthItems, avg: synthAvgRate}
	if ratings > 0 {
		// A user rates 20 + X items, X ~ Exp(θ), at most 350: on average
		// 20 + θ(1 − e^(−330/θ)).
		s.avg = 164
		theta := float64(s.avg - synthMinRate)
		mean := synthMinRate + theta*(1-math.Exp(-(350-synthMinRate)/theta))
		s.users = max(1, int(math.Round(float64(ratings)/mean)))
		s.n = max(10, int(math.Round(float64(ratings)/10.3)))
	}
	if s.users > math.MaxInt16 || s.n > math.MaxInt16 {
		panic("core: NewSyntheticCatalogSize: " + str.Itoa(ratings) + " ratings: at most 32,767 users and items")
	}
	s.itemBase = s.users
	r := demo.Rand(seed, 16)
	s.items = make([]CatalogItem, s.n)
	s.q = make([]float64, s.n*synthTastes)
	s.bi = demo.Normals(r, s.n, 0.4)
	used := map[string]bool{}
	for i := range s.n {
		main := r.IntN(synthTastes)
		q := s.q[i*synthTastes : (i+1)*synthTastes]
		for t := range q {
			q[t] = 0.15 * r.NormFloat64()
		}
		q[main] += 1
		genres := []string{synthGenres[2*main+r.IntN(2)]}
		if r.Float64() < 0.4 {
			genres = []string{synthGenres[2*main], synthGenres[2*main+1]}
		}
		if r.Float64() < 0.3 {
			second := (main + 1 + r.IntN(synthTastes-1)) % synthTastes
			q[second] += 0.5
			genres = append(genres, synthGenres[2*second+r.IntN(2)])
		}
		slices.Sort(genres)
		title := synthTitle(r)
		for tries := 1; used[title]; tries++ {
			title = synthTitle(r)
			if tries >= 50 { // a large catalog runs out of titles: number them
				title = title[:len(title)-7] + " " + str.Itoa(i) + title[len(title)-7:]
			}
		}
		used[title] = true
		s.items[i] = CatalogItem{ID: str.Itoa(i), Title: title, Genres: genres, Feature: -1}
	}
	s.bu = demo.Normals(r, s.users, 0.35)
	s.p = make([]float64, s.users*synthTastes)
	for u := range s.users {
		drawTaste(r, s.p[u*synthTastes:(u+1)*synthTastes])
	}
	// Popularity: weight (8 + rank)^−1, ranking the items by b_i plus
	// N(0, 0.6²) noise: better-liked items tend to be more popular
	// (correlation about 0.55), as in MovieLens.
	key := make([]float64, s.n)
	order := make([]int, s.n)
	for i := range key {
		key[i] = s.bi[i] + 0.6*r.NormFloat64()
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(key[b], key[a]) })
	s.pop = make([]float64, s.n)
	for rank, i := range order {
		s.pop[i] = 1 / float64(8+rank)
	}
	s.makeRows(r)
	return s
}

// drawTaste fills p with a taste: a favourite (+1), maybe a second liked
// one (+0.6), a disliked one (−0.7), and N(0, 0.2²) noise. It returns the
// favourite.
func drawTaste(r *rand.Rand, p []float64) int {
	for t := range p {
		p[t] = 0.2 * r.NormFloat64()
	}
	perm := r.Perm(len(p))
	p[perm[0]] += 1
	if r.IntN(2) == 0 {
		p[perm[1]] += 0.6
	}
	p[perm[2]] -= 0.7
	return perm[0]
}

// synthTitle makes up a title with a year.
func synthTitle(r *rand.Rand) string {
	a := synthAdjectives[r.IntN(len(synthAdjectives))]
	n := synthNouns[r.IntN(len(synthNouns))]
	n2 := synthNouns[r.IntN(len(synthNouns))]
	var t string
	switch r.IntN(6) {
	case 0, 1:
		t = "The " + a + " " + n
	case 2:
		t = n + " of the " + a + " " + n2
	case 3:
		t = synthNames[r.IntN(len(synthNames))] + "'s " + n
	case 4:
		t = a + " " + n + "s"
	default:
		t = "A " + n + " for " + synthNames[r.IntN(len(synthNames))]
	}
	return t + " (" + str.Itoa(1950+r.IntN(50)) + ")"
}

// makeRows draws every user's ratings (see choose) and shuffles them into
// the stream.
func (s *SyntheticCatalog) makeRows(r *rand.Rand) {
	s.rows = make([]synthRating, 0, s.users*s.avg)
	cum := make([]float64, s.n)
	seen := make([]bool, s.n)
	var items []int
	for u := range s.users {
		n := synthMinRate + int(r.ExpFloat64()*float64(s.avg-synthMinRate))
		items = s.choose(s.p[u*synthTastes:(u+1)*synthTastes], min(n, 350, s.n), r, cum, seen, items[:0])
		for _, i := range items {
			y := math.Round(s.mean(u, i) + synthNoise*r.NormFloat64())
			s.rows = append(s.rows, synthRating{u: int16(u), i: int16(i), y: int8(min(max(y, 1), 5))})
		}
	}
	r.Shuffle(len(s.rows), func(a, b int) { s.rows[a], s.rows[b] = s.rows[b], s.rows[a] })
}

// choose appends to dst n distinct items that a person of taste p chooses,
// each drawn with chance ∝ P(i)·exp(c·p·q_i) (see SyntheticCatalog), an
// item drawn again drawn anew. When the items drawn hold half the weight
// left, the weights are summed again without them, so that a draw is new
// with chance ≥ ½: n items take at most about 2n draws and a few sums of
// the items' weights. The draws and the weights summed are counted. cum and
// seen are scratch of one entry an item.
func (s *SyntheticCatalog) choose(p []float64, n int, r *rand.Rand, cum []float64, seen []bool, dst []int) []int {
	w := func(i int) float64 { return s.pop[i] * math.Exp(synthChoice*dotTaste(p, s.q[i*synthTastes:])) }
	clear(seen)
	var total, seenW float64
	sum := func() {
		total, seenW = 0, 0
		for i := range s.n {
			if !seen[i] {
				total += w(i)
			}
			cum[i] = total
		}
		s.weighed += s.n
	}
	sum()
	for k := 0; k < n; {
		s.draws++
		i, _ := slices.BinarySearch(cum, r.Float64()*total)
		i = min(i, s.n-1)
		if seen[i] {
			continue
		}
		seen[i] = true
		dst = append(dst, i)
		if k++; k < n {
			if seenW += w(i); seenW > total/2 {
				sum()
			}
		}
	}
	return dst
}

// mean returns m(u, i), the rating of user u for item i before noise,
// rounding and clamping.
func (s *SyntheticCatalog) mean(u, i int) float64 {
	return synthMean + s.bu[u] + s.bi[i] + 1.2*dotTaste(s.p[u*synthTastes:(u+1)*synthTastes], s.q[i*synthTastes:])
}

// dotTaste returns p·q over p's tastes (q may run on).
func dotTaste(p, q []float64) float64 {
	d := 0.0
	for t := range p {
		d += p[t] * q[t]
	}
	return d
}

// Items returns a copy of the catalog's items, with Feature -1 and Count 0
// (NewCatalog binds them). Item i has ID str.Itoa(i).
func (s *SyntheticCatalog) Items() []CatalogItem { return cloneItems(s.items) }

// Dim returns the number of features, users plus items.
func (s *SyntheticCatalog) Dim() int { return s.users + s.n }

// FeatureName returns "user=17" for feature 17 and "item=42" for feature
// 342, the numbering of Next. It panics unless 0 ≤ i < Dim().
func (s *SyntheticCatalog) FeatureName(i int) string {
	return demo.UserItemName(i, s.users, s.n)
}

// NewPerson returns a new person's planted taste, drawn as the users' are
// (seed 0 means 1). The same seed gives the same person.
func (s *SyntheticCatalog) NewPerson(seed uint64) Person {
	if seed == 0 {
		seed = 1
	}
	r := rand.New(rand.NewPCG(seed, 0x9e25_0000_0000_0000))
	var p Person
	p.bias = 0.35 * r.NormFloat64()
	p.Favourite = drawTaste(r, p.taste[:])
	p.Genres = [2]string{synthGenres[2*p.Favourite], synthGenres[2*p.Favourite+1]}
	return p
}

// Chosen returns the n distinct items (indices in Items()) that person p
// chooses to rate first, drawn as the catalog's people chose theirs:
// chance ∝ P(i)·exp(c·p·q_i) (see SyntheticCatalog). The same person, n and
// seed give the same items. It panics unless 0 ≤ n ≤ len(Items()).
func (s *SyntheticCatalog) Chosen(p Person, n int, seed uint64) []int {
	if n < 0 || n > s.n {
		panic("core: SyntheticCatalog.Chosen: " + str.Itoa(n) + " items of " + str.Itoa(s.n))
	}
	r := demo.Rand(seed, 17)
	return s.choose(p.taste[:], n, r, make([]float64, s.n), make([]bool, s.n), make([]int, 0, n))
}

// TrueRating returns the rating person p would give item i (its index in
// Items()) on average: 3.5 + b_p + b_i + 1.2·p·q_i clamped to [1, 5], before
// noise and rounding. It panics unless 0 ≤ item < len(Items()).
func (s *SyntheticCatalog) TrueRating(p Person, item int) float64 {
	if item < 0 || item >= s.n {
		panic("core: SyntheticCatalog.TrueRating: item " + str.Itoa(item) + " out of range [0, " + str.Itoa(s.n) + ")")
	}
	y := synthMean + p.bias + s.bi[item] + 1.2*dotTaste(p.taste[:], s.q[item*synthTastes:])
	return min(max(y, 1), 5)
}

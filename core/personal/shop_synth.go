package personal

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/occfm/occfm/core/demo"
	"github.com/occfm/occfm/core/internal/str"
)

// The synthetic shop's sizes and planted structure (see SyntheticShop).
const (
	shopItems    = 200
	shopUsers    = 300
	shopGroups   = 5
	shopMean     = 3.5 // the global mean before biases
	shopNoise    = 0.5 // standard deviation of a rating's noise
	shopMinBuy   = 15  // products a shopper rates: shopMinBuy …
	shopMaxBuy   = 40  // … to shopMaxBuy, uniformly
	shopBeta     = 2.5 // β: how strongly taste steers what a shopper buys
	shopPopShift = 20  // popularity (shopPopShift + rank)^−1
)

// shopGroup is a taste group of products: its name (a product's first
// tag), the words its titles start with, and its detail tags, each with
// the nouns of its products' titles.
type shopGroup struct {
	name    string
	words   []string
	details []shopDetail
}

type shopDetail struct {
	tag   string
	nouns []string
}

// shopCatalog is the shop's groups; group g is taste g.
var shopCatalog = [shopGroups]shopGroup{
	{"outdoor", []string{"Trail", "Summit", "Canyon", "Ridge", "Basecamp", "Alpine", "Forest", "Wayfarer", "Pioneer", "Northwind"},
		[]shopDetail{
			{"camping", []string{"Lantern", "Tent", "Sleeping Bag", "Camp Stove"}},
			{"hiking", []string{"Backpack", "Trekking Poles", "Boots", "Water Bottle"}},
			{"cycling", []string{"Bike Light", "Helmet", "Saddle Bag", "Bike Pump"}},
			{"climbing", []string{"Chalk Bag", "Harness", "Carabiner Set", "Rope"}},
		}},
	{"kitchen", []string{"Cast-Iron", "Copper", "Chef's", "Farmhouse", "Bistro", "Stoneware", "Everyday", "Enamel", "Bamboo", "Classic"},
		[]shopDetail{
			{"cookware", []string{"Skillet", "Dutch Oven", "Saucepan", "Wok"}},
			{"baking", []string{"Loaf Pan", "Mixing Bowl", "Rolling Pin", "Cake Tin"}},
			{"coffee", []string{"Pour-Over Set", "Espresso Cups", "Coffee Grinder", "Kettle"}},
			{"knives", []string{"Paring Knife", "Knife Block", "Cleaver", "Whetstone"}},
		}},
	{"music", []string{"Studio", "Vintage", "Acoustic", "Midnight", "Golden", "Resonant", "Stage", "Velvet", "Analog", "Encore"},
		[]shopDetail{
			{"guitar", []string{"Guitar Strings", "Capo", "Guitar Strap", "Pick Tin"}},
			{"vinyl", []string{"Record Player", "Record Crate", "Vinyl Box Set", "Turntable Mat"}},
			{"headphones", []string{"Headphones", "Earbuds", "Headphone Stand", "Headphone Amp"}},
			{"keys", []string{"Keyboard", "Metronome", "Piano Bench", "Music Stand"}},
		}},
	{"games", []string{"Dragon's", "Castle", "Pirate", "Galaxy", "Mystery", "Royal", "Tiny", "Clever", "Lucky", "Wizard's"},
		[]shopDetail{
			{"board", []string{"Board Game", "Strategy Game", "Co-op Game", "Game Night Set"}},
			{"puzzle", []string{"Jigsaw", "Puzzle Box", "Brain Teaser", "Logic Cubes"}},
			{"cards", []string{"Card Game", "Deck", "Trading Cards", "Card Shuffler"}},
			{"dice", []string{"Dice Set", "Dice Tower", "Dice Tray", "Dice Game"}},
		}},
	{"garden", []string{"Greenleaf", "Meadow", "Heirloom", "Sunny", "Orchard", "Potting", "Rosewood", "Wildflower", "Cottage", "Evergreen"},
		[]shopDetail{
			{"seeds", []string{"Seed Kit", "Herb Seeds", "Tomato Seeds", "Bulb Mix"}},
			{"tools", []string{"Trowel", "Pruning Shears", "Garden Fork", "Hand Rake"}},
			{"plants", []string{"Planter", "Hanging Basket", "Seed Trays", "Plant Stand"}},
			{"watering", []string{"Watering Can", "Hose Reel", "Sprinkler", "Rain Barrel"}},
		}},
}

// SyntheticShop is a small made-up shop for demos: 200 products (titles
// such as "Trail Lantern" or "Cast-Iron Skillet", tags such as
// ["outdoor", "camping"]), 300 shoppers with planted tastes, and the
// ratings they gave what they bought, as a ratings stream ("user=sU",
// "item=pI" features, ratings 1–5). No real data.
//
// From the seed: 5 taste groups, outdoor, kitchen, music, games and
// garden, each with 4 detail tags and 40 products. Each product has a main
// group g (its first tag), for 80% one of g's detail tags, and for 30% a
// second group h (its last tag, h's name); its latent vector is
// q_i = e_g (+ ½ e_h) + N(0, 0.15²) noise, its bias b_i ~ N(0, 0.4²). Each shopper has a
// favourite group (+1), for half of them a second liked one (+0.6), a
// disliked one (−0.7), N(0, 0.2²) noise: p_u; and a bias b_u ~ N(0, 0.35²).
// The affinity of shopper u for product i is a(u, i) = p_u·q_i and the
// mean rating m(u, i) = 3.5 + b_u + b_i + 1.2·a(u, i), as SyntheticCatalog
// draws them.
//
// Unlike the catalog's people, who pick films by popularity alone, a
// shopper rates what they bought and buys what they like: products have
// Zipf-like popularities P(i) ∝ (20 + rank)^(−1), ranked by b_i + N(0,
// 0.6²), and shopper u buys 15 to 40 distinct products (uniformly), each
// drawn from those not yet bought with probability
//
//	π(i | u) ∝ P(i) · exp(β·a(u, i)),  β = 2.5,
//
// a weight of e^2.5 ≈ 12 for the favourite group against 1 for a neutral
// one, e^1.5 ≈ 4.5 for a second liked one and e^−1.75 ≈ 0.17 for the
// disliked one: about 63% of the purchases are of the favourite group. The
// shopper rates each product clamp(round(m(u, i) + ε), 1, 5) with
// ε ~ N(0, 0.5²), 4.4 on average: they bought what they like. The
// ratings, about 8,400, come in random order over shoppers. Shopper u is
// feature u ("user=su"), product i feature 300 + i ("item=pi"), the
// shoppers first.
//
// β is what lets a recommender of co-purchases find the groups: a new
// person who rates the 5 most rated products of one group at 5★ finds at
// least 6 of that group in item-lift's top 10 for every group of seeds
// 1–40, 9.4 on average; with β = 2 (57% of the purchases of the favourite
// group) 8.5 on average and 3 of the 200 below 6.
type SyntheticShop struct {
	items []CatalogItem
	bi, q []float64 // product biases and latent vectors (shopGroups each)
	bu, p []float64 // shopper biases and tastes
	fav   []int     // shopper favourite groups
	pop   []float64 // product popularity weights P(i)
	ratingStream
}

// NewSyntheticShop returns the synthetic shop for seed (0 means 1), its
// stream at the first row. The same seed gives the same shop and stream.
func NewSyntheticShop(seed uint64) *SyntheticShop {
	r := demo.Rand(seed, 17)
	s := &SyntheticShop{items: make([]CatalogItem, shopItems), q: make([]float64, shopItems*shopGroups)}
	s.itemBase = shopUsers
	s.bi = demo.Normals(r, shopItems, 0.4)
	used := map[string]bool{}
	group := r.Perm(shopItems) // product i is of group group[i] % 5: 40 each
	for i := range shopItems {
		g := group[i] % shopGroups
		q := s.q[i*shopGroups : (i+1)*shopGroups]
		for t := range q {
			q[t] = 0.15 * r.NormFloat64()
		}
		q[g] += 1
		grp := &shopCatalog[g]
		d := &grp.details[r.IntN(len(grp.details))]
		tags := []string{grp.name}
		if r.Float64() < 0.8 {
			tags = append(tags, d.tag)
		}
		if r.Float64() < 0.3 {
			h := (g + 1 + r.IntN(shopGroups-1)) % shopGroups
			q[h] += 0.5
			tags = append(tags, shopCatalog[h].name)
		}
		title := shopTitle(r, grp, d)
		for tries := 1; used[title]; tries++ {
			title = shopTitle(r, grp, d)
			if tries >= 50 {
				title += " " + str.Itoa(i)
			}
		}
		used[title] = true
		s.items[i] = CatalogItem{ID: "p" + str.Itoa(i), Title: title, Genres: tags, Feature: -1}
	}
	s.bu = demo.Normals(r, shopUsers, 0.35)
	s.p = make([]float64, shopUsers*shopGroups)
	s.fav = make([]int, shopUsers)
	for u := range shopUsers {
		s.fav[u] = drawTaste(r, s.p[u*shopGroups:(u+1)*shopGroups])
	}
	key := make([]float64, shopItems)
	order := make([]int, shopItems)
	for i := range key {
		key[i] = s.bi[i] + 0.6*r.NormFloat64()
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(key[b], key[a]) })
	s.pop = make([]float64, shopItems)
	for rank, i := range order {
		s.pop[i] = 1 / float64(shopPopShift+rank)
	}
	s.makeRows(r)
	return s
}

// shopTitle makes up a title from the group's words and the detail's
// nouns: "Trail Lantern".
func shopTitle(r *rand.Rand, g *shopGroup, d *shopDetail) string {
	return g.words[r.IntN(len(g.words))] + " " + d.nouns[r.IntN(len(d.nouns))]
}

// affinity returns a(u, i) = p_u·q_i.
func (s *SyntheticShop) affinity(u, i int) float64 {
	return dotTaste(s.p[u*shopGroups:(u+1)*shopGroups], s.q[i*shopGroups:])
}

// makeRows draws every shopper's purchases and ratings and shuffles them
// into the stream. A product bought leaves the draw.
func (s *SyntheticShop) makeRows(r *rand.Rand) {
	w := make([]float64, shopItems)
	s.rows = make([]synthRating, 0, shopUsers*(shopMinBuy+shopMaxBuy)/2)
	for u := range shopUsers {
		total := 0.0
		for i := range w {
			w[i] = s.pop[i] * math.Exp(shopBeta*s.affinity(u, i))
			total += w[i]
		}
		n := shopMinBuy + r.IntN(shopMaxBuy-shopMinBuy+1)
		for range n {
			x := r.Float64() * total
			i, last := 0, 0
			for ; i < shopItems; i++ {
				if w[i] == 0 {
					continue
				}
				last = i
				if x -= w[i]; x < 0 {
					break
				}
			}
			i = min(i, last) // rounding ran past the end: the last left
			total -= w[i]
			w[i] = 0
			m := shopMean + s.bu[u] + s.bi[i] + 1.2*s.affinity(u, i)
			y := math.Round(m + shopNoise*r.NormFloat64())
			s.rows = append(s.rows, synthRating{u: int16(u), i: int16(i), y: int8(min(max(y, 1), 5))})
		}
	}
	r.Shuffle(len(s.rows), func(a, b int) { s.rows[a], s.rows[b] = s.rows[b], s.rows[a] })
}

// Items returns a copy of the shop's products, with Feature -1 and Count 0
// (NewCatalog binds them): ID "p17", Genres the tags, the first the
// product's group.
func (s *SyntheticShop) Items() []CatalogItem { return cloneItems(s.items) }

// Groups returns the names of the shop's taste groups, the first tags of
// its products.
func (s *SyntheticShop) Groups() []string {
	names := make([]string, shopGroups)
	for g := range names {
		names[g] = shopCatalog[g].name
	}
	return names
}

// Dim returns the number of features, shoppers plus products.
func (s *SyntheticShop) Dim() int { return shopUsers + shopItems }

// FeatureName returns "user=s17" for feature 17 and "item=p42" for feature
// 342, the numbering of Next. It panics unless 0 ≤ i < Dim().
func (s *SyntheticShop) FeatureName(i int) string {
	switch {
	case i >= 0 && i < shopUsers:
		return "user=s" + str.Itoa(i)
	case i >= shopUsers && i < shopUsers+shopItems:
		return "item=p" + str.Itoa(i-shopUsers)
	}
	panic("core: SyntheticShop.FeatureName: feature " + str.Itoa(i) + " out of range [0, " + str.Itoa(s.Dim()) + ")")
}

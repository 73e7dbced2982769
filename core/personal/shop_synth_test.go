package personal

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/occfm/occfm/core"
	"github.com/occfm/occfm/core/data"
)

// learnShop learns the synthetic shop of seed with the registry learner
// name, as Personalize learns a catalog (learnSynthStream).
func learnShop(t testing.TB, name string, seed uint64) (core.Learner, *Catalog, *SyntheticShop) {
	t.Helper()
	s := NewSyntheticShop(seed)
	l, c := learnSynthStream(t, name, s)
	return l, c, s
}

// TestSyntheticShopShape checks what SyntheticShop promises: 200 products
// of unique titles whose first tag is their group, a second group on about
// 30%, 15–40 distinct products a shopper, ratings 1–5, 6,000–10,000 in all,
// and the same stream for the same seed.
func TestSyntheticShopShape(t *testing.T) {
	groups := NewSyntheticShop(1).Groups()
	for _, seed := range []uint64{1, 2, 3} {
		s := NewSyntheticShop(seed)
		items := s.Items()
		if len(items) != 200 {
			t.Fatalf("seed %d: %d products, want 200", seed, len(items))
		}
		titles := map[string]bool{}
		second := 0
		for k, it := range items {
			if it.ID != fmt.Sprint("p", k) || titles[it.Title] || len(it.Genres) == 0 || !slices.Contains(groups, it.Genres[0]) {
				t.Errorf("seed %d: product %d %+v: want ID p%d, a new title, a group first", seed, k, it, k)
			}
			titles[it.Title] = true
			for _, tag := range it.Genres[1:] {
				if slices.Contains(groups, tag) && tag != it.Genres[0] {
					second++
				}
			}
		}
		if second < 40 || second > 80 {
			t.Errorf("seed %d: %d products with a second group, want about 60", seed, second)
		}
		bought := map[[2]int]bool{}
		perUser := make([]int, 300)
		var ex data.Example
		for s.Next(&ex) == nil {
			u, i := ex.X.Ind[0], ex.X.Ind[1]-300
			if bought[[2]int{u, i}] || ex.Y < 1 || ex.Y > 5 || ex.Y != float64(int(ex.Y)) {
				t.Fatalf("seed %d: row user %d item %d rating %v: a repeat or out of 1–5", seed, u, i, ex.Y)
			}
			bought[[2]int{u, i}] = true
			perUser[u]++
		}
		if n := s.Rows(); n < 6000 || n > 10000 || n != len(bought) {
			t.Errorf("seed %d: %d ratings (%d read), want 6,000–10,000", seed, n, len(bought))
		}
		if lo, hi := slices.Min(perUser), slices.Max(perUser); lo < 15 || hi > 40 {
			t.Errorf("seed %d: shoppers rate %d to %d products, want 15–40", seed, lo, hi)
		}
		s.Reset()
		again := NewSyntheticShop(seed)
		var ex2 data.Example
		for s.Next(&ex) == nil {
			again.Next(&ex2)
			if !slices.Equal(ex.X.Ind, ex2.X.Ind) || ex.Y != ex2.Y {
				t.Fatalf("seed %d: two shops of the same seed differ", seed)
			}
		}
	}
}

// TestSyntheticShopPurchases: shoppers buy mostly, but not only, from their
// favourite group (β = 2.5: about 63%, SyntheticShop), and like what they
// buy.
func TestSyntheticShopPurchases(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		s := NewSyntheticShop(seed)
		fav, sum := 0, 0.0
		var ex data.Example
		for s.Next(&ex) == nil {
			u, i := ex.X.Ind[0], ex.X.Ind[1]-300
			if s.q[i*shopGroups+s.fav[u]] > 0.5 {
				fav++
			}
			sum += ex.Y
		}
		share, mean := float64(fav)/float64(s.Rows()), sum/float64(s.Rows())
		t.Logf("seed %d: %d ratings, %.0f%% of the favourite group, mean rating %.2f", seed, s.Rows(), 100*share, mean)
		if share < 0.5 || share > 0.8 {
			t.Errorf("seed %d: %.2f of purchases from the favourite group, want 0.5–0.8", seed, share)
		}
		if mean < 3.8 || mean > 4.6 {
			t.Errorf("seed %d: mean rating %.2f, want 3.8–4.6 (shoppers buy what they like)", seed, mean)
		}
	}
}

// TestSyntheticShopRecommendsGroup is the property the shop demo is for:
// a new person who rates the 5 most rated products of one group at 5★
// gets at least 6 products of that group (first tag) in the top 10 of the
// default learner, for every group of seeds 1–5.
//
// Measured (item-lift; products of the group in the top 10, groups in the
// order outdoor, kitchen, music, games, garden):
//
//	seed 1: 9 8 10 10 10
//	seed 2: 9 9 9 10 9
//	seed 3: 10 10 10 10 10
//	seed 4: 9 9 9 9 10
//	seed 5: 9 9 10 8 10
//
// at least 8, 9.40 on average; over seeds 1–40 at least 6, 9.39 on
// average (with β = 2 instead of 2.5: 4, 8.53, and 3 of the 200 below 6).
// The products that come in from other groups are those that carry the
// group as a second tag, or share buyers with the rated ones that carry a
// second group: the shop's planted overlap.
func TestSyntheticShopRecommendsGroup(t *testing.T) {
	seeds := []uint64{1, 2, 3, 4, 5}
	if testing.Short() {
		seeds = seeds[:3]
	}
	worst, sum, n := 10, 0, 0
	for _, seed := range seeds {
		l, c, s := learnShop(t, DefaultLearner, seed)
		for _, g := range s.Groups() {
			t.Run(fmt.Sprintf("seed%d/%s", seed, g), func(t *testing.T) {
				got := groupTop(t, l, c, s.Dim(), g)
				t.Logf("seed %d, 5 %s products at 5★: %d of the top 10 are %s", seed, g, got, g)
				if got < 6 {
					t.Errorf("seed %d: 5 %s products at 5★: %d of the top 10 are %s, want at least 6", seed, g, got, g)
				}
				worst, sum, n = min(worst, got), sum+got, n+1
			})
		}
	}
	t.Logf("products of the group in the top 10: worst %d, mean %.2f over %d seeds × groups", worst, float64(sum)/float64(n), n)
}

// groupTop rates the 5 most rated products whose first tag is group at 5★
// and returns how many of the top 10 have group as their first tag.
func groupTop(t testing.TB, l core.Learner, c *Catalog, you int, group string) int {
	t.Helper()
	p, err := NewPersonalizer(l, c, you)
	if err != nil {
		t.Fatal(err)
	}
	rated := 0
	for _, k := range mostRated(c) {
		if it := c.Items[k]; rated < 5 && it.Feature >= 0 && it.Genres[0] == group {
			if _, err := p.Rate(k, 5); err != nil {
				t.Fatal(err)
			}
			rated++
		}
	}
	n := 0
	for _, r := range p.Recommend(10) {
		if c.Items[r.Item].Genres[0] == group {
			n++
		}
	}
	return n
}

// TestShopTagReasons: on the synthetic shop, five ★5 ratings of a group's
// most rated products (as the example's visitor gives them) make the
// group's products in the default learner's top 10 name the group among
// their reasons ("because you liked “Chef's Cleaver” (kitchen, knives,
// 5★)", or "because you liked kitchen (5 rated)"), for every group, seeds
// 1–3: at least 5 of the 10.
func TestShopTagReasons(t *testing.T) {
	for seed := uint64(1); seed <= 3; seed++ {
		l, c, s := learnShop(t, DefaultLearner, seed)
		for _, g := range s.Groups() {
			p, err := NewPersonalizer(l, c, s.Dim())
			if err != nil {
				t.Fatal(err)
			}
			rated := 0
			for _, k := range mostRated(c) {
				if rated < 5 && c.Items[k].Feature >= 0 && c.Items[k].Genres[0] == g {
					if _, err := p.Rate(k, 5); err != nil {
						t.Fatal(err)
					}
					rated++
				}
			}
			named := 0
			for _, r := range p.Recommend(10) {
				checkGenreReasons(t, p, r, g, "")
				for _, w := range r.Why {
					if strings.Contains(w.Text, " "+g+" ") || strings.Contains(w.Text, "("+g+",") {
						named++
						break
					}
				}
			}
			if named < 5 {
				t.Errorf("seed %d, group %s rated ★5: %d picks name it, want at least 5", seed, g, named)
			}
		}
	}
}

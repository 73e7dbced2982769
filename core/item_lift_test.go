package core

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/occfm/occfm/core/data"
)

// liftStream returns ratings of people 0..p-1 (features 0..p-1) on items
// p..p+n-1, each person rating about a third of the items, stars 1–5.
func liftStream(p, n int, seed uint64) []data.Example {
	r := rand.New(rand.NewPCG(seed, 9))
	var out []data.Example
	for u := range p {
		for i := range n {
			if r.IntN(3) == 0 {
				out = append(out, data.Example{X: data.Sparse{Ind: []int{u, p + i}, Val: []float64{1, 1}}, Y: float64(1 + r.IntN(5))})
			}
		}
	}
	r.Shuffle(len(out), func(a, b int) { out[a], out[b] = out[b], out[a] })
	return out
}

// TestItemLiftScores checks RankScores against the formula of ItemLift
// computed naively from the rows (nⱼₖ and aⱼₖ by scanning every person),
// and that RankTerms sum back to it, for people of a few ratings.
func TestItemLiftScores(t *testing.T) {
	const people, items = 40, 25
	for _, seed := range []uint64{1, 2, 3} {
		rows := liftStream(people, items, seed)
		m := NewItemLift(ItemLiftSettings{})
		stars := map[[2]int]float64{}
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, ex := range rows {
			m.Update(ex.X, ex.Y)
			stars[[2]int{ex.X.Ind[0], ex.X.Ind[1]}] = ex.Y
			lo, hi = min(lo, ex.Y), max(hi, ex.Y)
		}
		w := func(y float64) float64 { return (2*y - lo - hi) / (hi - lo) }
		cand := make([]int, items)
		for i := range cand {
			cand[i] = people + i
		}
		for _, u := range []int{0, 7, 39} {
			got := m.RankScores(u, cand, nil)
			for k, item := range cand {
				var nk float64
				for q := range people {
					if _, ok := stars[[2]int{q, item}]; ok {
						nk++
					}
				}
				var sum float64
				r := 0
				for j := people; j < people+items; j++ {
					if yj, ok := stars[[2]int{u, j}]; ok && w(yj) != 0 {
						r++
					}
				}
				for j := people; j < people+items; j++ {
					yj, ok := stars[[2]int{u, j}]
					if !ok || w(yj) == 0 {
						continue
					}
					var nj, njk, ajk float64
					for q := range people {
						a, okj := stars[[2]int{q, j}]
						b, okk := stars[[2]int{q, item}]
						if okj {
							nj++
						}
						if okj && okk {
							njk++
							ajk += w(a) * w(b)
						}
					}
					c := m.s.Shrink
					sum += w(yj) * (math.Log((njk+c)/(nj*nk/people+c)) + m.s.Agree*ajk/(njk+c))
				}
				want := math.Log1p(nk) + m.s.Gamma*math.Pow(10/float64(max(r, 1)), 0.3)*sum
				if math.Abs(got[k]-want) > 1e-9*max(1, math.Abs(want)) {
					t.Errorf("seed %d person %d item %d: score %v, naive %v", seed, u, item, got[k], want)
				}
				prior, terms := m.RankTerms(u, item)
				total := prior
				for _, tm := range terms {
					total += tm.Value
				}
				if math.Abs(total-got[k]) > 1e-9*max(1, math.Abs(want)) {
					t.Errorf("seed %d person %d item %d: terms sum to %v, score %v", seed, u, item, total, got[k])
				}
			}
		}
	}
}

// TestItemLiftSides: the 2-coloring puts people and items on opposite
// sides, whichever column comes first in a row of features seen before
// (Personalize's rows put the new person second), so N is the number of
// people.
func TestItemLiftSides(t *testing.T) {
	m := NewItemLift(ItemLiftSettings{})
	rows := liftStream(30, 12, 4)
	seen := map[int]bool{}
	persons, things := map[int]bool{}, map[int]bool{}
	for _, ex := range rows {
		persons[ex.X.Ind[0]], things[ex.X.Ind[1]] = true, true
	}
	for k, ex := range rows {
		x := ex.X
		if k%2 == 1 && seen[x.Ind[0]] && seen[x.Ind[1]] {
			x = data.Sparse{Ind: []int{x.Ind[1], x.Ind[0]}, Val: x.Val}
		}
		seen[x.Ind[0]], seen[x.Ind[1]] = true, true
		m.Update(x, ex.Y)
	}
	if got, want := m.people(rows[0].X.Ind[1]), float64(len(persons)); got != want {
		t.Errorf("N for an item: %v, want the %v people who rated", got, want)
	}
	if got, want := m.people(rows[0].X.Ind[0]), float64(len(things)); got != want {
		t.Errorf("N for a person: %v, want the %v items rated", got, want)
	}
}

// TestItemLiftEvidence: a ranking reads a person's last itemLiftEvidence
// rated films only, so that a click's work stops growing: a person who
// rated 30 films ranks the films neither rated exactly as one who rated
// only the last 20 of them.
func TestItemLiftEvidence(t *testing.T) {
	const people, items = 40, 60
	rows := liftStream(people, items, 5)
	all, last := NewItemLift(ItemLiftSettings{}), NewItemLift(ItemLiftSettings{})
	for _, ex := range rows {
		all.Update(ex.X, ex.Y)
		last.Update(ex.X, ex.Y)
	}
	person := people + items // a new feature
	rated := map[int]bool{}
	for k := range 30 {
		item := people + 2*k
		x := data.Sparse{Ind: []int{item, person}, Val: []float64{1, 1}}
		y := []float64{5, 1, 4, 2}[k%4] // no 3★: every rating has a weight
		all.Update(x, y)
		if k >= 10 {
			last.Update(x, y)
		}
		rated[item] = true
	}
	if feat, _ := all.bag(person); len(feat) != itemLiftEvidence {
		t.Fatalf("bag of %d films, want %d", len(feat), itemLiftEvidence)
	}
	var cand []int
	for i := people; i < people+items; i++ {
		if !rated[i] {
			cand = append(cand, i)
		}
	}
	a, b := all.RankScores(person, cand, nil), last.RankScores(person, cand, nil)
	for k := range cand {
		if math.Abs(a[k]-b[k]) > 1e-12 {
			t.Errorf("item %d: %v after 30 ratings, %v after their last 20", cand[k], a[k], b[k])
		}
	}
}

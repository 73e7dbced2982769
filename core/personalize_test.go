package core

import (
	"bytes"
	"io"
	"math"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
)

// learnSynthetic learns the synthetic catalog of seed with the named
// learner (default Config) and returns the learner and the bound catalog.
func learnSynthetic(t testing.TB, name string, seed uint64) (Learner, *Catalog, *SyntheticCatalog) {
	t.Helper()
	s := NewSyntheticCatalog(seed)
	l, err := NewLearner(name, Config{})
	if err != nil {
		t.Fatal(err)
	}
	var pop Popularity
	var ex Example
	for s.Next(&ex) == nil {
		pop.Observe(ex)
		Play(l, ex, nil)
	}
	return l, NewCatalog(s.Items(), s, &pop), s
}

// plantedHits rates, for persons new persons, 10 distinct items drawn from
// the 100 most popular with their rounded TrueRating, and returns the mean
// hits@10 of Recommend(10) and of popularity alone against the person's true
// top 10 among the unrated items.
func plantedHits(t testing.TB, l Learner, c *Catalog, s *SyntheticCatalog, persons int, seed uint64) (model, popular, coldHits float64) {
	t.Helper()
	byCount := make([]int, len(c.Items))
	for k := range byCount {
		byCount[k] = k
	}
	sort.SliceStable(byCount, func(a, b int) bool { return c.Items[byCount[a]].Count > c.Items[byCount[b]].Count })
	top100 := byCount[:100]
	for k := range persons {
		ps := seed*1000 + uint64(k) + 1
		person := s.NewPerson(ps)
		p, err := NewPersonalizer(l, c, s.Dim())
		if err != nil {
			t.Fatal(err)
		}
		cold0 := p.Recommend(len(c.Items))
		r := demoRand(ps, 99)
		rated := map[int]bool{}
		for _, j := range r.Perm(100)[:10] {
			it := top100[j]
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

func TestPersonalPlantedTastes(t *testing.T) {
	for _, name := range []string{"occfm", "fm-ftrl", "bias"} {
		for seed := uint64(1); seed <= 3; seed++ {
			t0 := time.Now()
			l, c, s := learnSynthetic(t, name, seed)
			m, pop, cold := plantedHits(t, l, c, s, 50, seed)
			t.Logf("%s seed %d: hits@10 model %.2f, popularity %.2f, model before rating %.2f (%v)", name, seed, m, pop, cold, time.Since(t0))
		}
	}
}

var _ = bytes.NewReader
var _ = io.EOF
var _ = strings.Contains

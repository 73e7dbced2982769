package personal

import (
	"io"
	"slices"
	"testing"
	"time"

	"github.com/occfm/occfm/core"
	"github.com/occfm/occfm/core/data"
)

// catalogRatings is the size of the catalog BenchmarkCatalog measures on:
// `occfm gen -demo catalog -rows 100000` (98,492 ratings of 9,709 made-up
// films by 672 people), the shape of MovieLens' ml-latest-small.
const catalogRatings = 100_000

// learnCatalog learns the catalog of size ratings with the named learner
// as the page does (guarded for ratings, one core.Play a rating).
func learnCatalog(tb testing.TB, name string, s *SyntheticCatalog) (core.Learner, *Catalog) {
	tb.Helper()
	l, err := core.NewGuarded(name, core.Config{Task: data.Regression}, core.GuardFor("on", "", true))
	if err != nil {
		tb.Fatal(err)
	}
	s.Reset()
	var pop Popularity
	var ex data.Example
	for {
		if err := s.Next(&ex); err == io.EOF {
			break
		}
		pop.Observe(ex)
		core.Play(l, ex, nil)
	}
	return l, NewCatalog(s.Items(), s, &pop)
}

// BenchmarkCatalog measures, on a 100,000-rating catalog of 9,709 films
// (catalogRatings), what Personalize costs a person with the default
// learner and, as the reference of the same run, with fm-ftrl: learn/…
// learns the whole catalog (ns/op is one learning), click/… is one star
// click: a rating and the new top 10 with their reasons (Rate then
// Recommend(10)), over a person's first 20 ratings of popular films, whose
// median and worst are reported as click-median-ms and click-max-ms.
// make bench runs it; the page's own figures are e2e's
// TestBenchPersonalCatalog.
func BenchmarkCatalog(b *testing.B) {
	s := NewSyntheticCatalogSize(1, catalogRatings)
	for _, name := range []string{DefaultLearner, "fm-ftrl"} {
		b.Run("learn/"+name, func(b *testing.B) {
			for range b.N {
				learnCatalog(b, name, s)
			}
			b.ReportMetric(float64(s.Rows()), "ratings")
		})
		b.Run("click/"+name, func(b *testing.B) {
			l, c := learnCatalog(b, name, s)
			p, err := NewPersonalizer(l, c, s.Dim())
			if err != nil {
				b.Fatal(err)
			}
			byCount := make([]int, 0, len(c.Items))
			for k := range c.Items {
				byCount = append(byCount, k)
			}
			slices.SortStableFunc(byCount, func(x, y int) int { return c.Items[y].Count - c.Items[x].Count })
			var ms []float64
			b.ResetTimer()
			for i := range b.N {
				if i%20 == 0 {
					p.Clear()
				}
				start := time.Now()
				p.Rate(byCount[i%20], float64(1+(i*7)%5))
				p.Recommend(10)
				ms = append(ms, float64(time.Since(start).Microseconds())/1000)
			}
			slices.Sort(ms)
			b.ReportMetric(ms[len(ms)/2], "click-median-ms")
			b.ReportMetric(ms[len(ms)-1], "click-max-ms")
		})
	}
}

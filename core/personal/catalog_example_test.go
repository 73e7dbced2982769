package personal_test

import (
	"fmt"
	"strings"

	"github.com/occfm/occfm/core"
	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/personal"
)

// A new person rates two items of the synthetic catalog and gets
// recommendations with their reasons.
func ExamplePersonalizer() {
	s := personal.NewSyntheticCatalog(1)
	l, _ := core.NewLearner("fm-ftrl", core.Config{})
	var pop personal.Popularity
	var ex data.Example
	for s.Next(&ex) == nil {
		pop.Observe(ex)
		core.Play(l, ex, nil)
	}
	c := personal.NewCatalog(s.Items(), s, &pop)
	p, _ := personal.NewPersonalizer(l, c, s.Dim())

	cold := p.Recommend(1)[0]
	fmt.Printf("cold start: %s, %.4g (%s)\n", c.Items[cold.Item].Title, cold.Score, cold.Why[0].Text)
	before, _ := p.Rate(cold.Item, 1)
	fmt.Printf("you rated it ★1; we guessed %.4g\n", before)
	for _, r := range p.Recommend(3) {
		var why []string
		for _, w := range r.Why {
			why = append(why, w.Text)
		}
		fmt.Printf("%s %.4g: %s\n", c.Items[r.Item].Title, r.Score, strings.Join(why, "; "))
	}
	fmt.Print(string(p.RatingsCSV()))
	// Output:
	// cold start: Little Mountains (1956), 4.449 (liked by most: +0.90 ★)
	// you rated it ★1; we guessed 4.449
	// Oscar's Island (1961) 4.286: unlike “Little Mountains (1956)”, which you disliked (1★): +0.08 ★; liked by most: +0.83 ★; the model's starting guess for anyone, ★3.55
	// Signal of the Savage Summer (1958) 4.273: unlike “Little Mountains (1956)”, which you disliked (1★): +0.10 ★; liked by most: +0.80 ★; the model's starting guess for anyone, ★3.55
	// Silent Voyages (1983) 4.198: unlike “Little Mountains (1956)”, which you disliked (1★): +0.09 ★; liked by most: +0.73 ★; the model's starting guess for anyone, ★3.55
	// item_id,title,stars
	// 28,Little Mountains (1956),1
}

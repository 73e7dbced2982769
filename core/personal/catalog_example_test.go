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
	// cold start: A Harbor for Vera (1963), 4.379 (liked by most: +0.93 ★)
	// you rated it ★1; we guessed 4.379
	// A Mountain for Oscar (1996) 4.241: unlike “A Harbor for Vera (1963)”, which you disliked (1★): +0.19 ★; liked by most: +0.78 ★; the model's starting guess for anyone, ★3.44
	// Oscar's Island (1961) 4.187: unlike “A Harbor for Vera (1963)”, which you disliked (1★): +0.04 ★; liked by most: +0.88 ★; the model's starting guess for anyone, ★3.44
	// Silent Voyages (1983) 4.186: unlike “A Harbor for Vera (1963)”, which you disliked (1★): +0.07 ★; liked by most: +0.85 ★; the model's starting guess for anyone, ★3.44
	// item_id,title,stars
	// 258,A Harbor for Vera (1963),1
}

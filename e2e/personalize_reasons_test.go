//go:build e2e

// End-to-end test of the wording of Personalize's reasons (the rules of
// core/personal/personalize.go): the first reason of a pick names the rated
// film that most supports it, liked or disliked. Helpers: e2e_test.go,
// personalize_test.go, personalize_genres_test.go.
package e2e

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// pWhy is a recommendation's reasons as the page lists them (.p-why li).
type pWhy struct {
	Item  int      `json:"item"`
	Title string   `json:"title"`
	Why   []string `json:"why"`
}

const pWhyJS = `[...document.querySelectorAll('[data-testid="p-rec"]')].map((li) => ({
	item: +li.dataset.item,
	title: li.querySelector(".p-title").firstChild.textContent,
	why: [...li.querySelectorAll(".p-why li")].map((e) => e.textContent),
}))`

// The two ways a reason may name a rated film: "because you liked “T”
// (5★)" (rated above 3★; the genres it shares with the pick may come
// first, "(Horror, 5★)") and "unlike “T”, which you disliked (1★)" (rated
// under 3★); a value may follow.
var (
	likedReason    = regexp.MustCompile(`^because you liked “(.+)” \((?:[^()]+, )?([0-9.]+)★\)`)
	dislikedReason = regexp.MustCompile(`^unlike “(.+)”, which you disliked \(([0-9.]+)★\)`)
)

// checkReasonWording holds the picks' reasons to the wording rules: a
// reason that names a film (“…”) is "because you liked “T” (N★)" of a film
// the test rated N > 3 or "unlike “T”, which you disliked (N★)" of one
// rated N < 3, the first reason included; no reason says "the other way"
// or "your ratings so far". rated maps the titles rated to their stars. It
// returns how many picks' first reason names a film.
func checkReasonWording(t *testing.T, when string, recs []pWhy, rated map[string][]int) (named int) {
	t.Helper()
	for _, r := range recs {
		if len(r.Why) == 0 {
			t.Errorf("%s: %s has no reason", when, r.Title)
			continue
		}
		for j, w := range r.Why {
			for _, banned := range []string{"the other way", "your ratings so far"} {
				if strings.Contains(w, banned) {
					t.Errorf("%s: %s's reason %d %q says %q", when, r.Title, j+1, w, banned)
				}
			}
			if !strings.Contains(w, "“") && !strings.Contains(w, "”") {
				continue
			}
			m, liked := likedReason.FindStringSubmatch(w), true
			if m == nil {
				m, liked = dislikedReason.FindStringSubmatch(w), false
			}
			if m == nil {
				t.Errorf(`%s: %s's reason %d %q names a film but is neither "because you liked “T” (N★)" nor "unlike “T”, which you disliked (N★)"`, when, r.Title, j+1, w)
				continue
			}
			if j == 0 {
				named++
			}
			stars, err := strconv.ParseFloat(m[2], 64)
			given := rated[m[1]]
			switch {
			case len(given) == 0:
				t.Errorf("%s: %s's reason %d %q names “%s”, which the test did not rate", when, r.Title, j+1, w, m[1])
			case err != nil || !slices.Contains(given, int(stars)) || float64(int(stars)) != stars:
				t.Errorf("%s: %s's reason %d %q gives “%s” %s★; the test rated it %v★", when, r.Title, j+1, w, m[1], m[2], given)
			case liked && stars <= 3:
				t.Errorf("%s: %s's reason %d %q: a film rated %v★ given as liked (want above 3★)", when, r.Title, j+1, w, stars)
			case !liked && stars >= 3:
				t.Errorf("%s: %s's reason %d %q: a film rated %v★ given as disliked (want under 3★)", when, r.Title, j+1, w, stars)
			}
		}
	}
	return named
}

// TestE2EPersonalizeReasons: on the synthetic catalog and on MovieLens-100K
// (skipped when absent), with the default learner, eight ratings of popular
// films (5★, 4★, 3★, 2★ and 1★); after each, every pick's reasons follow
// the wording rules (checkReasonWording), and after the last at least one
// pick's first reason names a film. Then, after Clear, three dislikes
// alone: any film named must be one of them, as "unlike “T”".
func TestE2EPersonalizeReasons(t *testing.T) {
	t.Parallel()
	for _, catalog := range []string{"synthetic", "movielens-100k"} {
		t.Run(catalog, func(t *testing.T) {
			if catalog == "movielens-100k" {
				needFile(t, movielensPath)
				needFile(t, movielensItemsPath)
			}
			s := newSession(t, 4*time.Minute)
			s.openPersonalize()
			s.waitPersonalReady(90 * time.Second)
			if l := evalJS[string](s, `document.querySelector('[data-testid="p-learner"]').value`); l != "item-lift" {
				t.Errorf("the default learner is %q, want item-lift", l)
			}
			if catalog == "movielens-100k" {
				s.pickPersonalFilesReady(movielensPath, movielensItemsPath, 60*time.Second)
			}
			items := s.personalCatalog()
			checkReasonWording(t, "cold start", evalJS[[]pWhy](s, pWhyJS), nil)
			list := evalJS[[]int](s, `[...document.querySelectorAll('[data-testid="p-item"]')].slice(0, 20).map((li) => +li.dataset.item)`)
			if len(list) < 20 {
				t.Fatalf("the item list shows %d films, want 20", len(list))
			}
			plan := []struct{ at, stars int }{{0, 5}, {1, 1}, {3, 4}, {4, 5}, {6, 3}, {8, 2}, {10, 4}, {13, 1}}
			rated := map[string][]int{}
			var recs []pWhy
			unlike := 0 // "unlike “T”" reasons seen, for the log
			for n, p := range plan {
				k := list[p.at]
				s.rateListed(k, p.stars, n+1, items[k].Title)
				rated[items[k].Title] = append(rated[items[k].Title], p.stars)
				recs = evalJS[[]pWhy](s, pWhyJS)
				when := fmt.Sprintf("%s, rating %d (%s %d★)", catalog, n+1, items[k].Title, p.stars)
				named := checkReasonWording(t, when, recs, rated)
				for _, r := range recs {
					for _, w := range r.Why {
						if strings.HasPrefix(w, "unlike “") {
							unlike++
						}
					}
				}
				t.Logf("%s: %d of %d first reasons name a film; top: %s (%s)", when, named, len(recs), recs[0].Title, strings.Join(recs[0].Why, "; "))
			}
			named := checkReasonWording(t, catalog+", after the 8 ratings", recs, rated)
			var lines []string
			for _, r := range recs {
				lines = append(lines, r.Title+": "+strings.Join(r.Why, "; "))
			}
			t.Logf("%s after 8 ratings, %d of %d first reasons name a film (over the 8 top 10s, %d reasons were \"unlike “T”\"):\n\t%s",
				catalog, named, len(recs), unlike, strings.Join(lines, "\n\t"))
			if named == 0 {
				t.Errorf("%s: after 8 ratings no pick's first reason names a rated film", catalog)
			}
			s.screenshot("personalize-reasons-" + catalog)

			// Dislikes only, after Clear: a film named must be one of
			// them, as "unlike “T”, which you disliked".
			s.clearPersonalRatings(catalog)
			disliked := map[string][]int{}
			unlike = 0
			for n, at := range []int{0, 2, 5} {
				k := list[at]
				stars := 1 + n%2
				s.rateListed(k, stars, n+1, items[k].Title)
				disliked[items[k].Title] = append(disliked[items[k].Title], stars)
				recs = evalJS[[]pWhy](s, pWhyJS)
				checkReasonWording(t, fmt.Sprintf("%s, dislike %d (%s %d★)", catalog, n+1, items[k].Title, stars), recs, disliked)
				for _, r := range recs {
					for _, w := range r.Why {
						if strings.HasPrefix(w, "unlike “") {
							unlike++
						}
					}
				}
			}
			t.Logf("%s, 3 dislikes only: %d \"unlike “T”\" reasons over the 3 top 10s; top: %s (%s)", catalog, unlike, recs[0].Title, strings.Join(recs[0].Why, "; "))
			s.checkExceptions()
		})
	}
}

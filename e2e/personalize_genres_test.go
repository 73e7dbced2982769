//go:build e2e

// End-to-end tests of Personalize's tastes on MovieLens-100K: a liked genre
// at 5★ and a disliked one at 1★ move the top 10, as the core's
// TestPersonalMovieLensGenres does. Helpers: e2e_test.go,
// personalize_test.go.
package e2e

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// pCatalogItem is an item of the core's catalog JSON
// (occfm.personal.catalog(), wasm/doc.go).
type pCatalogItem struct {
	Title  string   `json:"title"`
	Genres []string `json:"genres"`
	Count  int      `json:"count"`
	Known  bool     `json:"known"`
}

// personalCatalog reads the learned catalog's items from the core
// (occfm.personal.catalog()), indexed as the page's data-item.
func (s *session) personalCatalog() []pCatalogItem {
	s.t.Helper()
	items := evalJS[[]pCatalogItem](s, `(() => {
		const c = occfm.personal.catalog();
		return (typeof c === "string" ? JSON.parse(c) : c).items;
	})()`)
	if len(items) == 0 {
		s.t.Fatalf("occfm.personal.catalog() lists no items (page: %s)", s.status())
	}
	return items
}

// pickPersonalFilesReady picks the ratings and the item list together in
// Personalize (after the synthetic catalog it learns first) and waits until
// they are learned and recommended from. It returns the time from the pick
// to ready, as the test saw it.
func (s *session) pickPersonalFilesReady(ratings, items string, timeout time.Duration) time.Duration {
	s.t.Helper()
	var paths []string
	for _, p := range []string{items, ratings} {
		abs, err := filepath.Abs(p)
		if err != nil {
			s.t.Fatal(err)
		}
		paths = append(paths, abs)
	}
	start := time.Now()
	s.do("pick "+filepath.Base(ratings)+" and "+filepath.Base(items), chromedp.SetUploadFiles(sel("p-files"), paths))
	// personal.key names the files from the moment they are learned: the
	// synthetic catalog's "ready" does not count.
	s.waitJS("the picked files learned (Personalize ready)",
		`occfmPage.personal.key.startsWith("files") && document.getElementById("personalize-view").dataset.phase === "ready" &&
			document.querySelectorAll('[data-testid="p-rec"]').length > 0`, timeout)
	took := time.Since(start)
	s.t.Logf("%s and %s learned %v after the pick: %s", filepath.Base(ratings), filepath.Base(items), took.Round(time.Millisecond),
		evalJS[string](s, `document.querySelector('[data-testid="p-progress-text"]').textContent`))
	return took
}

// setPersonalSearch types text into the item search (as the page's input
// event sees it).
func (s *session) setPersonalSearch(text string) {
	s.t.Helper()
	evalJS[chromedp.Void](s, fmt.Sprintf(`(() => {
		const e = document.querySelector('[data-testid="p-search"]');
		e.value = %q;
		e.dispatchEvent(new Event("input"));
	})()`, text))
}

// rateListed rates item with a star click in the item list, searching for
// its title first when the list does not show it, and waits until Your
// ratings holds n films.
func (s *session) rateListed(item, stars, n int, title string) {
	s.t.Helper()
	row := fmt.Sprintf(`document.querySelector('#p-items .p-item[data-item="%d"]') !== null`, item)
	if !evalJS[bool](s, row) {
		s.setPersonalSearch(title)
		s.waitJS(fmt.Sprintf("%q in the item list", title), row, 5*time.Second)
	}
	s.rateByClick(item, stars)
	s.waitJS(fmt.Sprintf("rating %d (%q, %d★) in Your ratings", n, title, stars),
		fmt.Sprintf(`document.querySelectorAll('[data-testid="p-rated"] li').length === %d`, n), 5*time.Second)
}

// clearPersonalRatings clicks Clear my ratings and checks what it shows:
// Your ratings empty, the cold-start explanation, no recommendation marked
// "new".
func (s *session) clearPersonalRatings(when string) {
	s.t.Helper()
	s.click("p-clear")
	s.waitJS("Your ratings empty after Clear ("+when+")", `document.querySelectorAll('[data-testid="p-rated"] li').length === 0`, 5*time.Second)
	v := s.personalView()
	if !v.Cold || len(v.Recs) == 0 {
		s.t.Errorf("after Clear (%s): cold-start explanation shown %v, %d recommendations", when, v.Cold, len(v.Recs))
	}
	if n := evalJS[int](s, `document.querySelectorAll('[data-testid="p-rec"] .p-new').length`); n != 0 {
		s.t.Errorf(`after Clear (%s): %d recommendations marked "new", want none (the cold-start list is nothing new)`, when, n)
	}
}

// genrePicks returns the n most rated films of genre without other, in
// the core's order (TestPersonalMovieLensGenres: count descending, then
// item index), among the films of the ratings.
func genrePicks(items []pCatalogItem, genre, other string, n int) []int {
	var byCount []int
	for k, it := range items {
		if it.Known && slices.Contains(it.Genres, genre) && !slices.Contains(it.Genres, other) {
			byCount = append(byCount, k)
		}
	}
	slices.SortStableFunc(byCount, func(a, b int) int { return items[b].Count - items[a].Count })
	return byCount[:min(n, len(byCount))]
}

// TestE2EPersonalizeMovieLensGenres: u.data and u.item picked in
// Personalize, learned with the default learner (item-lift with the genre
// taste); the 5 most rated Horror films (not Romance) at 5★ and the 5 most
// rated Romance films (not Horror) at 1★ put ≥ 5 Horror and ≤ 1 Romance
// films in the top 10; after Clear my ratings (no pick marked "new"), the
// reverse puts ≥ 5 Romance and ≤ 1 Horror. The core's
// TestPersonalMovieLensGenres measures 10/0 and 8/0.
func TestE2EPersonalizeMovieLensGenres(t *testing.T) {
	t.Parallel()
	needFile(t, movielensPath)
	needFile(t, movielensItemsPath)
	s := newSession(t, 4*time.Minute)
	s.openPersonalize()
	s.waitPersonalReady(90 * time.Second) // the synthetic catalog, first
	if l := evalJS[string](s, `document.querySelector('[data-testid="p-learner"]').value`); l != "item-lift" {
		t.Errorf("the default learner is %q, want item-lift", l)
	}
	s.pickPersonalFilesReady(movielensPath, movielensItemsPath, 60*time.Second)
	items := s.personalCatalog()
	if len(items) != 1682 {
		t.Errorf("the catalog lists %d items, want u.item's 1,682", len(items))
	}

	rated := 0
	for _, c := range []struct{ like, hate string }{{"Horror", "Romance"}, {"Romance", "Horror"}} {
		if rated > 0 {
			s.setPersonalSearch("")
			s.clearPersonalRatings("before " + c.like + " 5★")
			rated = 0
		}
		liked, hated := genrePicks(items, c.like, c.hate, 5), genrePicks(items, c.hate, c.like, 5)
		if len(liked) < 5 || len(hated) < 5 {
			t.Fatalf("%d %s films without %s, %d %s films without %s: want 5 of each", len(liked), c.like, c.hate, len(hated), c.hate, c.like)
		}
		var names []string
		for _, g := range []struct {
			films []int
			stars int
		}{{liked, 5}, {hated, 1}} {
			for _, k := range g.films {
				rated++
				s.rateListed(k, g.stars, rated, items[k].Title)
				names = append(names, fmt.Sprintf("%s (%d ratings) %d★", items[k].Title, items[k].Count, g.stars))
			}
		}
		t.Logf("%s 5★, %s 1★: rated %s", c.like, c.hate, strings.Join(names, "; "))
		v := s.personalView()
		checkRecs(t, v, c.like+" 5★, "+c.hate+" 1★")
		var nLike, nHate int
		var top []string
		whys := evalJS[[]pWhy](s, pWhyJS)
		for k, r := range v.Recs {
			gs := items[r.Item].Genres
			if slices.Contains(gs, c.like) {
				nLike++
			}
			if slices.Contains(gs, c.hate) {
				nHate++
			}
			why := r.Why
			if k < len(whys) && whys[k].Item == r.Item {
				why = strings.Join(whys[k].Why, "; ")
			}
			top = append(top, fmt.Sprintf("%s [%s] (%s)", items[r.Item].Title, strings.Join(gs, "|"), why))
		}
		t.Logf("%s 5★, %s 1★: %d %s and %d %s films in the top %d (the core: 10/0 Horror, 8/0 Romance):\n\t%s",
			c.like, c.hate, nLike, c.like, nHate, c.hate, len(v.Recs), strings.Join(top, "\n\t"))
		if len(v.Recs) != 10 || nLike < 5 || nHate > 1 {
			t.Errorf("%s 5★, %s 1★: %d %s and %d %s films in the top %d, want ≥ 5 and ≤ 1 of 10",
				c.like, c.hate, nLike, c.like, nHate, c.hate, len(v.Recs))
		}
		s.screenshot("personalize-movielens-" + strings.ToLower(c.like))
	}
	s.setPersonalSearch("")
	s.clearPersonalRatings("at the end")
	s.checkExceptions()
}

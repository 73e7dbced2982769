//go:build e2e

package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestE2EPersonalizeHalfStars: a ratings.csv of half stars (and its
// movies.csv) picked in Personalize gives the catalog's scale: the list
// says "0.5 to 5 in half stars", each item's control offers the ten
// ratings ½ to 5, a click on 2½ rates the item 2.5, shown pressed and in
// the ratings given (2½ of 5), and a rating of 0.7 is refused by the
// page's core with an error that names the scale. The files are written by the test: 60 people
// rating 40 films, a rating of k/2 stars for k from 1 to 10.
func TestE2EPersonalizeHalfStars(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var movies, ratings strings.Builder
	movies.WriteString("movieId,title,genres\n")
	for i := 1; i <= 40; i++ {
		fmt.Fprintf(&movies, "%d,Film %d (2001),%s\n", i, i, []string{"Drama", "Comedy|Romance", "Action"}[i%3])
	}
	ratings.WriteString("userId,movieId,rating,timestamp\n")
	ts := 1_000_000
	for u := 1; u <= 60; u++ {
		for i := 1; i <= 40; i++ {
			if (u*7+i*3)%4 == 0 {
				continue
			}
			ts += 13
			fmt.Fprintf(&ratings, "%d,%d,%g,%d\n", u, i, float64(1+(u+2*i)%10)/2, ts)
		}
	}
	var paths []string
	for name, text := range map[string]string{"movies.csv": movies.String(), "ratings.csv": ratings.String()} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	s := newSession(t, 2*time.Minute)
	s.openPersonalize()
	s.waitPersonalReady(90 * time.Second)
	s.do("pick ratings.csv and movies.csv", chromedp.SetUploadFiles(sel("p-files"), paths))
	s.waitJS("the half-star catalog learned", `document.getElementById("personalize-view").dataset.phase === "ready" && document.getElementById("p-items-count").textContent.includes("half stars")`, 60*time.Second)
	if got := evalJS[string](s, `document.getElementById("p-items-count").textContent`); !strings.Contains(got, "rate 0.5 to 5 in half stars") {
		t.Errorf("the list says %q; want the scale, 0.5 to 5 in half stars", got)
	}
	labels := evalJS[[]string](s, `[...document.querySelectorAll("#p-items .p-item:first-child .p-star")].map((b) => b.textContent + "=" + b.dataset.stars)`)
	want := "½=0.5 1=1 1½=1.5 2=2 2½=2.5 3=3 3½=3.5 4=4 4½=4.5 5=5"
	if strings.Join(labels, " ") != want {
		t.Errorf("an item's control: %q, want %q", labels, want)
	}
	item := evalJS[int](s, `Number(document.querySelector("#p-items .p-item:first-child").dataset.item)`)
	q := fmt.Sprintf(`#p-items .p-item[data-item="%d"] .p-star[data-stars="2.5"]`, item)
	s.do("click 2½", chromedp.ScrollIntoView(chromedp.CSS(q)), chromedp.Click(chromedp.CSS(q)))
	s.waitJS("the rating given", fmt.Sprintf(`document.querySelector('#p-items .p-item[data-item="%d"] .p-star[aria-pressed="true"]')?.dataset.stars === "2.5"`, item), 10*time.Second)
	if got := evalJS[string](s, `document.getElementById("p-rated").textContent`); !strings.Contains(got, "2½ of 5") {
		t.Errorf("the ratings given: %q; want the 2½ of 5 given", got)
	}
	// The page's core refuses a rating off the scale, naming it.
	if got := evalJS[string](s, fmt.Sprintf(`(occfm.personal.rate(%d, 0.7, 10).error || "")`, item)); !strings.Contains(got, "0.7 stars: off this catalog's scale, 0.5 to 5 in half stars") {
		t.Errorf("a rating of 0.7: error %q; want one naming the scale", got)
	}
	s.shot("personalize-half-stars")
	// On a phone the ten ratings wrap within the item's row.
	s.viewport(390, 844)
	time.Sleep(300 * time.Millisecond)
	if out := evalJS[int](s, `(() => { const li = document.querySelector("#p-items .p-item"), r = li.getBoundingClientRect();
		return [...li.querySelectorAll(".p-star")].filter((b) => { const q = b.getBoundingClientRect(); return q.right > r.right + 0.5 || q.left < r.left - 0.5; }).length; })()`); out != 0 {
		t.Errorf("at 390 px, %d of an item's ratings stand outside its row", out)
	}
	s.shot("personalize-half-stars-phone")
	s.checkExceptions()
}

// TestE2EPersonalizeOrder: the top 10 is in the order of what it is
// ranked by, after each of 20 ratings on the synthetic catalog with the
// default item-lift: each recommendation shows its predicted stars,
// labelled "predicted", and its match, the score the list is ranked by
// (data-rank), which never rises down the list.
func TestE2EPersonalizeOrder(t *testing.T) {
	t.Parallel()
	s := newSession(t, 2*time.Minute)
	s.openPersonalize()
	s.waitPersonalReady(90 * time.Second)
	items := evalJS[[]int](s, `[...document.querySelectorAll("#p-items .p-item")].slice(0, 20).map((li) => Number(li.dataset.item))`)
	if len(items) < 20 {
		t.Fatalf("%d items listed", len(items))
	}
	for k, item := range items {
		s.rateByClick(item, 1+(k*3)%5)
		s.waitJS(fmt.Sprintf("rating %d", k+1), fmt.Sprintf(`document.querySelectorAll('[data-testid="p-rated"] li').length === %d`, k+1), 5*time.Second)
		recs := evalJS[[]struct {
			Rank   float64
			Labels string
		}](s, `[...document.querySelectorAll('[data-testid="p-rec"]')].map((li) => ({rank: Number(li.dataset.rank), labels: [...li.querySelectorAll(".p-score-label")].map((e) => e.textContent).join("|")}))`)
		if len(recs) != 10 {
			t.Fatalf("after rating %d: %d recommendations", k+1, len(recs))
		}
		for i, r := range recs {
			if i > 0 && r.Rank > recs[i-1].Rank {
				t.Errorf("after rating %d: recommendation %d has match %v above %d's %v", k+1, i+1, r.Rank, i, recs[i-1].Rank)
			}
			if !strings.HasPrefix(r.Labels, "predicted|match ") {
				t.Errorf("after rating %d: recommendation %d is labelled %q; want its predicted stars and its match", k+1, i+1, r.Labels)
			}
		}
	}
	s.shot("personalize-order")
	s.checkExceptions()
}

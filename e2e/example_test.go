//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestE2ERecommenderExample opens examples/recommender/ as make serve
// serves it (dist/examples/recommender/, on the shop occfm gen -demo shop
// writes) and, for each of the shop's taste groups, rates the group's five
// most rated products ★5 as a visitor would (the group picked in the
// select, the first five ★5 buttons clicked), then counts the products of
// the group (their first tag) in the top 10: at least 6, with reasons.
// "Forget my ratings" in between gives the cold list back.
func TestE2ERecommenderExample(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile(filepath.Join(e2eDist, "examples", "recommender", "items.json"))
	if err != nil {
		t.Fatalf("the example's items (make dist writes them): %v", err)
	}
	var items []struct {
		ID   string
		Tags []string
	}
	if err := json.Unmarshal(raw, &items); err != nil {
		t.Fatal(err)
	}
	group := map[string]string{}
	var groups []string
	for _, it := range items {
		group[it.ID] = it.Tags[0]
		if !strings.Contains(strings.Join(groups, ","), it.Tags[0]) {
			groups = append(groups, it.Tags[0])
		}
	}
	s := newSession(t, 3*time.Minute)
	s.url += "examples/recommender/"
	s.open()
	s.waitJS("the shop learned", `document.getElementById("status").textContent.startsWith("Learned") &&
		document.querySelectorAll("#top li").length === 10`, e2eHang)
	cold := evalJS[string](s, `[...document.querySelectorAll("#top li")].map((li) => li.dataset.id).join()`)
	for _, g := range groups {
		evalJS[bool](s, fmt.Sprintf(`(() => { const s = document.getElementById("tag"); s.value = %q; s.dispatchEvent(new Event("change")); return true; })()`, g))
		for k := 0; k < 5; k++ {
			before := evalJS[string](s, `[...document.querySelectorAll("#top li")].map((li) => li.dataset.id + li.textContent).join()`)
			evalJS[bool](s, fmt.Sprintf(`(() => { document.querySelectorAll("#items li")[%d].querySelectorAll("button")[4].click(); return true; })()`, k))
			s.waitJS("the top 10 after a rating", fmt.Sprintf(`[...document.querySelectorAll("#top li")].map((li) => li.dataset.id + li.textContent).join() !== %q`, before), time.Minute)
		}
		var top []struct{ ID, Why string }
		if err := json.Unmarshal([]byte(evalJS[string](s, `JSON.stringify([...document.querySelectorAll("#top li")].map((li) => ({id: li.dataset.id, why: li.querySelector(".why").textContent})))`)), &top); err != nil {
			t.Fatal(err)
		}
		in := 0
		for _, r := range top {
			if group[r.ID] == g {
				in++
			}
			if r.Why == "" {
				t.Errorf("%s: %s is recommended without a reason", g, r.ID)
			}
		}
		t.Logf("%s: %d of the top 10 after 5 ratings ★5: %v", g, in, top)
		if len(top) != 10 || in < 6 {
			t.Errorf("%s: %d of %d in the top 10 are of the group rated, want ≥ 6", g, in, len(top))
		}
		if g == "kitchen" {
			// A look at the page with ratings made, as a phone and a
			// projector show it, and no accessibility violation there.
			src, err := os.ReadFile(axePath)
			if err != nil {
				t.Fatal(err)
			}
			for _, sz := range []struct{ w, h int64 }{{390, 844}, {1280, 720}} {
				if _, err := chromedp.Run(s.ctx, chromedp.EmulateViewport(sz.w, sz.h)); err != nil {
					t.Fatal(err)
				}
				for _, x := range s.runAxe(string(src)) {
					t.Errorf("%d px: %s (%s): %s at %s", sz.w, x.ID, x.Impact, x.Help, strings.Join(x.Nodes, " | "))
				}
				s.screenshot(fmt.Sprintf("example-%d", sz.w))
			}
		}
		evalJS[bool](s, `(() => { document.getElementById("clear").click(); return true; })()`)
		s.waitJS("the cold top 10 again", fmt.Sprintf(`[...document.querySelectorAll("#top li")].map((li) => li.dataset.id).join() === %q`, cold), time.Minute)
	}
	s.checkExceptions()
}

//go:build e2e

package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/personal"
)

// fileURL returns the file:// URL of path.
func fileURL(t *testing.T, path string) string {
	t.Helper()
	abs, err := filepath.Abs(path)
	if err != nil {
		t.Fatal(err)
	}
	return "file://" + filepath.ToSlash(abs)
}

// recordRequests records the URL of every request the tab makes.
func (s *session) recordRequests() func() []string {
	s.t.Helper()
	var mu sync.Mutex
	var urls []string
	if err := chromedp.Listen(s.ctx, func(ev any) {
		if ev, ok := ev.(*network.EventRequestWillBeSent); ok {
			mu.Lock()
			urls = append(urls, ev.Request.URL)
			mu.Unlock()
		}
	}); err != nil {
		s.t.Fatal(err)
	}
	if _, err := chromedp.Call(s.ctx, network.Enable, network.EnableParams{}); err != nil {
		s.t.Fatalf("Network.enable: %v", err)
	}
	return func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), urls...)
	}
}

// TestE2EOneFile: dist/occfm.html, copied alone into an empty folder and
// opened from the disk, is the whole page: the default demo learns past
// 2,000 rows, the lesson's seven steps open, Personalize's built-in catalog
// gives ten recommendations after three ratings and learns a catalog of
// files picked there, presenter mode turns on, a CSV picked with the file
// input is learned, and the page asks for nothing over http(s).
func TestE2EOneFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	b, err := os.ReadFile(filepath.Join(e2eDist, "occfm.html"))
	if err != nil {
		t.Fatalf("%v: make dist writes it", err)
	}
	page := filepath.Join(dir, "occfm.html")
	if err := os.WriteFile(page, b, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("occfm.html: %d bytes", len(b))
	csv := filepath.Join(t.TempDir(), "cells.csv")
	var rows strings.Builder
	rows.WriteString("y,a,b\n")
	for i := range 600 {
		a, c := float64(i%17)/17, float64(i%5)/5
		fmt.Fprintf(&rows, "%.4f,%.4f,%.4f\n", 1+2*a-c+a*c, a, c)
	}
	if err := os.WriteFile(csv, []byte(rows.String()), 0o644); err != nil {
		t.Fatal(err)
	}

	s := newSession(t, 3*time.Minute)
	requests := s.recordRequests()
	s.url = fileURL(t, page)
	s.openDemo()
	s.waitJS("the demo past 2,000 rows", jsRows+" > 2000", 60*time.Second)

	s.click("lesson-open")
	s.waitStep(1)
	for n := 2; n <= 7; n++ {
		s.click("lesson-next")
		s.waitStep(n)
	}
	s.click("lesson-close")
	s.click("presenter")
	s.waitJS("presenter mode, its charts rebuilt in large type", `document.documentElement.classList.contains("presenter") &&
		document.getElementById("metric-chart").dataset.axisFont.startsWith("20px")`, 10*time.Second)
	s.click("presenter")
	s.waitJS("presenter mode off", `!document.documentElement.classList.contains("presenter")`, 10*time.Second)

	s.learnFile(csv, 600, 60*time.Second)

	s.click("tab-personalize")
	s.waitPersonalReady(90 * time.Second)
	list := evalJS[[]int](s, `[...document.querySelectorAll('[data-testid="p-item"]')].slice(0, 3).map((li) => +li.dataset.item)`)
	for k, it := range list {
		s.rateByClick(it, 5-2*k)
		s.waitJS(fmt.Sprintf("rating %d shown", k+1), fmt.Sprintf(`document.querySelectorAll('[data-testid="p-rated"] li').length === %d`, k+1), 30*time.Second)
	}
	if v := s.personalView(); len(v.Recs) != 10 || len(v.Rated) != 3 {
		t.Errorf("after 3 ratings: %d recommendations, %d rated; want 10 and 3", len(v.Recs), len(v.Rated))
	}
	s.screenshot("onefile-personalize")

	// Your own files in Personalize: a made-up catalog as occfm gen -demo
	// catalog writes it.
	cat := personal.NewSyntheticCatalogSize(2, 3000)
	var rb, ib strings.Builder
	rb.WriteString("userId,movieId,rating,timestamp\n")
	var ex data.Example
	for n := 1; cat.Next(&ex) == nil; n++ {
		fmt.Fprintf(&rb, "%s,%s,%g,%d\n", strings.TrimPrefix(cat.FeatureName(ex.X.Ind[0]), "user="),
			strings.TrimPrefix(cat.FeatureName(ex.X.Ind[1]), "item="), ex.Y, n)
	}
	ib.WriteString("movieId,title,genres\n")
	for _, it := range cat.Items() {
		fmt.Fprintf(&ib, "%s,\"%s\",%s\n", it.ID, it.Title, strings.Join(it.Genres, "|"))
	}
	ratings, items := filepath.Join(t.TempDir(), "ratings.csv"), filepath.Join(t.TempDir(), "movies.csv")
	if os.WriteFile(ratings, []byte(rb.String()), 0o644) != nil || os.WriteFile(items, []byte(ib.String()), 0o644) != nil {
		t.Fatal("writing the catalog")
	}
	s.pickPersonalFilesReady(ratings, items, 60*time.Second)

	var web []string
	for _, u := range requests() {
		if strings.HasPrefix(u, "http:") || strings.HasPrefix(u, "https:") {
			web = append(web, u)
		}
	}
	if len(web) > 0 {
		t.Errorf("occfm.html from the disk asked the network for %v", web)
	}
}

// TestE2EIndexFromDisk: dist/index.html opened from the disk, where the
// browser refuses its modules, says so instead of "loading the learner…"
// for ever: a visible note naming occfm.html and a server, shown as the
// document is parsed (start-check.js runs no timer), so that it is there
// when navigation ends (within 2 s on any machine that loads the page).
func TestE2EIndexFromDisk(t *testing.T) {
	t.Parallel()
	s := newSession(t, time.Minute)
	s.url = fileURL(t, filepath.Join(e2eDist, "index.html"))
	start := time.Now()
	s.open() // returns at the load event
	loaded := time.Since(start)
	type note struct {
		Hidden bool   `json:"hidden"`
		Text   string `json:"text"`
		State  string `json:"state"`
		Body   string `json:"body"`
	}
	n := evalJS[note](s, `(() => { const e = document.querySelector('[data-testid="start-note"]');
		return {hidden: e.hidden, text: e.textContent, state: document.querySelector('[data-testid="state"]').textContent,
			body: document.body.dataset.state} })()`)
	visible := s.visible(`[data-testid="start-note"]`)
	t.Logf("at the load event, %v after navigation: visible %v, state %q: %q", loaded.Round(time.Millisecond), visible, n.State, n.Text)
	if n.Hidden || !visible || !strings.Contains(n.Text, "occfm.html") || !strings.Contains(n.Text, "make serve") ||
		!strings.Contains(n.Text, "http.server") {
		t.Errorf("at the load event: visible %v, %q; want a visible note naming occfm.html and a server", visible, n.Text)
	}
	if n.State != "cannot start from a file" || n.Body != "error" {
		t.Errorf("state %q (body %q), want %q (error)", n.State, n.Body, "cannot start from a file")
	}
	s.screenshot("index-from-disk")
}

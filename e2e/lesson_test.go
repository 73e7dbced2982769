//go:build e2e

package e2e

// The guided lesson and presenter mode: every step of the lesson (lesson=N
// in the link) sets the page up as it says and the demo learns; Next, Prev,
// PageDown and PageUp move between steps and rewrite the link; presenter
// mode (presenter=1, key P) hides the settings and shows one chart; on a
// phone the lesson comes above the charts and folds; axe finds nothing
// wrong; and the numbers the steps quote are the page's own.
//
// E2E_SHOTS=dir keeps a screenshot of the first screen of every step at
// 1280×720, in the normal layout (lesson-N) and in presenter mode
// (lesson-N-presenter).

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// lessonPage is what the lesson panel and the controls show.
type lessonPage struct {
	Shown    bool     `json:"shown"`
	Count    string   `json:"count"`
	Title    string   `json:"title"`
	Hash     string   `json:"hash"`
	Demo     string   `json:"demo"`
	Checked  []string `json:"checked"`  // the ticked learners, in the menu's order
	Learners []string `json:"learners"` // the run's, in their order
	Delta    string   `json:"delta"`
	Speed    string   `json:"speed"`
	State    string   `json:"state"`
	Gen      int      `json:"gen"`
}

const lessonPageJS = `(() => { const q = (id) => document.querySelector('[data-testid="' + id + '"]');
	return {shown: !q("lesson").hidden, count: q("lesson-count").textContent, title: q("lesson-title").textContent,
		hash: location.hash, demo: q("demo").value,
		checked: [...document.querySelectorAll('[data-testid="learners"] input:checked')].map((b) => b.value),
		learners: [...occfmPage.session.learners], delta: q("delta").value, speed: q("speed-value").textContent,
		state: document.body.dataset.state, gen: occfmPage.session.gen} })()`

func (s *session) lessonPage() lessonPage {
	s.t.Helper()
	return evalJS[lessonPage](s, lessonPageJS)
}

// waitStep waits until the panel shows step n of 7.
func (s *session) waitStep(n int) {
	s.t.Helper()
	s.waitJS(fmt.Sprintf("the lesson's step %d", n), fmt.Sprintf(`!document.querySelector('[data-testid="lesson"]').hidden &&
		document.querySelector('[data-testid="lesson-count"]').textContent === "Step %d of 7"`, n), 10*time.Second)
}

// openAt loads the page at link (a hash), as a new document.
func (s *session) openAt(base, query, hash string) {
	s.t.Helper()
	s.url = base + "?" + query + hash
	s.open()
}

// shot saves the first screen (the viewport, as a class sees it) as
// name.png in $E2E_SHOTS, when set (see screenshot).
func (s *session) shot(name string) string {
	s.t.Helper()
	dir := os.Getenv("E2E_SHOTS")
	if dir == "" {
		return ""
	}
	buf, err := chromedp.Run(s.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		s.t.Errorf("screenshot %s: %v", name, err)
		return ""
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		s.t.Fatal(err)
	}
	path := filepath.Join(dir, name+".png")
	if err := os.WriteFile(path, buf, 0o644); err != nil {
		s.t.Fatal(err)
	}
	s.t.Logf("screenshot: %s", path)
	return path
}

// inView says where the card of element id is on the screen: "absent"
// when the page has no such element, "in view" when some of it shows.
func (s *session) inView(id string) string {
	s.t.Helper()
	return evalJS[string](s, `(() => { const e = document.getElementById(`+strconv.Quote(id)+`); if (!e) return "absent";
		const r = (e.closest(".card") || e).getBoundingClientRect();
		return r.height > 0 && r.bottom > 0 && r.top < innerHeight ? "in view" : "out of view: " + Math.round(r.top) + "–" + Math.round(r.bottom) })()`)
}

// shownCardsJS lists the cards of the views column that are drawn (a card
// in a card counts once), each by the id of the chart or table it holds.
var shownCardsJS = `(() => { const ids = ` + strconv.Quote(lessonChartIDs) + `;
	return [...document.querySelectorAll(".views .card")].filter((c) => c.getClientRects().length > 0 && !c.parentElement.closest(".views .card"))
		.map((c) => { const e = c.matches(ids) ? c : c.querySelector(ids) || c.querySelector("[id]"); return e ? e.id : "?" }) })()`

// lessonChartIDs are the ids that name a card of the views column.
const lessonChartIDs = "#metric-chart, #loss-chart, #regret-chart, #expert-regret-chart, #model-picture, #spectrum, #fw-step, " +
	"#model-panel, #learner-table, #predictions"

// visible reports whether the element's box is drawn.
func (s *session) visible(css string) bool {
	s.t.Helper()
	return evalJS[bool](s, `(() => { const e = document.querySelector(`+strconv.Quote(css)+`); return !!e && e.getClientRects().length > 0 })()`)
}

// lessonSteps is what each step sets: the demo, the run's learners, δ (""
// = the default), the speed as the page writes it, paused, and the
// elements it brings into view when the page has them.
var lessonSteps = []struct {
	demo     string
	learners []string
	delta    string
	speed    string
	paused   bool
	targets  []string
}{
	{"ratings", []string{"occfm", "bias"}, "", "200 rows/s", false, []string{"metric-chart"}},
	{"planted-regression", []string{"occfm"}, "", "300 rows/s", false, []string{"model-picture"}},
	{"planted-regression", []string{"occfm"}, "", "2,000 rows/s", false, []string{"spectrum"}},
	{"planted-regression", []string{"occfm"}, "", "200 rows/s", true, []string{"fw-step"}},
	{"planted-regression", []string{"occfm"}, "", "1,000 rows/s", false, []string{"regret-chart"}},
	{"ratings", []string{"occfm", "occfm-auto", "bias", "fm-ftrl"}, "", "2,000 rows/s", false, []string{"metric-chart"}},
	// Step 7 keeps the page as it is: here the defaults of a bare link.
	{"ratings", []string{"occfm-auto"}, "", "2,000 rows/s", false, []string{"metric-chart"}},
}

// Every step, opened from its link: the panel shows it, the controls and
// the run are set up as it says, and the demo learns (step 4 waits, paused,
// for "Step one row"). Then presenter mode on the same step.
func TestE2ELessonSteps(t *testing.T) {
	t.Parallel()
	s := newSession(t, 5*time.Minute)
	base := s.url
	s.viewport(1280, 720)
	for i, want := range lessonSteps {
		n := i + 1
		s.openAt(base, "step="+strconv.Itoa(n), "#lesson="+strconv.Itoa(n))
		state := "running"
		if want.paused {
			state = "paused"
		}
		s.waitState(state, 20*time.Second)
		s.waitStep(n)
		p := s.lessonPage()
		t.Logf("step %d %q: %s, learners %v, δ %q, %s, state %s", n, p.Title, p.Demo, p.Learners, p.Delta, p.Speed, p.State)
		if !strings.Contains(p.Hash, "lesson="+strconv.Itoa(n)) {
			t.Errorf("step %d: the link %q does not name the step", n, p.Hash)
		}
		sorted := slices.Sorted(slices.Values(want.learners))
		if p.Demo != want.demo || !slices.Equal(p.Learners, want.learners) || !slices.Equal(slices.Sorted(slices.Values(p.Checked)), sorted) ||
			p.Delta != want.delta || p.Speed != want.speed {
			t.Errorf("step %d: demo %q, learners %v (ticked %v), δ %q, speed %q; want %q, %v, δ %q, %q",
				n, p.Demo, p.Learners, p.Checked, p.Delta, p.Speed, want.demo, want.learners, want.delta, want.speed)
		}
		if want.paused {
			time.Sleep(500 * time.Millisecond)
			if r := s.rows(); r != 30 || s.state() != "paused" {
				t.Errorf("step %d: %d rows in state %s, want 30 rows, paused", n, r, s.state())
			}
			s.click("lesson-step-row")
			s.waitJS("one row learned", jsRows+" === 31", 5*time.Second)
			s.click("lesson-step-row")
			s.waitJS("two rows learned", jsRows+" === 32", 5*time.Second)
		} else {
			r0 := s.rows()
			s.waitJS(fmt.Sprintf("step %d's demo to learn", n), fmt.Sprintf("%s > %d", jsRows, r0), 5*time.Second)
		}
		for _, id := range want.targets {
			// Another part of the page may not have this element yet.
			if where := s.inView(id); where != "absent" && where != "in view" {
				t.Errorf("step %d is about #%s, which is %s", n, id, where)
			}
		}
		// The panel covers no chart: it is in the other column.
		if cover := evalJS[string](s, `(() => { const l = document.getElementById("lesson").getBoundingClientRect();
			for (const c of document.querySelectorAll(".views .chart-card, .views .card")) { const r = c.getBoundingClientRect();
				if (r.width && r.height && r.left < l.right && l.left < r.right && r.top < l.bottom && l.top < r.bottom) return c.querySelector("[id]")?.id || "a card" }
			return "" })()`); cover != "" {
			t.Errorf("step %d: the lesson panel covers %s", n, cover)
		}
		time.Sleep(700 * time.Millisecond) // a few checkpoints on the charts
		s.shot(fmt.Sprintf("lesson-%d", n))

		s.click("presenter")
		s.waitJS("presenter mode", `document.documentElement.classList.contains("presenter") && location.hash.includes("presenter=1")`, 2*time.Second)
		time.Sleep(300 * time.Millisecond)
		if s.visible("#side-settings") {
			t.Errorf("step %d in presenter mode: the settings show", n)
		}
		cards := evalJS[[]string](s, shownCardsJS)
		if len(cards) == 0 {
			t.Errorf("step %d in presenter mode: no chart", n)
		}
		t.Logf("step %d in presenter mode shows %v", n, cards)
		s.shot(fmt.Sprintf("lesson-%d-presenter", n))
		s.click("presenter")
		s.waitJS("presenter mode off", `!document.documentElement.classList.contains("presenter") && !location.hash.includes("presenter")`, 2*time.Second)

		switch n {
		case 3:
			// δ = 1, as the δ control sets it: a new run with it, and back.
			gen := p.Gen
			s.click("lesson-delta-1")
			s.waitJS("a run with δ = 1", fmt.Sprintf(`occfmPage.session.gen > %d && location.hash.includes("delta=1&")`, gen), 5*time.Second)
			if d := s.lessonPage().Delta; d != "1" {
				t.Errorf("δ = 1 pressed: the δ control shows %q", d)
			}
			if evalJS[string](s, `document.querySelector('[data-testid="lesson-delta-1"]').getAttribute("aria-pressed")`) != "true" {
				t.Error("δ = 1 pressed: its button is not marked")
			}
			s.waitState("running", 5*time.Second)
			s.waitJS("rows with δ = 1", jsRows+" > 0", 5*time.Second)
			s.click("lesson-delta-100")
			s.waitJS("a run with δ = 100", `location.hash.includes("delta=100&")`, 5*time.Second)
			s.click("lesson-delta-10")
			s.waitJS("a run with the default δ", `!location.hash.includes("delta=")`, 5*time.Second)
			if d := s.lessonPage().Delta; d != "" {
				t.Errorf("δ = 10 (default) pressed: the δ control shows %q", d)
			}
		case 7:
			if f := evalJS[string](s, `document.querySelector('[data-testid="lesson-file"]').htmlFor`); f != "file-input" {
				t.Errorf("step 7's file button is for %q, want the Data card's file-input", f)
			}
		}
		s.checkExceptions()
	}
}

// Next and Prev, the clicker's PageDown and PageUp, the close button, the
// header's Lesson button and a link edited by hand; space and → still play
// and step.
func TestE2ELessonNav(t *testing.T) {
	t.Parallel()
	s := newSession(t, 2*time.Minute)
	s.viewport(1280, 720)
	s.url += "#lesson=1"
	s.openDemo()
	s.waitStep(1)
	if !evalJS[bool](s, `document.querySelector('[data-testid="lesson-prev"]').disabled`) {
		t.Error("step 1: Prev is enabled")
	}
	s.click("lesson-next")
	s.waitStep(2)
	s.waitJS("step 2's run", `location.hash.includes("lesson=2") && location.hash.includes("demo=planted-regression") &&
		occfmPage.session.learners.join() === "occfm"`, 5*time.Second)
	// The clicker's keys, with the focus on the page, not in a control.
	evalJS[bool](s, `document.activeElement.blur(), true`)
	s.do("PageDown", chromedp.KeyEvent(kb.PageDown))
	s.waitStep(3)
	s.waitJS("step 3 in the link", `location.hash.includes("lesson=3")`, 2*time.Second)
	s.do("PageUp", chromedp.KeyEvent(kb.PageUp))
	s.waitStep(2)
	s.click("lesson-prev")
	s.waitStep(1)
	s.waitJS("step 1's run", `location.hash.includes("demo=ratings") && occfmPage.session.learners.join() === "occfm,bias"`, 5*time.Second)
	gen := s.lessonPage().Gen
	s.do("PageUp at step 1", chromedp.KeyEvent(kb.PageUp))
	time.Sleep(200 * time.Millisecond)
	if p := s.lessonPage(); p.Count != "Step 1 of 7" || p.Gen != gen {
		t.Errorf("PageUp at step 1: %q, run %d (was %d): want step 1, its run going on", p.Count, p.Gen, gen)
	}

	// Space and → are still play/pause and one row.
	evalJS[bool](s, `document.activeElement.blur(), true`)
	s.waitState("running", 5*time.Second)
	s.do("space", chromedp.KeyEvent(" "))
	s.waitState("paused", 2*time.Second)
	r := s.rows()
	s.do("→", chromedp.KeyEvent(kb.ArrowRight))
	s.waitJS("one more row", fmt.Sprintf("%s === %d", jsRows, r+1), 2*time.Second)
	if p := s.lessonPage(); p.Count != "Step 1 of 7" {
		t.Errorf("space and → moved the lesson to %q", p.Count)
	}

	s.click("lesson-close")
	s.waitJS("the lesson closed", `document.querySelector('[data-testid="lesson"]').hidden && !location.hash.includes("lesson=")`, 2*time.Second)
	if evalJS[string](s, `document.querySelector('[data-testid="lesson-open"]').getAttribute("aria-expanded")`) != "false" {
		t.Error("the Lesson button says the lesson is open")
	}
	// PageDown is the page's again.
	s.do("PageDown, lesson closed", chromedp.KeyEvent(kb.PageDown))
	if !evalJS[bool](s, `document.querySelector('[data-testid="lesson"]').hidden`) {
		t.Error("PageDown opened the closed lesson")
	}
	time.Sleep(600 * time.Millisecond) // PageDown's smooth scroll ends before a click is aimed
	s.click("lesson-open")
	s.waitStep(1)
	s.waitJS("lesson=1 in the link", `location.hash.includes("lesson=1")`, 2*time.Second)

	// A link edited by hand opens its step.
	evalJS[bool](s, `(location.hash = location.hash.replace("lesson=1", "lesson=5")), true`)
	s.waitStep(5)
	s.waitJS("step 5's run", `location.hash.includes("demo=planted-regression") && location.hash.includes("speed=1000")`, 5*time.Second)
	s.checkExceptions()
}

// Presenter mode from its link, the button and the key P: big type, the
// settings hidden (the Run card stays, as a bar), one chart at a time,
// switched by the small buttons; the lesson beside it, covering nothing; a
// phone keeps its usual layout.
func TestE2ELessonPresenter(t *testing.T) {
	t.Parallel()
	s := newSession(t, 2*time.Minute)
	base := s.url
	s.viewport(1280, 720)
	s.url = base + "#demo=ratings&presenter=1"
	s.openDemo()
	time.Sleep(300 * time.Millisecond)
	font := evalJS[float64](s, `parseFloat(getComputedStyle(document.documentElement).fontSize)`)
	// 19 px on a screen under 820 px high, where a step's whole text must
	// fit beside its chart (TestE2EProjectorSteps, which also finds no
	// text under 16 px); 22 px on a taller one.
	if font < 19 {
		t.Errorf("presenter mode at 1280×720: root font %v px, want ≥ 19", font)
	}
	if s.visible("#side-settings") || s.visible(`[data-testid="learners"]`) {
		t.Error("presenter mode: the settings show")
	}
	if !s.visible(`[data-testid="play"]`) {
		t.Error("presenter mode: no Play button")
	}
	check := func(chart, id string) {
		t.Helper()
		cards := evalJS[[]string](s, shownCardsJS)
		if len(cards) != 1 || cards[0] != id {
			t.Errorf("presenter mode, %s: the cards shown are %v, want the one of #%s", chart, cards, id)
		}
		if p := evalJS[string](s, `document.querySelector('[data-testid="presenter-chart-`+chart+`"]').getAttribute("aria-pressed")`); p != "true" {
			t.Errorf("presenter mode, %s: its button is not pressed", chart)
		}
		if r := s.rectOf("#" + id); r.Bottom-evalJS[float64](s, "scrollY") > 720 {
			t.Errorf("presenter mode, %s: the chart ends at %.0f px, past the first screen", chart, r.Bottom)
		}
	}
	check("metric", "metric-chart")
	s.click("presenter-chart-regret")
	check("regret", "regret-chart")
	s.shot("presenter-1280-regret")
	s.click("presenter-chart-loss")
	check("loss", "loss-chart")
	s.click("presenter-chart-model")
	cards := evalJS[[]string](s, shownCardsJS)
	t.Logf("presenter mode, model: %v", cards)
	for _, c := range cards {
		if !slices.Contains([]string{"model-picture", "spectrum", "fw-step", "model-panel"}, c) {
			t.Errorf("presenter mode, model: the card of #%s shows", c)
		}
	}
	if len(cards) == 0 {
		t.Error("presenter mode, model: nothing shows")
	}
	s.click("presenter-chart-metric")

	// P turns it off and on, and so does the link.
	evalJS[bool](s, `document.activeElement.blur(), true`)
	s.do("P", chromedp.KeyEvent("p"))
	s.waitJS("presenter mode off", `!document.documentElement.classList.contains("presenter") && !location.hash.includes("presenter")`, 2*time.Second)
	if !s.visible("#side-settings") {
		t.Error("presenter mode off: the settings do not show")
	}
	if n := len(evalJS[[]string](s, shownCardsJS)); n < 4 {
		t.Errorf("presenter mode off: %d cards show", n)
	}
	s.do("P", chromedp.KeyEvent("p"))
	s.waitJS("presenter mode on", `document.documentElement.classList.contains("presenter") && location.hash.includes("presenter=1")`, 2*time.Second)

	// 1920×1080: bigger still, the chart whole on the screen.
	s.viewport(1920, 1080)
	time.Sleep(300 * time.Millisecond)
	if f := evalJS[float64](s, `parseFloat(getComputedStyle(document.documentElement).fontSize)`); f < 24 {
		t.Errorf("presenter mode at 1920×1080: root font %v px", f)
	}
	if r := s.rectOf("#metric-chart"); r.Bottom > 1080 {
		t.Errorf("presenter mode at 1920×1080: the chart ends at %.0f px", r.Bottom)
	}
	s.shot("presenter-1920")

	// The lesson beside the chart, at 1280×720: it covers nothing, its type is big.
	s.viewport(1280, 720)
	s.openAt(base, "with=lesson", "#lesson=5&presenter=1")
	s.waitState("running", 20*time.Second)
	s.waitStep(5)
	time.Sleep(500 * time.Millisecond)
	l, c := s.rectOf(`[data-testid="lesson"]`), s.rectOf("#regret-chart")
	t.Logf("presenter mode with the lesson: lesson %.0f px from the left, %.0f wide; the regret chart from %.0f px", l.Left, l.Width, c.Left)
	if l.Left+l.Width > c.Left {
		t.Errorf("presenter mode: the lesson (to %.0f px) covers the regret chart (from %.0f px)", l.Left+l.Width, c.Left)
	}
	if cards := evalJS[[]string](s, shownCardsJS); len(cards) != 1 || cards[0] != "regret-chart" {
		t.Errorf("presenter mode, step 5: the cards shown are %v, want the regret chart", cards)
	}
	if f := evalJS[float64](s, `parseFloat(getComputedStyle(document.querySelector("#lesson-text p")).fontSize)`); f < 19 {
		t.Errorf("presenter mode: the lesson's text is %v px", f)
	}
	if r := s.rectOf(`[data-testid="lesson-next"]`); r.Bottom > 720 {
		t.Errorf("presenter mode: Next is at %.0f px, past the first screen", r.Bottom)
	}

	// A phone keeps its layout: every card, the settings in their drawer.
	s.viewport(390, 844)
	time.Sleep(300 * time.Millisecond)
	if n := len(evalJS[[]string](s, shownCardsJS)); n < 4 {
		t.Errorf("presenter mode on a phone: %d cards show, want the usual layout", n)
	}
	if f := evalJS[float64](s, `parseFloat(getComputedStyle(document.documentElement).fontSize)`); f != 16 {
		t.Errorf("presenter mode on a phone: root font %v px", f)
	}
	s.checkExceptions()
}

// On a phone the lesson comes above the charts, and folds to its title and
// buttons.
func TestE2ELessonPhone(t *testing.T) {
	t.Parallel()
	s := newSession(t, 2*time.Minute)
	s.viewport(390, 844)
	s.url += "#lesson=1"
	s.openDemo()
	s.waitStep(1)
	l, c := s.rectOf(`[data-testid="lesson"]`), s.rectOf(`[data-testid="metric-chart"]`)
	t.Logf("phone: lesson %.0f–%.0f px, first chart from %.0f px", l.Top, l.Bottom, c.Top)
	if l.Bottom > c.Top {
		t.Errorf("phone: the lesson (%.0f–%.0f px) is not above the chart (from %.0f px)", l.Top, l.Bottom, c.Top)
	}
	if w := evalJS[float64](s, `document.documentElement.scrollWidth`); w > 390 {
		t.Errorf("phone: the page is %.0f px wide", w)
	}
	s.shot("lesson-1-phone")
	s.click("lesson-collapse")
	// Folded, the step keeps its first sentence only.
	if s.visible("#lesson-text p:nth-child(2)") || s.visible(".lesson-look") ||
		evalJS[string](s, `document.querySelector('[data-testid="lesson-collapse"]').getAttribute("aria-expanded")`) != "false" {
		t.Error("phone: the lesson does not fold")
	}
	folded := s.rectOf(`[data-testid="lesson"]`)
	t.Logf("phone: folded, the lesson is %.0f px tall (was %.0f)", folded.Bottom-folded.Top, l.Bottom-l.Top)
	if !s.visible(`[data-testid="lesson-next"]`) || folded.Bottom-folded.Top > 200 {
		t.Errorf("phone: folded, the lesson is %.0f px tall or lost its Next button", folded.Bottom-folded.Top)
	}
	s.shot("lesson-1-phone-folded")
	s.click("lesson-next")
	s.waitStep(2)
	s.checkExceptions()
}

// axe-core finds no violation with the lesson open, in presenter mode,
// on a projector and a phone.
func TestE2ELessonAxe(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile(axePath)
	if err != nil {
		t.Fatalf("%v: make dist installs the page's npm packages (ui/package.json)", err)
	}
	for _, c := range []struct {
		name string
		w, h int64
		hash string
	}{
		{"lesson-1280", 1280, 720, "#lesson=3"},
		{"lesson-presenter-1280", 1280, 720, "#lesson=6&presenter=1"},
		{"presenter-1920", 1920, 1080, "#presenter=1"},
		{"lesson-phone", 390, 844, "#lesson=2"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := newSession(t, 2*time.Minute)
			s.viewport(c.w, c.h)
			s.url += c.hash
			s.openDemo()
			time.Sleep(1500 * time.Millisecond)
			for _, x := range s.runAxe(string(src)) {
				t.Errorf("%s (%s): %s at %s", x.ID, x.Impact, x.Help, strings.Join(x.Nodes, " | "))
			}
		})
	}
}

// The numbers the steps quote, read off the page at full speed: step 3's
// δ = 1 stops near 0.15 and δ = 10 is ahead of δ = 100 after about 20,000
// rows; step 5's slope stays at or below ¾; step 6's bias leads at first and
// fm-ftrl later.
func TestE2ELessonClaims(t *testing.T) {
	t.Parallel()
	s := newSession(t, 5*time.Minute)
	base := s.url
	// metricAt is the followed learner's… every learner's progressive
	// metric at the first checkpoint at or past rows.
	metricAt := func(rows int) []float64 {
		t.Helper()
		return evalJS[[]float64](s, fmt.Sprintf(`(() => { const c = occfmPage.session.checkpoints.find((p) => p[0] >= %d);
			return c ? occfmPage.session.learners.map((_, i) => c[2 + 2 * i]) : [] })()`, rows))
	}
	run := func(hash string, rows int) []float64 {
		t.Helper()
		s.openAt(base, "claims="+strconv.Itoa(time.Now().Nanosecond()), hash)
		s.waitState("running", 20*time.Second)
		s.waitJS(fmt.Sprintf("%d rows of %s", rows, hash), fmt.Sprintf(`occfmPage.session.checkpoints.some((p) => p[0] >= %d)`, rows), 150*time.Second)
		return metricAt(rows)
	}

	// Step 3: δ = 1, 10, 100 on the planted demo.
	rmse := map[int][2]float64{}
	for _, d := range []int{1, 10, 100} {
		at := run(fmt.Sprintf("#demo=planted-regression&learners=occfm&delta=%d&speed=max&checkpoints=off", d), 30000)
		rmse[d] = [2]float64{metricAt(5000)[0], at[0]}
		t.Logf("δ = %d: progressive RMSE %.4f at 5,000 rows, %.4f at 30,000", d, rmse[d][0], rmse[d][1])
	}
	if r := rmse[1][1]; math.Abs(r-0.15) > 0.02 {
		t.Errorf("δ = 1: RMSE %.4f at 30,000 rows; step 3 says it stops near 0.15", r)
	}
	if !(rmse[100][0] < rmse[10][0]) || !(rmse[10][1] < rmse[100][1]) {
		t.Errorf("δ = 100 vs 10: %.4f vs %.4f at 5,000 rows, %.4f vs %.4f at 30,000; step 3 says δ = 100 leads first and δ = 10 later",
			rmse[100][0], rmse[10][0], rmse[100][1], rmse[10][1])
	}

	// Step 5: OCCFM's log–log regret slope.
	s.openAt(base, "claims=regret", "#lesson=5")
	s.waitStep(5)
	s.waitJS("regret checkpoints up to T ≥ 3,000",
		`Number((document.querySelector('[data-testid="regret-latest"]')||{}).dataset?.t||0) >= 3000 && document.querySelector('#regret-slopes li[data-value]')`, 150*time.Second)
	slope := evalJS[float64](s, `Number(document.querySelector('#regret-slopes li[data-value]').dataset.value)`)
	t.Logf("step 5: slope of log regret vs log T %.3f at T = %s", slope, evalJS[string](s, `document.querySelector('[data-testid="regret-latest"]').dataset.t`))
	if !(slope <= 0.75) {
		t.Errorf("step 5: slope %.3f; the step says it stays at or below 0.75", slope)
	}

	// Step 6: who leads the race, and when.
	order := []string{"occfm", "occfm-auto", "bias", "fm-ftrl"}
	at := run("#demo=ratings&learners="+strings.Join(order, ",")+"&speed=max&checkpoints=off", 50000)
	early := metricAt(3000)
	t.Logf("step 6: RMSE at 3,000 rows %v, at 50,000 %v (%v)", early, at, order)
	best := func(v []float64) string { return order[slices.Index(v, slices.Min(v))] }
	if len(early) != 4 || len(at) != 4 {
		t.Fatalf("step 6: %v and %v: want four learners' metrics", early, at)
	}
	if b := best(early); b != "bias" && !(b == "occfm-auto" && early[2]-early[1] < 0.01) {
		t.Errorf("step 6: %s leads at 3,000 rows (%v); the step says bias does", b, early)
	}
	if b := best(at); b != "fm-ftrl" && b != "occfm-auto" || math.Abs(at[1]-at[3]) > 0.02 {
		t.Errorf("step 6: %s leads at 50,000 rows (%v); the step says fm-ftrl and occfm-auto lead the long run together", b, at)
	}
	if !(at[0] > at[2]) {
		t.Errorf("step 6: occfm %.4f is not behind bias %.4f at 50,000 rows", at[0], at[2])
	}
	s.checkExceptions()
}

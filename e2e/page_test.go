//go:build e2e

package e2e

// What a class, a phone or a demo builder needs of the page, one test
// each.

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// tickLearner clicks learner name's checkbox in the Learners list.
func (s *session) tickLearner(name string) {
	s.t.Helper()
	if !evalJS[bool](s, `(() => { const b = document.querySelector('[data-testid="learners"] input[value="`+name+`"]');
		if (!b) return false; b.click(); return true })()`) {
		s.t.Fatalf("no checkbox for learner %q", name)
	}
}

// setControl sets the value of the control data-testid=testid, as a user
// who typed or chose it: an input event, then a change event.
func (s *session) setControl(testid, value string) {
	s.t.Helper()
	if !evalJS[bool](s, `(() => { const e = document.querySelector('[data-testid="`+testid+`"]'); if (!e) return false;
		e.value = `+strconv.Quote(value)+`; e.dispatchEvent(new Event("input")); e.dispatchEvent(new Event("change")); return true })()`) {
		s.t.Fatalf("no control %q", testid)
	}
}

// Defect 1: ticking a second learner keeps the learners in the order they
// were picked, so the first learner (the numbers, the model panel, the
// download) does not change without a word; defect 2: every learner has a
// colour of its own.
func TestE2ELearnerOrder(t *testing.T) {
	t.Parallel()
	s := newSession(t, 2*time.Minute)
	s.url += "#demo=ratings&learners=occfm-auto"
	s.openDemo()
	s.tickLearner("bias")
	s.waitJS("the hash to list occfm-auto, then bias", `location.hash.includes("learners=occfm-auto,bias")`, 5*time.Second)
	s.waitJS("the learner table's first row to be occfm-auto",
		`(() => { const c = document.querySelector('[data-testid="learner-table"] tbody tr td'); return c && c.textContent.startsWith("occfm-auto") })()`, 10*time.Second)

	// Every registered learner at once: distinct colours in the table.
	all := evalJS[[]string](s, `[...document.querySelectorAll('[data-testid="learners"] input[type=checkbox]')].map((b) => b.value)`)
	for _, name := range all {
		if name != "occfm-auto" && name != "bias" {
			s.tickLearner(name)
		}
	}
	s.waitJS("a row per learner", `document.querySelectorAll('[data-testid="learner-table"] tbody tr').length === `+strconv.Itoa(len(all)), 20*time.Second)
	first := evalJS[string](s, `document.querySelector('[data-testid="learner-table"] tbody tr td').textContent`)
	if !strings.HasPrefix(first, "occfm-auto") {
		t.Errorf("with every learner ticked the first is %q, want occfm-auto (picked first)", first)
	}
	colors := evalJS[[]string](s, `[...document.querySelectorAll('[data-testid="learner-table"] tbody td.learner-name')].map((c) => c.style.getPropertyValue("--swatch"))`)
	seen := map[string]bool{}
	for _, c := range colors {
		if seen[c] {
			t.Errorf("colour %s is used twice: %v", c, colors)
		}
		seen[c] = true
	}
	t.Logf("%d learners, colours %v", len(all), colors)
	s.checkExceptions()
}

// Defect 2: every learner racing at a set speed the page cannot keep: it
// says so under the numbers, with the rate it does reach; at a speed it
// keeps, it says nothing.
func TestE2ESlowRace(t *testing.T) {
	t.Parallel()
	s := newSession(t, 2*time.Minute)
	s.url += "#demo=ratings&learners=occfm-auto&speed=50"
	s.openDemo()
	time.Sleep(3500 * time.Millisecond)
	if !evalJS[bool](s, `document.querySelector('[data-testid="speed-warning"]').hidden`) {
		t.Errorf("a warning at 50 rows/s with one learner: %q", evalJS[string](s, `document.querySelector('[data-testid="speed-warning"]').textContent`))
	}
	all := evalJS[[]string](s, `[...document.querySelectorAll('[data-testid="learners"] input[type=checkbox]')].map((b) => b.value)`)
	for _, name := range all {
		if name != "occfm-auto" {
			s.tickLearner(name)
		}
	}
	// As fast as the speed control goes, below "max".
	s.setControl("speed", "30") // the last position before "max": 100,000 rows/s
	s.waitJS("the slow-race warning", `!document.querySelector('[data-testid="speed-warning"]').hidden`, 20*time.Second)
	text := evalJS[string](s, `document.querySelector('[data-testid="speed-warning"]').textContent`)
	t.Logf("warning: %s", text)
	if !strings.Contains(text, "below the set speed of 100,000") || !strings.Contains(text, "12 learners") && !strings.Contains(text, "learners take") {
		t.Errorf("warning %q: want the set speed and the learners named", text)
	}
	s.checkExceptions()
}

// Defect 2: the slope readout names each learner's own guarantee against
// the best C in K (Theorem 3 is OCCFM's), and none for a learner without.
func TestE2ESlopeGuarantee(t *testing.T) {
	t.Parallel()
	s := newSession(t, 2*time.Minute)
	s.url += "#demo=planted-regression&learners=occfm,bias&speed=max"
	s.openDemo()
	s.waitJS("a slope for both learners",
		`document.querySelectorAll('#regret-slopes li[data-value]').length === 2`, 60*time.Second)
	lines := evalJS[[]string](s, `[...document.querySelectorAll('#regret-slopes li')].map((l) => l.textContent)`)
	t.Logf("slopes: %q", lines)
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "occfm:") || !strings.Contains(lines[0], "Theorem 3") ||
		!strings.HasPrefix(lines[1], "bias:") || strings.Contains(lines[1], "Theorem") || !strings.Contains(lines[1], "no bound") {
		t.Errorf("slopes %q: want Theorem 3 for occfm only", lines)
	}
	s.checkExceptions()
}

// Defect 3: the regret headline says when the comparator lags behind the
// learners, and when it stopped at its row cap (the ratings demo runs
// 200,000 rows, the comparator keeps 20,000), so that a chart that stops
// does not read as the end of the run.
func TestE2ERegretLagAndCap(t *testing.T) {
	t.Parallel()
	s := newSession(t, 3*time.Minute)
	s.url += "#demo=ratings&speed=max"
	s.openDemo()
	lagged := false
	headline := `(() => { const e = document.querySelector('[data-testid="regret-latest"]');
		return {pending: Number(e.dataset.pending || 0), truncated: e.dataset.truncated === "true", text: e.textContent} })()`
	type status struct {
		Pending   int    `json:"pending"`
		Truncated bool   `json:"truncated"`
		Text      string `json:"text"`
	}
	deadline := time.Now().Add(120 * time.Second)
	var st status
	for time.Now().Before(deadline) {
		st = evalJS[status](s, headline)
		if st.Pending > 0 {
			lagged = true
			if !strings.Contains(st.Text, "behind") {
				t.Errorf("comparator %d checkpoints behind, headline %q does not say so", st.Pending, st.Text)
			}
		}
		if st.Truncated && !strings.Contains(st.Text, "20,000, its row cap") {
			t.Errorf("comparator at its row cap, headline %q does not say so", st.Text)
		}
		if st.Truncated && st.Pending == 0 {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Logf("headline: %s (comparator seen lagging: %v)", st.Text, lagged)
	if !st.Truncated || st.Pending != 0 || !strings.Contains(st.Text, "stopped at T = 20,000") {
		t.Errorf("after %v the headline is %q: want the comparator stopped at its row cap", 120*time.Second, st.Text)
	}
	s.checkExceptions()
}

// Defect 4: text that is stale or misleading. A pause shows the rows it
// stopped at in the numbers and the learner table alike; a negative δ and
// a bad link are answered with a message; the speed reads "1 row/s"; the
// note a run started with goes once the run is done.
func TestE2EStaleText(t *testing.T) {
	t.Parallel()
	s := newSession(t, 2*time.Minute)
	s.url += "#demo=ratings&learners=occfm-auto,nope&delta=-5&colour=red&speed=1"
	s.openDemo()
	note := evalJS[string](s, `document.querySelector('[data-testid="note"]').textContent`)
	t.Logf("note: %s", note)
	for _, part := range []string{"delta=-5", "colour=red", "learner nope", "not valid"} {
		if !strings.Contains(note, part) {
			t.Errorf("the note %q does not name %q", note, part)
		}
	}
	if out := evalJS[string](s, `document.getElementById("speed-out").textContent`); out != "1 row/s" {
		t.Errorf("speed reads %q, want \"1 row/s\"", out)
	}

	// δ = −5 typed into the control.
	s.setControl("delta", "-5")
	msg := evalJS[string](s, `(() => { const e = document.querySelector('[data-testid="controls-error"]'); return e.hidden ? "" : e.textContent })()`)
	t.Logf("δ = −5: %q", msg)
	if !strings.Contains(msg, "δ") || !strings.Contains(msg, "-5") {
		t.Errorf("δ = −5 is answered with %q", msg)
	}

	// Pause at a few hundred rows: the table agrees with the numbers at once.
	s.setControl("speed", "13") // 150 rows/s
	s.waitJS("200 rows", jsRows+" >= 200", 30*time.Second)
	s.click("play")
	s.waitState("paused", 2*time.Second)
	got := evalJS[[]string](s, `[document.querySelector('[data-testid="rows"]').textContent,
		document.querySelector('[data-testid="learner-table"] tbody tr td:nth-child(2)').textContent]`)
	t.Logf("paused: rows %s, learner table %s", got[0], got[1])
	if got[0] != got[1] {
		t.Errorf("paused at %s rows, the learner table says %s", got[0], got[1])
	}
	s.checkExceptions()
}

// Defects 4 and 5: a file run's link names the file (and the JSON export's
// link too), opening it says the file must be picked again, log–log is in
// the link, and the note of the file run goes when it is done.
func TestE2ELinks(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := dir + "/small.svm"
	writeDemoLibSVM(t, path, 300_000)
	s := newSession(t, 2*time.Minute)
	s.url += "#demo=ratings&speed=max"
	s.openDemo()
	s.upload(path)
	s.waitState("done", 60*time.Second)
	hash := evalJS[string](s, `location.hash`)
	if !strings.HasPrefix(hash, "#file=small.svm&") || strings.Contains(hash, "demo=") {
		t.Errorf("after learning small.svm the link is %q", hash)
	}
	// The note the run started with goes a few seconds after the end.
	s.waitJS("the start note gone after the run", `document.querySelector('[data-testid="note"]').hidden`, 8*time.Second)
	evalJS[bool](s, `(() => { const e = document.getElementById("regret-loglog"); e.click(); return true })()`)
	s.waitJS("log–log off in the link", `location.hash.includes("loglog=0")`, 2*time.Second)

	// The link opened anew: the file is named, the page waits for it.
	link := evalJS[string](s, `location.href`)
	s.url = strings.Replace(link, "#", "?again=1#", 1)
	s.open()
	s.waitJS("the note about the file", `document.querySelector('[data-testid="note"]').textContent.includes("choose small.svm again")`, 20*time.Second)
	if evalJS[bool](s, `document.getElementById("regret-loglog").checked`) {
		t.Error("the link says loglog=0 and the box is checked")
	}
	if st := s.state(); st != "ready" {
		t.Errorf("a file link opened: state %q, want ready (waiting for the file)", st)
	}
	s.checkExceptions()
}

// Defect 1: with two learners racing, the user chooses which one the
// numbers, the model panel and Download model follow; the model panel
// shows that learner's own fields, "–" where it has no matrix, never the
// other learner's values.
func TestE2EFollow(t *testing.T) {
	t.Parallel()
	s := newSession(t, 2*time.Minute)
	s.url += "#demo=ratings&learners=occfm,bias&speed=500"
	s.openDemo()
	s.waitJS("rows", jsRows+" >= 300", 20*time.Second)
	panel := `(() => { const dd = [...document.querySelectorAll('#model-panel dd')].map((d) => d.textContent); return dd })()`
	before := evalJS[[]string](s, panel)
	t.Logf("following occfm: %q", before)
	if !strings.HasPrefix(before[0], "occfm") || !strings.Contains(before[1], "δ = 10") || before[2] != "occfm's own" {
		t.Errorf("model panel %q: want occfm's, with its δ and its own C in the picture", before)
	}
	// ‖C‖* against δ has one view, the model picture's spectrum, drawn from
	// occfm.picture().
	if budget := evalJS[[]float64](s, `(() => { const p = occfm.picture(); return [p.nuclear, p.delta]; })()`); budget[0] <= 0 || budget[1] != 10 {
		t.Errorf("the picture's ‖C‖* and δ: %v, want a positive ‖C‖* of δ = 10", budget)
	}
	s.setControl("follow", "bias")
	after := evalJS[[]string](s, panel)
	t.Logf("following bias: %q", after)
	if len(after) != 3 || after[0] != "bias" || !strings.HasPrefix(after[2], "bias's own (no pairs of features") {
		t.Errorf("model panel %q after following bias: want bias, whose C has no pairs", after)
	}
	if !strings.Contains(evalJS[string](s, `document.getElementById("numbers-caption").textContent`), "of bias") {
		t.Error("the numbers do not say they follow bias")
	}
	if !strings.Contains(evalJS[string](s, `location.hash`), "follow=bias") {
		t.Error("the choice is not in the link")
	}
	out := evalJS[string](s, `occfm.saveModel().learner`)
	if out != "bias" {
		t.Errorf("Download model saves %q, want bias", out)
	}
	s.checkExceptions()
}

// Defect 1: a file that fails at once leaves no model of the run before it
// in the model panel.
func TestE2EModelPanelAfterFailure(t *testing.T) {
	t.Parallel()
	path := t.TempDir() + "/broken.svm"
	if err := os.WriteFile(path, []byte("1 3:x\n1 2:1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := newSession(t, time.Minute)
	s.url += "#demo=planted-regression&learners=occfm"
	s.openDemo()
	s.waitJS("the demo's model in the panel", `document.querySelector('#model-panel dd:nth-of-type(3)').textContent === "occfm's own"`, 20*time.Second)
	s.upload(path)
	s.waitState("error", 20*time.Second)
	dd := evalJS[[]string](s, `[...document.querySelectorAll('#model-panel dd')].map((d) => d.textContent)`)
	t.Logf("after the failure: %q", dd)
	for _, v := range dd[2:] {
		if v != "–" {
			t.Errorf("the model panel still shows %q after the file failed", v)
		}
	}
	s.checkExceptions()
}

// Defect 9: a classification run shows the probability of the positive
// class, in [0, 1], with the raw score on hover; a regression run shows ŷ.
func TestE2EProbabilities(t *testing.T) {
	t.Parallel()
	s := newSession(t, time.Minute)
	s.url += "#demo=planted-classification&learners=occfm&speed=200"
	s.openDemo()
	s.waitJS("predictions", `document.querySelectorAll('[data-testid="predictions"] tbody tr:not([hidden])').length >= 5`, 20*time.Second)
	head := evalJS[string](s, `document.querySelector('[data-testid="predictions"] thead th:nth-child(2)').textContent`)
	cells := evalJS[[][2]string](s, `[...document.querySelectorAll('[data-testid="predictions"] tbody tr:not([hidden]) td:nth-child(2)')].map((c) => [c.textContent, c.title])`)
	t.Logf("%s: %q", head, cells[:3])
	if head != "P(y = 1)" {
		t.Errorf("the column is %q, want P(y = 1)", head)
	}
	for _, c := range cells {
		v, err := strconv.ParseFloat(c[0], 64)
		if err != nil || v < 0 || v > 1 || !strings.HasPrefix(c[1], "score ŷ = ") {
			t.Errorf("cell %q (title %q): want a probability and the score on hover", c[0], c[1])
		}
	}
	s.checkExceptions()
}

// viewport sets the page's size, as a phone or a projector shows it.
func (s *session) viewport(w, h int64) {
	s.t.Helper()
	if _, err := chromedp.Run(s.ctx, chromedp.EmulateViewport(w, h)); err != nil {
		s.t.Fatal(err)
	}
}

// rect is an element's box in CSS pixels, relative to the document.
type rect struct{ Top, Bottom, Left, Width float64 }

func (s *session) rectOf(css string) rect {
	s.t.Helper()
	return evalJS[rect](s, `(() => { const e = document.querySelector(`+strconv.Quote(css)+`); const r = e.getBoundingClientRect();
		return {top: r.top + scrollY, bottom: r.bottom + scrollY, left: r.left, width: r.width} })()`)
}

// Defects 6 and 7: the layouts are designed for a phone and a projector.
// On a phone the numbers and the first chart are on the first screen, the
// settings are a drawer, and no keyboard hint shows; on a projector the
// first chart is whole on the first screen, the demo menu's text is not
// cut; on a wide screen no chart column stays empty.
func TestE2ELayouts(t *testing.T) {
	t.Parallel()
	s := newSession(t, 2*time.Minute)
	s.viewport(390, 844)
	s.url += "#demo=ratings"
	s.openDemo()
	time.Sleep(500 * time.Millisecond)
	num, chart := s.rectOf(`[data-testid="rows"]`), s.rectOf(`[data-testid="metric-chart"]`)
	t.Logf("phone: first number at %.0f px, first chart %.0f–%.0f px", num.Top, chart.Top, chart.Bottom)
	if num.Bottom > 844 || chart.Bottom > 844 {
		t.Errorf("phone: the first number ends at %.0f px and the chart at %.0f px, past the first screen (844)", num.Bottom, chart.Bottom)
	}
	if evalJS[bool](s, `getComputedStyle(document.getElementById("side-settings")).display !== "none"`) {
		t.Error("phone: the settings are open before the drawer is")
	}
	if evalJS[bool](s, `getComputedStyle(document.querySelector(".keys-hint")).display !== "none"`) {
		t.Error("phone: the keyboard hint shows")
	}
	s.click("settings-toggle")
	if !evalJS[bool](s, `document.querySelector('[data-testid="learners"]').getBoundingClientRect().height > 0 &&
		document.querySelector('[data-testid="settings-toggle"]').getAttribute("aria-expanded") === "true"`) {
		t.Error("phone: the drawer does not open")
	}

	s.viewport(1280, 720)
	s.url = strings.Replace(s.url, "#", "?projector=1#", 1)
	s.openDemo()
	time.Sleep(500 * time.Millisecond)
	chart = s.rectOf(`[data-testid="metric-chart"]`)
	t.Logf("projector: first chart %.0f–%.0f px", chart.Top, chart.Bottom)
	if chart.Bottom > 720 {
		t.Errorf("projector: the first chart ends at %.0f px, past the first screen (720)", chart.Bottom)
	}
	// Every demo's name fits the menu: its text, in the menu's font, is
	// narrower than the menu less its padding and its arrow (20 px).
	cut := evalJS[[]string](s, `(() => { const e = document.querySelector('[data-testid="demo"]'), cs = getComputedStyle(e);
		const ctx = document.createElement("canvas").getContext("2d"); ctx.font = cs.font;
		const room = e.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 20;
		return [...e.options].filter((o) => !o.hidden && ctx.measureText(o.textContent).width > room).map((o) => o.textContent) })()`)
	if len(cut) > 0 {
		t.Errorf("projector: the demo menu cuts %q", cut)
	}

	s.viewport(1920, 1080)
	time.Sleep(300 * time.Millisecond)
	charts, metric, loss := s.rectOf(".charts"), s.rectOf(`[data-testid="metric-chart"]`), s.rectOf(`[data-testid="loss-chart"]`)
	t.Logf("1920: charts row %.0f px wide, the first two charts %.0f and %.0f px", charts.Width, metric.Width, loss.Width)
	if metric.Width+loss.Width < 0.85*charts.Width {
		t.Errorf("1920: the first two charts fill %.0f of %.0f px: a column stays empty", metric.Width+loss.Width, charts.Width)
	}
	s.checkExceptions()
}

// Defect 6: on a phone the top recommendations stay in view while the
// person scrolls the items and rates.
func TestE2EPersonalizePhone(t *testing.T) {
	t.Parallel()
	s := newSession(t, 3*time.Minute)
	s.viewport(390, 844)
	s.openPersonalize()
	s.waitPersonalReady(90 * time.Second)
	// Scroll to the 15th item and rate it.
	evalJS[bool](s, `(() => { const li = document.querySelectorAll('[data-testid="p-items"] li')[14];
		li.scrollIntoView({block: "end"}); li.querySelector('.p-star:last-child').click(); return true })()`)
	time.Sleep(300 * time.Millisecond)
	top := evalJS[rect](s, `(() => { const r = document.querySelector('[data-testid="p-recs"] li').getBoundingClientRect();
		return {top: r.top, bottom: r.bottom, left: r.left, width: r.width} })()`)
	t.Logf("the first recommendation at %.0f–%.0f px of the screen after rating the 15th item", top.Top, top.Bottom)
	if top.Top < 0 || top.Bottom > 844 {
		t.Errorf("the first recommendation is at %.0f–%.0f px: out of the screen while rating", top.Top, top.Bottom)
	}
	if w := evalJS[float64](s, `document.querySelector('[data-testid="p-search"]').clientWidth`); w < 300 {
		t.Errorf("the search box is %.0f px wide on a phone: its placeholder is cut", w)
	}
	s.checkExceptions()
}

// A CSV's column roles, changed in the preview, run the file again with
// them (the preview tells the session; the session restarts).
func TestE2ERoles(t *testing.T) {
	t.Parallel()
	path := t.TempDir() + "/roles.csv"
	var b strings.Builder
	b.WriteString("a,b,y\n")
	for i := range 50 {
		b.WriteString(strconv.Itoa(i%7) + "," + strconv.Itoa(i%5) + "," + strconv.Itoa(i%3) + ".5\n")
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	s := newSession(t, time.Minute)
	s.url += "#demo=ratings&speed=max"
	s.openDemo()
	s.upload(path)
	s.waitJS("the role menus", `document.querySelectorAll('[data-testid="role-select"]').length === 3`, 20*time.Second)
	gen := evalJS[int](s, "occfmPage.session.gen")
	evalJS[bool](s, `(() => { const e = document.querySelector('[data-testid="role-select"][data-column="b"]'); e.value = "ignore";
		e.dispatchEvent(new Event("change")); return true })()`)
	s.waitJS("the run again with b ignored", `occfmPage.session.gen > `+strconv.Itoa(gen)+` &&
		occfmPage.session.roles && occfmPage.session.roles.b === "ignore"`, 10*time.Second)
	note := evalJS[string](s, `document.querySelector('[data-testid="note"]').textContent`)
	t.Logf("note: %s", note)
	if !strings.Contains(note, "Restarted roles.csv with the new column roles") {
		t.Errorf("the note after a role change is %q", note)
	}
	s.checkExceptions()
}

// TestE2ELegendShowsLatest (issue 31, item 10): with the cursor off the
// charts, their legends read the latest values, not "–".
func TestE2ELegendShowsLatest(t *testing.T) {
	t.Parallel()
	s := newSession(t, 2*time.Minute)
	s.open()
	s.waitState("running", time.Minute)
	time.Sleep(3 * time.Second)
	values := evalJS[[]string](s, `[...document.querySelectorAll(".u-legend .u-series .u-value")].map((e) => e.textContent)`)
	t.Logf("legend values: %q", values)
	if len(values) < 4 {
		t.Fatalf("%d legend values, want those of the two charts", len(values))
	}
	for _, v := range values[:4] {
		if v == "–" || v == "" {
			t.Errorf("a legend reads %q with the cursor off the charts: %q", v, values)
		}
	}
	s.checkExceptions()
}

// TestE2EDataHintFollowsFile (issue 31, item 10): under a picked file the
// Data card no longer says the data is made up with a known best model.
func TestE2EDataHintFollowsFile(t *testing.T) {
	t.Parallel()
	s := newSession(t, 2*time.Minute)
	s.open()
	s.waitState("running", time.Minute)
	hint := func() string {
		return evalJS[string](s, `document.querySelector('[data-testid="demo-hint"]').textContent`)
	}
	if h := hint(); !strings.Contains(h, "made-up") {
		t.Errorf("on the demo the hint reads %q", h)
	}
	path := filepath.Join(t.TempDir(), "r.data")
	var b strings.Builder
	for i := range 500 {
		fmt.Fprintf(&b, "%d\t%d\t%d\t881250949\n", 1+i%40, 1+i%60, 1+i%5)
	}
	os.WriteFile(path, []byte(b.String()), 0o644)
	s.upload(path)
	s.waitState("done", time.Minute)
	if h := hint(); strings.Contains(h, "made-up") || !strings.Contains(h, "your file") {
		t.Errorf("under a picked file the hint reads %q", h)
	}
	s.checkExceptions()
}

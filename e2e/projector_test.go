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

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// The lesson on a projector (issue 48, items 1, 2 and 6): every step's
// whole text and buttons on screen with its chart, at 1280×720 and
// 1920×1080 in presenter mode, the page never scrolling itself.

// projectorStepJS measures what a class sees of a step: the lesson card's
// hidden text, whether the lesson, its buttons and the Run bar are on
// screen, where the step's chart is, the line charts' plots against their
// charts' widths, and the x ticks' label extents.
const projectorStepJS = `(() => {
	const lesson = document.getElementById("lesson");
	const on = (e) => { if (!e || !e.getClientRects().length) return false; const r = e.getBoundingClientRect();
		return r.top >= -1 && r.bottom <= innerHeight + 1 && r.left >= -1 && r.right <= innerWidth + 1; };
	const side = document.querySelector(".side > section[aria-labelledby='run-h']");
	const chart = {metric: "#metric-chart", loss: "#loss-chart", regret: "#regret-chart",
		model: document.querySelector("#fw-step:not([hidden]) .fw-grid") ? "#fw-step .fw-grid" : "#picture-canvas"}[document.documentElement.dataset.chart];
	const plots = [...document.querySelectorAll(".views .uplot")].filter((p) => p.getClientRects().length)
		.map((p) => ({plot: p.querySelector(".u-over").getBoundingClientRect().width, width: p.getBoundingClientRect().width,
			ticks: JSON.parse(p.dataset.xTicks || "null")}));
	return {scrollY: scrollY, hidden: lesson.scrollHeight - lesson.clientHeight, lesson: on(lesson),
		buttons: [...lesson.querySelectorAll("button")].filter((b) => b.getClientRects().length).every(on),
		run: on(side), chart: chart || "", chartOn: on(document.querySelector(chart)), plots};
})()`

// canvasTextJS runs before the page's scripts: it records every text a
// canvas draws (uPlot's axes and labels, the charts' line labels, the model
// picture's) with its size in CSS px (the font's px times the context's
// scale, over devicePixelRatio) and its canvas, in window.__canvasText
// (text → the last draw), so that a step's canvases are held to the same
// 16 px as its DOM text.
const canvasTextJS = `(() => {
	window.__canvasText = new Map();
	const fill = CanvasRenderingContext2D.prototype.fillText;
	CanvasRenderingContext2D.prototype.fillText = function (text, ...rest) {
		const m = /(\d+(?:\.\d+)?)px/.exec(this.font);
		const t = String(text).trim(), tr = this.getTransform();
		if (m && t) window.__canvasText.set(t, {px: +m[1] * Math.hypot(tr.a, tr.b) / (devicePixelRatio || 1), canvas: this.canvas});
		return fill.call(this, text, ...rest);
	};
})()`

// smallCanvasTextJS lists the texts last drawn under 16 px on a canvas that
// shows, and forgets every text recorded.
const smallCanvasTextJS = `(() => {
	const out = [...window.__canvasText].filter(([, d]) => d.px < 16 - 1e-9 && d.canvas.isConnected && d.canvas.getClientRects().length > 0)
		.map(([t, d]) => d.px.toFixed(1) + "px: " + t.slice(0, 40));
	window.__canvasText = new Map();
	return out.slice(0, 8);
})()`

type projectorStep struct {
	ScrollY float64 `json:"scrollY"`
	Hidden  float64 `json:"hidden"`
	Lesson  bool    `json:"lesson"`
	Buttons bool    `json:"buttons"`
	Run     bool    `json:"run"`
	Chart   string  `json:"chart"`
	ChartOn bool    `json:"chartOn"`
	Plots   []struct {
		Plot  float64  `json:"plot"`
		Width float64  `json:"width"`
		Ticks [][2]int `json:"ticks"`
	} `json:"plots"`
}

func TestE2EProjectorSteps(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int64{{1280, 720}, {1920, 1080}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			t.Parallel()
			s := newSession(t, 3*time.Minute)
			if _, err := chromedp.Call(s.ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: canvasTextJS}); err != nil {
				t.Fatal(err)
			}
			s.viewport(size[0], size[1])
			s.openAt(s.url, "", "#lesson=1&presenter=1")
			s.waitStep(1)
			for n := 1; n <= 7; n++ {
				if n > 1 {
					s.click("lesson-next")
					s.waitStep(n)
				}
				// The first rows fill the page's tables: the moment a page
				// that follows its target would scroll (lesson.js SETTLE_MS).
				time.Sleep(1500 * time.Millisecond)
				m := evalJS[projectorStep](s, projectorStepJS)
				at := fmt.Sprintf("%d×%d step %d", size[0], size[1], n)
				if m.ScrollY != 0 {
					t.Errorf("%s: the page scrolled itself by %.0f px", at, m.ScrollY)
				}
				if m.Hidden > 1 || !m.Lesson || !m.Buttons || !m.Run {
					t.Errorf("%s: %.0f px of the lesson's text hidden; lesson on screen %v, its buttons %v, the Run bar %v", at, m.Hidden, m.Lesson, m.Buttons, m.Run)
				}
				if !m.ChartOn {
					t.Errorf("%s: the step's chart %s is not all on screen", at, m.Chart)
				}
				for _, p := range m.Plots {
					if p.Plot < 0.6*p.Width {
						t.Errorf("%s: a plot %.0f px wide in a chart of %.0f px", at, p.Plot, p.Width)
					}
					if p.Ticks == nil {
						t.Errorf("%s: the x ticks' labels are not measured", at)
					}
					for i := 1; i < len(p.Ticks); i++ {
						if p.Ticks[i][0] < p.Ticks[i-1][1]+4 {
							t.Errorf("%s: x tick labels %v and %v touch", at, p.Ticks[i-1], p.Ticks[i])
						}
					}
				}
				// Item 3: the back row reads every text, on the canvases
				// too (what they drew since the last step).
				if small := evalJS[[]string](s, smallTextUnder(16)); len(small) > 0 {
					t.Errorf("%s: text under 16 px: %q", at, small)
				}
				if small := evalJS[[]string](s, smallCanvasTextJS); len(small) > 0 {
					t.Errorf("%s: canvas text under 16 px: %q", at, small)
				}
				if t.Failed() {
					s.shot(fmt.Sprintf("projector-%d-step%d", size[0], n))
				}
			}
			s.checkExceptions()
		})
	}
}

// Item 6: the lesson opened over the default page's run starts clean; item
// 2: step 7 in presenter mode points at what shows (the file's note, which
// says how the file was read), and the notices fold to one line each.
func TestE2EProjectorCleanStartAndNotices(t *testing.T) {
	t.Parallel()
	s := newSession(t, 2*time.Minute)
	s.viewport(1920, 1080)
	s.openDemo() // the default page, learning
	time.Sleep(time.Second)
	s.click("lesson-open")
	s.waitStep(1)
	time.Sleep(time.Second)
	if g := evalJS[string](s, `document.getElementById("metric-chart").dataset.ghosts || ""`); g != "" {
		t.Errorf("step 1 opened over the default run shows earlier runs: %q", g)
	}
	if title := evalJS[string](s, `document.getElementById("metric-title").textContent`); strings.Contains(title, "earlier") {
		t.Errorf("step 1's chart title: %q", title)
	}

	// Step 7 with a file, in presenter mode.
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("y,a,b\n")
	for i := range 3000 {
		fmt.Fprintf(&b, "%d,%d,%d\n", i%2, i%7, i%5)
	}
	path := filepath.Join(dir, "sorted.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	s.openAt(s.url, "", "#lesson=7&presenter=1")
	s.waitStep(7)
	look := evalJS[string](s, `document.getElementById("lesson").innerText`)
	for _, hidden := range []string{"Data card", "preview"} {
		if strings.Contains(look, hidden) {
			t.Errorf("step 7 in presenter mode speaks of the %s, which presenter mode hides: %q", hidden, look)
		}
	}
	s.upload(path)
	s.waitJS("the file's note to say how it was read", `document.getElementById("note").textContent.includes("read as")`, 20*time.Second)
	t.Logf("step 7's note: %q", evalJS[string](s, `document.getElementById("note").textContent`))
	type notice struct {
		ID     string  `json:"id"`
		Height float64 `json:"height"`
		Line   float64 `json:"line"`
	}
	var ns []notice
	raw := evalJS[string](s, `JSON.stringify(["note", "speed-warning", "order-text"].map((id) => document.getElementById(id))
		.filter((e) => e.getClientRects().length && e.textContent.trim())
		.map((e) => ({id: e.id, height: e.getBoundingClientRect().height, line: parseFloat(getComputedStyle(e).lineHeight) || 1.4 * parseFloat(getComputedStyle(e).fontSize)})))`)
	if err := json.Unmarshal([]byte(raw), &ns); err != nil {
		t.Fatal(err)
	}
	if len(ns) == 0 {
		t.Fatal("no notice shows")
	}
	for _, n := range ns {
		if n.Height > 1.6*n.Line+16 {
			t.Errorf("notice %s is %.0f px high, more than one line of %.0f px", n.ID, n.Height, n.Line)
		}
	}
	// A click opens a notice.
	s.click("note")
	if h := evalJS[float64](s, `document.getElementById("note").classList.contains("open") ? 1 : 0`); h != 1 {
		t.Errorf("a click does not open the note")
	}
	s.checkExceptions()
}

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
	"github.com/occfm/occfm/internal/badinput"
)

// e2eBadCase is one entry of testdata/bad.json (see
// core/reader_bad_test.go, which documents the fields).
type e2eBadCase struct {
	File    string `json:"file"`
	Format  string `json:"format"`
	Task    string `json:"task"`
	Stop    string `json:"stop"`
	Page    string `json:"page"` // what the page's error holds, when not Stop
	Fatal   bool   `json:"fatal"`
	Rows    int    `json:"rows"`
	Skipped int    `json:"skipped"`
	// Generated inputs are made by internal/badinput (big: a 100 MB line,
	// 2 GiB of one gzip line, 10 MiB of comments).
	Generated bool `json:"generated"`
}

// badOutcome is what the page shows once a file's run ends.
type badOutcome struct {
	State   string `json:"state"`
	Gen     int    `json:"gen"`
	File    string `json:"file"`
	Rows    string `json:"rows"`
	Error   string `json:"error"`
	Skipped string `json:"skipped"` // the summary line, "" when hidden
	Reasons int    `json:"reasons"` // items in the list of further reasons
}

const badOutcomeJS = `(() => {
	const q = (id) => document.querySelector('[data-testid="' + id + '"]');
	const e = q("error"), k = q("skipped");
	return {
		state: document.body.dataset.state,
		gen: occfmPage.session.gen,
		file: occfmPage.session.file ? occfmPage.session.file.name : "",
		rows: q("rows").textContent,
		error: e.hidden ? "" : e.textContent,
		skipped: k.hidden ? "" : q("skipped-summary").textContent,
		reasons: q("skipped-reasons").children.length,
	};
})()`

// setOnError picks the "Bad rows" policy as a user does.
func (s *session) setOnError(policy string) {
	s.t.Helper()
	got := evalJS[string](s, fmt.Sprintf(`(() => {
		const e = document.querySelector('[data-testid="on-error"]');
		e.value = %q;
		e.dispatchEvent(new Event("change", {bubbles: true}));
		return e.value;
	})()`, policy))
	if got != policy {
		s.t.Fatalf("on-error select shows %q, want %q", got, policy)
	}
}

// clickLag clicks a probe in the page's corner with a real mouse event and
// returns how long the click waited for its handler (handler time −
// event.timeStamp).
func (s *session) clickLag() float64 {
	s.t.Helper()
	evalJS[chromedp.Void](s, `(() => {
		if (document.getElementById("e2e-probe")) return;
		const p = document.createElement("div");
		p.id = "e2e-probe";
		p.style.cssText = "position:fixed;left:0;top:0;width:24px;height:24px;z-index:2147483647;";
		document.body.appendChild(p);
		window.__e2eClickLag = -1;
		p.addEventListener("click", (e) => { window.__e2eClickLag = performance.now() - e.timeStamp; });
	})()`)
	evalJS[chromedp.Void](s, `window.__e2eClickLag = -1`)
	s.do("probe click", chromedp.MouseClickXY(12, 12))
	s.waitJS("the probe's click handler", "window.__e2eClickLag >= 0", 5*time.Second)
	return evalJS[float64](s, "window.__e2eClickLag")
}

// TestE2EBadInputs feeds every file of testdata/bad through the page's file
// input, with "Bad rows" on stop and on skip, and checks what the page shows
// against testdata/bad.json: the error (file, line, field, what was
// expected), or the rows learned and skipped with the first reason. After
// each file the page must answer a click within 100 ms and its Go runtime
// must still be alive (a panic kills it): the next file starts a new run.
func TestE2EBadInputs(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile(filepath.Join("testdata", "bad.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []e2eBadCase
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	shots := map[string]bool{"bad-rating.data/stop": true, "bad-rating.data/skip": true, "huge-label.data/skip": true, "decimal-comma.csv/stop": true}
	// Each policy in a page of its own, the two at once.
	for _, policy := range []string{"stop", "skip"} {
		t.Run(policy, func(t *testing.T) {
			t.Parallel()
			badInputs(t, cases, policy, shots)
		})
	}
}

// badInputs is TestE2EBadInputs for one policy of "Bad rows".
func badInputs(t *testing.T, cases []e2eBadCase, policy string, shots map[string]bool) {
	s := newSession(t, 12*time.Minute)
	s.openDemo()
	s.maxSpeed()
	s.setOnError(policy)
	ran := 0
	for _, c := range cases {
		if c.Format != "" || c.Task != "" {
			continue // the page sniffs the format and guesses the task
		}
		path, wait := filepath.Join("testdata", "bad", c.File), 30*time.Second
		if c.Generated {
			var err error
			if path, err = badinput.Write(filepath.Join("testdata", "bad"), c.File, t.TempDir()); err != nil {
				t.Fatal(err)
			}
			wait = 3 * time.Minute
		}
		name := c.File + "/" + policy
		before := evalJS[int](s, "occfmPage.session.gen")
		start := time.Now()
		s.upload(path)
		s.waitJS(name+" ended", fmt.Sprintf(`occfmPage.session.gen > %d && occfmPage.session.file && occfmPage.session.file.name === %q &&
			(document.body.dataset.state === "done" || document.body.dataset.state === "error")`, before, c.File), wait)
		took := time.Since(start)
		o := evalJS[badOutcome](s, badOutcomeJS)
		s.checkExceptions()

		if policy == "skip" && c.Rows == 0 && c.Skipped > 0 && !c.Fatal {
			// Every row skipped: the page says it learned nothing, as
			// the command line does.
			if o.State != "error" || !strings.Contains(o.Error, "no row was learned: ") || !strings.Contains(o.Error, "skipped as malformed, the first: "+c.Stop) {
				t.Errorf("%s: state %q, error %q; want no row was learned", name, o.State, o.Error)
			}
		} else if c.Stop != "" && (policy == "stop" || c.Fatal) {
			want := c.Stop
			if c.Page != "" {
				want = c.Page
			}
			if o.State != "error" || !strings.Contains(o.Error, want) || !strings.Contains(o.Error, c.File) {
				t.Errorf("%s: state %q, error\n%s\nwant one holding\n%s", name, o.State, o.Error, want)
			}
			if !c.Fatal && !strings.Contains(o.Error, `choose "Bad rows: skip and count"`) {
				t.Errorf("%s: the error %q does not say how to skip such rows", name, o.Error)
			}
		} else {
			skipped := 0
			if policy == "skip" {
				skipped = c.Skipped
			}
			rows, _ := parseRows(o.Rows)
			if o.State != "done" || rows != c.Rows || o.Error != "" {
				t.Errorf("%s: state %q, rows %q, error %q; want done, %d rows", name, o.State, o.Rows, o.Error, c.Rows)
			}
			switch {
			case skipped == 0 && o.Skipped != "":
				t.Errorf("%s: shows %q, want no skipped rows", name, o.Skipped)
			case skipped > 0:
				noun := "rows"
				if skipped == 1 {
					noun = "row"
				}
				want := fmt.Sprintf("%d %s skipped — first: %s", skipped, noun, c.Stop)
				if o.Skipped != want || o.Reasons != min(skipped, 5)-1 {
					t.Errorf("%s: skipped\n%q (+%d reasons)\nwant\n%q (+%d)", name, o.Skipped, o.Reasons, want, min(skipped, 5)-1)
				}
			}
		}
		if shots[name] {
			s.screenshot("bad-" + strings.ReplaceAll(name, "/", "-"))
		}
		// Alive and responsive: the Go runtime answers, a click is
		// handled at once.
		if n := evalJS[int](s, "occfm.learners().length"); n == 0 {
			t.Errorf("%s: occfm.learners() is empty", name)
		}
		lag := s.clickLag()
		if lag >= e2eFreezeMS {
			t.Errorf("%s: a click waited %.0f ms: the page froze (want < %d ms on any machine)", name, lag, e2eFreezeMS)
		}
		t.Logf("%-32s %5v  state %-5s rows %-6s click %4.1f ms  %s%s", name, took.Round(time.Millisecond),
			o.State, o.Rows, lag, o.Error, o.Skipped)
		ran++
	}
	// The page still runs the demo after all of them.
	evalJS[chromedp.Void](s, `(() => {
		const d = document.querySelector('[data-testid="demo"]');
		d.value = "ratings";
		d.dispatchEvent(new Event("change", {bubbles: true}));
	})()`)
	s.waitState("running", 10*time.Second)
	s.waitJS("the demo's rows after the bad files", jsRows+" > 0", 10*time.Second)
	s.checkExceptions()
	t.Logf("%d runs of bad inputs (%s), then the demo ran", ran, policy)
}

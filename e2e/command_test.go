//go:build e2e

package e2e

import (
	"os"
	"strings"
	"testing"
	"time"
)

// "Copy as command" (ui/js/learn/copy-command.js) shows, under the button,
// the occfm commands that replay the run: selectable, wrapped within a
// phone's screen, in type of at least 14 px, with no axe-core violation.
// The δ input's placeholder names the followed learner's default, and
// Personalize's hint under its learner menu is the registry's words for it
// (occfm.learners(): delta, personal).
func TestE2ECopyCommand(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile(axePath)
	if err != nil {
		t.Fatalf("%v: make dist installs the page's npm packages (ui/package.json)", err)
	}
	s := newSession(t, 2*time.Minute)
	s.viewport(390, 844)
	s.url += "#demo=ratings&learners=occfm,bias"
	s.openDemo()
	if p := evalJS[string](s, `document.getElementById("delta").placeholder`); p != "default (10)" {
		t.Errorf("δ's placeholder with occfm followed: %q, want \"default (10)\" (occfm's δ)", p)
	}
	s.click("settings-toggle") // a phone's drawer holds the Export card
	s.click("copy-command")
	s.waitJS("the command and what the clipboard did", `!document.querySelector('[data-testid="command"]').hidden &&
		!document.querySelector('[data-testid="command-status"]').hidden`, 10*time.Second)
	got := evalJS[shownCommand](s, shownCommandJS)
	t.Logf("command:\n%s\nstatus: %s", got.Text, got.Status)
	for _, want := range []string{"occfm gen -demo ratings -seed 1 -rows ", "occfm run -data ratings.svm ", " -learner occfm,bias"} {
		if !strings.Contains(got.Text, want) {
			t.Errorf("the command has no %q", want)
		}
	}
	if !got.Fits || got.Font < 14 || !got.Selects {
		t.Errorf("on a phone the command fits the screen: %v, its type is %.1f px (want ≥ 14), selectable: %v", got.Fits, got.Font, got.Selects)
	}
	s.shot("copy-command-390")
	for _, x := range s.runAxe(string(src)) {
		t.Errorf("%s (%s): %s at %s", x.ID, x.Impact, x.Help, strings.Join(x.Nodes, " | "))
	}
	s.viewport(1280, 720)
	evalJS[bool](s, `document.querySelector('[data-testid="command"]').scrollIntoView({block: "center"}), true`)
	if got := evalJS[shownCommand](s, shownCommandJS); !got.Fits || got.Font < 14 {
		t.Errorf("at 1280×720 the command fits its card: %v, its type is %.1f px", got.Fits, got.Font)
	}
	s.shot("copy-command-1280")

	s.click("tab-personalize")
	s.setControl("p-learner", "occfm-k")
	hint := evalJS[[]string](s, `[document.getElementById("p-learner-hint").textContent,
		occfm.learners().find((l) => l.name === "occfm-k").personal || ""]`)
	if hint[1] == "" || hint[0] != hint[1] {
		t.Errorf("occfm-k's hint in Personalize is %q, want the registry's personal words %q", hint[0], hint[1])
	}
	s.checkExceptions()
}

// shownCommand is what the page shows of "Copy as command" (shownCommandJS).
type shownCommand struct {
	Text, Status  string
	Font          float64
	Fits, Selects bool // within its box and the screen; selected whole by a select-all of it
}

const shownCommandJS = `(() => { const e = document.querySelector('[data-testid="command"]'); const r = e.getBoundingClientRect();
	const sel = getSelection(); sel.selectAllChildren(e);
	const selects = sel.toString() === e.textContent; sel.removeAllRanges();
	return {text: e.textContent, status: document.querySelector('[data-testid="command-status"]').textContent,
		font: parseFloat(getComputedStyle(e).fontSize), fits: e.scrollWidth <= e.clientWidth && r.left >= 0 && r.right <= innerWidth,
		selects} })()`

//go:build e2e

package e2e

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// writeSortedSVM writes a LibSVM file sorted by label as the issue found
// one: 740 rows of −1, 1,479 of +1, then 47,530 of −1, each with a few
// features whose values lean with the label.
func writeSortedSVM(t *testing.T) (string, int) {
	path := filepath.Join(t.TempDir(), "sorted.svm")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	r := rand.New(rand.NewPCG(31, 5))
	rows := 0
	for _, part := range []struct {
		y int
		n int
	}{{-1, 740}, {1, 1479}, {-1, 47530}} {
		for range part.n {
			fmt.Fprintf(w, "%d", part.y)
			for j := 1; j <= 5; j++ {
				fmt.Fprintf(w, " %d:%.3f", j, r.NormFloat64()+0.3*float64(part.y))
			}
			fmt.Fprintln(w)
			rows++
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return path, rows
}

// Issue 31, item 5: a file sorted by label is named as such, and the page
// offers to shuffle it; shuffled, it plays in the order of occfm run
// -shuffle 1 (the same metrics as the CLI built for js/wasm), with the
// seed in the link.
func TestE2ELabelSortedFile(t *testing.T) {
	t.Parallel()
	path, rows := writeSortedSVM(t)
	wasm := runCLIShuffled(t, path, "occfm-auto", true, 1)
	s := newSession(t, 4*time.Minute)
	s.openDemo()
	s.maxSpeed()
	s.learnFile(path, rows, 120*time.Second)
	text := evalJS[string](s, `document.getElementById("order-text").textContent`)
	errText := evalJS[string](s, `document.querySelector('[data-testid="metric-error-rate"]').textContent`)
	t.Logf("file order: error rate %s; %q", errText, text)
	if evalJS[bool](s, `document.getElementById("order-note").hidden`) || !strings.Contains(text, "long runs") || !strings.Contains(text, "sorted by label") {
		t.Errorf("a label-sorted file, and the page says %q", text)
	}
	if !strings.Contains(evalJS[string](s, `document.getElementById("shuffle-file").textContent`), "Shuffle the rows (seed 1)") {
		t.Error("no offer to shuffle")
	}
	s.click("shuffle-file")
	s.waitJS("the shuffled run done", fmt.Sprintf(`document.body.dataset.state === "done" && %s === %d`, jsRows, rows), 120*time.Second)
	if h := evalJS[string](s, `location.hash`); !strings.Contains(h, "shuffle=1") {
		t.Errorf("the link %q does not keep the shuffle", h)
	}
	note := evalJS[string](s, `document.getElementById("order-text").textContent`)
	t.Logf("shuffled: %q", note)
	if !strings.Contains(note, "Rows shuffled with seed 1") {
		t.Errorf("after shuffling the note says %q", note)
	}
	v, shown := s.metric("metric-error-rate")
	t.Logf("shuffled: error rate %s, CLI (js/wasm) -shuffle 1: %v", shown, *wasm.ErrorRate)
	sameValue(t, "error rate vs CLI js/wasm -shuffle 1", v, *wasm.ErrorRate, 1e-6)
	s.checkExceptions()
}

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/internal/badinput"
)

// badCase is one entry of ../testdata/bad.json (see
// core/reader_bad_test.go, which documents the fields).
type badCase struct {
	File    string `json:"file"`
	Format  string `json:"format"`
	Task    string `json:"task"`
	Stop    string `json:"stop"`
	Fatal   bool   `json:"fatal"`
	Rows    int    `json:"rows"`
	Skipped int    `json:"skipped"`
	// Generated inputs are made by internal/badinput; Layout and Warning
	// are the layout read and the reader's first warning.
	Generated bool   `json:"generated"`
	Layout    string `json:"layout"`
	Warning   string `json:"warning"`
}

// TestSessionBadInputs feeds every file of testdata/bad to a file session,
// with onError stop and skip, and checks the messages and counts of
// testdata/bad.json: the page reads them as the command line does.
func TestSessionBadInputs(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "testdata", "bad.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []badCase
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		if c.Format != "" || c.Task != "" {
			continue // the page sniffs the format and guesses the task
		}
		t.Run(c.File, func(t *testing.T) {
			dir := filepath.Join("..", "testdata", "bad")
			if c.Generated && testing.Short() {
				t.Skip("a big generated input")
			}
			for _, policy := range []string{"stop", "skip"} {
				s, err := newSession(config{Source: "file", File: c.File, OnError: policy})
				if err != nil {
					t.Fatal(err)
				}
				if c.Generated {
					in, err := badinput.Open(dir, c.File)
					if err != nil {
						t.Fatal(err)
					}
					runReader(t, s, in, 1<<20)
				} else {
					data, err := os.ReadFile(filepath.Join(dir, c.File))
					if err != nil {
						t.Fatal(err)
					}
					runAll(t, s, string(data), 7)
				}
				snap := decode(t, s.snapshotJSON())
				if c.Layout != "" && snap.Layout != c.Layout {
					t.Errorf("%s: layout %q, want %q", policy, snap.Layout, c.Layout)
				}
				var w []string // the reader's warnings (s.warnings adds the huge labels)
				if s.stream != nil {
					w = s.stream.Warnings()
				}
				if c.Warning != "" && (len(w) == 0 || w[0] != c.Warning) || c.Warning == "" && len(w) > 0 {
					t.Errorf("%s: warnings %q, want %q", policy, w, c.Warning)
				}
				if policy == "skip" && c.Rows == 0 && c.Skipped > 0 && !c.Fatal {
					// Every row skipped: the page says it learned nothing.
					if snap.State != "error" || !strings.HasPrefix(snap.Error, "core: no row was learned: ") || !strings.HasSuffix(snap.Error, " skipped as malformed, the first: "+c.Stop) {
						t.Errorf("%s: state %q, error %q", policy, snap.State, snap.Error)
					}
					continue
				}
				if c.Stop != "" && (policy == "stop" || c.Fatal) {
					if snap.State != "error" || snap.Error != "core: "+c.Stop || snap.BadRow == c.Fatal {
						t.Errorf("%s: state %q, error\n%s\nwant\ncore: %s (bad row %v)", policy, snap.State, snap.Error, c.Stop, !c.Fatal)
					}
					continue
				}
				skipped := 0
				if policy == "skip" {
					skipped = c.Skipped
				}
				if snap.State != "done" || snap.Rows != c.Rows || snap.Skipped != skipped {
					t.Errorf("%s: state %q (%s), %d rows, %d skipped; want done, %d, %d",
						policy, snap.State, snap.Error, snap.Rows, snap.Skipped, c.Rows, skipped)
				}
				if skipped > 0 && (len(snap.SkippedFirst) != min(skipped, data.MaxReasons) || snap.SkippedFirst[0] != c.Stop) {
					t.Errorf("%s: skippedFirst %q, want %d reasons starting with %q", policy, snap.SkippedFirst, min(skipped, data.MaxReasons), c.Stop)
				}
			}
		})
	}
}

// TestSessionSkipKeepsDeadline: a long run of malformed rows is skipped a
// slice at a time, so that the page stays responsive: a slice whose
// deadline has passed skips at most a few dozen rows (the clock is read
// every 32 rows skipped, data.Rows' Pause), however many follow.
func TestSessionSkipKeepsDeadline(t *testing.T) {
	const bad = 20000
	var b strings.Builder
	b.WriteString("+1 1:1\n-1 2:1\n")
	for range bad {
		b.WriteString("+1 0:1\n")
	}
	s, _ := newSession(config{Source: "file", File: "zeros.svm", Format: "libsvm", OnError: "skip"})
	s.feed([]byte(b.String()))
	s.end()
	slices := 0
	for s.state != "done" && s.state != "error" && slices < 10*bad {
		before := s.bad.Skipped
		s.step(time.Now(), 0)
		if n := s.bad.Skipped - before; n > 2*32 {
			t.Fatalf("slice %d, past its deadline, skipped %d rows", slices, n)
		}
		slices++
	}
	snap := decode(t, s.snapshotJSON())
	if snap.State != "done" || snap.Rows != 2 || snap.Skipped != bad {
		t.Fatalf("state %q (%s), %d rows, %d skipped", snap.State, snap.Error, snap.Rows, snap.Skipped)
	}
}

// TestSessionMemoryBudget: a session over its memory budget stops with
// core.MemoryBudget's message, as occfm run -max-memory does, having
// learned the rows before; under the default budget the same file learns
// to the end.
func TestSessionMemoryBudget(t *testing.T) {
	text := ratingsText(20000, 3)
	for _, c := range []struct {
		limit int64
		done  bool
	}{{1 << 20, false}, {0, true}} {
		s, err := newSession(config{Source: "file", File: "u.data", MaxMemory: c.limit})
		if err != nil {
			t.Fatal(err)
		}
		runAll(t, s, text, 1<<16)
		snap := decode(t, s.snapshotJSON())
		if c.done {
			if snap.State != "done" || snap.Rows != 20000 {
				t.Errorf("limit %d: state %q (%s), %d rows", c.limit, snap.State, snap.Error, snap.Rows)
			}
			continue
		}
		if snap.State != "error" || !strings.Contains(snap.Error, "over the memory budget of 1 MiB") || snap.Rows == 0 || snap.Rows >= 20000 {
			t.Errorf("limit %d: state %q, %d rows, error %q", c.limit, snap.State, snap.Rows, snap.Error)
		}
		if s.wanted() != 0 {
			t.Errorf("limit %d: still wants %d bytes after the error", c.limit, s.wanted())
		}
	}
}

// TestSessionHugeLabels: rows whose label is beyond ±1e9 are predicted, not
// learned and not scored; the page lists them with their line, as the
// CLI's report does, and its figures stay finite.
func TestSessionHugeLabels(t *testing.T) {
	text := "1\t1\t4\t8\n1\t2\t1e300\t9\n2\t1\t3\t9\n2\t2\t-2e9\t9\n3\t1\t5\t9\n"
	s, _ := newSession(config{Source: "file", File: "h.data"})
	runAll(t, s, text, 3)
	snap := decode(t, s.snapshotJSON())
	if snap.State != "done" || snap.Rows != 5 {
		t.Fatalf("state %q (%s), %d rows", snap.State, snap.Error, snap.Rows)
	}
	want := []string{
		"h.data:2: label 1e+300 is beyond ±1e9: predicted, not learned, not scored",
		"h.data:4: label -2e+09 is beyond ±1e9: predicted, not learned, not scored",
	}
	if w := s.warnings(); strings.Join(w, "|") != strings.Join(want, "|") {
		t.Errorf("warnings %q, want %q", w, want)
	}
	if r := snap.Learners[0].RMSE; r == nil || *r > 10 || *r != *r {
		t.Errorf("RMSE %v, want the 3 ordinary rows' (finite, small)", r)
	}
}

// TestSessionBadFirstLine: a u.data file whose first line has a bad
// rating ends as the CLI's run ends: under stop with the error for line 1
// (no row learned), under skip with the 29 rows after it learned and the
// skipped line counted and named.
func TestSessionBadFirstLine(t *testing.T) {
	raw := "1\t2\tx\t881250949\n" + ratingsText(29, 4)
	for _, onError := range []string{"stop", "skip"} {
		s, _ := newSession(config{Source: "file", File: "early-bad-line1.data", OnError: onError})
		runAll(t, s, raw, 1000)
		var snap struct {
			State        string   `json:"state"`
			Error        string   `json:"error"`
			Rows         int      `json:"rows"`
			Skipped      int      `json:"skipped"`
			SkippedFirst []string `json:"skipped_first"`
		}
		if err := json.Unmarshal([]byte(s.snapshotJSON()), &snap); err != nil {
			t.Fatal(err)
		}
		core := coreOutcome(t, "early-bad-line1.data", []byte(raw), onError)
		t.Logf("%s: page %+v; core %+v", onError, snap, core)
		line1 := `early-bad-line1.data:1: field "rating": "x" is not a number`
		switch onError {
		case "stop":
			if snap.State != "error" || snap.Rows != 0 || !strings.Contains(snap.Error, line1) || snap.Error != core.Err {
				t.Errorf("stop: state %q, %d rows, error %q; want the CLI's %q", snap.State, snap.Rows, snap.Error, core.Err)
			}
		case "skip":
			if snap.State != "done" || snap.Rows != 29 || snap.Skipped != 1 || len(snap.SkippedFirst) != 1 ||
				!strings.Contains(snap.SkippedFirst[0], line1) || core.Rows != 29 || core.Skipped != 1 {
				t.Errorf("skip: state %q, %d rows, %d skipped %q; core %+v", snap.State, snap.Rows, snap.Skipped, snap.SkippedFirst, core)
			}
		}
	}
}

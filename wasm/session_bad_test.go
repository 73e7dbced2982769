package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/occfm/occfm/core"
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
			data, err := os.ReadFile(filepath.Join("..", "testdata", "bad", c.File))
			if err != nil {
				t.Fatal(err)
			}
			for _, policy := range []string{"stop", "skip"} {
				s, err := newSession(config{Source: "file", File: c.File, OnError: policy})
				if err != nil {
					t.Fatal(err)
				}
				runAll(t, s, string(data), 7)
				snap := decode(t, s.snapshotJSON())
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
				if skipped > 0 && (len(snap.SkippedFirst) != min(skipped, core.MaxReasons) || snap.SkippedFirst[0] != c.Stop) {
					t.Errorf("%s: skippedFirst %q, want %d reasons starting with %q", policy, snap.SkippedFirst, min(skipped, core.MaxReasons), c.Stop)
				}
			}
		})
	}
}

// TestSessionSkipKeepsDeadline: a long run of malformed rows is skipped a
// slice at a time, so that the page stays responsive: a slice whose
// deadline has passed skips at most a few dozen rows (the clock is read
// every skipCheck rows), however many follow.
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
		if n := s.bad.Skipped - before; n > 2*skipCheck {
			t.Fatalf("slice %d, past its deadline, skipped %d rows", slices, n)
		}
		slices++
	}
	snap := decode(t, s.snapshotJSON())
	if snap.State != "done" || snap.Rows != 2 || snap.Skipped != bad {
		t.Fatalf("state %q (%s), %d rows, %d skipped", snap.State, snap.Error, snap.Rows, snap.Skipped)
	}
}

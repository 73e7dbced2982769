package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// readPaperReport reads OUT/paper.json.
func readPaperReport(t *testing.T, out string) paperReport {
	t.Helper()
	js, err := os.ReadFile(filepath.Join(out, "paper.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rep paperReport
	if err := json.Unmarshal(js, &rep); err != nil {
		t.Fatalf("paper.json: %v", err)
	}
	return rep
}

// paperTables reads paper.json's figures, leaving out what a clock
// measures (seconds, updates/s, the trace's seconds, the start) and what
// this process did (the passes it played and read back).
func paperTables(t *testing.T, out string) []byte {
	t.Helper()
	rep := readPaperReport(t, out)
	rep.Command, rep.Started, rep.Seconds, rep.PassSeconds, rep.Played, rep.ReadBack = "", "", 0, 0, 0, 0
	for i := range rep.Sets {
		for k := range rep.Sets[i].Results {
			r := &rep.Sets[i].Results[k]
			r.Seconds.Mean, r.Seconds.Std, r.UpdatesPerSec = 0, 0, 0
			for p := range r.Trace {
				r.Trace[p].Seconds = 0
			}
		}
	}
	b, err := json.MarshalIndent(rep, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestPaperResume: a small protocol (2 permutations × 3 folds, three
// learners, two data sets) stopped twice, once with a journal line cut off
// as a crash would leave it, then resumed, gives the same tables to every
// digit as the run that was never stopped; a journal of another protocol
// is refused unless -fresh.
func TestPaperResume(t *testing.T) {
	raw := writeDataDir(t)
	args := func(out string) []string {
		return []string{"paper", "-data", raw, "-out", out, "-runs", "2", "-folds", "3",
			"-sets", "ml-100k,ijcnn1", "-learners", "occfm,mean,bias", "-quiet"}
	}
	whole := t.TempDir()
	runOK(t, args(whole)...)
	want := paperTables(t, whole)

	out := t.TempDir()
	journal := filepath.Join(out, journalName)
	defer func() { paperStopAfter = 0 }()
	for i, stop := range []int{4, 7} {
		paperStopAfter = stop
		var o, e bytes.Buffer
		err := run(args(out), &o, &e)
		var ie interruptError
		if !errors.As(err, &ie) || !strings.Contains(err.Error(), "run the same command to go on") {
			t.Fatalf("stop %d: %v, want an interruption", i, err)
		}
		b, _ := os.ReadFile(journal)
		t.Logf("stop %d: %v; the journal has %d lines", i, err, strings.Count(string(b), "\n"))
		if i == 0 {
			// A crash in the middle of a line.
			f, _ := os.OpenFile(journal, os.O_APPEND|os.O_WRONLY, 0)
			f.WriteString(`{"set":"ml-100k","learner":"occ`)
			f.Close()
		}
	}
	paperStopAfter = 0
	_, stderr := runOK(t, append(args(out), "-quiet=false")...)
	if !strings.Contains(stderr, "going on from") || !strings.Contains(stderr, "11 passes already played") {
		t.Errorf("the resumed run does not say where it goes on from:\n%s", stderr)
	}
	if got := paperTables(t, out); !bytes.Equal(got, want) {
		t.Errorf("resumed tables differ from the uninterrupted run's:\n%s\nwant\n%s", got, want)
	}
	// 2 sets × 3 learners × 2 runs × 3 folds = 36 passes, each once, and
	// the cut-off line.
	b, _ := os.ReadFile(journal)
	if n := strings.Count(string(b), `"set":`); n != 37 {
		t.Errorf("the journal holds %d pass lines, want 36 and the cut-off one", n)
	}

	// Another protocol in the same folder.
	var o, e bytes.Buffer
	other := append(args(out), "-runs", "3")
	if err := run(other, &o, &e); err == nil || !strings.Contains(err.Error(), "-fresh to start over") {
		t.Errorf("a journal of 2 permutations taken for 3: %v", err)
	}
	runOK(t, append(other, "-fresh")...)
}

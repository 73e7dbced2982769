package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// paperRecordPath is the journal of the full ML-1M run on record: the
// passes behind docs/paper.md's table of that set, which `occfm paper`
// reads back instead of playing them again (docs/paper.md says how).
const paperRecordPath = "../../docs/paper-passes-ml-1m-full.jsonl"

// paperDocsPath is the page that shows the tables of that run.
const paperDocsPath = "../../docs/paper.md"

// TestPaperRecord checks the journal on record: its head is the paper's
// protocol (20 permutations × 5 folds, seed 1) as `occfm paper` writes it;
// every other line is one whole pass of the full ML-1M, once, by a named
// build, with the set's rows split into training and held-out rows and
// finite metrics; the learners that play one permutation a fold there play
// no other, and every learner of `occfm paper` has all its passes. When
// ../shared/data holds ML-1M, `occfm paper` reads every pass back, plays
// none, and writes the tables that docs/paper.md shows for the set, line
// for line.
func TestPaperRecord(t *testing.T) {
	b, err := os.ReadFile(paperRecordPath)
	if err != nil {
		t.Fatal(err)
	}
	set := paperSets[slices.IndexFunc(paperSets, func(s paperSet) bool { return s.Key == "ml-1m-full" })]
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<26)
	if !sc.Scan() {
		t.Fatal("an empty record")
	}
	var head journalHead
	if err := json.Unmarshal(sc.Bytes(), &head); err != nil {
		t.Fatalf("line 1: %v", err)
	}
	if want := (journalHead{Journal: 1, Runs: 20, Folds: 5, FoldsRun: 5, Seed: 1}); head != want {
		t.Fatalf("head %+v, want the paper's protocol %+v", head, want)
	}
	seen := map[journalKey]int{}
	perLearner := map[string]int{}
	for line := 2; sc.Scan(); line++ {
		dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		dec.DisallowUnknownFields()
		var p journalPass
		if err := dec.Decode(&p); err != nil {
			t.Errorf("line %d: %v", line, err)
			continue
		}
		k := journalKey{p.Set, p.Learner, p.Dense, p.Rows, p.Run, p.Fold}
		if first, ok := seen[k]; ok {
			t.Errorf("line %d: %s run %d fold %d again (line %d)", line, p.Learner, p.Run, p.Fold, first)
		}
		seen[k] = line
		perLearner[p.Learner]++
		switch {
		case p.Set != set.Key || p.Dense || p.Rows != 1000209:
			t.Errorf("line %d: set %q (dense %v) of %d rows, want %s of 1,000,209", line, p.Set, p.Dense, p.Rows, set.Key)
		case !slices.ContainsFunc(paperLearners, func(pl paperLearner) bool { return pl.Name == p.Learner }):
			t.Errorf("line %d: learner %q is not a learner of occfm paper", line, p.Learner)
		case p.Fold < 0 || p.Fold >= head.Folds || p.Run < 0 || p.Run >= head.Runs:
			t.Errorf("line %d: run %d, fold %d", line, p.Run, p.Fold)
		case set.Runs[p.Learner] > 0 && p.Run >= set.Runs[p.Learner]:
			t.Errorf("line %d: %s plays %d permutation(s) a fold here, not run %d", line, p.Learner, set.Runs[p.Learner], p.Run)
		case p.Progressive.Rows+p.HeldOut.Rows != p.Rows || p.HeldOut.Rows < p.Rows/5-1 || p.HeldOut.Rows > p.Rows/5+1:
			t.Errorf("line %d: %d training and %d held-out rows of %d", line, p.Progressive.Rows, p.HeldOut.Rows, p.Rows)
		case p.Build == "" || !(p.Seconds > 0):
			t.Errorf("line %d: build %q, %v s", line, p.Build, p.Seconds)
		case (p.Run == 0 && p.Fold == 0) != (len(p.Trace) > 0):
			t.Errorf("line %d: run %d fold %d with %d trace points (the first pass has the trace, no other)", line, p.Run, p.Fold, len(p.Trace))
		}
		if _, err := strconv.ParseUint(p.Order, 16, 64); err != nil {
			t.Errorf("line %d: order %q: %v", line, p.Order, err)
		}
		for _, v := range []exact{p.Progressive.RMSE, p.Progressive.MAE, p.HeldOut.RMSE, p.HeldOut.MAE} {
			if !(v > 0) || math.IsInf(float64(v), 0) {
				t.Errorf("line %d: a metric of %v", line, v)
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d passes on record: %v", len(seen), perLearner)
	for _, pl := range paperLearners {
		if pl.Dense != nil {
			continue // the dense-projection variants play sets of d ≤ 200 only
		}
		want := head.Runs * head.Folds
		if r := set.Runs[pl.Name]; r > 0 {
			want = r * head.Folds
		}
		if perLearner[pl.Name] != want {
			t.Errorf("%s has %d passes on record, want %d", pl.Name, perLearner[pl.Name], want)
		}
	}

	if runtime.GOOS == "js" || testing.Short() || t.Failed() {
		return // the read-back loads a million rows
	}
	sharedData(t, set.Files[0]) // the read-back needs ML-1M: skipped without it
	dir := sharedData(t, "")
	out := t.TempDir()
	if err := os.WriteFile(filepath.Join(out, journalName), b, 0o644); err != nil {
		t.Fatal(err)
	}
	runOK(t, "paper", "-data", dir, "-out", out, "-sets", set.Key, "-quiet")
	if rep := readPaperReport(t, out); rep.Played != 0 || rep.ReadBack != len(seen) {
		t.Errorf("occfm paper played %d passes and read %d back from the record, want 0 and %d", rep.Played, rep.ReadBack, len(seen))
	}
	md, err := os.ReadFile(filepath.Join(out, "paper.md"))
	if err != nil {
		t.Fatal(err)
	}
	docs, err := os.ReadFile(paperDocsPath)
	if err != nil {
		t.Fatal(err)
	}
	docLines := map[string]bool{}
	for l := range strings.Lines(string(docs)) {
		docLines[strings.TrimSpace(l)] = true
	}
	i := bytes.Index(md, []byte("\n## Table 2"))
	if i < 0 {
		t.Fatalf("no Table 2 in the read-back's paper.md:\n%s", md)
	}
	tables := md[i:]
	n := 0
	for l := range strings.Lines(string(tables)) {
		if l = strings.TrimSpace(l); strings.HasPrefix(l, "|") {
			n++
			if !docLines[l] {
				t.Errorf("%s lacks this line of the tables the record gives:\n%s", paperDocsPath, l)
			}
		}
	}
	if n < 30 {
		t.Errorf("only %d table lines in the read-back's paper.md", n)
	}
}

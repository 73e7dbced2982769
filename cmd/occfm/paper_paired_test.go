package main

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestPairTest checks the paired comparison against hand computations: for
// differences 1, 2, 3 (df 2) Student's t has the closed-form CDF
// ½ + t/(2√(2 + t²)): t = 2/(1/√3), p = 2(½ − t/(2√(2 + t²))) ≈ 0.0742.
func TestPairTest(t *testing.T) {
	pass := func(run, fold int, v float64) passFigures {
		return passFigures{Run: run, Fold: fold, Progressive: map[string]float64{"rmse": v, "auc": v}}
	}
	a := paperResult{Passes: []passFigures{pass(0, 0, 2), pass(1, 0, 4), pass(0, 1, 6), pass(1, 1, 9)}}
	b := paperResult{Passes: []passFigures{pass(0, 0, 1), pass(1, 0, 2), pass(0, 1, 3)}} // (1, 1) missing
	tt := 2 / (1 / math.Sqrt(3))
	wantP := 2 * (1 - (0.5 + tt/(2*math.Sqrt(2+tt*tt))))
	for _, c := range []struct {
		metric  string
		better  int
		lowerOK bool
	}{
		{"rmse", 0, true}, // A is higher: worse on RMSE
		{"auc", 3, false}, // and better on AUC
	} {
		got := pairTest(a, b, c.metric, false)
		if got.N != 3 || got.Mean != 2 || math.Abs(got.Std-1) > 1e-12 || got.ABetter != c.better || got.LowerBetter != c.lowerOK {
			t.Errorf("%s: %+v, want N 3, mean 2, std 1, A better in %d", c.metric, got, c.better)
		}
		if math.Abs(got.P-wantP) > 1e-9 {
			t.Errorf("%s: p = %v, want %v", c.metric, got.P, wantP)
		}
	}
	if got := pairTest(a, b, "rmse", true); got.N != 0 {
		t.Errorf("held-out figures of no pass compared: %+v", got)
	}
	same := paperResult{Passes: []passFigures{pass(0, 0, 1), pass(1, 0, 2)}}
	shift := paperResult{Passes: []passFigures{pass(0, 0, 0.5), pass(1, 0, 1.5)}}
	if got := pairTest(same, same, "rmse", false); got.P != 1 || got.ABetter != 0 {
		t.Errorf("a learner against itself: %+v, want p 1, better in none", got)
	}
	if got := pairTest(shift, same, "rmse", false); got.P != 0 || got.ABetter != 2 {
		t.Errorf("a constant shift: %+v, want p 0, better in both", got)
	}
}

// TestPaperCapsAndBuilds: a learner capped on a set plays the first
// permutations of every fold only, the progress counts its passes, and
// the table says how many; a dense variant plays the first pass only;
// each pass of the journal names its build, and
// a journal's pass that does not is counted as unrecorded.
func TestPaperCapsAndBuilds(t *testing.T) {
	i := slices.IndexFunc(paperSets, func(s paperSet) bool { return s.Key == "ml-100k" })
	old := paperSets[i].Runs
	paperSets[i].Runs = map[string]int{"mean": 1}
	defer func() { paperSets[i].Runs = old }()

	raw, out := writeDataDir(t), t.TempDir()
	args := []string{"paper", "-data", raw, "-out", out, "-runs", "3", "-folds", "2",
		"-sets", "ml-100k", "-learners", "bias,mean"}
	stdout, stderr := runOK(t, args...)
	if !strings.Contains(stderr, "of 8 passes of MovieLens-100K") { // bias 3 × 2, mean 1 × 2
		t.Errorf("the progress does not count 8 passes:\n%s", stderr)
	}
	if !strings.Contains(stdout, "(2 passes)") || strings.Count(stdout, "(6 passes)") > 0 {
		t.Errorf("the capped learner's cells do not give its 2 passes (and only its):\n%s", stdout)
	}
	if !strings.Contains(stdout, "Fewer passes: on MovieLens-100K, mean (reference) plays only the first permutation of each fold") {
		t.Errorf("the tables do not say which learner plays fewer passes:\n%s", stdout)
	}
	b, err := os.ReadFile(filepath.Join(out, journalName))
	if err != nil {
		t.Fatal(err)
	}
	if n, m := strings.Count(string(b), `"set":`), strings.Count(string(b), `"build":"`+buildName()+`"`); n != 8 || m != 8 {
		t.Fatalf("the journal holds %d passes, %d of them naming the build %q; want 8 and 8", n, m, buildName())
	}
	// A journal written before passes named their build.
	lines := strings.SplitAfter(string(b), "\n")
	lines[1] = strings.Replace(lines[1], `,"build":"`+buildName()+`"`, "", 1)
	if err := os.WriteFile(filepath.Join(out, journalName), []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, _ = runOK(t, args...)
	if !strings.Contains(stdout, "Passes by the build that played them: "+buildName()+" (7), unrecorded (1).") {
		t.Errorf("the tables do not count the passes by build:\n%s", stdout)
	}
	if !strings.Contains(stdout, "this process played 0 of them") || !strings.Contains(stdout, "read 8 back") {
		t.Errorf("the tables do not say what this process played:\n%s", stdout)
	}

	// The dense variant of CCFM-OGD beside it, on a set of 3 features.
	out = t.TempDir()
	runOK(t, "paper", "-data", raw, "-out", out, "-runs", "3", "-folds", "2", "-sets", "ijcnn1", "-learners", "ccfm-ogd", "-quiet")
	b, err = os.ReadFile(filepath.Join(out, journalName))
	if err != nil {
		t.Fatal(err)
	}
	if n, dense := strings.Count(string(b), `"set":`), strings.Count(string(b), `"dense":true,`); n != 7 || dense != 1 {
		t.Errorf("the journal holds %d passes, %d of them dense; want 6 of CCFM-OGD and its dense variant's first", n, dense)
	}
}

// TestCappedNote: the note under the tables names the learners that play
// fewer permutations a fold, on which set, in words.
func TestCappedNote(t *testing.T) {
	set := func(title string, runs map[string]int) paperSetResult {
		return paperSetResult{paperSet: paperSet{Title: title, Runs: runs}}
	}
	for _, tc := range []struct {
		sets []paperSetResult
		want string
	}{
		{nil, ""},
		{[]paperSetResult{set("A", nil)}, ""},
		{[]paperSetResult{set("A", map[string]int{"ccfm-ogd": 1, "ccfm-pa": 1})},
			"Fewer passes: on A, CCFM-OGD, CCFM-PA play only the first permutation of each fold (a pass of theirs takes too long for all of them; the cell gives their count of passes)."},
		{[]paperSetResult{set("A", map[string]int{"mean": 3}), set("B", map[string]int{"occfm": 1})},
			"Fewer passes: on A, mean (reference) plays only the first 3 permutations of each fold (a pass of theirs takes too long for all of them; the cell gives their count of passes); " +
				"on B, OCCFM plays only the first permutation of each fold (a pass of theirs takes too long for all of them; the cell gives their count of passes)."},
	} {
		if got := cappedNote(tc.sets); got != tc.want {
			t.Errorf("cappedNote(%v)\n got %q\nwant %q", tc.sets, got, tc.want)
		}
	}
}

package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/occfm/occfm/core/data"
)

// writeDataDir builds a miniature ../shared/data: a planted-rank MovieLens
// u.data (regression) and two IJCNN1-like LibSVM files (classification),
// under the names occfm paper expects.
func writeDataDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(4, 5))
	var ml strings.Builder
	for range 600 {
		u, i := 1+rng.IntN(30), 1+rng.IntN(40)
		r := 2 + u%3 + i%2
		fmt.Fprintf(&ml, "%d\t%d\t%d\t881250949\n", u, i, max(1, min(5, r+rng.IntN(2))))
	}
	var svm [2]strings.Builder
	for k := range 400 {
		x1, x2 := rng.Float64()*2-1, rng.Float64()*2-1
		y := "-1"
		if x1*x2 > 0 {
			y = "1"
		}
		fmt.Fprintf(&svm[k%2], "%s 1:%.3f 2:%.3f 3:%.3f\n", y, x1, x2, rng.Float64())
	}
	for name, text := range map[string]string{
		"movielens-100k/u.data": ml.String(),
		"ijcnn1/ijcnn1.gz":      svm[0].String(), // plain text: the reader sniffs gzip
		"ijcnn1/ijcnn1.t.gz":    svm[1].String(),
	} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestPaperQuick runs occfm paper -quick on the miniature data folder and
// checks its outputs: both tables with the paper's numbers beside ours, an
// explicit "not available" cell for a data set the paper used that is
// missing, the JSON, and the figures.
func TestPaperQuick(t *testing.T) {
	raw, out := writeDataDir(t), t.TempDir()
	// A paper.md of an earlier run, kept private: it is replaced, and keeps its mode.
	if err := os.WriteFile(filepath.Join(out, "paper.md"), []byte("an earlier run\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	stdout, stderr := runOK(t, "paper", "-quick", "-data", raw, "-out", out,
		"-sets", "ml-100k,ml-10m,ijcnn1", "-learners", "occfm,mean")
	for _, want := range []string{
		"## Table 2: RMSE", "## Table 3: error rate and AUC",
		"| OCCFM | ", "| mean (reference) | ",
		"1.0359",           // the paper's OCCFM RMSE on ML-100K
		"0.0243", "0.9859", // its IJCNN1 error rate and AUC
		"not available", // ML-10M
		"held-out fold",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
	if !strings.Contains(stderr, "MovieLens-10M") {
		t.Errorf("progress does not mention the skipped ML-10M:\n%s", stderr)
	}
	md, err := os.ReadFile(filepath.Join(out, "paper.md"))
	if err != nil || string(md) != stdout {
		t.Errorf("paper.md (err %v) differs from stdout", err)
	}
	if st, err := os.Stat(filepath.Join(out, "paper.md")); err != nil {
		t.Error(err)
	} else if st.Mode().Perm() != 0o600 {
		t.Errorf("paper.md has mode %v; want the earlier file's 0600 kept", st.Mode().Perm())
	}
	if left, _ := filepath.Glob(filepath.Join(out, ".*partial*")); len(left) > 0 {
		t.Errorf("temporary files left in -out: %q", left)
	}
	rep := readPaperReport(t, out)
	if rep.Runs != 1 || rep.FoldsRun != 1 || rep.Folds != 5 || len(rep.Sets) != 3 {
		t.Fatalf("paper.json: runs %d, folds %d/%d, %d sets; want 1, 1/5, 3", rep.Runs, rep.FoldsRun, rep.Folds, len(rep.Sets))
	}
	for _, s := range rep.Sets {
		if s.Key == "ml-10m" {
			if s.Skipped == "" || len(s.Results) != 0 {
				t.Errorf("ml-10m: skipped %q, %d results; want a skip note and none", s.Skipped, len(s.Results))
			}
			continue
		}
		if len(s.Results) != 2 {
			t.Fatalf("%s: %d results, want 2", s.Key, len(s.Results))
		}
		for _, r := range s.Results {
			metric := "rmse"
			if s.Task == data.Classification || s.Table == 3 {
				metric = "auc"
			}
			if r.Error != "" || r.Progressive[metric].N != 1 || r.HeldOut[metric].N != 1 || len(r.Trace) < 2 {
				t.Errorf("%s/%s: error %q, %s %+v / %+v, %d trace points", s.Key, r.Learner, r.Error, metric, r.Progressive[metric], r.HeldOut[metric], len(r.Trace))
			}
			// 4 of 5 folds train; the fifth is held out.
			if want := s.Rows - s.Rows/5; r.Trace[len(r.Trace)-1].Rows != want {
				t.Errorf("%s/%s: %d training rows, want %d", s.Key, r.Learner, r.Trace[len(r.Trace)-1].Rows, want)
			}
		}
	}
	for _, f := range []string{"fig-ml-100k.png", "fig-ml-100k.svg", "fig-ijcnn1.png", "fig-ijcnn1.svg"} {
		if st, err := os.Stat(filepath.Join(out, f)); err != nil || st.Size() < 1000 {
			t.Errorf("figure %s: %v", f, err)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "fig-ml-10m.png")); err == nil {
		t.Error("a figure was written for the missing ML-10M")
	}
}

func TestPaperFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-sets", "ml-20m"}, {"-learners", "svm"}, {"-runs", "0"}, {"extra"},
	} {
		var out, errOut bytes.Buffer
		err := run(append([]string{"paper"}, args...), &out, &errOut)
		if _, ok := err.(usageError); !ok {
			t.Errorf("paper %q: err %v, want a usage error", args, err)
		}
	}
	s, err := parsePaperFlags([]string{"-quick", "-runs", "7"})
	if err != nil || s.runs != 1 || s.foldsRun != 1 || s.folds != 5 {
		t.Errorf("-quick: %+v, %v; want 1 run of 1 of 5 folds", s, err)
	}
}

// TestSampleUsersItems checks the ML-1M sample: at most n users and n items,
// only rows whose user and item are both sampled, and dense renumbering.
func TestSampleUsersItems(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const users, items, n = 50, 40, 10
	var names []string
	for u := range users {
		names = append(names, fmt.Sprintf("user=%d", u))
	}
	for i := range items {
		names = append(names, fmt.Sprintf("item=%d", i))
	}
	var rows []data.Example
	for range 3000 {
		u, i := rng.IntN(users), users+rng.IntN(items)
		rows = append(rows, data.Example{X: data.Sparse{Ind: []int{u, i}, Val: []float64{1, 1}}, Y: float64(u*1000 + i)})
	}
	work := make([]data.Example, len(rows)) // sampleUsersItems reuses its rows
	for k, ex := range rows {
		work[k] = ex.Clone()
	}
	got, dim := sampleUsersItems(work, names, n, 9)
	if len(got) == 0 || len(got) == len(rows) {
		t.Fatalf("%d of %d rows kept", len(got), len(rows))
	}
	seenU, seenI := map[int]bool{}, map[int]bool{}
	maxInd := -1
	for _, ex := range got {
		u, i := int(ex.Y)/1000, int(ex.Y)%1000 // the original features
		seenU[u], seenI[i] = true, true
		maxInd = max(maxInd, ex.X.Ind[0], ex.X.Ind[1])
	}
	if len(seenU) > n || len(seenI) > n {
		t.Errorf("%d users and %d items kept, want at most %d each", len(seenU), len(seenI), n)
	}
	if dim != len(seenU)+len(seenI) || maxInd != dim-1 {
		t.Errorf("dim %d, max index %d, want %d features renumbered 0..%d", dim, maxInd, len(seenU)+len(seenI), dim-1)
	}
	// Every row of a sampled user and a sampled item is kept.
	want := 0
	for _, ex := range rows {
		if seenU[ex.X.Ind[0]] && seenI[ex.X.Ind[1]] {
			want++
		}
	}
	if want != len(got) {
		t.Errorf("kept %d rows, but %d rows have a kept user and a kept item", len(got), want)
	}
}

// TestPaperSetOneNumbering: the files of a set (IJCNN1's training and test
// files) share one feature numbering, whatever order their features first
// appear in: a row of the second file that repeats a row of the first gets
// the same indices.
func TestPaperSetOneNumbering(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"a.svm": "-1 6:1 11:0.5\n+1 7:1 11:0.25\n",
		"b.svm": "+1 7:1 11:0.25\n-1 6:1 11:0.5\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	set := paperSet{Key: "two", Title: "two files", Task: data.Classification, Files: []string{"a.svm", "b.svm"}}
	rows, dim, err := loadPaperSet(dir, set, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 4 || dim != 3 {
		t.Fatalf("%d rows, %d features; want 4 and 3", len(rows), dim)
	}
	for k, pair := range [][2]int{{0, 3}, {1, 2}} {
		a, b := rows[pair[0]], rows[pair[1]]
		if !slices.Equal(a.X.Ind, b.X.Ind) || !slices.Equal(a.X.Val, b.X.Val) || a.Y != b.Y {
			t.Errorf("pair %d: row %d of a.svm %+v and its copy in b.svm %+v", k, pair[0], a, b)
		}
	}
}

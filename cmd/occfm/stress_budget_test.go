//go:build linux

package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestStressBudget is the memory-budget part of `make stress`, skipped as
// TestStressHostile is: -max-memory bounds the process's peak RSS (each
// child's, read from its rusage by runHostileIn) on the inputs that once
// took it past:
//
//   - standard input read whole for -shuffle (a 700 MB generated file):
//     the run stops at the budget with its message;
//   - a model whose vocabulary holds 420 MB of user IDs (200 of 2 MiB),
//     saved, then loaded and saved again, within -max-memory 1G; and
//     refused under the default 512M with a message naming the flag;
//   - rows that bring ever-new features, 10 million distinct indices
//     through a pipe: the default learner retires its other experts and
//     learns as many rows as linear alone before the budget stops both;
//   - rows of 20,000, 50,000 and 100,000 nonzeros after 100 ordinary ones:
//     the default learner finishes (the time is logged).
func TestStressBudget(t *testing.T) {
	exe, limit := hostileSetup(t)
	dir := filepath.Dir(exe)
	check := func(o hostileOutcome, what string, exit int, want string) {
		t.Helper()
		t.Logf("%s: exit %d  %.1f MiB  %.1f s  %s", what, o.exit, o.peakMB, o.wall.Seconds(), summary(o))
		if o.exit != exit || !strings.Contains(o.stderr+o.stdout, want) {
			t.Errorf("%s: exit %d (want %d), want %q in: %s", what, o.exit, exit, want, firstLine(o.stderr))
		}
	}

	big := filepath.Join(dir, "big.svm")
	runOK(t, "gen", "-size", "700M", "-out", big)
	f, err := os.Open(big)
	if err != nil {
		t.Fatal(err)
	}
	o := runHostileIn(t, exe, limit, "linear", f, "run", "-data", "-", "-shuffle", "1", "-learner", "linear", "-quiet")
	f.Close()
	os.Remove(big)
	check(o, "-data - -shuffle 1 of 700 MB", 1, "-shuffle holds every row in memory")

	ids := filepath.Join(dir, "ids.csv")
	writeLongIDs(t, ids, 200, 2<<20)
	model, again := filepath.Join(dir, "ids.occfm"), filepath.Join(dir, "again.occfm")
	check(runHostile(t, exe, limit, "occfm-auto", "run", "-data", ids, "-save", model, "-max-memory", "1G", "-quiet"),
		"-save of 200 IDs of 2 MiB under -max-memory 1G", 0, "rows")
	check(runHostile(t, exe, limit, "occfm-auto", "run", "-data", ids, "-limit", "20", "-load", model, "-save", again, "-max-memory", "1G", "-quiet"),
		"-load and -save of the 420 MB model under -max-memory 1G", 0, "rows")
	check(runHostile(t, exe, limit, "occfm-auto", "run", "-data", ids, "-load", model, "-quiet"),
		"-load of the 420 MB model under the default 512M", 1, "that -max-memory 512 MiB leaves to the run; raise -max-memory")
	os.Remove(ids)
	os.Remove(model)
	os.Remove(again)

	// 10 million features need about 1 GiB (linear's 24 bytes a feature,
	// the dictionary's 20, room to grow): under 512M linear alone stops
	// at the budget, and the default learner, retiring its other experts
	// as the budget nears, must learn as many rows before it stops.
	rows := map[string]float64{}
	for _, learner := range []string{"linear", "occfm-auto"} {
		o := runHostileIn(t, exe, max(limit, 10*time.Minute), learner, &newFeatures{rows: 10_000_000 / 3},
			"run", "-data", "-", "-learner", learner, "-json", "-quiet")
		check(o, learner+" on 10 million new features through a pipe", 1, "that -max-memory 512 MiB leaves to the run")
		var rec struct{ Rows float64 }
		json.Unmarshal([]byte(o.stdout), &rec)
		rows[learner] = rec.Rows
	}
	if rows["linear"] == 0 || rows["occfm-auto"] < 0.95*rows["linear"] {
		t.Errorf("rows learned before the budget stopped them: %v; want occfm-auto's within 5%% of linear's", rows)
	}

	wide := filepath.Join(dir, "wide.svm")
	writeWideRows(t, wide)
	check(runHostile(t, exe, limit, "occfm-auto", "run", "-data", wide, "-quiet"), "rows of 20k, 50k and 100k nonzeros", 0, "rows")
	os.Remove(wide)
}

// writeLongIDs writes a CSV of n ratings, each by a new user whose ID is
// size bytes long.
func writeLongIDs(t *testing.T, path string, n, size int) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintln(f, "user,item,rating")
	pad := strings.Repeat("x", size-4)
	for i := range n {
		fmt.Fprintf(f, "u%03d%s,i%d,%d\n", i, pad, i%17, 1+i%5)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// newFeatures is a LibSVM stream of rows rows, each of which brings three
// features never seen before.
type newFeatures struct {
	rows, row int
	left      []byte
}

func (r *newFeatures) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		if len(r.left) == 0 {
			if r.row == r.rows {
				if n == 0 {
					return 0, io.EOF
				}
				return n, nil
			}
			i := 3*r.row + 100_000
			r.left = fmt.Appendf(r.left[:0], "%d %d:1 %d:1 %d:1\n", 1-2*(r.row%2), i, i+1, i+2)
			r.row++
		}
		k := copy(p[n:], r.left)
		r.left, n = r.left[k:], n+k
	}
	return n, nil
}

// writeWideRows writes 100 ordinary rows, then rows of 20,000, 50,000 and
// 100,000 nonzeros.
func writeWideRows(t *testing.T, path string) {
	t.Helper()
	var b strings.Builder
	for i := range 100 {
		fmt.Fprintf(&b, "%d %d:1 %d:0.5\n", 1-2*(i%2), 1+i%7, 8+i%5)
	}
	for _, k := range []int{20_000, 50_000, 100_000} {
		b.WriteString("1")
		for j := 1; j <= k; j++ {
			fmt.Fprintf(&b, " %d:0.01", j)
		}
		b.WriteString("\n")
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestRunStoppedReports: a run that a malformed row stops (-on-error stop)
// still learns every row before it, also while the task is being guessed
// (the first 1,000 rows), and reports them before the error.
func TestRunStoppedReports(t *testing.T) {
	for _, tc := range []struct {
		badLine int
		json    bool
	}{{1501, false}, {501, false}, {501, true}, {2, false}} {
		rng := rand.New(rand.NewPCG(1, uint64(tc.badLine)))
		var b strings.Builder
		for line := 1; line <= 3000; line++ {
			if line == tc.badLine {
				b.WriteString("+1 1:abc\n")
				continue
			}
			fmt.Fprintf(&b, "%+d 1:%.3f 2:%.3f\n", 2*rng.IntN(2)-1, rng.Float64(), rng.Float64())
		}
		path := writeTemp(t, "late.svm", b.String())
		args := []string{"run", "-data", path, "-quiet"}
		if tc.json {
			args = append(args, "-json")
		}
		var out, errOut bytes.Buffer
		err := run(args, &out, &errOut)
		want := fmt.Sprintf("late.svm:%d: field 2", tc.badLine)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("line %d: error %v, want %q", tc.badLine, err, want)
		}
		rows := tc.badLine - 1
		switch {
		case tc.json:
			recs := jsonLines(t, out.String())
			if len(recs) != 1 || recs[0]["rows"] != float64(rows) || !strings.Contains(fmt.Sprint(recs[0]["stopped"]), want) {
				t.Errorf("line %d: -json %v, want rows %d and stopped", tc.badLine, recs, rows)
			}
		default:
			text := out.String()
			flat := strings.Join(strings.Fields(text), " ") // the report's columns follow the learner's name
			if !strings.Contains(flat, fmt.Sprintf("rows %s, file order", commas(rows))) || !strings.Contains(flat, "stopped early") {
				t.Errorf("line %d: report lacks %s rows and the stop:\n%s", tc.badLine, commas(rows), text)
			}
		}
	}
}

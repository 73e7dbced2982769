package main

import (
	"fmt"
	"strings"
	"testing"
)

// TestReportSaysWhatWasRead: the report names what the reader chose or
// noticed, in the text and in -json: the label column of a CSV (and a
// second column named like a label), a rating off the scale of the others
// (its line, the scale, how many such rows), and every row of a file whose
// line ends are mixed.
func TestReportSaysWhatWasRead(t *testing.T) {
	var csv strings.Builder
	csv.WriteString("y,label,x\n")
	for k := range 40 {
		fmt.Fprintf(&csv, "%d,%d,%d\n", k%2, k%5, k%7)
	}
	var udata strings.Builder
	for k := range 5000 {
		fmt.Fprintf(&udata, "%d\t%d\t%d\t881250949\n", 1+k%97, 1+k%89, 1+k%5)
	}
	udata.WriteString("1\t1\t1000\t881250949\n2\t2\t0\t881250949\n")
	var mixed strings.Builder
	for k := range 300 {
		fmt.Fprintf(&mixed, "%d\t%d\t%d\t881250949%s", 1+k%7, 1+k%5, 1+k%5, []string{"\n", "\r\n", "\r"}[k%3])
	}
	for _, c := range []struct {
		name, file, text string
		want             [][2]string // lines of the text report: the name and a part of the value
		layout           string
		warnings         string // the JSON's warnings, joined by "|"
		rows             float64
	}{
		{
			name: "y.csv", text: csv.String(), rows: 40,
			want:   [][2]string{{"layout", `csv (,), label "y"`}, {"warning", `y.csv: the label is "y", the first column named like a label`}},
			layout: `csv (,), label "y"`,
			warnings: `y.csv: the label is "y", the first column named like a label; named like one too but read as features: "label" (numeric). ` +
				`If that is wrong, rename the columns (or, in the page, set their roles).`,
		},
		{
			name: "u.data", text: udata.String(), rows: 5002,
			want:     [][2]string{{"warning", "u.data:5001: rating 1000 is off the 1–5 whole-star scale of MovieLens' u.data; 2 rows in all have a rating off it (lines 5001, 5002)"}},
			layout:   "movielens u.data (tab)",
			warnings: "u.data:5001: rating 1000 is off the 1–5 whole-star scale of MovieLens' u.data; 2 rows in all have a rating off it (lines 5001, 5002), learned as they are.",
		},
		{
			name: "mixed.data", text: mixed.String(), rows: 300,
			want:   [][2]string{{"rows", "300, file order"}, {"skipped", "0 rows"}},
			layout: "movielens u.data (tab)",
		},
	} {
		path := writeTemp(t, c.name, c.text)
		text, _ := runOK(t, "run", "-data", path, "-learner", "linear", "-quiet", "-on-error", "skip")
		for _, w := range c.want {
			if !reportHas(text, w[0], w[1]) {
				t.Errorf("%s: the report has no line %q with %q:\n%s", c.name, w[0], w[1], text)
			}
		}
		out, _ := runOK(t, "run", "-data", path, "-learner", "linear", "-quiet", "-on-error", "skip", "-json")
		rec := jsonLines(t, out)[0]
		var warnings []string
		if w, ok := rec["warnings"].([]any); ok {
			for _, s := range w {
				warnings = append(warnings, s.(string))
			}
		}
		if rec["layout"] != c.layout || strings.Join(warnings, "|") != c.warnings || rec["rows"] != c.rows || rec["skipped"] != 0.0 {
			t.Errorf("%s: layout %q, warnings %q, rows %v, skipped %v; want %q, %q, %v, 0",
				c.name, rec["layout"], warnings, rec["rows"], rec["skipped"], c.layout, c.warnings, c.rows)
		}
	}
}

// reportHas reports whether the text report has a line of the given name
// whose value holds part.
func reportHas(text, name, part string) bool {
	for line := range strings.SplitSeq(text, "\n") {
		if value, ok := strings.CutPrefix(line, name+" "); ok && strings.Contains(value, part) {
			return true
		}
	}
	return false
}

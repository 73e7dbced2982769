package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/occfm/occfm/core"
	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/internal/badinput"
)

// badCase is one entry of ../../testdata/bad.json (see
// core/reader_bad_test.go, which documents the fields).
type badCase struct {
	File    string `json:"file"`
	Format  string `json:"format"`
	Task    string `json:"task"`
	Stop    string `json:"stop"`
	Fatal   bool   `json:"fatal"`
	Rows    int    `json:"rows"`
	Skipped int    `json:"skipped"`
	Refused int    `json:"refused"` // rows the guard does not learn
	// Generated inputs are made by internal/badinput, not kept in
	// testdata/bad; Layout and Warning are the layout read and the
	// reader's first warning.
	Generated bool   `json:"generated"`
	Layout    string `json:"layout"`
	Warning   string `json:"warning"`
}

// TestRunBadInputs runs occfm run over every file of testdata/bad, with
// -on-error stop and skip, and checks the messages and counts of
// testdata/bad.json. None may panic.
func TestRunBadInputs(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "bad.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []badCase
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		name := c.File
		if c.Format != "" || c.Task != "" {
			name += "/" + c.Format + c.Task
		}
		t.Run(name, func(t *testing.T) {
			path := filepath.Join("..", "..", "testdata", "bad", c.File)
			if c.Generated {
				if testing.Short() {
					t.Skip("a big generated input")
				}
				var err error
				if path, err = badinput.Write(filepath.Join("..", "..", "testdata", "bad"), c.File, t.TempDir()); err != nil {
					t.Fatal(err)
				}
			}
			args := []string{"run", "-data", path, "-json", "-quiet"}
			if c.Format != "" {
				args = append(args, "-format", c.Format)
			}
			if c.Task != "" {
				args = append(args, "-task", c.Task)
			}
			for _, policy := range []string{"stop", "skip"} {
				var stdout, stderr bytes.Buffer
				err := run(append(args, "-on-error", policy), &stdout, &stderr)
				if c.Stop != "" && (policy == "stop" || c.Fatal) {
					want := "core: " + c.Stop
					if !c.Fatal {
						want += "; -on-error skip would skip such rows and count them"
					}
					if err == nil || err.Error() != want {
						t.Errorf("%s: error\n%v\nwant\n%s", policy, err, want)
					}
					var pe *data.ParseError
					if err != nil && errors.As(err, &pe) == c.Fatal {
						t.Errorf("%s: error %T, fatal %v", policy, err, c.Fatal)
					}
					continue
				}
				if policy == "skip" && c.Rows == 0 && c.Skipped > 0 {
					// Every row skipped: the run learned nothing and says so.
					rows := "all " + commas(c.Skipped) + " rows read were"
					if c.Skipped == 1 {
						rows = "the one row read was"
					}
					want := "core: no row was learned: " + rows + " skipped as malformed, the first: " + c.Stop
					if err == nil || err.Error() != want {
						t.Errorf("%s: error\n%v\nwant\n%s", policy, err, want)
					}
					continue
				}
				if err != nil {
					t.Fatalf("%s: %v", policy, err)
				}
				rec := jsonLines(t, stdout.String())[0]
				if c.Layout != "" && rec["layout"] != c.Layout {
					t.Errorf("%s: layout %v, want %s", policy, rec["layout"], c.Layout)
				}
				warnings, _ := rec["warnings"].([]any)
				if c.Warning != "" && (len(warnings) == 0 || warnings[0] != c.Warning) {
					t.Errorf("%s: warnings %q, want %q first", policy, warnings, c.Warning)
				}
				if c.Warning == "" && len(warnings) > 0 {
					t.Errorf("%s: warnings %q, want none", policy, warnings)
				}
				if rec["refused"] != float64(c.Refused) {
					t.Errorf("%s: %v rows refused by the guard, want %d", policy, rec["refused"], c.Refused)
				}
				skipped := 0
				if policy == "skip" {
					skipped = c.Skipped
				}
				if rec["rows"] != float64(c.Rows) || rec["skipped"] != float64(skipped) || rec["on_error"] != policy {
					t.Errorf("%s: rows %v, skipped %v, on_error %v; want %d, %d, %s",
						policy, rec["rows"], rec["skipped"], rec["on_error"], c.Rows, skipped, policy)
				}
				first, _ := rec["skipped_first"].([]any)
				if skipped > 0 && (len(first) != min(skipped, data.MaxReasons) || first[0] != c.Stop) {
					t.Errorf("%s: skipped_first %q, want %d starting with %q", policy, first, min(skipped, data.MaxReasons), c.Stop)
				}
				if skipped == 0 && first != nil {
					t.Errorf("%s: skipped_first %q", policy, first)
				}
			}
		})
	}
}

// TestRunHugeValues: every learner reads a file with feature values 1e50
// and -1e300 (which crashed the eigensolvers before the guard) to the end,
// with the two rows predicted but not learned, counted and explained.
func TestRunHugeValues(t *testing.T) {
	path := filepath.Join("..", "..", "testdata", "bad", "huge-values.libsvm")
	for _, spec := range core.Learners() {
		out, _ := runOK(t, "run", "-data", path, "-learner", spec.Name, "-quiet")
		for _, want := range []string{"2 rows not learned (a feature beyond ±1e9)",
			"row 5: refused: a feature value 1e+50 is beyond ±1e+09: row predicted, not learned"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s: the report lacks %q:\n%s", spec.Name, want, out)
			}
		}
		if strings.Contains(out, "NaN") || strings.Contains(out, "diverged") {
			t.Errorf("%s: %s", spec.Name, out)
		}
	}
}

func TestRunSkipText(t *testing.T) {
	path := filepath.Join("..", "..", "testdata", "bad", "bad-rating.data")
	stdout, _ := runOK(t, "run", "-data", path, "-on-error", "skip", "-learner", "occfm")
	for _, want := range []string{
		"rows       18, file order\n",
		"skipped    2 rows\n",
		`first        bad-rating.data:3: field "rating": "abc" is not a number` + "\n",
		`             bad-rating.data:7: field "rating": is empty, want a number` + "\n",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
	// Without -on-error skip the report has no skipped line.
	stdout, _ = runOK(t, "run", "-data", filepath.Join("..", "..", "testdata", "bad", "clean.csv"))
	if strings.Contains(stdout, "skipped") {
		t.Errorf("stop report mentions skipped rows:\n%s", stdout)
	}
	if _, err := parseRunFlags([]string{"-data", path, "-on-error", "ignore"}); err == nil ||
		!strings.Contains(err.Error(), `-on-error "ignore": want stop or skip`) {
		t.Errorf("-on-error ignore: %v", err)
	}
}

func TestProgressSkipped(t *testing.T) {
	var w bytes.Buffer
	bad := &data.BadRows{Policy: data.Skip}
	p := &progress{w: &w, bad: bad}
	p.show("10 rows")
	bad.Skip(&data.ParseError{File: "f", Line: 1, Field: "label", Msg: "m"})
	p.show("20 rows")
	if got := w.String(); got != "\roccfm  10 rows\roccfm  20 rows  1 skipped" {
		t.Errorf("progress %q", got)
	}
}

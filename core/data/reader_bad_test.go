package data_test

import (
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/internal/str"
	"github.com/occfm/occfm/internal/badinput"
)

// badCase is one entry of ../../testdata/bad.json: a file of ../../testdata/bad
// and what reading it gives. The command line (cmd/occfm) and the page
// (e2e/bad_test.go) check the same table.
type badCase struct {
	File   string      `json:"file"`
	Format data.Format `json:"format"` // forced format, or "" for auto
	Task   string      `json:"task"`   // forced task, or "" for auto
	// Stop is the error under Stop, without the "core: " prefix; empty
	// for a file that reads without error.
	Stop string `json:"stop"`
	// Fatal: the error is not a malformed row, so Skip stops too.
	Fatal bool `json:"fatal"`
	// Rows and Skipped are the rows learned and skipped under Skip (and
	// Rows under Stop too when Stop is empty).
	Rows    int `json:"rows"`
	Skipped int `json:"skipped"`
	// Like names a file that reads exactly the same examples.
	Like string `json:"like"`
	// Refused is how many rows every learner's guard predicts but does not
	// learn (a feature beyond ±1e9; see Guarded), checked by the command
	// line's test for every learner.
	Refused int `json:"refused"`
	// Generated marks a file too big to keep: it is not in testdata/bad
	// but made by generatedBad as it is read.
	Generated bool `json:"generated"`
	// Layout, Dim and Warning, when set, are Stream.Layout, Stream.Dim
	// after the last row, and the first of Stream.Warnings.
	Layout  string `json:"layout"`
	Dim     int    `json:"dim"`
	Warning string `json:"warning"`
}

func loadBadCases(t *testing.T) []badCase {
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "bad.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []badCase
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	return cases
}

// readBad reads a file of testdata/bad as the command line and the page do:
// the task forced or guessed from the first 1,000 labels, every label
// mapped by BadRows.Label, errors through bad.
func readBad(t *testing.T, c badCase, bad *data.BadRows) ([]data.Example, error) {
	var in io.Reader
	if c.Generated {
		var err error
		if in, err = badinput.Open(filepath.Join("..", "..", "testdata", "bad"), c.File); err != nil {
			t.Fatal(err)
		}
	} else {
		f, err := os.Open(filepath.Join("..", "..", "testdata", "bad", c.File))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		in = f
	}
	s, err := data.NewStream(in, data.ReaderSettings{Name: c.File, Format: c.Format})
	if err != nil {
		return nil, err
	}
	defer func() {
		if c.Layout != "" && s.Layout() != c.Layout {
			t.Errorf("layout %q, want %q", s.Layout(), c.Layout)
		}
		if c.Dim != 0 && s.Dim() != c.Dim {
			t.Errorf("Dim() = %d, want %d", s.Dim(), c.Dim)
		}
		if w := s.Warnings(); c.Warning != "" && (len(w) == 0 || w[0] != c.Warning) || c.Warning == "" && len(w) != 0 {
			t.Errorf("warnings %q, want %q", w, c.Warning)
		}
	}()
	type row struct {
		ex   data.Example
		line int
	}
	var rows []row
	for {
		var ex data.Example
		err := s.Next(&ex)
		if bad.Skip(err) {
			continue
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		rows = append(rows, row{ex, s.Line()})
	}
	task := data.Regression
	if c.Task != "" {
		task, err = data.ParseTask(c.Task)
		if err != nil {
			t.Fatal(err)
		}
	} else if s.Format() != data.FormatMovieLens {
		var labels []float64
		for _, r := range rows[:min(len(rows), 1000)] {
			labels = append(labels, r.ex.Y)
		}
		task = data.GuessTask(labels)
	}
	var out []data.Example
	for _, r := range rows {
		y, err := bad.Label(task, s.Name(), r.line, r.ex.Y)
		if bad.Skip(err) {
			continue
		}
		if err != nil {
			return nil, err
		}
		r.ex.Y = y
		out = append(out, r.ex)
	}
	return out, nil
}

// TestReaderBadInputs reads every file of ../../testdata/bad under both
// policies and checks the table ../../testdata/bad.json.
func TestReaderBadInputs(t *testing.T) {
	cases := loadBadCases(t)
	listed := map[string]bool{}
	for _, c := range cases {
		listed[c.File] = true
		name := c.File
		if c.Format != "" || c.Task != "" {
			name += "/" + string(c.Format) + c.Task
		}
		t.Run(name, func(t *testing.T) {
			if c.Generated && testing.Short() {
				t.Skip("a big generated input")
			}
			stop := &data.BadRows{}
			exs, err := readBad(t, c, stop)
			switch {
			case c.Stop == "" && err != nil:
				t.Fatalf("stop: %v", err)
			case c.Stop == "" && len(exs) != c.Rows:
				t.Errorf("stop: %d rows, want %d", len(exs), c.Rows)
			case c.Stop != "" && (err == nil || err.Error() != "core: "+c.Stop):
				t.Errorf("stop: error\n%v\nwant\ncore: %s", err, c.Stop)
			}
			if pe := new(data.ParseError); c.Stop != "" && errors.As(err, &pe) == c.Fatal {
				t.Errorf("stop: error %T, fatal %v", err, c.Fatal)
			}

			skip := &data.BadRows{Policy: data.Skip}
			exs, err = readBad(t, c, skip)
			if c.Fatal {
				if err == nil || err.Error() != "core: "+c.Stop {
					t.Errorf("skip: error\n%v\nwant\ncore: %s", err, c.Stop)
				}
				return
			}
			if err != nil {
				t.Fatalf("skip: %v", err)
			}
			if len(exs) != c.Rows || skip.Skipped != c.Skipped {
				t.Errorf("skip: %d rows, %d skipped, want %d and %d", len(exs), skip.Skipped, c.Rows, c.Skipped)
			}
			if c.Skipped > 0 {
				if len(skip.First) != min(c.Skipped, data.MaxReasons) {
					t.Errorf("skip: %d reasons kept", len(skip.First))
				}
				if got := skip.First[0].Reason(); got != c.Stop {
					t.Errorf("skip: first reason\n%s\nwant\n%s", got, c.Stop)
				}
				if !strings.HasPrefix(skip.String(), str.Itoa(c.Skipped)+" row") {
					t.Errorf("skip: summary %q", skip.String())
				}
			}
			if c.Like != "" {
				like, err := readBad(t, badCase{File: c.Like}, &data.BadRows{})
				if err != nil {
					t.Fatal(err)
				}
				if len(like) != len(exs) {
					t.Fatalf("%d rows, %s has %d", len(exs), c.Like, len(like))
				}
				for i := range exs {
					if !sameExample(exs[i], like[i]) {
						t.Errorf("row %d = %v, %s has %v", i, exs[i], c.Like, like[i])
					}
				}
			}
		})
	}
	paths, err := filepath.Glob(filepath.Join("..", "..", "testdata", "bad", "*"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range paths {
		if !listed[filepath.Base(p)] {
			t.Errorf("%s is not in testdata/bad.json", p)
		}
	}
}

func TestBadRows(t *testing.T) {
	var nilRows *data.BadRows
	pe := &data.ParseError{File: "f", Line: 3, Field: "label", Msg: "bad"}
	if nilRows.Skip(pe) {
		t.Error("a nil BadRows skips")
	}
	stop := &data.BadRows{}
	if stop.Skip(pe) || stop.Skipped != 0 {
		t.Error("Stop skips")
	}
	b := &data.BadRows{Policy: data.Skip}
	for _, err := range []error{nil, io.EOF, errors.New("core: f: gzip: unexpected EOF")} {
		if b.Skip(err) {
			t.Errorf("Skip(%v) = true", err)
		}
	}
	if b.String() != "no rows skipped" {
		t.Errorf("String() = %q", b.String())
	}
	for i := range 7 {
		field := `field "x"`
		if i%3 == 0 {
			field = "label"
		}
		if !b.Skip(&data.ParseError{File: "f", Line: i + 1, Field: field, Msg: "m"}) {
			t.Fatal("Skip = false for a ParseError")
		}
	}
	want := `7 rows skipped (field "x": 4, label: 3); first: f:1: label: m; f:2: field "x": m; f:3: field "x": m; f:4: label: m; f:5: field "x": m; …`
	if b.String() != want {
		t.Errorf("String()\n%s\nwant\n%s", b, want)
	}
	if b.Skipped != 7 || len(b.First) != data.MaxReasons {
		t.Errorf("%d skipped, %d kept", b.Skipped, len(b.First))
	}
	_, err := b.Label(data.Classification, "f", 9, 2)
	if err == nil || err.Error() != `core: f:9: label: "2" is not a class of the binary task (want -1/+1 or 0/1; labels with other values need the regression task)` {
		t.Errorf("Label(2) error %v", err)
	}
	if y, err := b.Label(data.Classification, "f", 9, 0); y != -1 || err != nil {
		t.Errorf("Label(0) = %v, %v", y, err)
	}
	if y, err := b.Label(data.Regression, "f", 9, 2.5); y != 2.5 || err != nil {
		t.Errorf("Label(2.5) regression = %v, %v", y, err)
	}
	for _, s := range []string{"", "stop", "skip"} {
		o, err := data.ParseOnError(s)
		if err != nil || s != "" && o.String() != s {
			t.Errorf("ParseOnError(%q) = %v, %v", s, o, err)
		}
	}
	if _, err := data.ParseOnError("ignore"); err == nil {
		t.Error("ParseOnError(ignore) succeeded")
	}
}

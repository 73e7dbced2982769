package main

import (
	"bytes"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/occfm/occfm/core"
	"github.com/occfm/occfm/core/data"
)

// readPredictions parses a -predictions file: its header's names and its
// rows of numbers.
func readPredictions(t *testing.T, text string) (names []string, rows [][]float64) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	names = strings.Split(lines[0], ",")
	for i, line := range lines[1:] {
		var row []float64
		for field := range strings.SplitSeq(line, ",") {
			v, err := strconv.ParseFloat(field, 64)
			if err != nil {
				t.Fatalf("line %d: %q is not a number", i+2, field)
			}
			row = append(row, v)
		}
		if len(row) != len(names) {
			t.Fatalf("line %d %q: %d values, the header names %d learners", i+2, line, len(row), len(names))
		}
		rows = append(rows, row)
	}
	return names, rows
}

// playedPredictions plays the rows of the file at path through a guarded
// learner l, as occfm run does, and returns each row's prediction made
// before it is learned, as -predictions writes it: σ(ŷ) for
// classification.
func playedPredictions(t *testing.T, l *core.Guarded, path string, rs data.ReaderSettings, task data.Task) []float64 {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s, err := data.NewStream(f, rs)
	if err != nil {
		t.Fatal(err)
	}
	var out []float64
	var ex data.Example
	for s.Next(&ex) == nil {
		if ex.Y, err = task.Label(ex.Y); err != nil {
			t.Fatal(err)
		}
		yhat := core.Play(l, ex, nil)
		if task == data.Classification {
			yhat = 1 / (1 + math.Exp(-yhat))
		}
		out = append(out, yhat)
	}
	return out
}

// near reports whether got and want agree to 1e-12 (absolute or relative).
func near(got, want float64) bool {
	return math.Abs(got-want) <= 1e-12*math.Max(1, math.Abs(want))
}

// TestRunPredictions checks the -predictions file against the same
// learners played in-process (core.NewGuarded and core.Play) over the same
// rows: a header naming the learners, one line per row played, one column
// per learner, each value the prediction made before the row was learned.
// Rows skipped by -on-error skip are not written; a row predicted but not
// learned (a huge label) is.
func TestRunPredictions(t *testing.T) {
	files := modelData(t, 300)
	hugeLabel := append(append([]string{}, files["u.data"][:50]...), "7\t8\t1e12\t880000000\n")
	hugeLabel = append(hugeLabel, files["u.data"][50:100]...)
	clean := strings.Join(files["planted.svm"][:100], "")
	withBad := strings.Join(files["planted.svm"][:40], "") + "+1 1:x\n" + strings.Join(files["planted.svm"][40:100], "")
	for _, tc := range []struct {
		name, file, text string
		reference        string // the file played in-process (default: text)
		args             []string
		learners         []string
		task             data.Task
		clip             bool
		refused          float64 // rows predicted but not learned
	}{
		{name: "regression", file: "u.data", text: strings.Join(files["u.data"], ""),
			learners: []string{"occfm-k"}, task: data.Regression, clip: true},
		{name: "regression not clipped", file: "u.data", text: strings.Join(files["u.data"], ""), args: []string{"-clip", "off"},
			learners: []string{"fm-ftrl"}, task: data.Regression},
		{name: "classification", file: "planted.svm", text: strings.Join(files["planted.svm"], ""),
			learners: []string{"occfm-k"}, task: data.Classification},
		{name: "two learners", file: "planted.svm", text: strings.Join(files["planted.svm"], ""),
			learners: []string{"occfm-k", "fm-ftrl"}, task: data.Classification},
		{name: "two learners regression", file: "u.data", text: strings.Join(files["u.data"], ""),
			learners: []string{"occfm", "mean"}, task: data.Regression, clip: true},
		{name: "skipped row", file: "planted.svm", text: withBad, reference: clean, args: []string{"-on-error", "skip"},
			learners: []string{"occfm-k"}, task: data.Classification},
		{name: "huge label", file: "u.data", text: strings.Join(hugeLabel, ""), args: []string{"-task", "regression"},
			learners: []string{"occfm-k"}, task: data.Regression, clip: true, refused: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, tc.file)
			if err := os.WriteFile(path, []byte(tc.text), 0o644); err != nil {
				t.Fatal(err)
			}
			ref := path
			if tc.reference != "" {
				ref = filepath.Join(dir, "reference-"+tc.file)
				if err := os.WriteFile(ref, []byte(tc.reference), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			preds := filepath.Join(dir, "p.csv")
			args := append([]string{"run", "-data", path, "-learner", strings.Join(tc.learners, ","), "-quiet", "-json", "-predictions", preds}, tc.args...)
			out, _ := runOK(t, args...)
			text, err := os.ReadFile(preds)
			if err != nil {
				t.Fatal(err)
			}
			names, rows := readPredictions(t, string(text))
			if strings.Join(names, ",") != strings.Join(tc.learners, ",") {
				t.Fatalf("header %q, want %q", names, tc.learners)
			}
			rec := jsonLines(t, out)[0]
			if played := rec["rows"].(float64); float64(len(rows)) != played {
				t.Fatalf("%d lines, the run played %v rows", len(rows), played)
			}
			if rec["refused"] != tc.refused {
				t.Errorf("%v rows not learned, want %v", rec["refused"], tc.refused)
			}
			for j, name := range tc.learners {
				l, err := core.NewGuarded(name, core.Config{Task: tc.task}, core.GuardSettings{Clip: tc.clip})
				if err != nil {
					t.Fatal(err)
				}
				want := playedPredictions(t, l, ref, data.ReaderSettings{}, tc.task)
				if len(want) != len(rows) {
					t.Fatalf("%d lines, %d rows played in-process", len(rows), len(want))
				}
				for i, w := range want {
					if got := rows[i][j]; !near(got, w) {
						t.Fatalf("%s, row %d: %v, in-process %v", name, i+1, got, w)
					}
				}
			}
		})
	}
}

// TestRunPredictionsLoad: a model saved by one run and continued with
// -load on a second file writes, on its first line, the loaded model's
// Predict of the second file's first row (what the JS library's predict
// gives on the same model file), and on every line the predictions of the
// loaded model played on in-process.
func TestRunPredictionsLoad(t *testing.T) {
	for file, lines := range modelData(t, 400) {
		t.Run(file, func(t *testing.T) {
			dir := t.TempDir()
			first := writeTemp(t, "first-"+file, strings.Join(lines[:200], ""))
			second := writeTemp(t, file, strings.Join(lines[200:], ""))
			model, preds := filepath.Join(dir, "m.occfm"), filepath.Join(dir, "p.csv")
			runOK(t, "run", "-data", first, "-learner", "occfm-k", "-quiet", "-save", model)
			runOK(t, "run", "-data", second, "-load", model, "-quiet", "-predictions", preds)
			text, err := os.ReadFile(preds)
			if err != nil {
				t.Fatal(err)
			}
			names, rows := readPredictions(t, string(text))
			if len(names) != 1 || names[0] != "occfm-k" || len(rows) != 200 {
				t.Fatalf("header %q and %d lines, want occfm-k and 200", names, len(rows))
			}

			m, err := loadModelFile(model, 0)
			if err != nil {
				t.Fatal(err)
			}
			task := m.Config.Task
			guard := core.GuardFor("auto", "reset", m.Vocabulary.Format == data.FormatMovieLens && task == data.Regression)
			rs := data.ReaderSettings{Format: m.Vocabulary.Format, Vocabulary: m.Vocabulary}
			f, err := os.Open(second)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			s, err := data.NewStream(f, rs)
			if err != nil {
				t.Fatal(err)
			}
			var ex data.Example
			if err := s.Next(&ex); err != nil {
				t.Fatal(err)
			}
			l, err := core.ResumeGuarded(m, guard)
			if err != nil {
				t.Fatal(err)
			}
			want := l.Predict(ex.X)
			if task == data.Classification {
				want = 1 / (1 + math.Exp(-want))
			}
			if !near(rows[0][0], want) {
				t.Errorf("first line %v, the loaded model's Predict %v", rows[0][0], want)
			}

			l, _ = core.ResumeGuarded(m, guard)
			all := playedPredictions(t, l, second, rs, task)
			for i, w := range all {
				if !near(rows[i][0], w) {
					t.Fatalf("row %d: %v, the loaded model played on in-process %v", i+1, rows[i][0], w)
				}
			}
		})
	}
}

// TestRunPredictionsErrors: a -predictions path that cannot be written,
// or that names the data or a model file, fails before any row is read
// (the data comes on a standard input that fails the test when read), and
// leaves those files as they were.
func TestRunPredictionsErrors(t *testing.T) {
	dir := t.TempDir()
	svm := writeTemp(t, "tiny.svm", tinySVM)
	model := filepath.Join(dir, "m.occfm")
	runOK(t, "run", "-data", svm, "-learner", "occfm", "-quiet", "-save", model)
	modelBytes, _ := os.ReadFile(model)
	defer func(in io.Reader) { stdin = in }(stdin)
	for _, tc := range []struct {
		name  string
		args  []string
		msg   string
		usage bool
	}{
		{"missing folder", []string{"-data", "-", "-predictions", filepath.Join(dir, "no", "p.csv")},
			"-predictions " + filepath.Join(dir, "no", "p.csv") + ": no such file or directory", false},
		{"a folder", []string{"-data", "-", "-predictions", dir}, "is a folder", false},
		{"with -load", []string{"-data", "-", "-load", model, "-predictions", filepath.Join(dir, "no", "p.csv")},
			"no such file or directory", false},
		{"the data file", []string{"-data", svm, "-predictions", svm}, "is the file of -data", true},
		{"the -load file", []string{"-data", "-", "-load", model, "-predictions", model}, "is the file of -load", true},
		{"the -save file", []string{"-data", "-", "-save", model, "-predictions", model}, "is the file of -save", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			read := false
			stdin = readWatch{&read}
			err := run(append([]string{"run", "-quiet"}, tc.args...), new(bytes.Buffer), new(bytes.Buffer))
			// The system's words for a missing file differ in case
			// (js/wasm: "No such file or directory").
			if err == nil || !strings.Contains(strings.ToLower(err.Error()), strings.ToLower(tc.msg)) {
				t.Fatalf("error %v, want one containing %q", err, tc.msg)
			}
			if errors.As(err, new(usageError)) != tc.usage {
				t.Errorf("error %q: usage error %v, want %v", err, !tc.usage, tc.usage)
			}
			if read {
				t.Error("the data was read before the error")
			}
			if got, _ := os.ReadFile(svm); string(got) != tinySVM {
				t.Error("the data file changed")
			}
			if got, _ := os.ReadFile(model); !bytes.Equal(got, modelBytes) {
				t.Error("the model file changed")
			}
		})
	}
}

// readWatch is a standard input that records that it was read.
type readWatch struct{ read *bool }

func (r readWatch) Read([]byte) (int, error) {
	*r.read = true
	return 0, io.EOF
}

// TestRunPredictionsStdout: -predictions - writes the lines on standard
// output, before the report.
func TestRunPredictionsStdout(t *testing.T) {
	svm := writeTemp(t, "tiny.svm", tinySVM)
	out, _ := runOK(t, "run", "-data", svm, "-learner", "occfm-k,fm-ftrl", "-quiet", "-json", "-predictions", "-")
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 1+8+2 {
		t.Fatalf("%d lines, want a header, 8 rows and 2 JSON lines:\n%s", len(lines), out)
	}
	names, rows := readPredictions(t, strings.Join(lines[:9], "\n"))
	if strings.Join(names, ",") != "occfm-k,fm-ftrl" || len(rows) != 8 {
		t.Errorf("header %q, %d rows", names, len(rows))
	}
	jsonLines(t, strings.Join(lines[9:], "\n"))
}

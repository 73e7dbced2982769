package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/occfm/occfm/core"
	"github.com/occfm/occfm/core/data"
)

// tinySVM is a LibSVM classification file with ±1 labels: 8 rows, 4 features.
const tinySVM = `+1 1:0.5 3:1
-1 2:1
+1 1:1 2:0.5
-1 3:0.2 4:1
+1 1:0.3
-1 2:0.7 4:0.5
+1 1:0.9 3:0.1
-1 4:1
`

// tinyUData is a u.data-like MovieLens file: user, item, rating, timestamp,
// tab separated. 6 rows, 3 users and 4 items: 7 features.
const tinyUData = "1\t10\t5\t881250949\n" +
	"2\t10\t3\t891717742\n" +
	"1\t20\t4\t878887116\n" +
	"3\t30\t2\t880606923\n" +
	"2\t40\t1\t886397596\n" +
	"3\t10\t4\t884182806\n"

// writeTemp writes text to a file named name in a fresh temporary directory
// and returns its path.
func writeTemp(t *testing.T, name, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// runOK runs the command line and fails the test on an error.
func runOK(t *testing.T, args ...string) (stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	if err := run(args, &out, &errOut); err != nil {
		t.Fatalf("run %q: %v\nstderr: %s", args, err, errOut.String())
	}
	return out.String(), errOut.String()
}

// jsonLines parses stdout as one JSON object per line.
func jsonLines(t *testing.T, stdout string) []map[string]any {
	t.Helper()
	var recs []map[string]any
	for line := range strings.Lines(stdout) {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("line %q is not a JSON object: %v", line, err)
		}
		recs = append(recs, rec)
	}
	return recs
}

// commonKeys are in every -json line.
var commonKeys = []string{
	"learner", "task", "loss", "data", "format", "layout", "features", "delta", "eta",
	"shuffle", "limit", "rows", "seconds", "updates_per_sec", "wall_seconds", "avg_loss",
}

var (
	regressionKeys     = []string{"rmse", "mae"}
	classificationKeys = []string{"error_rate", "auc", "logloss"}
)

// checkKeys checks that rec has every key of want and none of absent.
func checkKeys(t *testing.T, rec map[string]any, want, absent []string) {
	t.Helper()
	for _, k := range want {
		if _, ok := rec[k]; !ok {
			t.Errorf("key %q missing from %v", k, rec)
		}
	}
	for _, k := range absent {
		if _, ok := rec[k]; ok {
			t.Errorf("key %q should be absent for task %v: %v", k, rec["task"], rec)
		}
	}
}

func TestRunJSON(t *testing.T) {
	svm := writeTemp(t, "tiny.svm", tinySVM)
	udata := writeTemp(t, "u.data", tinyUData)
	for _, tc := range []struct {
		name   string
		args   []string
		want   map[string]any // a few values to check
		keys   []string
		absent []string
	}{
		{
			name: "libsvm guessed classification",
			args: []string{"run", "-data", svm, "-json"},
			want: map[string]any{
				"learner": "occfm-auto", "task": "classification", "loss": "logistic", "data": "tiny.svm",
				"format": "libsvm", "rows": 8.0, "features": 4.0, "delta": 0.0, "eta": 0.0, "shuffle": 0.0,
			},
			keys:   classificationKeys,
			absent: regressionKeys,
		},
		{
			name:   "libsvm forced regression",
			args:   []string{"run", "-data", svm, "-json", "-task", "regression", "-delta", "3", "-eta", "0.5", "-learner", "occfm"},
			want:   map[string]any{"task": "regression", "loss": "squared", "rows": 8.0, "delta": 3.0, "eta": 0.5},
			keys:   regressionKeys,
			absent: classificationKeys,
		},
		{
			name: "movielens is regression",
			args: []string{"run", "-data", udata, "-json"},
			want: map[string]any{
				"task": "regression", "data": "u.data", "format": "movielens", "rows": 6.0, "features": 7.0,
			},
			keys:   regressionKeys,
			absent: classificationKeys,
		},
		{
			name:   "limit",
			args:   []string{"run", "-data", udata, "-json", "-limit", "4"},
			want:   map[string]any{"rows": 4.0, "limit": 4.0},
			keys:   regressionKeys,
			absent: classificationKeys,
		},
		{
			name:   "limit with guessing",
			args:   []string{"run", "-data", svm, "-json", "-limit", "3"},
			want:   map[string]any{"task": "classification", "rows": 3.0},
			keys:   classificationKeys,
			absent: regressionKeys,
		},
		{
			name:   "shuffle",
			args:   []string{"run", "-data", udata, "-json", "-shuffle", "7"},
			want:   map[string]any{"rows": 6.0, "shuffle": 7.0},
			keys:   regressionKeys,
			absent: classificationKeys,
		},
		{
			name:   "shuffle and limit",
			args:   []string{"run", "-data", svm, "-json", "-shuffle", "7", "-limit", "5"},
			want:   map[string]any{"rows": 5.0},
			keys:   classificationKeys,
			absent: regressionKeys,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stdout, _ := runOK(t, tc.args...)
			recs := jsonLines(t, stdout)
			if len(recs) != 1 {
				t.Fatalf("got %d JSON lines, want 1:\n%s", len(recs), stdout)
			}
			rec := recs[0]
			checkKeys(t, rec, append(slices.Clone(commonKeys), tc.keys...), tc.absent)
			for k, v := range tc.want {
				if rec[k] != v {
					t.Errorf("%s = %v, want %v", k, rec[k], v)
				}
			}
			if !strings.HasPrefix(rec["layout"].(string), rec["format"].(string)) {
				t.Errorf("layout %q does not start with format %q", rec["layout"], rec["format"])
			}
		})
	}
}

// TestRunShuffleDeterministic checks that a seed fixes the results: two runs
// with seed 7 print the same metrics (timings aside).
func TestRunShuffleDeterministic(t *testing.T) {
	svm := writeTemp(t, "tiny.svm", tinySVM)
	metrics := func() map[string]any {
		stdout, _ := runOK(t, "run", "-data", svm, "-json", "-shuffle", "7")
		rec := jsonLines(t, stdout)[0]
		for _, k := range []string{"seconds", "updates_per_sec", "wall_seconds"} {
			delete(rec, k)
		}
		return rec
	}
	if a, b := metrics(), metrics(); !reflect.DeepEqual(a, b) {
		t.Errorf("same seed, different results:\n%v\n%v", a, b)
	}
}

// TestShuffleRows checks the shuffle itself, whose effect the metrics of a
// learner may not show: it is a permutation, fixed by the seed, and another
// seed gives another order (for 20 rows, a coincidence has probability
// 1/20!).
func TestShuffleRows(t *testing.T) {
	order := func(seed uint64) []float64 {
		rows := make([]data.Example, 20)
		for i := range rows {
			rows[i].Y = float64(i)
		}
		data.ShuffleOrder(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] }, seed)
		ys := make([]float64, len(rows))
		for i, r := range rows {
			ys[i] = r.Y
		}
		return ys
	}
	a, b, c := order(7), order(7), order(8)
	if !slices.Equal(a, b) {
		t.Errorf("seed 7 gave %v then %v", a, b)
	}
	if slices.Equal(a, c) {
		t.Errorf("seeds 7 and 8 both gave %v", a)
	}
	sorted := slices.Sorted(slices.Values(a))
	for i, y := range sorted {
		if y != float64(i) {
			t.Fatalf("not a permutation of 0..19: %v", a)
		}
	}
	if slices.Equal(a, sorted) {
		t.Errorf("seed 7 kept the order")
	}
}

func TestRunText(t *testing.T) {
	svm := writeTemp(t, "tiny.svm", tinySVM)
	udata := writeTemp(t, "u.data", tinyUData)
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{
			args: []string{"run", "-data", udata},
			want: []string{"u.data", "movielens u.data (tab)", "6, file order", "regression, squared loss", "RMSE", "MAE", "occfm-auto  no delta to choose: ", "wall time"},
		},
		{
			args: []string{"run", "-data", svm, "-shuffle", "3", "-limit", "5", "-delta", "2", "-learner", "occfm"},
			want: []string{"tiny.svm", "5 (limit 5), shuffled, seed 3", "classification, logistic loss", "occfm      delta 2, eta 1 (default)", "error rate", "AUC", "logloss"},
		},
		{
			// -eta reaches occfm-auto's OCCFM experts, and the report says so.
			args: []string{"run", "-data", udata, "-eta", "0.05"},
			want: []string{"occfm-auto  no delta to choose (eta 0.05 for its experts): "},
		},
	} {
		stdout, _ := runOK(t, tc.args...)
		for _, w := range tc.want {
			if !strings.Contains(stdout, w) {
				t.Errorf("run %q: output lacks %q:\n%s", tc.args, w, stdout)
			}
		}
	}
}

func TestRunErrors(t *testing.T) {
	svm := writeTemp(t, "tiny.svm", tinySVM)
	three := writeTemp(t, "three.svm", "+1 1:1\n-1 2:1\n3 1:1\n")
	broken := writeTemp(t, "broken.svm", "+1 1:1\n-1 2:x\n+1 1:1\n")
	for _, tc := range []struct {
		name  string
		args  []string
		want  string // in the error message
		usage bool   // a command-line mistake
	}{
		{"no command", nil, "no command", true},
		{"unknown command", []string{"fly"}, `unknown command "fly"`, true},
		{"no data", []string{"run"}, "-data PATH is required", true},
		{"unknown learner", []string{"run", "-data", svm, "-learner", "occfm,nope"}, `unknown learner "nope"`, true},
		{"learner twice", []string{"run", "-data", svm, "-learner", "occfm,occfm"}, "listed twice", true},
		{"bad task", []string{"run", "-data", svm, "-task", "ranking"}, `-task "ranking"`, true},
		{"bad format", []string{"run", "-data", svm, "-format", "xml"}, `-format "xml"`, true},
		{"negative delta", []string{"run", "-data", svm, "-delta", "-1"}, "-delta -1", true},
		{"negative limit", []string{"run", "-data", svm, "-limit", "-1"}, "-limit -1", true},
		{"regret growth 1", []string{"run", "-data", svm, "-regret", "-regret-growth", "1"}, "-regret-growth 1: want a ratio in (1, 100]", true},
		{"regret growth 0.5", []string{"run", "-data", svm, "-regret", "-regret-growth", "0.5"}, "-regret-growth 0.5", true},
		{"regret growth NaN", []string{"run", "-data", svm, "-regret", "-regret-growth", "NaN"}, "-regret-growth NaN", true},
		{"regret growth Inf", []string{"run", "-data", svm, "-regret", "-regret-growth", "Inf"}, "-regret-growth +Inf", true},
		{"regret growth 1e300", []string{"run", "-data", svm, "-regret", "-regret-growth", "1e300"}, "-regret-growth 1e+300", true},
		{"regret every -3", []string{"run", "-data", svm, "-regret", "-regret-every", "-3"}, "-regret-every -3", true},
		{"regret first -1", []string{"run", "-data", svm, "-regret", "-regret-first", "-1"}, "-regret-first -1", true},
		{"unknown flag", []string{"run", "-data", svm, "-fast"}, "-fast", true},
		{"stray argument", []string{"run", "-data", svm, "extra"}, `"extra"`, true},
		{"missing file", []string{"run", "-data", filepath.Join(t.TempDir(), "none.svm")}, "none.svm", false},
		{"label not binary", []string{"run", "-data", three, "-task", "classification"}, `three.svm:3: label: "3" is not a class of the binary task`, false},
		{"label not binary, shuffled", []string{"run", "-data", three, "-task", "classification", "-shuffle", "1"}, `three.svm:3: label: "3"`, false},
		{"parse error", []string{"run", "-data", broken, "-format", "libsvm"}, "broken.svm:2:", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			err := run(tc.args, &out, &errOut)
			if err == nil {
				t.Fatalf("run %q: no error; stdout:\n%s", tc.args, out.String())
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not contain %q", err, tc.want)
			}
			if got := errors.As(err, new(usageError)); got != tc.usage {
				t.Errorf("error %q: usage error %v, want %v", err, got, tc.usage)
			}
		})
	}
}

// TestRunParseErrorType checks that a malformed row stops the run with the
// reader's *data.ParseError.
func TestRunParseErrorType(t *testing.T) {
	broken := writeTemp(t, "broken.svm", "+1 1:1\n-1 2:x\n+1 1:1\n")
	err := run([]string{"run", "-data", broken, "-format", "libsvm"}, new(bytes.Buffer), new(bytes.Buffer))
	var pe *data.ParseError
	if !errors.As(err, &pe) || pe.Line != 2 || pe.File != "broken.svm" {
		t.Errorf("error %v: want a *data.ParseError at broken.svm:2", err)
	}
}

func TestHelpAndLearners(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"-h"}, {"run", "-h"}} {
		stdout, _ := runOK(t, args...)
		for _, w := range []string{"occfm run -data PATH", "-shuffle SEED", "updates_per_sec", "occfm"} {
			if !strings.Contains(stdout, w) {
				t.Errorf("%q: help lacks %q", args, w)
			}
		}
	}
	stdout, _ := runOK(t, "learners")
	for _, s := range core.Learners() {
		if !strings.Contains(stdout, s.Name) || !strings.Contains(stdout, s.Summary) {
			t.Errorf("learners lacks %s: %s", s.Name, s.Summary)
		}
	}
}

func TestCommas(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want string
	}{{0, "0"}, {999, "999"}, {1000, "1,000"}, {45000, "45,000"}, {1234567, "1,234,567"}, {-1234, "-1,234"}} {
		if got := commas(tc.n); got != tc.want {
			t.Errorf("commas(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}

// TestRunMovieLens100K plays the first 2,000 ratings of the real u.data,
// found in the shared data folder beside the repository (or inside it).
func TestRunMovieLens100K(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skipping 2,000 rows of MovieLens 100K")
	}
	if runtime.GOOS == "js" {
		t.Skip("js/wasm: the CLI is native, and 2,000 rows take minutes under node")
	}
	var path string
	candidates := []string{
		"../../../shared/data/movielens-100k/u.data",
		"../../shared/data/movielens-100k/u.data",
	}
	for _, c := range candidates {
		if _, err := os.Stat(c); err == nil {
			path = c
			break
		}
	}
	if path == "" {
		t.Skipf("MovieLens 100K u.data not found at %q", candidates)
	}
	stdout, _ := runOK(t, "run", "-data", path, "-limit", "2000", "-json", "-quiet")
	recs := jsonLines(t, stdout)
	if len(recs) != 1 {
		t.Fatalf("got %d JSON lines, want 1", len(recs))
	}
	rec := recs[0]
	checkKeys(t, rec, append(slices.Clone(commonKeys), regressionKeys...), classificationKeys)
	if rec["rows"] != 2000.0 || rec["task"] != "regression" || rec["data"] != "u.data" {
		t.Errorf("rows %v, task %v, data %v; want 2000, regression, u.data", rec["rows"], rec["task"], rec["data"])
	}
	// Ratings are 1..5, so any sane predictor has RMSE below 5.
	if rmse := rec["rmse"].(float64); !(rmse > 0 && rmse < 5) {
		t.Errorf("rmse = %v, want in (0, 5)", rmse)
	}
}

// sharedData returns the path of a file in the shared data folder beside
// the repository, or skips the test.
func sharedData(t *testing.T, rel string) string {
	t.Helper()
	p := "../../../shared/data/" + rel
	if _, err := os.Stat(p); err != nil {
		t.Skipf("shared data not present (%v): this test needs %s", err, rel)
	}
	return p
}

// TestRunGzipIdentical: the same file given plain and gzipped yields
// identical metrics. IJCNN1 ships gzipped; the test writes a plain copy to
// a temporary folder.
func TestRunGzipIdentical(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skipping a full IJCNN1 pass")
	}
	gzPath := sharedData(t, "ijcnn1/ijcnn1.gz")
	f, err := os.Open(gzPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	plain := filepath.Join(t.TempDir(), "ijcnn1")
	out, err := os.Create(plain)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, zr); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	var recs []map[string]any
	for _, p := range []string{gzPath, plain} {
		stdout, _ := runOK(t, "run", "-data", p, "-shuffle", "1", "-json", "-quiet")
		recs = append(recs, jsonLines(t, stdout)[0])
	}
	for _, k := range []string{"task", "rows", "features", "avg_loss", "error_rate", "auc", "logloss"} {
		if recs[0][k] != recs[1][k] {
			t.Errorf("%s: gzipped %v, plain %v", k, recs[0][k], recs[1][k])
		}
	}
	if recs[0]["task"] != "classification" || recs[0]["rows"] != 49990.0 {
		t.Errorf("task %v, rows %v; want classification, 49990", recs[0]["task"], recs[0]["rows"])
	}
}

// TestRunRegret checks -regret's JSON: checkpoints with the documented
// keys, ordered, with lo ≤ hi and the last one at the end of the stream.
func TestRunRegret(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 300; i++ {
		fmt.Fprintf(&b, "%d\t%d\t%d\t%d\n", 1+i%17, 1+(i*7)%23, 1+(i*i)%5, 881250949+i)
	}
	path := writeTemp(t, "u.data", b.String())
	stdout, _ := runOK(t, "run", "-data", path, "-regret", "-regret-first", "20", "-regret-growth", "2", "-json", "-quiet")
	rec := jsonLines(t, stdout)[0]
	pts, ok := rec["regret"].([]any)
	if !ok || len(pts) < 4 {
		t.Fatalf("regret = %v, want a list of checkpoints", rec["regret"])
	}
	prevT := 0.0
	for _, p := range pts {
		m := p.(map[string]any)
		for _, k := range []string{"t", "cum_loss", "comparator_loss", "regret_lo", "regret_hi", "gap", "bound"} {
			if _, ok := m[k]; !ok {
				t.Fatalf("checkpoint %v lacks %q", m, k)
			}
		}
		if m["t"].(float64) <= prevT || m["regret_lo"].(float64) > m["regret_hi"].(float64)+1e-9 {
			t.Errorf("checkpoint %v: out of order or lo > hi", m)
		}
		prevT = m["t"].(float64)
	}
	if prevT != 300 {
		t.Errorf("last checkpoint at t = %v, want 300 (the end of the stream)", prevT)
	}
	if _, ok := rec["regret_slope"]; !ok {
		t.Error("no regret_slope")
	}
}

// TestRunStdin: -data - reads standard input, plain or gzip, with the
// format sniffed from its lines, and names it "stdin" in messages; it
// learns the same rows as the file.
func TestRunStdin(t *testing.T) {
	text := "1 1:0.5 2:1\n-1 2:1 3:0.25\n1 1:1\n-1 3:1\n"
	path := filepath.Join(t.TempDir(), "small.svm")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	fromFile, _ := runOK(t, "run", "-data", path, "-learner", "occfm", "-json", "-quiet")
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(text))
	zw.Close()
	defer func(in io.Reader) { stdin = in }(stdin)
	for name, in := range map[string][]byte{"plain": []byte(text), "gzip": gz.Bytes()} {
		stdin = bytes.NewReader(in)
		out, _ := runOK(t, "run", "-data", "-", "-learner", "occfm", "-json", "-quiet")
		var a, b map[string]any
		if err := json.Unmarshal([]byte(fromFile), &a); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(out), &b); err != nil {
			t.Fatal(err)
		}
		if b["data"] != "stdin" || b["rows"] != a["rows"] || b["avg_loss"] != a["avg_loss"] || b["error_rate"] != a["error_rate"] {
			t.Errorf("%s: stdin gives %v rows, avg loss %v, data %v; the file %v, %v", name, b["rows"], b["avg_loss"], b["data"], a["rows"], a["avg_loss"])
		}
	}
	stdin = strings.NewReader("1 1:x\n")
	var out, errOut bytes.Buffer
	if err := run([]string{"run", "-data", "-", "-quiet"}, &out, &errOut); err == nil || !strings.Contains(err.Error(), "stdin:1:") {
		t.Errorf("a bad row on stdin: %v, want it named stdin:1", err)
	}
}

// TestRunWarnsSortedLabels: a file sorted by label is named as such in the
// report (text and JSON), with -shuffle as the way out; shuffled, it is not.
func TestRunWarnsSortedLabels(t *testing.T) {
	var b strings.Builder
	for _, part := range []struct{ y, n int }{{-1, 740}, {1, 1479}, {-1, 4000}} {
		for i := range part.n {
			fmt.Fprintf(&b, "%d 1:%d 2:1\n", part.y, i%7)
		}
	}
	path := filepath.Join(t.TempDir(), "sorted.svm")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	text, _ := runOK(t, "run", "-data", path, "-learner", "bias", "-quiet")
	if !strings.Contains(text, "in sorted.svm the labels arrive in long runs: they change 2 times in 6,219 rows") || !strings.Contains(text, "(-shuffle 1)") {
		t.Errorf("no warning of the sorted labels in\n%s", text)
	}
	out, _ := runOK(t, "run", "-data", path, "-learner", "bias", "-quiet", "-json")
	if !strings.Contains(out, `"warnings":["in sorted.svm the labels arrive in long runs`) {
		t.Errorf("no warning in the JSON: %s", out)
	}
	if shuffled, _ := runOK(t, "run", "-data", path, "-learner", "bias", "-quiet", "-shuffle", "1"); strings.Contains(shuffled, "long runs") {
		t.Errorf("shuffled, the report still warns:\n%s", shuffled)
	}
}

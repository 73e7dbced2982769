package main

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/occfm/occfm/core"
	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/demo"
)

// modelData returns the lines of a MovieLens u.data file of n ratings and
// of a LibSVM classification file of n rows (planted-classification demo),
// both seeded.
func modelData(t *testing.T, n int) map[string][]string {
	r := rand.New(rand.NewPCG(3, 4))
	var ml []string
	for i := range n {
		u, it := 1+r.IntN(40), 1+r.IntN(60)
		ml = append(ml, fmt.Sprintf("%d\t%d\t%d\t%d\n", u, it, 1+(u*it+r.IntN(2))%5, 880000000+i))
	}
	d, _ := demo.ByName("planted-classification")
	src := d.New(5)
	var svm []string
	var ex data.Example
	for range n {
		if err := src.Next(&ex); err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		fmt.Fprintf(&b, "%v", ex.Y)
		for k, j := range ex.X.Ind {
			fmt.Fprintf(&b, " %d:%v", j+1, ex.X.Val[k])
		}
		svm = append(svm, b.String()+"\n")
	}
	return map[string][]string{"u.data": ml, "planted.svm": svm}
}

// TestRunSaveLoadContinue runs every learner over the first half of a
// file with -save, then with -load over the second half and -save again,
// and checks that the final model file is byte for byte the one a single
// run over the whole file saves, and that the continued run's metrics are
// those of the second half's rows in a single run (computed here with core).
func TestRunSaveLoadContinue(t *testing.T) {
	n := 1200
	if testing.Short() {
		n = 500
	}
	for file, lines := range modelData(t, n) {
		dir := t.TempDir()
		write := func(name string, lines []string) string {
			p := filepath.Join(dir, name)
			if err := os.WriteFile(p, []byte(strings.Join(lines, "")), 0o644); err != nil {
				t.Fatal(err)
			}
			return p
		}
		whole := write(file, lines)
		first := write("first-"+file, lines[:n/2])
		second := write("second-"+file, lines[n/2:])
		for _, spec := range core.Learners() {
			t.Run(file+"/"+spec.Name, func(t *testing.T) {
				a, b1, b2 := filepath.Join(dir, spec.Name+"-a"), filepath.Join(dir, spec.Name+"-b1"), filepath.Join(dir, spec.Name+"-b2")
				runOK(t, "run", "-data", whole, "-learner", spec.Name, "-quiet", "-save", a)
				runOK(t, "run", "-data", first, "-learner", spec.Name, "-quiet", "-save", b1)
				out, _ := runOK(t, "run", "-data", second, "-load", b1, "-quiet", "-json", "-save", b2)
				wantFile, _ := os.ReadFile(a)
				gotFile, _ := os.ReadFile(b2)
				if len(wantFile) == 0 || !bytes.Equal(gotFile, wantFile) {
					t.Fatalf("the continued model (%d bytes) differs from the single run's (%d bytes)", len(gotFile), len(wantFile))
				}
				m, err := loadModelFile(b2, 0)
				if err != nil || m.Rows != n {
					t.Fatalf("loaded %d rows (%v), want %d", m.Rows, err, n)
				}

				// The second half's metrics in one uninterrupted run.
				f, _ := os.Open(whole)
				defer f.Close()
				s, err := data.NewStream(f, data.ReaderSettings{})
				if err != nil {
					t.Fatal(err)
				}
				task := m.Config.Task
				// As occfm run: guarded, and clipped on ratings (-clip auto).
				l, _ := core.NewGuarded(spec.Name, core.Config{Task: task}, core.GuardSettings{Clip: s.Format() == data.FormatMovieLens})
				met := core.NewMetrics(task, core.TaskLoss(task))
				var ex data.Example
				for i := 0; s.Next(&ex) == nil; i++ {
					ex.Y, _ = task.Label(ex.Y)
					if i < n/2 {
						core.Play(l, ex, nil)
					} else {
						core.Play(l, ex, met)
					}
				}
				rec := jsonLines(t, out)[0]
				sum := met.Summary()
				if rec["rows"].(float64) != float64(n-n/2) || rec["learner"] != spec.Name || rec["task"] != task.String() {
					t.Fatalf("continued run: %v", rec)
				}
				if got := rec["avg_loss"]; got != sum.AvgLoss && !(got == nil && math.IsNaN(sum.AvgLoss)) {
					t.Errorf("continued avg_loss %v, the single run's second half %v", got, sum.AvgLoss)
				}
			})
		}
	}
}

// TestRunModelErrors checks the CLI's refusals: a file that is not a
// model, a damaged model, flags that conflict with the loaded model,
// -save with several learners; and that a failed run leaves an existing
// -save file as it was, except a run stopped by a malformed row, which
// saves the rows it learned before it.
func TestRunModelErrors(t *testing.T) {
	lines := modelData(t, 300)["u.data"]
	data := writeTemp(t, "u.data", strings.Join(lines, ""))
	dir := filepath.Dir(data)
	good := filepath.Join(dir, "good.occfm")
	runOK(t, "run", "-data", data, "-quiet", "-save", good, "-learner", "occfm")
	goodBytes, _ := os.ReadFile(good)
	truncated := filepath.Join(dir, "truncated.occfm")
	os.WriteFile(truncated, goodBytes[:len(goodBytes)/2], 0o644)
	flipped := filepath.Join(dir, "flipped.occfm")
	bad := bytes.Clone(goodBytes)
	bad[len(bad)/2] ^= 1
	os.WriteFile(flipped, bad, 0o644)
	newer := filepath.Join(dir, "newer.occfm")
	bad = bytes.Clone(goodBytes)
	bad[10] = 9
	os.WriteFile(newer, bad, 0o644)
	badData := writeTemp(t, "bad.data", strings.Join(lines[:100], "")+"1\t2\tx\t4\n")

	for _, tc := range []struct {
		name  string
		args  []string
		msg   string
		usage bool
	}{
		{"foreign", []string{"-load", data}, data + " is not an OCCFM model file", false},
		{"truncated", []string{"-load", truncated}, "truncated", false},
		{"corrupt", []string{"-load", flipped}, "corrupt model file: checksum mismatch", false},
		{"newer", []string{"-load", newer}, "written by a newer OCCFM (model format 9, this build reads up to 1)", false},
		{"missing", []string{"-load", filepath.Join(dir, "none.occfm")}, "none.occfm", false},
		{"conflict", []string{"-load", good, "-learner", "fm-ftrl", "-delta", "3", "-eta", "0"},
			"-learner fm-ftrl (the model has occfm), -delta 3 (the model has 0): drop these flags", true},
		{"two learners", []string{"-learner", "occfm,mean"}, "-save saves one learner, but -learner lists 2", true},
		{"regret", []string{"-load", good, "-regret"}, "-regret cannot continue a loaded model", true},
		{"bad data", []string{"-data", badData}, "bad.data:101", false}, // saves 100 rows
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"run", "-data", data, "-quiet", "-save", good}, tc.args...)
			err := run(args, new(bytes.Buffer), new(bytes.Buffer))
			if err == nil || !strings.Contains(err.Error(), tc.msg) {
				t.Fatalf("error %v, want one containing %q", err, tc.msg)
			}
			if errors.As(err, new(usageError)) != tc.usage {
				t.Errorf("usage error: %v, want %v", !tc.usage, tc.usage)
			}
			if tc.name == "bad data" {
				m, err := loadModelFile(good, 0)
				if err != nil || m.Rows != 100 {
					t.Errorf("a run stopped at line 101 saved %d rows (%v), want the 100 before it", m.Rows, err)
				}
				os.WriteFile(good, goodBytes, 0o644)
				return
			}
			if now, _ := os.ReadFile(good); !bytes.Equal(now, goodBytes) {
				t.Error("a failed run changed the -save file")
			}
		})
	}
	// The same values as the model's are not conflicts.
	runOK(t, "run", "-data", data, "-quiet", "-load", good, "-learner", "occfm", "-task", "regression", "-format", "movielens")
	// A save into a missing directory fails and leaves nothing behind.
	if err := run([]string{"run", "-data", data, "-quiet", "-save", filepath.Join(dir, "no", "m.occfm")},
		new(bytes.Buffer), new(bytes.Buffer)); err == nil || !strings.Contains(err.Error(), "-save") {
		t.Errorf("save into a missing directory: %v", err)
	}
	if tmp, _ := filepath.Glob(filepath.Join(dir, ".*.tmp")); len(tmp) > 0 {
		t.Errorf("temporary files left: %v", tmp)
	}
}

// TestRunSaveOntoData: -save onto the data file, by its name, another
// spelling of it, a symbolic link or a hard link, is a usage error before
// anything is read, and the data file is left as it was.
func TestRunSaveOntoData(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "r.svm")
	content := []byte("1 1:1 2:1\n-1 1:1 3:1\n1 2:1\n")
	if err := os.WriteFile(data, content, 0o644); err != nil {
		t.Fatal(err)
	}
	sym := filepath.Join(dir, "sym.svm")
	hard := filepath.Join(dir, "hard.svm")
	if err := os.Symlink(data, sym); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	if err := os.Link(data, hard); err != nil {
		t.Skip("no hard links here:", err)
	}
	for _, save := range []string{data, filepath.Join(dir, ".", "r.svm"), sym, hard} {
		var stdout, stderr bytes.Buffer
		err := run([]string{"run", "-data", data, "-save", save, "-quiet"}, &stdout, &stderr)
		if !errors.As(err, new(usageError)) || !strings.Contains(err.Error(), "is the data file") {
			t.Errorf("-save %s: %v, want a usage error", save, err)
		}
		if got, _ := os.ReadFile(data); !bytes.Equal(got, content) {
			t.Fatalf("-save %s changed the data file", save)
		}
	}
	// Saving next to it is fine.
	runOK(t, "run", "-data", data, "-save", filepath.Join(dir, "m.occfm"), "-quiet")
}

// TestRunAllSkipped: a classification model continued on a regression file
// under -on-error skip skips every row; the run says it learned nothing and
// fails, instead of exiting 0 with figures of 0.
func TestRunAllSkipped(t *testing.T) {
	dir := t.TempDir()
	cls := filepath.Join(dir, "c.svm")
	reg := filepath.Join(dir, "r.svm")
	model := filepath.Join(dir, "m.occfm")
	os.WriteFile(cls, []byte("1 1:1 2:1\n-1 1:1 3:1\n1 2:1\n-1 3:1\n"), 0o644)
	os.WriteFile(reg, []byte("3.5 1:1 2:1\n2.5 1:1 3:1\n4 2:1\n"), 0o644)
	runOK(t, "run", "-data", cls, "-save", model, "-quiet", "-learner", "occfm")
	var stdout, stderr bytes.Buffer
	err := run([]string{"run", "-data", reg, "-load", model, "-on-error", "skip", "-quiet"}, &stdout, &stderr)
	if err == nil || !strings.Contains(err.Error(), "no row was learned: all 3 rows read were skipped as malformed") ||
		!strings.Contains(err.Error(), "learns the classification task") {
		t.Fatalf("error %v", err)
	}
	if strings.Contains(stdout.String(), "0.0000") || !strings.Contains(stdout.String(), "occfm    –") {
		t.Errorf("figures of no rows:\n%s", stdout.String())
	}
}

// TestRunMaxMemory: -max-memory stops a run whose model and dictionaries
// pass what it leaves to the run, with the budget's message naming the
// flag, after reporting (and learning) the rows before; junk and sizes
// below 64 MiB are usage errors; 0 is no limit.
func TestRunMaxMemory(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "r.data")
	var b strings.Builder
	long := strings.Repeat("x", 1000) // 25 MB of user IDs
	for i := range 25000 {
		fmt.Fprintf(&b, "%d%s\t%d\t%d\t881250949\n", 1+i, long, 1+i%3000, 1+i%5)
	}
	os.WriteFile(data, []byte(b.String()), 0o644)
	var stdout, stderr bytes.Buffer
	err := run([]string{"run", "-data", data, "-learner", "occfm", "-max-memory", "64M", "-json", "-quiet"}, &stdout, &stderr)
	if err == nil || !strings.Contains(err.Error(), "over the 24 MiB that -max-memory 64 MiB leaves to the run; raise -max-memory") {
		t.Fatalf("error %v", err)
	}
	for _, small := range []string{"1M", "63M"} {
		err := run([]string{"run", "-data", data, "-max-memory", small}, &stdout, &stderr)
		if !errors.As(err, new(usageError)) || !strings.Contains(err.Error(), "-max-memory "+small+": want at least 64 MiB") {
			t.Errorf("-max-memory %s: %v, want a usage error", small, err)
		}
	}
	rec := jsonLines(t, stdout.String())[0]
	if rows, _ := rec["rows"].(float64); rows <= 0 || rows >= 20000 || rec["stopped"] == nil {
		t.Errorf("rows %v, stopped %v", rec["rows"], rec["stopped"])
	}
	if err := run([]string{"run", "-data", data, "-max-memory", "lots"}, &stdout, &stderr); !errors.As(err, new(usageError)) {
		t.Errorf("-max-memory lots: %v, want a usage error", err)
	}
	runOK(t, "run", "-data", data, "-learner", "occfm", "-max-memory", "0", "-quiet")
}

// TestLoadErrorsNameFileAndCause: a model error names the file and the
// real cause: a damaged guard section by its name in the file, a CSV model
// continued on LibSVM rows by what it was learned on, a flipped byte of the
// format version as a damaged header rather than a newer OCCFM.
func TestLoadErrorsNameFileAndCause(t *testing.T) {
	dir := t.TempDir()
	ratings := writeTemp(t, "r.csv", "user_id,item_id,rating\n1,10,4\n2,11,3\n1,11,5\n3,10,2\n")
	model := filepath.Join(dir, "m.occfm")
	runOK(t, "run", "-data", ratings, "-learner", "occfm", "-save", model, "-quiet")
	file, err := os.ReadFile(model)
	if err != nil {
		t.Fatal(err)
	}

	m, err := core.LoadModel(bytes.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	m.Extra = map[string][]byte{"guard": {1, 2, 3}}
	var buf bytes.Buffer
	if err := core.SaveModel(&buf, m); err != nil {
		t.Fatal(err)
	}
	badGuard := filepath.Join(dir, "guard.occfm")
	os.WriteFile(badGuard, buf.Bytes(), 0o644)

	flipped := append([]byte(nil), file...)
	flipped[11] ^= 0xff
	badVersion := filepath.Join(dir, "version.occfm")
	os.WriteFile(badVersion, flipped, 0o644)

	libsvm := writeTemp(t, "x.svm", "1 1:1\n-1 2:1\n")
	for _, tc := range []struct {
		name, data, load string
		want             []string
	}{
		{"guard section", ratings, badGuard, []string{badGuard + ": ", `section "extra:guard"`}},
		{"CSV model on LibSVM", libsvm, model, []string{"x.svm", `learned on a CSV file with the columns ["user_id" "item_id" "rating"]`, "-load " + model}},
		{"flipped version byte", ratings, badVersion, []string{badVersion + ": ", "header is damaged"}},
	} {
		var out, errOut bytes.Buffer
		err := run([]string{"run", "-data", tc.data, "-load", tc.load, "-quiet"}, &out, &errOut)
		for _, w := range tc.want {
			if err == nil || !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %v, want it to say %q", tc.name, err, w)
			}
		}
	}
}

// TestMaxMemoryBoundsTheProcess: -max-memory M is a bound on the process:
// the Go runtime's memory limit is M − 24 MiB, the run's parts may keep
// M − 24 MiB − M/4, and two parts make their estimates a bound: room for
// the largest learner's arrays to grow (4/5 of it) and the live heap the
// collector finds beyond the other estimates.
func TestMaxMemoryBoundsTheProcess(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	file := filepath.Join(t.TempDir(), "r.data")
	os.WriteFile(file, []byte("1\t1\t5\t881250949\n2\t2\t3\t881250950\n"), 0o644)
	runOK(t, "run", "-data", file, "-max-memory", "100M", "-quiet")
	if got, want := debug.SetMemoryLimit(-1), int64(100<<20-runtimeFloor); got != want {
		t.Errorf("-max-memory 100M: Go's memory limit %d, want %d", got, want)
	}
	runOK(t, "run", "-data", file, "-max-memory", "0", "-quiet")
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("-max-memory 0: Go's memory limit %d, want none", got)
	}
	if got := partsBudget(512 << 20).Limit; got != 360<<20 {
		t.Errorf("the parts' budget under 512M: %s, want 360 MiB", core.FormatBytes(got))
	}

	l, _ := core.NewLearner("linear", core.Config{})
	l.Update(data.Sparse{Ind: []int{99_999}, Val: []float64{1}}, 1)
	if room, held := growthRoom([]*core.Player{{Learner: l}}).MemoryBytes(), l.(core.Sized).MemoryBytes(); room != held/5*4 || held < 1<<20 {
		t.Errorf("room to grow %d for a linear learner of %d bytes, want 4/5 of it", room, held)
	}

	h := newHeapRest(nil)
	kept := make([]byte, 64<<20)
	runtime.GC()
	if got := h.MemoryBytes(); got < int64(len(kept)) {
		t.Errorf("the rest of the heap: %s with 64 MiB held, want at least that", core.FormatBytes(got))
	}
	runtime.KeepAlive(kept)
}

package data_test

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/occfm/occfm/core"
	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/internal/coretest"
)

// addSeeds adds every file of testdata/reader and of the repository's
// testdata/bad (bad inputs) to the seed corpus of f.
func addSeeds(f *testing.F) {
	var paths []string
	for _, dir := range []string{filepath.Join("testdata", "reader"), filepath.Join("..", "..", "testdata", "bad")} {
		p, err := filepath.Glob(filepath.Join(dir, "*"))
		if err != nil {
			f.Fatal(err)
		}
		if len(p) == 0 {
			f.Fatalf("no seed files in %s", dir)
		}
		paths = append(paths, p...)
	}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(""))
	f.Add([]byte("\x00\x01binary"))
	f.Add([]byte("1 0:1\n1 2:x\n1 3\n"))
	f.Add([]byte("a,\"b\nc,d\n"))
}

// fuzzLineLimit is small so that fuzzing reaches the long-line path.
const fuzzLineLimit = 256

// outcome is everything a Stream produced, to compare two readings.
type outcome struct {
	newErr    string
	format    data.Format
	layout    string
	examples  []data.Example
	parseErrs []string
	end       string
	names     []string
}

// checkStream reads data with set and checks the reader's contract: no
// panic, either an error prefixed "core: " or examples with finite values,
// indices in [0, Dim()) without repeats, ParseErrors after which reading goes
// on, and a sensible description.
func checkStream(t *testing.T, in []byte, set data.ReaderSettings) outcome {
	// Reading allocates its buffers (bufio, gzip, UTF-16: a few hundred
	// KiB) plus what it keeps per byte read: an allocation bomb (a size
	// taken from the input) fails the fuzzer.
	var o outcome
	coretest.AllocBound(t, 8<<20+256*uint64(len(in)), func() { o = checkStreamIn(t, in, set) })
	return o
}

func checkStreamIn(t *testing.T, in []byte, set data.ReaderSettings) outcome {
	var o outcome
	s, err := data.NewStreamLimit(bytes.NewReader(in), set, fuzzLineLimit)
	if err != nil {
		if s != nil {
			t.Fatal("NewStream returned both a Stream and an error")
		}
		if !strings.HasPrefix(err.Error(), "core: ") {
			t.Fatalf("error %q lacks the core: prefix", err)
		}
		o.newErr = err.Error()
		return o
	}
	o.format, o.layout = s.Format(), s.Layout()
	if o.layout == "" {
		t.Fatal("empty Layout")
	}
	if set.Format != "" && set.Format != data.FormatAuto && o.format != set.Format {
		t.Fatalf("format %s, want the forced %s", o.format, set.Format)
	}
	if o.format == data.FormatCSV {
		labels := 0
		for _, c := range s.Columns() {
			if c.Role == data.RoleGuess || c.Role > data.RoleIgnore {
				t.Fatalf("column %q has role %d", c.Name, c.Role)
			}
			if c.Role == data.RoleLabel {
				labels++
			}
		}
		if labels != 1 {
			t.Fatalf("%d label columns", labels)
		}
	}
	exs, perrs, end := readAll(t, s)
	for _, msg := range perrs {
		if !strings.HasPrefix(msg, "core: ") {
			t.Fatalf("parse error %q lacks the core: prefix", msg)
		}
	}
	if end != nil {
		if !strings.HasPrefix(end.Error(), "core: ") {
			t.Fatalf("error %q lacks the core: prefix", end)
		}
		var e data.Example
		if err := s.Next(&e); err != end {
			t.Fatalf("error not sticky: %v then %v", end, err)
		}
		o.end = end.Error()
	} else {
		var e data.Example
		if err := s.Next(&e); !errors.Is(err, io.EOF) {
			t.Fatalf("Next after io.EOF = %v", err)
		}
	}
	o.examples, o.parseErrs = exs, perrs
	checkSkip(t, in, set, o)
	// LibSVM indices can make Dim huge ("1 2000000000:1"): name a few.
	for i := range min(s.Dim(), 1000) {
		o.names = append(o.names, s.FeatureName(i))
	}
	if s.Dim() > 0 {
		o.names = append(o.names, s.FeatureName(s.Dim()-1))
	}
	return o
}

func sameOutcome(a, b outcome) bool {
	if a.newErr != b.newErr || a.format != b.format || a.layout != b.layout || a.end != b.end ||
		strings.Join(a.parseErrs, "\n") != strings.Join(b.parseErrs, "\n") ||
		strings.Join(a.names, "\n") != strings.Join(b.names, "\n") || len(a.examples) != len(b.examples) {
		return false
	}
	for k := range a.examples {
		if !sameExample(a.examples[k], b.examples[k]) {
			return false
		}
	}
	return true
}

func FuzzLibSVM(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, in []byte) {
		checkStream(t, in, data.ReaderSettings{Format: data.FormatLibSVM})
	})
}

func FuzzMovieLens(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, in []byte) {
		checkStream(t, in, data.ReaderSettings{Format: data.FormatMovieLens})
	})
}

func FuzzCSV(f *testing.F) {
	addSeeds(f)
	f.Add([]byte("x,y,z\n1,2,3\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		checkStream(t, in, data.ReaderSettings{Format: data.FormatCSV})
		checkStream(t, in, data.ReaderSettings{Format: data.FormatCSV, Roles: map[string]data.Role{"x": data.RoleLabel, "y": data.RoleCategorical}})
	})
}

// FuzzStream sniffs the format, and checks that the gzip-compressed input
// reads the same.
func FuzzStream(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, in []byte) {
		plain := checkStream(t, in, data.ReaderSettings{})
		checkLearners(t, plain.examples)
		if bytes.HasPrefix(in, []byte{0x1f, 0x8b}) {
			return // already gzip: compressing it again changes what is read
		}
		zipped := checkStream(t, gzipBytes(t, in), data.ReaderSettings{})
		if !sameOutcome(plain, zipped) {
			t.Fatalf("plain and gzip readings differ:\n%+v\n%+v", plain, zipped)
		}
	})
}

// checkSkip reads data again through a BadRows that skips, mapping the
// labels to a binary task as the command line and the page do: it skips
// exactly the malformed rows and the labels outside {−1, 0, 1}, and keeps
// the first reasons in order.
func checkSkip(t *testing.T, in []byte, set data.ReaderSettings, o outcome) {
	s, err := data.NewStreamLimit(bytes.NewReader(in), set, fuzzLineLimit)
	if err != nil {
		t.Fatalf("NewStream failed on a second reading: %v", err)
	}
	bad := &data.BadRows{Policy: data.Skip}
	rows, badLabels := 0, 0
	var ex data.Example
	for {
		err := s.Next(&ex)
		if bad.Skip(err) {
			continue
		}
		if err != nil {
			break
		}
		if _, err := bad.Label(data.Classification, s.Name(), s.Line(), ex.Y); bad.Skip(err) {
			badLabels++
			continue
		} else if err != nil {
			t.Fatalf("Label: %v under Skip", err)
		}
		rows++
	}
	if bad.Skipped != len(o.parseErrs)+badLabels || rows+badLabels != len(o.examples) {
		t.Fatalf("skip: %d rows, %d skipped (%d labels); a plain reading has %d examples and %d parse errors",
			rows, bad.Skipped, badLabels, len(o.examples), len(o.parseErrs))
	}
	for i, e := range bad.First {
		if i < len(o.parseErrs) && badLabels == 0 && e.Error() != o.parseErrs[i] {
			t.Fatalf("skip: reason %d = %q, want %q", i, e.Error(), o.parseErrs[i])
		}
	}
	if len(bad.First) != min(bad.Skipped, data.MaxReasons) {
		t.Fatalf("skip: %d reasons kept of %d", len(bad.First), bad.Skipped)
	}
}

// fuzzLearners are the learners FuzzStream plays the rows through: those
// whose memory once followed the largest feature index or grew with a
// row's nonzeros squared.
var fuzzLearners = []string{"occfm", "fm-ftrl", "cfm-ftrl", "ccfm-ogd", "bias"}

// checkLearners plays the first rows read through each of fuzzLearners,
// guarded as in the CLI and the page: a row of the reader must never make
// a learner allocate more than a bound proportional to the input (what a
// huge index or a dense row used to do), whatever its values.
func checkLearners(t *testing.T, rows []data.Example) {
	rows = rows[:min(len(rows), 50)]
	nnz := 0
	for _, ex := range rows {
		nnz += len(ex.X.Ind)
	}
	for _, name := range fuzzLearners {
		g, err := core.NewGuarded(name, core.Config{Task: data.Regression}, core.GuardSettings{})
		if err != nil {
			t.Fatal(err)
		}
		coretest.AllocBound(t, 32<<20+uint64(nnz)*uint64(nnz)*512, func() {
			for _, ex := range rows {
				core.Play(g, ex, nil)
			}
		})
		if got := g.MemoryBytes(); got > 64<<20 {
			t.Fatalf("%s holds %s after %d rows", name, core.FormatBytes(got), len(rows))
		}
	}
}

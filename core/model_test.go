package core

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"hash/crc32"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/demo"
	"gonum.org/v1/gonum/floats/scalar"
)

// demoRows returns the first n rows of the named demo for seed 7, in new
// memory.
func demoRowsOf(t testing.TB, name string, n int) []data.Example {
	d, ok := demo.ByName(name)
	if !ok {
		t.Fatalf("no demo %q", name)
	}
	src := d.New(7)
	out := make([]data.Example, n)
	for i := range out {
		var ex data.Example
		if err := src.Next(&ex); err != nil {
			t.Fatal(err)
		}
		out[i] = ex
	}
	return out
}

func saveBytes(t testing.TB, m Model) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := SaveModel(&buf, m); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func loadBytes(t testing.TB, b []byte) Model {
	t.Helper()
	m, err := LoadModel(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// resumeCases are the streams every learner is resumed on: the planted
// demos of both tasks, and the sparse, MovieLens-like ratings demo (one-hot
// users and items, 800 features).
var resumeCases = []struct {
	demo string
	task data.Task
}{
	{"planted-regression", data.Regression},
	{"planted-classification", data.Classification},
	{"ratings", data.Regression},
}

// TestModelResume checks, for every registered learner on every stream of
// resumeCases, that saving after n rows, loading, and continuing gives the
// same predictions, bit for bit, as a learner that never stopped; the
// continued copy is itself saved and reloaded every 97 rows, so many
// states in between are covered (mid-interval, just after a refresh, …).
// It also checks that saving the loaded learner gives the same bytes, and
// that saving does not change the learner saved.
func TestModelResume(t *testing.T) {
	t.Parallel()
	n, m := 700, 600
	if testing.Short() {
		n, m = 300, 250
	}
	for _, rc := range resumeCases {
		rows := demoRowsOf(t, rc.demo, n+m)
		for _, spec := range Learners() {
			t.Run(spec.Name+"/"+rc.demo, func(t *testing.T) {
				cfg := Config{Task: rc.task}
				saved, never := spec.New(cfg), spec.New(cfg)
				for _, ex := range rows[:n] {
					Play(saved, ex, nil)
					Play(never, ex, nil)
				}
				file := saveBytes(t, Model{Config: cfg, Learner: saved, Rows: n})
				loaded := loadBytes(t, file)
				if loaded.Name != spec.Name || loaded.Rows != n || loaded.Config.Task != rc.task {
					t.Fatalf("loaded %q after %d rows, task %v", loaded.Name, loaded.Rows, loaded.Config.Task)
				}
				if again := saveBytes(t, loaded); !bytes.Equal(again, file) {
					t.Fatalf("saving the loaded model gives other bytes (%d vs %d)", len(again), len(file))
				}
				resumed := loaded.Learner
				for i, ex := range rows[n:] {
					if i > 0 && i%97 == 0 {
						resumed = loadBytes(t, saveBytes(t, Model{Learner: resumed})).Learner
					}
					want := Play(never, ex, nil)
					if got := Play(resumed, ex, nil); math.Float64bits(got) != math.Float64bits(want) {
						t.Fatalf("row %d after resuming: ŷ = %v, never stopped %v", i, got, want)
					}
					if got := Play(saved, ex, nil); math.Float64bits(got) != math.Float64bits(want) {
						t.Fatalf("row %d: the saved learner predicts %v, never saved %v", i, got, want)
					}
				}
				a, b := saveBytes(t, Model{Learner: resumed}), saveBytes(t, Model{Learner: never})
				if !bytes.Equal(a, b) {
					t.Fatal("the resumed learner's final state differs from the one that never stopped")
				}
			})
		}
	}
}

// TestModelResumeOCCFMRefreshes resumes OCCFM long enough, and at enough
// points, that the saved states include the Lanczos subspace, the
// certificate and the guard's interval between refreshes, on the sparse
// ratings stream with both LMO methods and without self-interactions.
func TestModelResumeOCCFMRefreshes(t *testing.T) {
	rows := demoRowsOf(t, "ratings", 3000)
	if testing.Short() {
		rows = rows[:1200]
	}
	for _, s := range []OCCFMSettings{
		{},
		{LMO: LMOLanczos},
		{NoSelfInteractions: true, GradientSum: ThroughPrevious, Gamma: Harmonic},
	} {
		never, resumed := NewOCCFM(s), Learner(NewOCCFM(s))
		for i, ex := range rows {
			if i%250 == 125 {
				resumed = loadBytes(t, saveBytes(t, Model{Learner: resumed})).Learner
			}
			want, got := Play(never, ex, nil), Play(resumed, ex, nil)
			if math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("%+v: row %d: ŷ = %v resumed, %v never stopped", s, i, got, want)
			}
		}
		refreshes, _, _ := never.LMOStats()
		if refreshes < 3 {
			t.Errorf("%+v: only %d Lanczos refreshes: the test does not cover them", s, refreshes)
		}
	}
}

// TestModelOCCFMKCutLog checks a file of an older OCCFMK whose rows of S
// and Y had yet to take the rotations of cuts (testdata/model-log, rank 4
// on the ratings demo, saved with 3 cuts in its log): it loads, every row
// takes its rotations then, and it predicts the next 300 rows as the build
// that wrote it did (its predictions in the .json beside it), within
// rounding (that build brought rows forward by products of several cuts at
// once). Saved again, it has no log and resumes bit for bit.
func TestModelOCCFMKCutLog(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "model-log", "occfm-k-cut-log.occfm"))
	if err != nil {
		t.Fatal(err)
	}
	j, err := os.ReadFile(filepath.Join("testdata", "model-log", "occfm-k-cut-log.json"))
	if err != nil {
		t.Fatal(err)
	}
	var want struct {
		Rows        int
		Predictions []float64
	}
	if err := json.Unmarshal(j, &want); err != nil {
		t.Fatal(err)
	}
	m := loadBytes(t, b)
	if m.Rows != want.Rows || len(want.Predictions) != 300 {
		t.Fatalf("the file says %d rows, its %d predictions follow %d", m.Rows, len(want.Predictions), want.Rows)
	}
	rows := demoRowsOf(t, "ratings", want.Rows+len(want.Predictions))[want.Rows:]
	for i, ex := range rows {
		if got := m.Learner.Predict(ex.X); !scalar.EqualWithinAbsOrRel(got, want.Predictions[i], 1e-12, 1e-12) {
			t.Fatalf("row %d after loading: ŷ = %v, the writing build's %v", i, got, want.Predictions[i])
		}
	}
	again := loadBytes(t, saveBytes(t, m)).Learner
	for i, ex := range rows {
		if g, w := Play(again, ex, nil), Play(m.Learner, ex, nil); math.Float64bits(g) != math.Float64bits(w) {
			t.Fatalf("row %d: ŷ = %v saved again and loaded, %v", i, g, w)
		}
	}
}

// TestModelVocabulary checks that a MovieLens or CSV stream started with
// the vocabulary of another numbers the values the same, and new values
// after them.
func TestModelVocabulary(t *testing.T) {
	for _, tc := range []struct {
		name, first, second string
	}{
		{"movielens", "1\t10\t5\t1\n2\t20\t3\t2\n1\t30\t4\t3\n", "3\t20\t1\t4\n2\t10\t2\t5\n"},
		{"csv", "city,age,label\nParis,30,1\nRome,90,0\n", "city,age,label\nOslo,60,1\nParis,30,0\n"},
		{"libsvm", "1 3:1 7:2\n-1 2:1\n", "1 1:1\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rest := tc.second
			if tc.name == "csv" { // without its header
				rest = rest[strings.Index(rest, "\n")+1:]
			}
			whole := readVocab(t, tc.first+rest, nil, tc.name == "libsvm")
			s, err := data.NewStream(strings.NewReader(tc.first), data.ReaderSettings{})
			if err != nil {
				t.Fatal(err)
			}
			var first []data.Example
			for {
				var ex data.Example
				if s.Next(&ex) != nil {
					break
				}
				first = append(first, ex)
			}
			v := s.Vocabulary()
			second := readVocab(t, tc.second, &v, tc.name == "libsvm")
			got := append(first, second...)
			if len(got) != len(whole) {
				t.Fatalf("%d rows, want %d", len(got), len(whole))
			}
			for i := range got {
				if !equalSparse(got[i].X, whole[i].X) || got[i].Y != whole[i].Y {
					t.Errorf("row %d: %+v, reading the whole file %+v", i, got[i], whole[i])
				}
			}
		})
	}
	// A vocabulary of another format is refused.
	s, _ := data.NewStream(strings.NewReader("1\t10\t5\t1\n"), data.ReaderSettings{})
	v := s.Vocabulary()
	_, err := data.NewStream(strings.NewReader("a,b\n1,2\n"), data.ReaderSettings{Vocabulary: &v})
	if err == nil || !strings.Contains(err.Error(), "movielens file, this one is csv") {
		t.Errorf("a MovieLens vocabulary on a CSV: %v", err)
	}
}

func readVocab(t *testing.T, text string, v *data.Vocabulary, libsvm bool) []data.Example {
	t.Helper()
	set := data.ReaderSettings{Vocabulary: v}
	if libsvm {
		set.Format = data.FormatLibSVM
	}
	s, err := data.NewStream(strings.NewReader(text), set)
	if err != nil {
		t.Fatal(err)
	}
	var out []data.Example
	for {
		var ex data.Example
		if err := s.Next(&ex); err != nil {
			break
		}
		out = append(out, ex)
	}
	return out
}

func equalSparse(a, b data.Sparse) bool {
	if len(a.Ind) != len(b.Ind) {
		return false
	}
	for i := range a.Ind {
		if a.Ind[i] != b.Ind[i] || a.Val[i] != b.Val[i] {
			return false
		}
	}
	return true
}

// smallModel returns the file of a small OCCFM model with a vocabulary and
// an extra section.
func smallModel(t testing.TB) []byte {
	rows := demoRowsOf(t, "ratings", 60)
	l := NewOCCFM(OCCFMSettings{})
	for _, ex := range rows {
		Play(l, ex, nil)
	}
	v := &data.Vocabulary{Format: data.FormatLibSVM, Dim: 800}
	return saveBytes(t, Model{Learner: l, Rows: 60, Vocabulary: v, Extra: map[string][]byte{"guard": []byte("state")}})
}

// reseal fixes the size and the checksum of a model file whose body was
// edited.
func reseal(b []byte) []byte {
	b = bytes.Clone(b)
	if len(b) < modelHeaderLen+modelCRCLen {
		return b
	}
	binary.LittleEndian.PutUint64(b[len(modelMagic)+2:], uint64(len(b)))
	binary.LittleEndian.PutUint32(b[len(b)-4:], crc32.Checksum(b[:len(b)-4], modelCRC))
	return b
}

// TestLoadModelRejects checks that every damaged or foreign file is
// refused with an error that says why, and a zero Model.
func TestLoadModelRejects(t *testing.T) {
	good := smallModel(t)
	m := loadBytes(t, good)
	if string(m.Extra["guard"]) != "state" || m.Vocabulary == nil || m.Vocabulary.Dim != 800 {
		t.Fatalf("round trip lost the extra section or the vocabulary: %+v", m)
	}
	reject := func(name string, b []byte, kind error, msg string) {
		t.Helper()
		m, err := LoadModel(bytes.NewReader(b))
		if err == nil {
			t.Fatalf("%s: accepted", name)
		}
		if !errors.Is(err, kind) || !strings.Contains(err.Error(), msg) || !strings.HasPrefix(err.Error(), "core: ") {
			t.Fatalf("%s: error %q, want %v containing %q", name, err, kind, msg)
		}
		if m.Learner != nil || m.Name != "" || m.Extra != nil || m.Vocabulary != nil {
			t.Fatalf("%s: a non-zero Model with the error", name)
		}
	}
	for cut := 1; cut < len(good); cut += 1 + cut/64 {
		reject("truncated", good[:cut], ErrModelCorrupt, "truncated")
	}
	for i := 0; i < len(good); i += 1 + i/256 {
		b := bytes.Clone(good)
		b[i] ^= 0x20
		_, err := LoadModel(bytes.NewReader(b))
		if err == nil {
			t.Fatalf("byte %d flipped: accepted", i)
		}
	}
	for i := modelHeaderLen; i < len(good)-4; i += 1 + i/128 {
		b := bytes.Clone(good)
		b[i] ^= 0x01
		reject("flipped", b, ErrModelCorrupt, "checksum mismatch")
	}
	reject("foreign", []byte("user\titem\trating\n1\t2\t3\n"), ErrNotModel, "not an OCCFM model file")
	reject("empty", nil, ErrNotModel, "not an OCCFM model file")
	newer := bytes.Clone(good)
	binary.LittleEndian.PutUint16(newer[len(modelMagic):], ModelFormat+1)
	reject("newer", newer, ErrModelVersion, "written by a newer OCCFM (model format 2, this build reads up to 1)")
	reject("appended", append(bytes.Clone(good), 0), ErrModelCorrupt, "1 bytes after the end")

	// Files with a valid checksum but bad content.
	file := func(sections ...string) []byte {
		b := append([]byte(modelMagic), 1, 0, 0, 0, 0, 0, 0, 0, 0, 0)
		for i := 0; i < len(sections); i += 2 {
			c := &stateCodec{buf: b}
			body := []byte(sections[i+1])
			c.string(&sections[i])
			c.bytes(&body)
			b = c.buf
		}
		return reseal(append(b, 0, 0, 0, 0))
	}
	head := func(name string) string {
		c := &stateCodec{}
		rows := 3
		var cf Config
		c.string(&name)
		c.int(&rows)
		c.config(&cf)
		return string(c.buf)
	}
	reject("unknown learner", file("model", head("sgd")), ErrModelCorrupt, `unknown learner "sgd"`)
	reject("no learner", file("model", head("mean")), ErrModelCorrupt, `no "learner" section`)
	mean := &stateCodec{}
	NewMean(MeanSettings{}).stateCode(mean)
	reject("unknown section", file("model", head("mean"), "learner", string(mean.buf), "other", ""),
		ErrModelCorrupt, `section "other" out of order`)
	reject("swapped", file("learner", string(mean.buf), "model", head("mean")), ErrModelCorrupt, `section "learner" out of order`)
	reject("empty extra name", file("model", head("mean"), "learner", string(mean.buf), "extra:", ""),
		ErrModelCorrupt, `unknown section "extra:"`)
	if err := SaveModel(io.Discard, Model{Learner: NewMean(MeanSettings{}), Vocabulary: &data.Vocabulary{Format: "xml"}}); err == nil {
		t.Error("saved a bad vocabulary")
	}
	b := NewBias(BiasSettings{})
	Play(b, data.Example{X: data.Sparse{Ind: []int{2}, Val: []float64{1}}, Y: 1}, nil)
	b.n = b.n[:1]
	reject("inconsistent", saveBytes(t, Model{Learner: b}), ErrModelCorrupt, "3 biases with 1 counts")
	o := NewOCCFM(OCCFMSettings{})
	o.s.Delta = -1
	reject("bad settings", saveBytes(t, Model{Learner: o}), ErrModelCorrupt, "invalid settings")
}

// TestSaveModelErrors checks SaveModel's own errors: a learner that is not
// registered, and a name that does not match the learner.
func TestSaveModelErrors(t *testing.T) {
	var buf bytes.Buffer
	type other struct{ Learner }
	if err := SaveModel(&buf, Model{Learner: other{NewMean(MeanSettings{})}}); err == nil {
		t.Error("saved an unregistered learner")
	}
	if err := SaveModel(&buf, Model{Name: "occfm", Learner: NewMean(MeanSettings{})}); err == nil ||
		!strings.Contains(err.Error(), `named "occfm" but its learner is a mean`) {
		t.Errorf("a misnamed model: %v", err)
	}
	if buf.Len() != 0 {
		t.Error("a failed save wrote bytes")
	}
}

// TestModelResumeMovieLens100K saves OCCFM halfway through MovieLens-100K
// (shuffled, as the runs of docs/algorithms.md), loads it and checks that the second
// half's predictions are bit-identical to never stopping. It skips when
// ../shared/data is absent, and in -short mode.
func TestModelResumeMovieLens100K(t *testing.T) {
	if testing.Short() {
		t.Skip("plays ML-100K twice")
	}
	rows := shuffledRows(t, "movielens-100k/u.data", data.Regression, 1)
	never := NewOCCFM(OCCFMSettings{})
	for _, ex := range rows[:len(rows)/2] {
		Play(never, ex, nil)
	}
	resumed := loadBytes(t, saveBytes(t, Model{Learner: never})).Learner
	for i, ex := range rows[len(rows)/2:] {
		want, got := Play(never, ex, nil), Play(resumed, ex, nil)
		if math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("row %d of the second half: ŷ = %v resumed, %v never stopped", i, got, want)
		}
	}
}

// BenchmarkModelMovieLens100K measures SaveModel and LoadModel of OCCFM
// after all of MovieLens-100K (shuffled with seed 1), and reports the
// file's size.
func BenchmarkModelMovieLens100K(b *testing.B) {
	rows := shuffledRows(b, "movielens-100k/u.data", data.Regression, 1)
	l := NewOCCFM(OCCFMSettings{})
	for _, ex := range rows {
		Play(l, ex, nil)
	}
	m := Model{Learner: l, Rows: len(rows)}
	file := saveBytes(b, m)
	b.Run("save", func(b *testing.B) {
		for b.Loop() {
			var buf bytes.Buffer
			buf.Grow(len(file))
			if err := SaveModel(&buf, m); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(len(file)), "file-bytes")
	})
	b.Run("load", func(b *testing.B) {
		for b.Loop() {
			loadBytes(b, file)
		}
		b.ReportMetric(float64(len(file)), "file-bytes")
	})
}

package core

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/internal/coretest"
)

var updateModels = flag.Bool("update-models", false, "rewrite the model files of testdata/model")

// seedModels returns one small model file per registered learner (after
// 40 rows of the ratings demo, with its vocabulary-free LibSVM numbering)
// and one CSV vocabulary, by file name.
func seedModels(t testing.TB) map[string][]byte {
	rows := demoRowsOf(t, "planted-classification", 40)
	out := make(map[string][]byte)
	for _, spec := range Learners() {
		cfg := Config{Task: data.Classification}
		l := spec.New(cfg)
		for _, ex := range rows {
			Play(l, ex, nil)
		}
		out[spec.Name+".occfm"] = saveBytes(t, Model{Config: cfg, Learner: l, Rows: len(rows)})
	}
	s, err := data.NewStream(strings.NewReader("city,age,label\nParis,30,1\nRome,90,0\n"), data.ReaderSettings{})
	if err != nil {
		t.Fatal(err)
	}
	var ex data.Example
	for s.Next(&ex) == nil {
	}
	v := s.Vocabulary()
	out["mean-csv.occfm"] = saveBytes(t, Model{Learner: NewMean(MeanSettings{}), Vocabulary: &v,
		Extra: map[string][]byte{"guard": {1, 2, 3}}})
	return out
}

// TestModelFiles checks that every registered learner has a model file in
// testdata/model (NAME.occfm), and that the files there, written by an
// earlier build (go test -run TestModelFiles -update-models rewrites them
// all), still load, and that saving them again gives the same bytes: a
// change of the format or of a learner's encoding that would break old
// files fails here, and so does a new learner without a file.
func TestModelFiles(t *testing.T) {
	dir := filepath.Join("testdata", "model")
	if *updateModels {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for name, b := range seedModels(t) {
			if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, spec := range Learners() {
		if _, err := os.Stat(filepath.Join(dir, spec.Name+".occfm")); err != nil {
			t.Errorf("learner %s has no model file in %s: %v (seedModels makes one: save it there alone, for -update-models rewrites every file)", spec.Name, dir, err)
		}
	}
	paths, err := filepath.Glob(filepath.Join(dir, "*.occfm"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		m, err := LoadModel(bytes.NewReader(b))
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		if again := saveBytes(t, m); !bytes.Equal(again, b) {
			t.Errorf("%s: saving it again gives other bytes", p)
		}
	}
}

// fuzzModelBudget is the memory budget of FuzzLoadModel's loads.
const fuzzModelBudget = 16 << 20

// FuzzLoadModel checks that LoadModel never panics and returns only its
// documented errors, and that a model it accepts saves to the same bytes
// (the encoding is canonical) and, when its checksum was genuine, can be
// played on. Each input is tried as it is and resealed (size and checksum
// fixed), so that the fuzzer reaches the learners' decoders past the
// checksum.
func FuzzLoadModel(f *testing.F) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "model", "*.occfm"))
	if len(paths) == 0 {
		f.Fatal("no seed files in testdata/model")
	}
	old, _ := filepath.Glob(filepath.Join("testdata", "model-log", "*.occfm"))
	paths = append(paths, old...)
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(modelMagic))
	f.Add([]byte("1\t2\t3\t4\n"))
	f.Fuzz(func(t *testing.T, file []byte) {
		for i, b := range [][]byte{file, reseal(file)} {
			// Within a budget of 16 MiB, loading allocates at most a few
			// times that whatever the input (an allocation bomb fails).
			var m Model
			var err error
			coretest.AllocBound(t, 64<<20+64*uint64(len(b)), func() {
				m, err = LoadModelWith(bytes.NewReader(b), LoadSettings{MaxBytes: fuzzModelBudget})
			})
			if err != nil {
				if !strings.HasPrefix(err.Error(), "core: ") ||
					!errors.Is(err, ErrNotModel) && !errors.Is(err, ErrModelVersion) && !errors.Is(err, ErrModelCorrupt) &&
						!errors.Is(err, ErrMemoryBudget) {
					t.Fatalf("error %q", err)
				}
				continue
			}
			if again := saveBytes(t, m); !bytes.Equal(again, b) && !tookCutLog(m.Learner) {
				t.Fatal("an accepted model saves to other bytes")
			}
			if i == 1 {
				// A resealed file holds whatever state the fuzzer made up:
				// LoadModel checks its structure (sizes, indices, finite
				// values), not that it is a state some data could reach,
				// and a made-up state can fail a learner's internal
				// consistency checks later (an eigendecomposition of NaN).
				continue
			}
			x := data.Sparse{Ind: []int{0, 3, 40}, Val: []float64{1, -0.5, 2}}
			for range 3 {
				Play(m.Learner, data.Example{X: x, Y: 1}, nil)
			}
		}
	})
}

// tookCutLog reports whether l, or a learner inside it, is an OCCFMK that
// took an older file's log of cuts at load (see cutLog): its file is not in
// today's form, so it saves to other bytes.
func tookCutLog(l Learner) bool {
	switch x := l.(type) {
	case *OCCFMK:
		return x.tookLog || x.wide != nil && x.wide.tookLog
	case *OCCFMAuto:
		for _, e := range x.experts {
			if e != nil && tookCutLog(e) {
				return true
			}
		}
	}
	return false
}

package main

import (
	"encoding/binary"
	"encoding/json"
	"flag"
	"hash/fnv"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/occfm/occfm/core"
	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/evaluate"
)

var updatePaperPin = flag.Bool("update-paper-pin", false, "rewrite testdata/paper-pin.json from this build")

// paperPinPath is the golden file of TestPaperPinned.
var paperPinPath = filepath.Join("testdata", "paper-pin.json")

// paperPinRows is how many of a data set's rows, in the order loaded,
// the pinned figures are computed on: the quick protocol on whole sets
// takes minutes (OCCFM alone 25 s on IJCNN1), the pin must add under a
// minute to make test.
const paperPinRows = 3000

// paperPinMaxDim bounds the features of a set whose figures are pinned:
// on ML-1M's 9,746 the table's CCFM learners take minutes even on 3,000
// rows (Lanczos over every feature). Its rows and orders are pinned.
const paperPinMaxDim = 5000

// pinnedSet is what TestPaperPinned fixes of one data set of `occfm paper`.
type pinnedSet struct {
	Key  string `json:"key"`
	Rows int    `json:"rows"`
	Dim  int    `json:"dim"`
	// Data is FNV-1a of the rows as loaded (labels and features, in file
	// order after any sampling): the reader and the sampler.
	Data string `json:"data"`
	// Orders is Pass.Order of every pass of the full protocol's first two
	// runs (5 folds × 2 runs, fold-major) at seed 1: the fold split and
	// each permutation.
	Orders []string `json:"orders"`
	// Figures maps a learner of the tables to its progressive and held-out
	// metrics, 4 significant digits, from the quick protocol (1 fold of 5,
	// 1 run, seed 1) on the first paperPinRows rows; none for sets of
	// over paperPinMaxDim features.
	Figures map[string]map[string]string `json:"figures"`
}

// TestPaperPinned pins the protocol and the figures of `occfm paper`: for
// every data set present in ../shared/data, the rows as loaded, the fold
// split and the permutations (Pass.Order), and every table learner's
// figures on a small quick run, against testdata/paper-pin.json. A change
// to any of them fails here; when it is meant, `go test ./cmd/occfm -run
// TestPaperPinned -update-paper-pin` rewrites the file, and the diff shows
// in review with the commit that explains it. Sets whose files are absent
// are skipped with a message (their pins stay in the file).
func TestPaperPinned(t *testing.T) {
	if runtime.GOOS == "js" {
		t.Skip("pinned by the native build (make test-native): under wasm it would add minutes")
	}
	dir := filepath.Join("..", "..", "..", "shared", "data")
	want := map[string]pinnedSet{}
	if b, err := os.ReadFile(paperPinPath); err == nil {
		var sets []pinnedSet
		if err := json.Unmarshal(b, &sets); err != nil {
			t.Fatalf("%s: %v", paperPinPath, err)
		}
		for _, s := range sets {
			want[s.Key] = s
		}
	} else if !*updatePaperPin {
		t.Fatalf("%v (go test ./cmd/occfm -run TestPaperPinned -update-paper-pin writes it)", err)
	}
	var got []pinnedSet
	for _, set := range paperSets {
		if set.Missing != "" {
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, set.Files[0])); err != nil {
			t.Logf("%s: skipped, %v (the pin in %s stays)", set.Key, err, paperPinPath)
			if w, ok := want[set.Key]; ok {
				got = append(got, w)
			}
			continue
		}
		t0 := time.Now()
		p := pinSet(t, dir, set)
		t.Logf("%s: %d rows, %d features, pinned in %v", set.Key, p.Rows, p.Dim, time.Since(t0).Round(time.Millisecond))
		got = append(got, p)
		w, ok := want[set.Key]
		if !ok {
			if !*updatePaperPin {
				t.Errorf("%s: not in %s", set.Key, paperPinPath)
			}
			continue
		}
		comparePin(t, w, p)
	}
	if *updatePaperPin {
		b, err := json.MarshalIndent(got, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(paperPinPath, append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s", paperPinPath)
	}
}

// pinSet loads set as `occfm paper` does and computes its pins.
func pinSet(t *testing.T, dir string, set paperSet) pinnedSet {
	t.Helper()
	rows, dim, err := loadPaperSet(dir, set, 1)
	if err != nil {
		t.Fatal(err)
	}
	p := pinnedSet{Key: set.Key, Rows: len(rows), Dim: dim, Data: hex(rowsHash(rows)), Figures: map[string]map[string]string{}}
	// The orders, from the cheapest learner: they depend on the row count
	// and the seed only.
	mean := func() core.Learner { return core.NewMean(core.MeanSettings{}) }
	for _, pass := range evaluate.Protocol(rows, set.Task, core.TaskLoss(set.Task), mean, evaluate.Settings{Runs: 2, Seed: 1}, nil) {
		p.Orders = append(p.Orders, hex(pass.Order))
	}
	if dim > paperPinMaxDim {
		return p
	}
	small := rows[:min(len(rows), paperPinRows)]
	s := paperSettings{runs: 1, folds: 5, foldsRun: 1, seed: 1}
	for _, pl := range paperLearners {
		if pl.Dense != nil {
			continue
		}
		r := (&paperRun{s: s}).runPaperLearner(small, set, pl)
		if r.Error != "" {
			t.Errorf("%s, %s: %s", set.Key, pl.Name, r.Error)
			continue
		}
		fig := map[string]string{}
		for name, st := range r.Progressive {
			fig[name] = strconv.FormatFloat(st.Mean, 'g', 4, 64)
		}
		for name, st := range r.HeldOut {
			fig["held_out_"+name] = strconv.FormatFloat(st.Mean, 'g', 4, 64)
		}
		p.Figures[pl.Name] = fig
	}
	return p
}

// comparePin reports every difference between the pinned w and got.
func comparePin(t *testing.T, w, got pinnedSet) {
	t.Helper()
	if w.Rows != got.Rows || w.Dim != got.Dim || w.Data != got.Data {
		t.Errorf("%s: the rows as loaded changed: %d rows, %d features, data %s; pinned %d, %d, %s",
			w.Key, got.Rows, got.Dim, got.Data, w.Rows, w.Dim, w.Data)
	}
	if !slices.Equal(w.Orders, got.Orders) {
		t.Errorf("%s: the fold split or a permutation changed: passes %v, pinned %v", w.Key, got.Orders, w.Orders)
	}
	for _, l := range sortedKeys(w.Figures, got.Figures) {
		for _, m := range sortedKeys(w.Figures[l], got.Figures[l]) {
			if a, b := got.Figures[l][m], w.Figures[l][m]; a != b {
				t.Errorf("%s, %s, %s: %q, pinned %q", w.Key, l, m, a, b)
			}
		}
	}
}

// sortedKeys returns the keys of a and b, sorted, once each.
func sortedKeys[V any](a, b map[string]V) []string {
	var ks []string
	for k := range a {
		ks = append(ks, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			ks = append(ks, k)
		}
	}
	slices.Sort(ks)
	return ks
}

// rowsHash returns FNV-1a (64 bits) of the rows: per row its label's bits,
// its nonzeros' count, then each index and value's bits, each a
// little-endian uint64.
func rowsHash(rows []data.Example) uint64 {
	h := fnv.New64a()
	var buf [8]byte
	word := func(v uint64) {
		binary.LittleEndian.PutUint64(buf[:], v)
		h.Write(buf[:])
	}
	for _, ex := range rows {
		word(math.Float64bits(ex.Y))
		word(uint64(len(ex.X.Ind)))
		for k, i := range ex.X.Ind {
			word(uint64(i))
			word(math.Float64bits(ex.X.Val[k]))
		}
	}
	return h.Sum64()
}

func hex(v uint64) string { return strconv.FormatUint(v, 16) }

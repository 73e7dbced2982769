package core

import (
	"bytes"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"testing"

	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/internal/coretest"
)

// conformanceStream returns a seeded stream with growing sparse features for
// the conformance suite: real labels for Regression, ±1 for Classification.
func conformanceStream(task data.Task, rows int) []data.Example {
	return plantedStream(17, 30, rows, task == data.Classification)
}

// TestConformance runs every learner in the registry through the contract
// of Learner and Play, one suite for all (checkConformance): a prediction
// before any update is finite; Predict does not change the learner; Update
// does not change x; the same seed gives identical results; two instances
// share no state (another one learning other rows between each step
// changes nothing); outputs are finite; and the settings it takes (δ, η
// where it takes them, and the seed) survive a model file, which loads to
// a learner that saves to the same bytes and predicts bit for bit as the
// one saved.
func TestConformance(t *testing.T) {
	for _, spec := range Learners() {
		checkConformance(t, spec)
	}
}

// checkConformance runs spec's learner through the contract (see
// TestConformance) for each task.
func checkConformance(t *testing.T, spec Spec) {
	t.Helper()
	for _, task := range []data.Task{data.Regression, data.Classification} {
		t.Run(spec.Name+"/"+task.String(), func(t *testing.T) {
			cfg := Config{Task: task, Seed: 3}
			if spec.Takes&TakesDelta != 0 {
				cfg.Delta = 7
			}
			if spec.Takes&TakesEta != 0 {
				cfg.Eta = 0.3
			}
			stream := conformanceStream(task, 200)
			probe := rand.New(rand.NewPCG(5, 6))
			if y := spec.New(cfg).Predict(stream[0].X); math.IsNaN(y) || math.IsInf(y, 0) {
				t.Fatalf("Predict before any Update returned %v", y)
			}

			// Reference run: plain predict-then-update.
			ref := spec.New(cfg)
			var want []float64
			for _, ex := range stream {
				want = append(want, Play(ref, ex, nil))
			}

			// Same seed, with extra Predict calls on random vectors between
			// rounds (Predict must not change the state), another instance
			// learning the stream backwards between them (no shared
			// state), and checks that Update leaves x untouched.
			l, other := spec.New(cfg), spec.New(cfg)
			for i, ex := range stream {
				back := stream[len(stream)-1-i]
				Play(other, back, nil)
				for range 3 {
					x := randomSparse(probe, 40, 3, false) // includes unseen features
					if y := l.Predict(x); math.IsNaN(y) || math.IsInf(y, 0) {
						t.Fatalf("row %d: Predict returned %v", i, y)
					}
				}
				x := ex.X.Clone()
				got := l.Predict(ex.X)
				l.Update(ex.X, ex.Y)
				if !slices.Equal(x.Ind, ex.X.Ind) || !slices.Equal(x.Val, ex.X.Val) {
					t.Fatalf("row %d: Update changed x", i)
				}
				if got != want[i] {
					t.Fatalf("row %d: ŷ = %v, reference run gave %v (Predict changed state, or the learner is not deterministic)", i, got, want[i])
				}
				if math.IsNaN(got) || math.IsInf(got, 0) {
					t.Fatalf("row %d: ŷ = %v", i, got)
				}
			}

			// The settings and the state through a model file.
			file := saveBytes(t, Model{Config: cfg, Learner: l, Rows: len(stream)})
			m := loadBytes(t, file)
			if m.Name != spec.Name || m.Config != cfg {
				t.Fatalf("a model file of %s with %+v loads as %s with %+v", spec.Name, cfg, m.Name, m.Config)
			}
			if again := saveBytes(t, m); !bytes.Equal(again, file) {
				t.Fatal("the loaded learner saves to other bytes")
			}
			for k := range 20 {
				x := randomSparse(probe, 40, 3, false)
				if a, b := m.Learner.Predict(x), l.Predict(x); math.Float64bits(a) != math.Float64bits(b) {
					t.Fatalf("probe %d: the loaded learner predicts %v, the saved one %v", k, a, b)
				}
			}
		})
	}
}

func TestNewLearnerUnknown(t *testing.T) {
	if _, err := NewLearner("no-such-learner", Config{}); err == nil {
		t.Error("NewLearner accepted an unknown name")
	}
}

// shuffledRows reads a data file under ../shared/data (or skips the test
// when it is absent), maps its labels to task's form and shuffles the rows
// as the CLI's -shuffle does: Fisher-Yates with PCG(seed, seed).
func shuffledRows(t testing.TB, rel string, task data.Task, seed uint64) []data.Example {
	t.Helper()
	f, err := os.Open(coretest.DataPath(t, rel))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows := readRows(t, f, rel, task)
	rand.New(rand.NewPCG(seed, seed)).Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
	return rows
}

// readRows reads the rows of r (named name) as the CLI does, the format
// sniffed and the features numbered as they first appear, with the labels
// in task's form.
func readRows(t testing.TB, r io.Reader, name string, task data.Task) []data.Example {
	t.Helper()
	st, err := data.NewStream(r, data.ReaderSettings{Name: name})
	if err != nil {
		t.Fatal(err)
	}
	var rows []data.Example
	var ex data.Example
	for st.Next(&ex) == nil {
		y, err := task.Label(ex.Y)
		if err != nil {
			t.Fatal(err)
		}
		ex.Y = y
		rows = append(rows, ex.Clone())
	}
	return rows
}

// runFile plays OCCFM over a shuffled data file and returns its summary.
func runFile(t *testing.T, rel string, task data.Task, seed uint64, cfg Config) Summary {
	t.Helper()
	cfg.Task = task
	l, err := NewLearner("occfm", cfg)
	if err != nil {
		t.Fatal(err)
	}
	m := NewMetrics(task, TaskLoss(task))
	for _, ex := range shuffledRows(t, rel, task, seed) {
		Play(l, ex, m)
	}
	return m.Summary()
}

// TestOCCFMMovieLens100K pins OCCFM's figure on MovieLens-100K: with
// default settings, one shuffled pass over ML-100K has progressive
// RMSE ≤ 1.045 (measured 1.0401, 1.0404, 1.0403 for seeds 1–3).
func TestOCCFMMovieLens100K(t *testing.T) {
	if testing.Short() {
		t.Skip("a full ML-100K pass; skipped with -short")
	}
	for _, seed := range []uint64{1, 2} {
		s := runFile(t, "movielens-100k/u.data", data.Regression, seed, Config{})
		t.Logf("seed %d: rows %d, progressive RMSE %.4f, MAE %.4f", seed, s.Rows, s.RMSE, s.MAE)
		if s.Rows != 100000 || s.RMSE > 1.045 {
			t.Errorf("seed %d: rows %d, RMSE %.4f, want 100000 rows and RMSE ≤ 1.045", seed, s.Rows, s.RMSE)
		}
	}
}

// TestOCCFMIJCNN1 checks the logistic-loss path on IJCNN1 (9.7% positive):
// the error rate must beat the majority class and AUC must be well above
// chance (measured with defaults, seed 1: error 0.0937, AUC 0.899).
func TestOCCFMIJCNN1(t *testing.T) {
	if testing.Short() {
		t.Skip("a full IJCNN1 pass; skipped with -short")
	}
	s := runFile(t, "ijcnn1/ijcnn1.gz", data.Classification, 1, Config{})
	t.Logf("rows %d, error rate %.4f, AUC %.4f, logloss %.4f", s.Rows, s.ErrorRate, s.AUC, s.LogLoss)
	if s.ErrorRate >= 0.097 || s.AUC < 0.85 || s.LogLoss >= math.Log(2) {
		t.Errorf("error rate %.4f (majority 0.097), AUC %.4f, logloss %.4f: not learning", s.ErrorRate, s.AUC, s.LogLoss)
	}
}

package core

import (
	"bytes"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/internal/coretest"
)

// scaleFreeRows is how many rows of each set TestScaleFree plays: enough for
// every learner to learn past its first rows, few enough for the slowest
// (cfm-ftrl and ccfm-ftrl on a9a's 123 features) to keep the test near 15 s.
const scaleFreeRows = 1000

// TestScaleFree is the registry's conformance test for numbers in any
// units: a9a (0/1 features), IJCNN1 (features in [−1, 1]) and the planted
// regression demo (one-hot fields and real features in [−1, 1)), each
// written as a LibSVM file and as a CSV file, with each feature multiplied
// by its own factor 10^U(−3, 4) (fixed seed), played in file order and
// shuffled: every learner of the registry, guarded as the CLI, the page and
// the library guard it, errs within 1 point (RMSE within 5 % for
// regression) of the same learner on the same rows unscaled, read the same
// way, and no guard ever steps in (no divergence, reset, pause or refused
// row). With GuardSettings.Unscaled (the rows as they are) every learner
// but mean fails it on every set.
func TestScaleFree(t *testing.T) {
	t.Parallel()
	n := scaleFreeRows
	if testing.Short() {
		n = 300 // the planted demo only: -short skips the real data sets
	}
	type set struct {
		name string
		rows []data.Example
		task data.Task
	}
	sets := []set{{name: "planted-regression", task: data.Regression}}
	sets[0].rows, _ = firstDemoRows(t, "planted-regression", 3, n)
	for _, f := range []string{"a9a/a9a", "ijcnn1/ijcnn1.gz"} {
		if testing.Short() {
			break
		}
		if _, err := os.Stat(filepath.Join(coretest.SharedDir(), f)); err != nil {
			t.Logf("%s skipped: ../shared/data is absent (%v)", f, err)
			continue
		}
		rows := shuffledRows(t, f, data.Classification, 0)
		sets = append(sets, set{name: f, rows: rows[:n], task: data.Classification})
	}
	for _, s := range sets {
		factors := scaleFactors(s.rows, 11)
		for _, format := range []string{"libsvm", "csv"} {
			plain := readRows(t, bytes.NewReader(writeRows(s.rows, nil, format)), "plain", s.task)
			scaled := readRows(t, bytes.NewReader(writeRows(s.rows, factors, format)), "scaled", s.task)
			for _, shuffle := range []uint64{0, 1} {
				a, b := plain, scaled
				if shuffle != 0 {
					a, b = shuffleCopy(a, shuffle), shuffleCopy(b, shuffle)
				}
				for _, spec := range Learners() {
					name := s.name + "/" + format + "/shuffle" + strconv.FormatUint(shuffle, 10) + "/" + spec.Name
					t.Run(name, func(t *testing.T) {
						base, _ := playGuarded(t, spec.Name, s.task, a)
						got, rep := playGuarded(t, spec.Name, s.task, b)
						if rep.Divergences+rep.Resets+rep.Refused > 0 || rep.Paused {
							t.Errorf("features scaled: guard report %+v", rep)
						}
						if s.task == data.Regression {
							if got > 1.05*base {
								t.Errorf("RMSE %.4f with the features scaled, %.4f without", got, base)
							}
						} else if got > base+0.01 {
							t.Errorf("error %.2f %% with the features scaled, %.2f %% without", 100*got, 100*base)
						}
					})
				}
			}
		}
	}
}

// scaleFactors draws a factor 10^U(−3, 4) for each feature of rows.
func scaleFactors(rows []data.Example, seed uint64) map[int]float64 {
	rng := rand.New(rand.NewPCG(seed, 58))
	f := map[int]float64{}
	for _, ex := range rows {
		for _, i := range ex.X.Ind {
			if _, ok := f[i]; !ok {
				f[i] = math.Pow(10, -3+7*rng.Float64())
			}
		}
	}
	return f
}

// writeRows writes rows as a LibSVM or CSV file (features f1, f2, … in the
// CSV, a column for each feature, empty where absent), each feature i
// multiplied by factors[i] when factors is not nil.
func writeRows(rows []data.Example, factors map[int]float64, format string) []byte {
	dim := 0
	for _, ex := range rows {
		for _, i := range ex.X.Ind {
			dim = max(dim, i+1)
		}
	}
	val := func(i int, v float64) float64 {
		if factors == nil {
			return v
		}
		return v * factors[i]
	}
	var b []byte
	if format == "libsvm" {
		for _, ex := range rows {
			var sx data.Sparse
			for k, i := range ex.X.Ind {
				sx.Ind = append(sx.Ind, i)
				sx.Val = append(sx.Val, val(i, ex.X.Val[k]))
			}
			b = data.AppendLibSVM(b, data.Example{X: sx, Y: ex.Y})
		}
		return b
	}
	b = append(b, "label"...)
	for i := range dim {
		b = append(b, ",f"...)
		b = strconv.AppendInt(b, int64(i+1), 10)
	}
	b = append(b, '\n')
	cells := make([]float64, dim)
	has := make([]bool, dim)
	for _, ex := range rows {
		clear(has)
		for k, i := range ex.X.Ind {
			cells[i], has[i] = val(i, ex.X.Val[k]), true
		}
		b = strconv.AppendFloat(b, ex.Y, 'g', -1, 64)
		for i := range dim {
			b = append(b, ',')
			if has[i] {
				b = strconv.AppendFloat(b, cells[i], 'g', -1, 64)
			}
		}
		b = append(b, '\n')
	}
	return b
}

// shuffleCopy returns rows in the order the CLI's -shuffle seed plays them.
func shuffleCopy(rows []data.Example, seed uint64) []data.Example {
	out := append([]data.Example(nil), rows...)
	data.ShuffleOrder(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] }, seed)
	return out
}

// playGuarded plays rows through the named learner, guarded at the
// defaults, and returns its progressive error rate (classification) or
// RMSE (regression) and the guard's report.
func playGuarded(t *testing.T, name string, task data.Task, rows []data.Example) (float64, GuardReport) {
	t.Helper()
	g, err := NewGuarded(name, Config{Task: task}, GuardSettings{})
	if err != nil {
		t.Fatal(err)
	}
	m := NewMetrics(task, TaskLoss(task))
	for _, ex := range rows {
		Play(g, ex, m)
	}
	s := m.Summary()
	if task == data.Regression {
		return s.RMSE, g.Report()
	}
	return s.ErrorRate, g.Report()
}

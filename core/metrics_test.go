package core_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/occfm/occfm/core"
	"github.com/occfm/occfm/core/data"
	"gonum.org/v1/gonum/floats/scalar"
)

// row is one (ŷ, y) pair fed to Metrics.Add.
type row struct{ yhat, y float64 }

func addAll(m *core.Metrics, rows []row) {
	for _, r := range rows {
		m.Add(r.yhat, r.y)
	}
}

func TestMetricsRegression(t *testing.T) {
	for _, tc := range []struct {
		name string
		rows []row
		want core.Summary
	}{
		{
			name: "empty",
			want: core.Summary{},
		},
		{
			// One residual of 0.5: RMSE = MAE = 0.5, squared loss 0.25.
			name: "one row",
			rows: []row{{1.5, 1}},
			want: core.Summary{Rows: 1, AvgLoss: 0.25, RMSE: 0.5, MAE: 0.5},
		},
		{
			// Residuals 2, −1, 0, −2: squares 4+1+0+4 = 9, mean 2.25,
			// RMSE √2.25 = 1.5; absolute values 2+1+0+2 = 5, MAE 1.25.
			name: "four rows",
			rows: []row{{3, 1}, {0, 1}, {2, 2}, {-1, 1}},
			want: core.Summary{Rows: 4, AvgLoss: 2.25, RMSE: 1.5, MAE: 1.25},
		},
		{
			// Residuals 0.1, −0.3: squares 0.01+0.09 = 0.1, mean 0.05,
			// RMSE √0.05; MAE (0.1+0.3)/2 = 0.2.
			name: "fractions",
			rows: []row{{4.1, 4}, {2.7, 3}},
			want: core.Summary{Rows: 2, AvgLoss: 0.05, RMSE: math.Sqrt(0.05), MAE: 0.2},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := core.NewMetrics(data.Regression, core.Squared)
			addAll(m, tc.rows)
			checkSummary(t, m.Summary(), tc.want)
		})
	}
}

func TestMetricsZeroValueIsRegression(t *testing.T) {
	var m core.Metrics
	addAll(&m, []row{{3, 1}, {0, 1}, {2, 2}, {-1, 1}})
	checkSummary(t, m.Summary(), core.Summary{Rows: 4, AvgLoss: 2.25, RMSE: 1.5, MAE: 1.25})
	if m.Task() != data.Regression || m.Loss() != core.Squared || m.Rows() != 4 {
		t.Errorf("zero Metrics: task %v, loss %v, rows %d; want regression, squared, 4", m.Task(), m.Loss(), m.Rows())
	}
}

func TestMetricsClassification(t *testing.T) {
	// sp(z) = log(1 + eᶻ), the logistic loss at z = −yŷ.
	sp := func(z float64) float64 { return math.Log1p(math.Exp(z)) }
	for _, tc := range []struct {
		name string
		rows []row
		want core.Summary
	}{
		{
			name: "empty",
			want: core.Summary{},
		},
		{
			// ŷ = 0 predicts +1: right for y = +1, wrong for y = −1. Both
			// score 0, so the one positive-negative pair ties: AUC ½.
			// Logloss is log 2 on both rows.
			name: "zero predicts positive",
			rows: []row{{0, 1}, {0, -1}},
			want: core.Summary{Rows: 2, AvgLoss: math.Ln2, ErrorRate: 0.5, AUC: 0.5, LogLoss: math.Ln2},
		},
		{
			// Positives score 2 and −0.5, negatives −1 and 0.5. Of the four
			// positive-negative pairs, (2,−1), (2,0.5), (−0.5,−1) are won and
			// (−0.5,0.5) is lost: AUC 3/4. Rows 3 and 4 are on the wrong side
			// of 0: error rate 1/2.
			name: "four rows",
			rows: []row{{2, 1}, {-1, -1}, {0.5, -1}, {-0.5, 1}},
			want: core.Summary{
				Rows:      4,
				AvgLoss:   (sp(-2) + sp(-1) + sp(0.5) + sp(0.5)) / 4,
				ErrorRate: 0.5,
				AUC:       0.75,
				LogLoss:   (sp(-2) + sp(-1) + sp(0.5) + sp(0.5)) / 4,
			},
		},
		{
			// Every positive above every negative, yet ŷ = −1 for a positive
			// is misclassified: AUC 1 with error rate 1/3.
			name: "ranking perfect, threshold not",
			rows: []row{{-1, 1}, {-3, -1}, {5, 1}},
			want: core.Summary{
				Rows:      3,
				AvgLoss:   (sp(1) + sp(-3) + sp(-5)) / 3,
				ErrorRate: 1.0 / 3,
				AUC:       1,
				LogLoss:   (sp(1) + sp(-3) + sp(-5)) / 3,
			},
		},
		{
			// Scores reverse the classes: AUC 0, every row wrong.
			name: "reversed",
			rows: []row{{-2, 1}, {3, -1}, {1, -1}},
			want: core.Summary{
				Rows:      3,
				AvgLoss:   (sp(2) + sp(3) + sp(1)) / 3,
				ErrorRate: 1,
				AUC:       0,
				LogLoss:   (sp(2) + sp(3) + sp(1)) / 3,
			},
		},
		{
			// One class only: AUC is undefined and reported as 0.5.
			name: "one class",
			rows: []row{{1, 1}, {-1, 1}},
			want: core.Summary{
				Rows:      2,
				AvgLoss:   (sp(-1) + sp(1)) / 2,
				ErrorRate: 0.5,
				AUC:       0.5,
				LogLoss:   (sp(-1) + sp(1)) / 2,
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := core.NewMetrics(data.Classification, core.Logistic)
			addAll(m, tc.rows)
			checkSummary(t, m.Summary(), tc.want)
		})
	}
}

// TestMetricsAvgLossFollowsLoss checks that AvgLoss uses the given loss while
// LogLoss stays logistic: squared loss of ŷ = 0 for y = ±1 is 1.
func TestMetricsAvgLossFollowsLoss(t *testing.T) {
	m := core.NewMetrics(data.Classification, core.Squared)
	addAll(m, []row{{0, 1}, {0, -1}})
	checkSummary(t, m.Summary(), core.Summary{Rows: 2, AvgLoss: 1, ErrorRate: 0.5, AUC: 0.5, LogLoss: math.Ln2})
}

// bruteAUC counts positive-negative pairs in O(n²): a pair is won when the
// positive scores higher and half won when the scores tie.
func bruteAUC(rows []row) float64 {
	var wins float64
	var p, n int
	for _, a := range rows {
		if a.y > 0 {
			p++
		} else {
			n++
		}
	}
	if p == 0 || n == 0 {
		return 0.5
	}
	for _, a := range rows {
		if a.y <= 0 {
			continue
		}
		for _, b := range rows {
			if b.y > 0 {
				continue
			}
			switch {
			case a.yhat > b.yhat:
				wins++
			case a.yhat == b.yhat:
				wins += 0.5
			}
		}
	}
	return wins / (float64(p) * float64(n))
}

// TestMetricsAUCBruteForce compares the sort-based AUC with the pairwise
// count on seeded random streams with many ties (scores on a grid of 9
// values), calling Summary at irregular checkpoints so that the incremental
// merge of new scores into old ones is exercised.
func TestMetricsAUCBruteForce(t *testing.T) {
	for _, n := range []int{1, 2, 3, 10, 57, 300, 1000} {
		for seed := uint64(1); seed <= 3; seed++ {
			r := rand.New(rand.NewPCG(seed, uint64(n)))
			m := core.NewMetrics(data.Classification, core.Logistic)
			var rows []row
			next := 1
			for i := 0; i < n; i++ {
				y := -1.0
				if r.IntN(3) == 0 { // unbalanced classes
					y = 1
				}
				yhat := float64(r.IntN(9)-4) / 2
				if y > 0 {
					yhat += 0.5 // positives score a little higher on average
				}
				rows = append(rows, row{yhat, y})
				m.Add(yhat, y)
				if len(rows) == next || i == n-1 {
					next = 2*next + 1
					got, want := m.Summary().AUC, bruteAUC(rows)
					if !scalar.EqualWithinAbsOrRel(got, want, 1e-12, 1e-12) {
						t.Fatalf("n=%d seed=%d after %d rows: AUC %v, brute force %v", n, seed, len(rows), got, want)
					}
				}
			}
		}
	}
}

// TestMetricsLogLossStable feeds predictions far beyond exp's range:
// log(1 + e⁻¹⁰⁰⁰) rounds to 0, log(1 + e¹⁰⁰⁰) = 1000 to double precision, and
// log(1 + e^1e300) = 1e300. A naive log(1+exp(z)) would give +Inf.
func TestMetricsLogLossStable(t *testing.T) {
	for _, tc := range []struct {
		name string
		rows []row
		want float64
	}{
		{"right side, huge", []row{{1000, 1}, {-1000, -1}}, 0},
		{"wrong side, huge", []row{{-1000, 1}, {1000, -1}}, 1000},
		{"mixed", []row{{1000, 1}, {-1000, 1}}, 500},
		{"beyond exp", []row{{1e300, -1}, {1e300, 1}}, 0.5e300},
		{"tiny margin", []row{{1e-300, 1}}, math.Ln2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := core.NewMetrics(data.Classification, core.Logistic)
			addAll(m, tc.rows)
			s := m.Summary()
			if !scalar.EqualWithinAbsOrRel(s.LogLoss, tc.want, 1e-12, 1e-12) {
				t.Errorf("LogLoss = %v, want %v", s.LogLoss, tc.want)
			}
			if s.AvgLoss != s.LogLoss {
				t.Errorf("AvgLoss = %v, want LogLoss %v under the logistic loss", s.AvgLoss, s.LogLoss)
			}
		})
	}
}

func checkSummary(t *testing.T, got, want core.Summary) {
	t.Helper()
	if got.Rows != want.Rows {
		t.Errorf("Rows = %d, want %d", got.Rows, want.Rows)
	}
	for _, f := range []struct {
		name      string
		got, want float64
	}{
		{"AvgLoss", got.AvgLoss, want.AvgLoss},
		{"RMSE", got.RMSE, want.RMSE},
		{"MAE", got.MAE, want.MAE},
		{"ErrorRate", got.ErrorRate, want.ErrorRate},
		{"AUC", got.AUC, want.AUC},
		{"LogLoss", got.LogLoss, want.LogLoss},
	} {
		if !scalar.EqualWithinAbsOrRel(f.got, f.want, 1e-12, 1e-12) {
			t.Errorf("%s = %v, want %v", f.name, f.got, f.want)
		}
	}
}

func BenchmarkMetricsAdd(b *testing.B) {
	for _, task := range []data.Task{data.Regression, data.Classification} {
		b.Run(task.String(), func(b *testing.B) {
			r := rand.New(rand.NewPCG(1, 2))
			m := core.NewMetrics(task, core.TaskLoss(task))
			for b.Loop() {
				m.Add(r.NormFloat64(), float64(2*r.IntN(2)-1))
			}
		})
	}
}

// BenchmarkMetricsSummary measures a progress-time Summary: n rows already
// merged, 10,000 new ones to sort and merge, then the O(n) AUC walk.
func BenchmarkMetricsSummary(b *testing.B) {
	for _, n := range []int{100_000, 1_000_000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			r := rand.New(rand.NewPCG(1, 2))
			m := core.NewMetrics(data.Classification, core.Logistic)
			for range n {
				m.Add(r.NormFloat64(), float64(2*r.IntN(2)-1))
			}
			m.Summary()
			for b.Loop() {
				b.StopTimer()
				for range 10_000 {
					m.Add(r.NormFloat64(), float64(2*r.IntN(2)-1))
				}
				b.StartTimer()
				m.Summary()
			}
		})
	}
}

func ExampleMetrics() {
	m := core.NewMetrics(data.Regression, core.Squared)
	for _, r := range []struct{ yhat, y float64 }{{3, 1}, {0, 1}, {2, 2}, {-1, 1}} {
		m.Add(r.yhat, r.y)
	}
	s := m.Summary()
	fmt.Printf("rows %d  avg loss %.4g  RMSE %.4g  MAE %.4g\n", s.Rows, s.AvgLoss, s.RMSE, s.MAE)
	// Output:
	// rows 4  avg loss 2.25  RMSE 1.5  MAE 1.25
}

func ExampleMetrics_classification() {
	m := core.NewMetrics(data.Classification, core.Logistic)
	for _, r := range []struct{ yhat, y float64 }{{2, 1}, {-1, -1}, {0.5, -1}, {-0.5, 1}} {
		m.Add(r.yhat, r.y)
	}
	s := m.Summary()
	fmt.Printf("rows %d  error rate %.4g  AUC %.4g  logloss %.4g\n", s.Rows, s.ErrorRate, s.AUC, s.LogLoss)
	// Output:
	// rows 4  error rate 0.5  AUC 0.75  logloss 0.5971
}

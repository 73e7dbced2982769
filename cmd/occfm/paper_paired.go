package main

import (
	"fmt"
	"math"
	"strings"

	"github.com/occfm/occfm/core/evaluate"
	"gonum.org/v1/gonum/stat/distuv"
)

// The paper marks its Table 2 and 3 figures with significance tests at
// p < 0.01: * for OCCFM against every other learner, † for CCFM-FTRL
// against FM-FTRL and CFM-FTRL. occfm paper tests the same pairs on its
// own passes, paired by pass: both learners of a pair stream the same rows
// in the same order and score the same held-out fold.

// pairedClaim is one pair the tests compare: A better than B.
type pairedClaim struct {
	A, B string // registry names
	Mark string // the paper's mark, or "" for a claim of ours
}

var pairedClaims = []pairedClaim{
	{"occfm", "fm-ftrl", "*"}, {"occfm", "cfm-ftrl", "*"}, {"occfm", "ccfm-ogd", "*"},
	{"occfm", "ccfm-pa", "*"}, {"occfm", "ccfm-ftrl", "*"},
	{"ccfm-ftrl", "fm-ftrl", "†"}, {"ccfm-ftrl", "cfm-ftrl", "†"},
	{"occfm-auto", "bias", ""}, {"occfm-auto", "fm-ftrl", ""}, {"occfm-auto", "occfm", ""},
	{"occfm-k", "bias", ""},
}

// pairedTest is the comparison of A and B on one metric over the passes
// both played.
type pairedTest struct {
	N           int     // passes both played
	Mean, Std   float64 // of A − B
	ABetter     int     // passes where A is better
	P           float64 // two-sided p of the paired t-test
	LowerBetter bool
}

// pairTest compares the metric of a and b pass by pass (matched by run
// and fold), on the progressive figures or the held-out ones. Lower is
// better unless the metric is the AUC.
func pairTest(a, b paperResult, metric string, heldOut bool) pairedTest {
	pick := func(p passFigures) map[string]float64 {
		if heldOut {
			return p.HeldOut
		}
		return p.Progressive
	}
	type runFold struct{ run, fold int }
	bs := map[runFold]float64{}
	for _, p := range b.Passes {
		if v, ok := pick(p)[metric]; ok {
			bs[runFold{p.Run, p.Fold}] = v
		}
	}
	t := pairedTest{LowerBetter: metric != "auc"}
	var d []float64
	for _, p := range a.Passes {
		va, ok := pick(p)[metric]
		vb, okb := bs[runFold{p.Run, p.Fold}]
		if !ok || !okb || math.IsNaN(va) || math.IsNaN(vb) {
			continue
		}
		d = append(d, va-vb)
		if t.LowerBetter && va < vb || !t.LowerBetter && va > vb {
			t.ABetter++
		}
	}
	if len(d) == 0 {
		return t
	}
	st := evaluate.MeanStd(d) // d is finite: every difference counts
	t.N, t.Mean, t.Std = st.N, st.Mean, st.Std
	if t.N < 2 {
		t.P = math.NaN()
		return t
	}
	switch se := t.Std / math.Sqrt(float64(t.N)); {
	case se > 0:
		st := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(t.N - 1)}
		t.P = 2 * st.Survival(math.Abs(t.Mean)/se)
	case t.Mean != 0:
		t.P = 0 // every pass differs by the same amount
	default:
		t.P = 1
	}
	return t
}

// fmtP prints a p-value: two significant digits, "< 1e-12" below that.
func fmtP(p float64) string {
	switch {
	case math.IsNaN(p):
		return "–"
	case p < 1e-12:
		return "< 1e-12"
	}
	return fmt.Sprintf("%.2g", p)
}

// writePairedTests writes, for every set that ran and every claim whose two
// learners both ran there, the paired comparison on each metric of the
// set's table, progressive and held-out.
func writePairedTests(b *strings.Builder, rep paperReport) {
	var rows []string
	for _, s := range rep.Sets {
		metrics := []string{"rmse"}
		if s.Table == 3 {
			metrics = []string{"error_rate", "auc"}
		}
		find := func(name string) (paperResult, bool) {
			for _, r := range s.Results {
				if r.Learner == name && !r.Dense && r.Error == "" {
					return r, true
				}
			}
			return paperResult{}, false
		}
		for _, c := range pairedClaims {
			a, okA := find(c.A)
			bb, okB := find(c.B)
			if !okA || !okB {
				continue
			}
			for _, m := range metrics {
				cells := []string{s.Title, strings.TrimSpace(fmt.Sprintf("%s better than %s %s", a.Label, bb.Label, c.Mark)), metricName(m)}
				for _, heldOut := range []bool{false, true} {
					t := pairTest(a, bb, m, heldOut)
					if t.N == 0 {
						cells = append(cells, "–", "–")
						continue
					}
					cells = append(cells, fmt.Sprintf("%+.5f ± %.5f", t.Mean, t.Std),
						fmt.Sprintf("%d of %d, p %s", t.ABetter, t.N, fmtP(t.P)))
				}
				rows = append(rows, "| "+strings.Join(cells, " | ")+" |")
			}
		}
	}
	if len(rows) == 0 {
		return
	}
	b.WriteString("## Paired tests (the paper's * and † at p < 0.01)\n\n" +
		"A − B over the passes both played (the same rows in the same order), mean ± std; the passes where A is better; " +
		"the two-sided p of a paired t-test. The passes are not independent (the permutations of a fold share its rows, " +
		"and the folds' training rows overlap), so p overstates the evidence: the count of passes is the sturdier figure.\n\n")
	b.WriteString("| Data set | claim | metric | progressive A − B | A better | held-out A − B | A better |\n|---|---|---|---:|---:|---:|---:|\n")
	b.WriteString(strings.Join(rows, "\n") + "\n\n")
}

// metricName is a metric's name in the tables.
func metricName(m string) string {
	switch m {
	case "rmse":
		return "RMSE"
	case "error_rate":
		return "error rate"
	case "auc":
		return "AUC"
	}
	return m
}

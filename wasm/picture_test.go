package main

import (
	"math"
	"slices"
	"testing"
	"time"

	"github.com/occfm/occfm/core"
)

// demoSession starts a demo session of the given learners and learns rows
// rows.
func demoSession(t *testing.T, demo string, rows int, learners ...string) *session {
	t.Helper()
	s, err := newSession(config{Source: "demo", Demo: demo, Learners: learners, NoRegret: true})
	if err != nil {
		t.Fatal(err)
	}
	for s.rows < rows && s.state != "error" && s.state != "done" {
		s.step(time.Now().Add(time.Second), rows-s.rows)
	}
	if s.state == "error" {
		t.Fatal(s.err)
	}
	return s
}

// TestPictureDemo checks the model picture on each demo: the whole C, the
// bias last, C's own eigenvalues for the OCCFM family, the nuclear norm
// within δ, and a picture that changes as the demo learns.
func TestPictureDemo(t *testing.T) {
	for _, tc := range []struct {
		demo, learner string
		k             int // coordinates drawn; 0: every feature seen, and the bias
		exact         bool
	}{
		{"planted-regression", "occfm", 41, true},
		{"planted-classification", "occfm", 41, true},
		{"ratings", "occfm", 0, true},
		{"planted-regression", "occfm-auto", 41, true},
		{"ratings", "fm-ftrl", pictureFile + 1, false},
		{"planted-regression", "bias", 41, false},
	} {
		s := demoSession(t, tc.demo, 200, tc.learner)
		p1 := s.picture()
		k := len(p1.Labels)
		if tc.k == 0 {
			tc.k = s.dim() + 1
		}
		if k != tc.k || len(p1.Cells) != k*k || p1.Labels[k-1] != "1 (bias)" {
			t.Fatalf("%s %s: %d labels (last %q), %d cells; want %d", tc.demo, tc.learner, k, p1.Labels[k-1], len(p1.Cells), tc.k)
		}
		if p1.BlockEig == tc.exact && tc.learner != "occfm-auto" { // occfm-auto: whichever expert leads
			t.Errorf("%s %s: eigenvalues of the block = %v", tc.demo, tc.learner, p1.BlockEig)
		}
		if p1.Delta > 0 && p1.Nuclear > p1.Delta*(1+1e-9) {
			t.Errorf("%s %s: ‖C‖* = %v > δ = %v", tc.demo, tc.learner, p1.Nuclear, p1.Delta)
		}
		if tc.learner == "occfm" && p1.Delta != core.NewOCCFM(core.OCCFMSettings{}).Settings().Delta {
			t.Errorf("%s: δ = %v, want the default", tc.demo, p1.Delta)
		}
		var inner, border float64
		for i := 0; i < k; i++ {
			for j := 0; j < k; j++ {
				v := math.Abs(p1.Cells[i*k+j])
				if i == k-1 || j == k-1 {
					border = max(border, v)
				} else {
					inner = max(inner, v)
				}
				if p1.Cells[i*k+j] != p1.Cells[j*k+i] {
					t.Fatalf("%s %s: C not symmetric at %d,%d", tc.demo, tc.learner, i, j)
				}
			}
		}
		if border == 0 {
			t.Errorf("%s %s: |C| at most %v off the bias row and column, 0 on them: want a bias", tc.demo, tc.learner, inner)
		}
		before := slices.Clone(p1.Cells)
		for s.rows < 400 {
			s.step(time.Now().Add(time.Second), 400-s.rows)
		}
		p2 := s.picture()
		if slices.Equal(before, p2.Cells) {
			t.Errorf("%s %s: the picture did not change in 200 rows", tc.demo, tc.learner)
		}
		t.Logf("%s %s: %d×%d in %.2f ms, ‖C‖* = %.3g, rank %d, %s", tc.demo, tc.learner, k, k, p2.Millis, p2.Nuclear, p2.Rank, p2.Note)
	}
}

// TestPictureFile checks a file's picture: its most frequent features,
// ordered by the leading eigenvector of their block.
func TestPictureFile(t *testing.T) {
	s, err := newSession(config{Source: "file", File: "u.data", Learners: []string{"occfm"}, NoRegret: true})
	if err != nil {
		t.Fatal(err)
	}
	runAll(t, s, ratingsText(3000, 4), 1<<12)
	p := s.picture()
	k := len(p.Labels)
	if k != pictureFile+1 || !p.Ordered || p.Whole {
		t.Fatalf("%d labels, ordered %v, whole %v", k, p.Ordered, p.Whole)
	}
	// The most frequent features: no feature outside the picture occurs
	// more often than one inside.
	in := map[string]bool{}
	for _, l := range p.Labels {
		in[l] = true
	}
	var minIn, maxOut uint32 = math.MaxUint32, 0
	for j, c := range s.freq {
		if in[s.featureLabel(j)] {
			minIn = min(minIn, c)
		} else {
			maxOut = max(maxOut, c)
		}
	}
	if maxOut > minIn {
		t.Errorf("a feature seen %d times is left out, one seen %d times drawn", maxOut, minIn)
	}
}

// TestFWStepView checks the step view's record against the mix:
// after = (1 − γ)·before + γ·atom on the coordinates drawn, and the row's
// features among them.
func TestFWStepView(t *testing.T) {
	for _, demo := range []string{"planted-regression", "ratings"} {
		s := demoSession(t, demo, 50, "occfm") // following occfm turns its record on
		for range 5 {
			s.step(time.Now().Add(time.Second), 1)
			sp := s.fwStep()
			if sp.Why != "" {
				t.Fatalf("%s: %s", demo, sp.Why)
			}
			if sp.Step.Round != s.rows {
				t.Fatalf("%s: step of round %d after %d rows", demo, sp.Step.Round, s.rows)
			}
			k := len(sp.Labels)
			if k > stepCoords || len(sp.After) != k*k {
				t.Fatalf("%s: %d coordinates", demo, k)
			}
			for i := range sp.After {
				mix := (1-sp.Step.Gamma)*sp.Before[i] + sp.Step.Gamma*sp.Atom[i]
				if math.Abs(sp.After[i]-mix) > 1e-10*(1+sp.Step.Delta) {
					t.Fatalf("%s: after %v, mix %v", demo, sp.After[i], mix)
				}
			}
			pr := s.latest(0)
			for _, j := range pr.ind[:min(pr.nnz, describeFeatures)] {
				if !slices.Contains(sp.Labels, s.featureLabel(j)) {
					t.Errorf("%s: the row's feature %s is not drawn", demo, s.featureLabel(j))
				}
			}
		}
	}
	s := demoSession(t, "ratings", 20, "bias")
	if sp := s.fwStep(); sp.Why == "" {
		t.Error("bias has a Frank-Wolfe step")
	}
}

// TestPredictionsFollow checks that the latest predictions are the
// followed learner's: racing bias and occfm, following occfm, the table
// holds the ŷ occfm alone gives on the same rows.
func TestPredictionsFollow(t *testing.T) {
	alone := demoSession(t, "ratings", 300, "occfm")
	s, err := newSession(config{Source: "demo", Demo: "ratings", Learners: []string{"bias", "occfm"}, Follow: "occfm", NoRegret: true})
	if err != nil {
		t.Fatal(err)
	}
	for s.rows < 300 {
		s.step(time.Now().Add(time.Second), 300-s.rows)
	}
	for i := range keepPredictions {
		a, b := alone.latest(i), s.latest(i)
		if a.Yhat != b.Yhat || a.Y != b.Y {
			t.Fatalf("latest %d: ŷ %v (y %v) following occfm in a race, %v (y %v) alone", i, b.Yhat, b.Y, a.Yhat, a.Y)
		}
	}
}

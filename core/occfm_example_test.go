package core_test

import (
	"fmt"

	"github.com/occfm/occfm/core"
	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/demo"
)

// Two users rate two items; OCCFM learns the ratings online.
func ExampleNewOCCFM() {
	o := core.NewOCCFM(core.OCCFMSettings{Delta: 10})
	// Features 0–1 are users, 2–3 are items (one-hot).
	rows := []data.Example{
		{X: data.Sparse{Ind: []int{0, 2}, Val: []float64{1, 1}}, Y: 5},
		{X: data.Sparse{Ind: []int{1, 3}, Val: []float64{1, 1}}, Y: 1},
	}
	for range 2000 {
		for _, ex := range rows {
			o.Update(ex.X, ex.Y)
		}
	}
	// Frank-Wolfe iterates move by up to γₜδ = δ/√t per step, so ŷ
	// oscillates around y by about 0.2 here: print it rounded.
	for _, ex := range rows {
		fmt.Printf("y = %.4g, ŷ ≈ %.0f\n", ex.Y, o.Predict(ex.X))
	}
	fmt.Printf("‖C‖* ≤ δ: %v\n", o.NuclearNorm() <= 10*(1+1e-9))
	// Output:
	// y = 5, ŷ ≈ 5
	// y = 1, ŷ ≈ 1
	// ‖C‖* ≤ δ: true
}

// Play runs predict-then-update rounds and records progressive metrics.
func ExamplePlay() {
	l, err := core.NewLearner("occfm", core.Config{Task: data.Regression})
	if err != nil {
		panic(err)
	}
	m := core.NewMetrics(data.Regression, core.Squared)
	x := data.Sparse{Ind: []int{0}, Val: []float64{1}}
	for range 100 {
		core.Play(l, data.Example{X: x, Y: 3}, m)
	}
	s := m.Summary()
	fmt.Printf("rows %d, last ŷ %.3g\n", s.Rows, l.Predict(x))
	// Output:
	// rows 100, last ŷ 3
}

// The registry lists every learner by name.
func ExampleNewLearner() {
	for _, s := range core.Learners() {
		fmt.Println(s.Name)
	}
	l, err := core.NewLearner("occfm", core.Config{Task: data.Classification, Delta: 20})
	if err != nil {
		panic(err)
	}
	fmt.Println(l.(core.Configured).Config().Delta)
	// Output:
	// bias
	// ccfm-ftrl
	// ccfm-ogd
	// ccfm-pa
	// ccfm-pairs
	// cfm-ftrl
	// fm-ftrl
	// item-lift
	// linear
	// mean
	// occfm
	// occfm-auto
	// occfm-k
	// occfm-lin
	// 20
}

// OCCFMAuto needs no δ: it weighs Bias, Linear, all-pairs CCFMPairs, an
// OCCFM with its affine part outside the ball at each δ of a grid and an
// OCCFMK by their losses so far. On planted-regression the interactions
// matter, and after 12,000 rows OCCFMK, which follows the leader of the
// whole stream within its ball, holds nearly all the weight, all-pairs
// CCFMPairs at α = 0.3 the rest; CCFMPairs at α = 3 and δ = 10, far
// behind, are retired, the others are still learning.
func ExampleOCCFMAuto() {
	d, _ := demo.ByName("planted-regression")
	src := d.New(1)
	m := core.NewOCCFMAuto(core.OCCFMAutoSettings{})
	var ex data.Example
	for range 12_000 {
		if err := src.Next(&ex); err != nil {
			panic(err)
		}
		core.Play(m, ex, nil)
	}
	for _, e := range m.Experts() {
		fmt.Printf("%-11s retired %-5v weight %.1f\n", e.Name, e.Retired, e.Weight)
	}
	// Output:
	// bias        retired false weight 0.0
	// linear      retired false weight 0.0
	// pairs α=0.3 retired false weight 0.1
	// pairs α=3   retired true  weight 0.0
	// δ=10        retired true  weight 0.0
	// δ=100       retired false weight 0.0
	// δ=1000      retired false weight 0.0
	// tastes δ=18√n retired false weight 0.9
}

// OCCFMK learns the tastes of the ratings demo (users and items one-hot,
// ratings from 5 latent tastes): its progressive RMSE over the first
// 50,000 rows is well below Bias's, which knows only how generous each user
// is and how good each item is. C stays in the ball.
func ExampleOCCFMK() {
	d, _ := demo.ByName("ratings")
	k := core.NewOCCFMK(core.OCCFMKSettings{})
	b := core.NewBias(core.BiasSettings{})
	mk, mb := core.NewMetrics(data.Regression, core.Squared), core.NewMetrics(data.Regression, core.Squared)
	src := d.New(1)
	var ex data.Example
	for range 50_000 {
		if err := src.Next(&ex); err != nil {
			panic(err)
		}
		core.Play(k, ex, mk)
		core.Play(b, ex, mb)
	}
	fmt.Printf("RMSE occfm-k %.2f, bias %.2f\n", mk.Summary().RMSE, mb.Summary().RMSE)
	fmt.Printf("‖C‖* ≤ δ: %v\n", k.NuclearNorm() <= k.Delta()*(1+1e-9))
	// Output:
	// RMSE occfm-k 0.55, bias 0.67
	// ‖C‖* ≤ δ: true
}

package core_test

import (
	"bytes"
	"fmt"

	"github.com/occfm/occfm/core"
	"github.com/occfm/occfm/core/data"
)

// Save a learner after some rows, load it, and continue: the loaded copy
// predicts exactly what the learner would have predicted had it never
// stopped.
func ExampleSaveModel() {
	rows := []data.Example{
		{X: data.Sparse{Ind: []int{0, 2}, Val: []float64{1, 1}}, Y: 5},
		{X: data.Sparse{Ind: []int{1, 3}, Val: []float64{1, 1}}, Y: 1},
	}
	cfg := core.Config{Task: data.Regression}
	l, _ := core.NewLearner("occfm", cfg)
	for range 100 {
		for _, ex := range rows {
			core.Play(l, ex, nil)
		}
	}
	var file bytes.Buffer
	if err := core.SaveModel(&file, core.Model{Config: cfg, Learner: l, Rows: 200}); err != nil {
		panic(err)
	}
	m, err := core.LoadModel(&file)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%s after %d rows\n", m.Name, m.Rows)
	same := true
	for range 100 {
		for _, ex := range rows {
			same = same && core.Play(m.Learner, ex, nil) == core.Play(l, ex, nil)
		}
	}
	fmt.Println("the same predictions:", same)

	// A file that is not a model is refused.
	_, err = core.LoadModel(bytes.NewReader([]byte("1\t2\t5\n")))
	fmt.Println(err)
	// Output:
	// occfm after 200 rows
	// the same predictions: true
	// core: not an OCCFM model file (it does not start with the OCCFM model signature)
}

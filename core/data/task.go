package data

import (
	"errors"

	"github.com/occfm/occfm/core/internal/str"
)

// Task is the kind of learning problem. The zero value is Regression.
type Task int

const (
	// Regression predicts a real label; metrics are RMSE and MAE.
	Regression Task = iota
	// Classification predicts a label in {−1, +1} by sign(ŷ); metrics are the
	// error rate, AUC of ŷ and the logistic loss.
	Classification
)

// String returns "regression" or "classification".
func (t Task) String() string {
	if t == Classification {
		return "classification"
	}
	return "regression"
}

// ParseTask parses "regression" or "classification".
func ParseTask(s string) (Task, error) {
	switch s {
	case "regression":
		return Regression, nil
	case "classification":
		return Classification, nil
	}
	return 0, errors.New("core: unknown task " + str.Quote(s) + " (want regression or classification)")
}

// Label maps a label as read to the label a learner of task t sees. For
// Regression it returns y. For Classification it maps +1 and 1 to +1, and −1
// and 0 to −1 (so both the ±1 and the 0/1 conventions work); any other value
// is an error, since the task is binary.
func (t Task) Label(y float64) (float64, error) {
	if t == Regression {
		return y, nil
	}
	switch y {
	case 1:
		return 1, nil
	case -1, 0:
		return -1, nil
	}
	return 0, errors.New("label " + str.Ftoa(y) + " is not a binary class (want -1/+1 or 0/1)")
}

// GuessTask guesses the task from a sample of labels as read: Classification
// when every label is in {−1, +1} or every label is in {0, 1} and both
// classes occur, Regression otherwise. An empty sample is Regression.
func GuessTask(labels []float64) Task {
	pm, zo := true, true
	var seen [2]bool // seen[0]: negative class, seen[1]: positive class
	for _, y := range labels {
		switch y {
		case 1:
			seen[1] = true
		case -1:
			seen[0] = true
			zo = false
		case 0:
			seen[0] = true
			pm = false
		default:
			return Regression
		}
	}
	if (pm || zo) && seen[0] && seen[1] {
		return Classification
	}
	return Regression
}

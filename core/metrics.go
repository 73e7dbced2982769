package core

import (
	"cmp"
	"math"
	"slices"
)

// Metrics accumulates progressive metrics (§5.1): each row is scored with
// the prediction made before the learner saw its label, so the averages
// estimate generalization without a held-out set. [Play] records one row per
// round with Add.
//
// For every task Metrics counts rows and averages the loss ℓ(ŷ, y) it was
// given. For Regression it also reports RMSE and MAE. For Classification the
// label is y ∈ {−1, +1} (any y > 0 counts as the positive class) and the
// predicted class is sign(ŷ), with ŷ = 0 counted as +1; Metrics reports the
// error rate, the AUC of ŷ and the logistic loss. The AUC is exact over every
// prediction so far, so a classification Metrics stores each ŷ (16 bytes a
// row).
//
// The zero value is ready to use and records a Regression stream under the
// Squared loss. A Metrics is not safe for concurrent use.
type Metrics struct {
	task Task
	loss Loss

	rows    int
	sumLoss float64 // Σ ℓ(ŷ, y)

	// Regression.
	sumSq  float64 // Σ (ŷ − y)²
	sumAbs float64 // Σ |ŷ − y|

	// Classification.
	pos     int      // rows of the positive class
	errs    int      // rows with sign(ŷ) ≠ y
	sumLog  float64  // Σ log(1 + exp(−yŷ))
	sorted  []scored // scores merged so far, ascending in ŷ
	pending []scored // scores added since the last merge, in arrival order
}

// scored is one classification prediction kept for the AUC.
type scored struct {
	yhat float64
	pos  bool
}

// NewMetrics returns an empty Metrics for task that averages loss. Usually
// loss is task.Loss().
func NewMetrics(task Task, loss Loss) *Metrics {
	return &Metrics{task: task, loss: loss}
}

// Task returns the task m was made for.
func (m *Metrics) Task() Task { return m.task }

// Loss returns the loss m averages.
func (m *Metrics) Loss() Loss { return m.loss }

// Rows returns the number of rows recorded so far.
func (m *Metrics) Rows() int { return m.rows }

// Add records one prediction ŷ for the label y, which must already be in the
// task's form (see Task.Label). It costs O(1).
func (m *Metrics) Add(yhat, y float64) {
	m.rows++
	m.sumLoss += m.loss.Value(yhat, y)
	if m.task != Classification {
		d := yhat - y
		m.sumSq += d * d
		m.sumAbs += math.Abs(d)
		return
	}
	pos := y > 0
	if pos {
		m.pos++
	}
	if (yhat >= 0) != pos {
		m.errs++
	}
	ys := -1.0
	if pos {
		ys = 1
	}
	m.sumLog += softplus(-ys * yhat)
	m.pending = append(m.pending, scored{yhat: yhat, pos: pos})
}

// Summary is a snapshot of progressive metrics. Fields that do not apply to
// the task are 0, and every field is 0 for an empty stream. The JSON keys are
// those of the occfm command's -json output.
type Summary struct {
	// Rows is the number of rows recorded.
	Rows int `json:"rows"`
	// AvgLoss is the mean of ℓ(ŷ, y) for the Metrics' loss.
	AvgLoss float64 `json:"avg_loss"`
	// RMSE is √(mean (ŷ − y)²), for Regression.
	RMSE float64 `json:"rmse"`
	// MAE is mean |ŷ − y|, for Regression.
	MAE float64 `json:"mae"`
	// ErrorRate is the fraction of rows with sign(ŷ) ≠ y (ŷ = 0 predicts
	// +1), for Classification.
	ErrorRate float64 `json:"error_rate"`
	// AUC is the area under the ROC curve of ŷ, for Classification: the
	// probability that a random positive row scores above a random negative
	// one, ties counting ½ (the Mann-Whitney U statistic over P·N). It is
	// 0.5 when the rows seen so far are all of one class.
	AUC float64 `json:"auc"`
	// LogLoss is mean log(1 + exp(−yŷ)), the Logistic loss, for
	// Classification.
	LogLoss float64 `json:"logloss"`
}

// Summary returns the metrics of the rows recorded so far. For
// Classification it sorts the scores added since the previous call and
// merges them into the scores already sorted, so it costs O(n + k log k) for
// n rows of which k are new: cheap enough for a progress line every second.
// It does not change the recorded metrics.
func (m *Metrics) Summary() Summary {
	if m.rows == 0 {
		return Summary{}
	}
	n := float64(m.rows)
	s := Summary{Rows: m.rows, AvgLoss: m.sumLoss / n}
	if m.task != Classification {
		s.RMSE = math.Sqrt(m.sumSq / n)
		s.MAE = m.sumAbs / n
		return s
	}
	s.ErrorRate = float64(m.errs) / n
	s.LogLoss = m.sumLog / n
	s.AUC = m.auc()
	return s
}

// auc returns the exact AUC of the recorded scores. After sorting, scores
// are visited in ascending groups of equal ŷ; a group with p positives and q
// negatives above b negatives wins p·b pairs outright and ties p·q pairs:
//
//	AUC = Σ (p·b + ½·p·q) / (P·N).
//
// Twice that count is an exact integer. NaN scores sort first and tie with
// each other.
func (m *Metrics) auc() float64 {
	neg := m.rows - m.pos
	if m.pos == 0 || neg == 0 {
		return 0.5
	}
	m.merge()
	var twiceWins, negBelow int64
	s := m.sorted
	for i := 0; i < len(s); {
		var p, q int64
		j := i
		for ; j < len(s) && cmp.Compare(s[j].yhat, s[i].yhat) == 0; j++ {
			if s[j].pos {
				p++
			} else {
				q++
			}
		}
		twiceWins += 2*p*negBelow + p*q
		negBelow += q
		i = j
	}
	return float64(twiceWins) / (2 * float64(m.pos) * float64(neg))
}

// merge sorts the pending scores and merges them into sorted, from the back
// so that no scratch space is needed beyond sorted's growth.
func (m *Metrics) merge() {
	b := len(m.pending)
	if b == 0 {
		return
	}
	byScore := func(x, y scored) int { return cmp.Compare(x.yhat, y.yhat) }
	slices.SortFunc(m.pending, byScore)
	a := len(m.sorted)
	m.sorted = slices.Grow(m.sorted, b)[:a+b]
	i, j := a-1, b-1
	for k := a + b - 1; j >= 0; k-- {
		if i >= 0 && byScore(m.sorted[i], m.pending[j]) > 0 {
			m.sorted[k] = m.sorted[i]
			i--
		} else {
			m.sorted[k] = m.pending[j]
			j--
		}
	}
	m.pending = m.pending[:0]
}

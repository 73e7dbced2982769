package core

import (
	"cmp"
	"errors"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/internal/str"
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
// error rate, the AUC of ŷ and the logistic loss.
//
// Memory is bounded whatever the stream's length. The AUC is exact over the
// first ExactAUCRows = 262,144 rows, for which a classification Metrics
// stores each ŷ (16 bytes a row: 4 MiB, up to three times that while the
// sorted slice grows and merges). Past that it moves every score into a
// histogram of ŷ with bins of relative width 2⁻¹⁰ (see aucHist) and stops
// storing rows: the histogram takes 16 KiB for each binade of ŷ that occurs
// (64 MiB if the scores spanned all 4,096 binades of float64; far less on
// real streams: docs/performance.md, "Big files and memory"). From then on
// two scores in the same bin count as a tie, so the AUC is off by at most
// Σ_bins p·q / (2·P·N) (p positives and q negatives in a bin, P and N in
// all): 4·10⁻⁵ for normal scores of AUC 0.77, whatever their scale, and in
// practice far less, since within a bin the positives are as likely above
// the negatives as below (TestMetricsAUCHistogram; the measured errors are
// in docs/performance.md, "Big files and memory"). Subnormal scores tie
// with 0.
//
// The zero value is ready to use and records a Regression stream under the
// Squared loss. A Metrics is not safe for concurrent use.
type Metrics struct {
	task data.Task
	loss Loss

	rows    int
	left    int     // rows left out: a label not finite or beyond ±data.MaxMetricLabel
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
	hist    *aucHist // all scores, once there are more than exactRows; then sorted and pending are nil

	exactRows int // rows with an exact AUC; 0 means ExactAUCRows (tests set it lower)
}

// LeftOut returns the number of rows Add left out for their label, not
// finite or beyond ±data.MaxMetricLabel (1e9), so that one absurd label
// cannot turn every figure into +Inf or NaN (the squared error of a label
// of 1e200 overflows). Such rows are not in Rows nor in any average.
func (m *Metrics) LeftOut() int { return m.left }

// ExactAUCRows is how many rows a classification Metrics keeps to compute
// the exact AUC; beyond it the AUC comes from a histogram (see Metrics).
const ExactAUCRows = 1 << 18

// scored is one classification prediction kept for the AUC.
type scored struct {
	yhat float64
	pos  bool
}

// NewMetrics returns an empty Metrics for task that averages loss. Usually
// loss is task.Loss().
func NewMetrics(task data.Task, loss Loss) *Metrics {
	return &Metrics{task: task, loss: loss}
}

// Task returns the task m was made for.
func (m *Metrics) Task() data.Task { return m.task }

// Loss returns the loss m averages.
func (m *Metrics) Loss() Loss { return m.loss }

// Rows returns the number of rows recorded so far.
func (m *Metrics) Rows() int { return m.rows }

// Add records one prediction ŷ for the label y, which must already be in the
// task's form (see Task.Label). It costs O(1). A row whose label is not
// finite or beyond ±data.MaxMetricLabel is left out and counted (LeftOut).
func (m *Metrics) Add(yhat, y float64) {
	if !(math.Abs(y) <= data.MaxMetricLabel) {
		m.left++
		return
	}
	m.rows++
	m.sumLoss += m.loss.Value(yhat, y)
	if m.task != data.Classification {
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
	if m.hist != nil {
		m.hist.add(yhat, pos)
		return
	}
	m.pending = append(m.pending, scored{yhat: yhat, pos: pos})
	limit := m.exactRows
	if limit == 0 {
		limit = ExactAUCRows
	}
	if m.rows > limit {
		m.hist = new(aucHist)
		for _, part := range [][]scored{m.sorted, m.pending} {
			for _, s := range part {
				m.hist.add(s.yhat, s.pos)
			}
		}
		m.sorted, m.pending = nil, nil
	}
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
// Classification, up to ExactAUCRows rows, it sorts the scores added since
// the previous call and merges them into the scores already sorted, so it
// costs O(n + k log k) for n rows of which k are new: cheap enough for a
// progress line every second. Past ExactAUCRows it walks the AUC histogram
// instead, in time proportional to its size (see Metrics). It does not
// change the recorded metrics.
func (m *Metrics) Summary() Summary {
	if m.rows == 0 {
		return Summary{}
	}
	n := float64(m.rows)
	s := Summary{Rows: m.rows, AvgLoss: m.sumLoss / n}
	if m.task != data.Classification {
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
	if m.hist != nil {
		twiceWins, _ := m.hist.twiceWins()
		return float64(twiceWins) / (2 * float64(m.pos) * float64(neg))
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

// aucBinBits is the number of mantissa bits that tell aucHist's bins apart:
// a bin spans a relative width of at most 2⁻¹⁰ of |ŷ|.
const aucBinBits = 10

// aucHist counts positive and negative scores in bins ordered like ŷ, for the
// AUC of streams too long to keep every score. A score's bin is the top
// 12 + aucBinBits bits of its order-preserving key (see aucKey): the top 12
// (sign and exponent) pick a block, allocated when first used, and the next
// aucBinBits split the block's binade [2ᵉ, 2ᵉ⁺¹) into 2^aucBinBits equal
// bins. Zero and subnormal scores share the bins of the zero exponent, and
// every NaN falls in one bin below all numbers, as cmp.Compare orders them.
type aucHist struct {
	blocks [1 << 12]*[1 << aucBinBits][2]int64 // [block][bin][positive?]
	used   int                                 // blocks allocated
	nan    [2]int64
}

// aucKey maps ŷ to a uint64 that orders as ŷ does (−0 as +0): the sign bit
// is flipped for positive numbers and every bit for negative ones.
func aucKey(yhat float64) uint64 {
	if yhat == 0 {
		yhat = 0 // −0 ties with +0
	}
	b := math.Float64bits(yhat)
	if b>>63 == 1 {
		return ^b
	}
	return b | 1<<63
}

func (h *aucHist) add(yhat float64, pos bool) {
	c := 0
	if pos {
		c = 1
	}
	if yhat != yhat { // NaN
		h.nan[c]++
		return
	}
	k := aucKey(yhat)
	blk := h.blocks[k>>52]
	if blk == nil {
		blk = new([1 << aucBinBits][2]int64)
		h.blocks[k>>52] = blk
		h.used++
	}
	blk[k>>(52-aucBinBits)&(1<<aucBinBits-1)][c]++
}

// twiceWins walks the bins in ascending order of ŷ and returns twice the
// Mann-Whitney count with every bin as one group of tied scores (see auc),
// and twice the count of positive-negative pairs that share a bin, Σ p·q: the
// AUC is off by at most twiceTies/(4·P·N) = Σ p·q/(2·P·N), since each of
// those pairs counts ½ where the exact AUC counts 0 or 1.
func (h *aucHist) twiceWins() (twiceWins, twiceTies int64) {
	group := func(p, q int64, negBelow *int64) {
		twiceWins += 2*p*(*negBelow) + p*q
		twiceTies += 2 * p * q
		*negBelow += q
	}
	var negBelow int64
	group(h.nan[1], h.nan[0], &negBelow)
	for _, blk := range h.blocks {
		if blk == nil {
			continue
		}
		for _, pq := range blk {
			if pq[0] != 0 || pq[1] != 0 {
				group(pq[1], pq[0], &negBelow)
			}
		}
	}
	return twiceWins, twiceTies
}

// MemoryBytes estimates the bytes m holds (see Sized): 16 bytes a row
// (with the slack of the sorted and pending slices) while the AUC is exact,
// then 32 KiB for the histogram's index and 16 KiB per binade of ŷ seen.
func (m *Metrics) MemoryBytes() int64 {
	b := int64(structBytes) + 16*int64(cap(m.sorted)+cap(m.pending))
	if m.hist != nil {
		b += 8*int64(len(m.hist.blocks)) + int64(m.hist.used)*(1<<aucBinBits)*16
	}
	return b
}

func numPtr(x float64) *Num {
	n := Num(x)
	return &n
}

// Num is a float64 written in JSON as encoding/json writes one, and as
// null when it is NaN or ±Inf, which JSON lacks: a diverged learner still
// gets its line.
type Num float64

// MarshalJSON implements json.Marshaler.
func (x Num) MarshalJSON() ([]byte, error) { return AppendNum(nil, float64(x)), nil }

// UnmarshalJSON implements json.Unmarshaler: null reads as NaN, so that a
// Num reads back as it was written.
func (x *Num) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*x = Num(math.NaN())
		return nil
	}
	f, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		return errors.New("core: a number or null, not " + string(b))
	}
	*x = Num(f)
	return nil
}

// AppendNum appends x as encoding/json writes a float64 (as ES6 writes a
// number: the shortest decimal that reads back as x, in exponent form below
// 1e-6 and from 1e21 on, with e-7 rather than e-07), or null when x is NaN
// or ±Inf.
func AppendNum(b []byte, x float64) []byte {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return append(b, "null"...)
	}
	abs := math.Abs(x)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, x, format, -1, 64)
	if format == 'e' {
		// e-07 → e-7, as encoding/json does.
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

// AppendString appends s as a JSON string, escaped as encoding/json escapes
// it: ", \ and the control characters (\b, \f, \n, \r, \t by name, the
// others as \u00XX), <, > and & as \u003c, \u003e and \u0026 (HTML-safe),
// U+2028 and U+2029 as \u2028 and \u2029, and each byte of invalid UTF-8 as
// \ufffd.
func AppendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= ' ' && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i++
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

const hexDigits = "0123456789abcdef"

// Loss is a convex loss ℓ(ŷ, y) of a real prediction ŷ and a label y.
// The zero value is Squared.
type Loss int

const (
	// Squared is ℓ(ŷ, y) = (ŷ − y)², for regression (§3.1).
	Squared Loss = iota
	// Logistic is ℓ(ŷ, y) = log(1 + exp(−yŷ)) with y ∈ {−1, +1}, for binary
	// classification. (The paper prints log(1 + 1/exp(−yŷ)); the sign is a
	// typo: that loss would grow with the margin yŷ, punishing right answers.)
	Logistic
)

// String returns "squared" or "logistic".
func (l Loss) String() string {
	switch l {
	case Squared:
		return "squared"
	case Logistic:
		return "logistic"
	}
	return "Loss(?)"
}

// ParseLoss returns the loss String names, or nil for "" and "auto": the
// task's own (TaskLoss), as Config.Loss reads nil.
func ParseLoss(name string) (*Loss, error) {
	var l Loss
	switch name {
	case "", "auto":
		return nil, nil
	case "squared":
		l = Squared
	case "logistic":
		l = Logistic
	default:
		return nil, errors.New("core: loss " + str.Quote(name) + ": want auto, squared or logistic")
	}
	return &l, nil
}

// Value returns ℓ(ŷ, y).
func (l Loss) Value(yhat, y float64) float64 {
	switch l {
	case Squared:
		d := yhat - y
		return d * d
	case Logistic:
		return softplus(-y * yhat)
	}
	panic("core: unknown loss")
}

// Deriv returns ∂ℓ/∂ŷ at (ŷ, y): 2(ŷ − y) for Squared and −y·σ(−yŷ) for
// Logistic, where σ(z) = 1/(1 + e⁻ᶻ).
func (l Loss) Deriv(yhat, y float64) float64 {
	switch l {
	case Squared:
		return 2 * (yhat - y)
	case Logistic:
		return -y * Sigmoid(-y*yhat)
	}
	panic("core: unknown loss")
}

// softplus returns log(1 + eᶻ) without overflow.
func softplus(z float64) float64 {
	if z > 0 {
		return z + math.Log1p(math.Exp(-z))
	}
	return math.Log1p(math.Exp(z))
}

// Sigmoid returns σ(z) = 1/(1 + e⁻ᶻ) without overflow: the probability of
// the positive class for a logistic margin z (Logistic), as the CLI's
// -predictions and the JS library report it.
func Sigmoid(z float64) float64 {
	if z >= 0 {
		return 1 / (1 + math.Exp(-z))
	}
	e := math.Exp(z)
	return e / (1 + e)
}

// TaskLoss returns the loss that suits t: Squared for Regression, Logistic for
// data.Classification.
func TaskLoss(t data.Task) Loss {
	if t == data.Classification {
		return Logistic
	}
	return Squared
}

// taskOf returns the task whose natural loss is l.
func taskOf(l Loss) data.Task {
	if l == Logistic {
		return data.Classification
	}
	return data.Regression
}

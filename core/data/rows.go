package data

import (
	"errors"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/occfm/occfm/core/internal/str"
)

// GuessRows is how many leading labels an "auto" task is guessed from
// (Rows.Guess).
const GuessRows = 1000

// ErrAgain is returned by a row source that has no row yet, such as the
// page's reader of a file still arriving, and by Rows when its Pause says
// so: the next call picks up where this one stopped.
var ErrAgain = errors.New("core: no row yet")

// pauseEvery is how many rows Rows skips or reads ahead between two calls
// of its Pause: a file of malformed rows must not hold the page's slice
// past its deadline.
const pauseEvery = 32

// Rows reads the labelled rows of a run from a source of raw rows, the
// same way for the command line and the page, so that a file cannot read
// differently in the two:
//
//   - the task is fixed (SetTask) or guessed from up to GuessRows leading
//     labels (Guess), which are kept and played first;
//   - malformed rows go through Bad (the -on-error policy: stop, or skip
//     and count), and so do labels outside the task;
//   - every label is mapped to the task's form (BadRows.Label, Task.Label);
//   - reading stops after Limit rows.
//
// An error met while reading ahead comes after the rows before it: they are
// played first. Rows is an ExampleSource for core.Run.
type Rows struct {
	// Source yields the raw rows: a *Stream, a demo, or the page's
	// reader. If it has a Line() int method (Stream does), messages
	// name a row by it; otherwise rows are counted from 1.
	Source ExampleSource
	// File names the source in messages about labels.
	File string
	// Format is the file's format: MovieLens ratings are a regression
	// without a guess.
	Format Format
	// Bad applies the OnError policy and counts the rows skipped; nil
	// stops at the first malformed row.
	Bad *BadRows
	// Limit, when positive, is the number of rows after which Next returns
	// io.EOF.
	Limit int
	// Pause, when not nil, is asked after every 32 rows skipped or read
	// ahead within one call; when it returns true, the call returns
	// ErrAgain.
	Pause func() bool

	task    Task
	taskSet bool
	ahead   []aheadRow // rows read by Guess, to be returned first
	end     error      // the error that ends the rows, after ahead
	ex      Example
	read    int // raw rows read from Source, skipped ones included
	n       int // rows returned by Next
}

// aheadRow is a row Guess read, with its line.
type aheadRow struct {
	ex   Example
	line int
}

// SetTask fixes the task the labels are mapped to.
func (r *Rows) SetTask(t Task) { r.task, r.taskSet = t, true }

// Task returns the task and whether it is fixed yet.
func (r *Rows) Task() (Task, bool) { return r.task, r.taskSet }

// Returned is the number of rows Next has returned.
func (r *Rows) Returned() int { return r.n }

// Choose fixes the task named by name (ParseTask), or for "auto" or
// "": Regression for MovieLens, else the task guessed by Guess. An
// ErrAgain from the source is returned, and the next call goes on.
func (r *Rows) Choose(name string) (Task, error) {
	switch {
	case r.taskSet:
	case name != "" && name != "auto":
		t, err := ParseTask(name)
		if err != nil {
			return 0, err
		}
		r.SetTask(t)
	case r.Format == FormatMovieLens:
		r.SetTask(Regression)
	default:
		t, err := r.Guess()
		if err != nil {
			return 0, err
		}
		r.SetTask(t)
	}
	return r.task, nil
}

// Guess reads up to GuessRows rows ahead (Limit, if smaller), which Next
// returns first, and returns the task their labels suggest
// (GuessTask). Malformed rows are skipped or returned by Bad's policy
// as Next does; an error after the first row read ends the guess and is
// returned by Next once the rows before it are. After ErrAgain (from the
// source or Pause), the next call goes on.
func (r *Rows) Guess() (Task, error) {
	n := GuessRows
	if r.Limit > 0 {
		n = min(n, r.Limit)
	}
	if r.Bad == nil {
		r.Bad = &BadRows{}
	}
	for calls := 1; len(r.ahead) < n && r.end == nil; calls++ {
		if r.pause(calls) {
			return 0, ErrAgain
		}
		err := r.Source.Next(&r.ex)
		if err == nil {
			r.read++
			r.ahead = append(r.ahead, aheadRow{ex: r.ex.Clone(), line: r.line()})
			continue
		}
		if r.Bad.Skip(err) {
			r.read++
			continue
		}
		if errors.Is(err, ErrAgain) || err != io.EOF && len(r.ahead) == 0 {
			return 0, err
		}
		r.end = err
	}
	labels := make([]float64, len(r.ahead))
	for i, a := range r.ahead {
		labels[i] = a.ex.Y
	}
	return GuessTask(labels), nil
}

// Next fills ex with the next row, its label mapped to the task (see
// ExampleSource): first the rows Guess read, then the source's.
// Malformed rows and labels outside the task are skipped under Bad's Skip
// policy; under Stop, Next returns the row's *ParseError.
func (r *Rows) Next(ex *Example) error {
	if r.Bad == nil {
		r.Bad = &BadRows{}
	}
	skipped := 0
	for {
		if r.Limit > 0 && r.n >= r.Limit {
			return io.EOF
		}
		var line int
		switch {
		case len(r.ahead) > 0:
			a := r.ahead[0]
			r.ahead[0] = aheadRow{}
			r.ahead = r.ahead[1:]
			// Copy into ex's own storage: the source may reuse it later.
			ex.X.Ind = append(ex.X.Ind[:0], a.ex.X.Ind...)
			ex.X.Val = append(ex.X.Val[:0], a.ex.X.Val...)
			ex.Y = a.ex.Y
			line = a.line
		case r.end != nil:
			return r.end
		default:
			err := r.Source.Next(ex)
			if r.Bad.Skip(err) {
				r.read++
				if skipped++; r.pause(skipped) {
					return ErrAgain
				}
				continue
			}
			if err != nil {
				return err
			}
			r.read++
			line = r.line()
		}
		y, err := r.Bad.Label(r.task, r.File, line, ex.Y)
		if r.Bad.Skip(err) {
			if skipped++; r.pause(skipped) {
				return ErrAgain
			}
			continue
		}
		if err != nil {
			return err
		}
		ex.Y = y
		r.n++
		return nil
	}
}

// AllSkipped is BadRows.AllSkipped for the rows returned: the error of a
// source that ended with every row skipped, or nil.
func (r *Rows) AllSkipped() error { return r.Bad.AllSkipped(r.n) }

// pause reports whether the caller wants the call to stop, asked when
// count, the rows skipped or read ahead in the call, is a multiple of
// pauseEvery.
func (r *Rows) pause(count int) bool {
	return count%pauseEvery == 0 && r.Pause != nil && r.Pause()
}

// line returns the line of the raw row read last.
func (r *Rows) line() int {
	if l, ok := r.Source.(interface{ Line() int }); ok {
		return l.Line()
	}
	return r.read
}

// OnError is what a reader does with a malformed row: a *ParseError from
// Stream.Next, or a label outside the task (BadRows.Label). The zero value
// is Stop.
type OnError int

const (
	// Stop ends the reading at the first malformed row, with its error.
	Stop OnError = iota
	// Skip passes over malformed rows, counting them and keeping the first
	// few reasons (BadRows).
	Skip
)

// String returns "stop" or "skip".
func (o OnError) String() string {
	if o == Skip {
		return "skip"
	}
	return "stop"
}

// ParseOnError parses "stop" or "skip"; "" is Stop.
func ParseOnError(s string) (OnError, error) {
	switch s {
	case "", "stop":
		return Stop, nil
	case "skip":
		return Skip, nil
	}
	return 0, errors.New("core: unknown bad-row policy " + str.Quote(s) + " (want stop or skip)")
}

// MaxReasons is how many skipped rows BadRows keeps to show why.
const MaxReasons = 5

// MaxMetricLabel bounds the labels that are learned and scored: a row
// whose label is not finite or beyond ±1e9 is counted by BadRows.Label
// (HugeLabels), left out of core's Metrics (Metrics.LeftOut), so that one
// absurd label cannot turn every figure into +Inf or NaN (the squared
// error of a label of 1e200 overflows), and predicted but not learned by
// the Guarded learners, whose default MaxLabel it is.
const MaxMetricLabel = 1e9

// BadRows applies an OnError policy to the errors of a row reader, and
// counts the rows it skips. The command line and the page both read through
// one, so a file reads the same in both. The zero value stops at the first
// malformed row.
//
// Use:
//
//	err := stream.Next(&ex)
//	if bad.Skip(err) {
//		continue // the row was malformed and is counted
//	}
//	if err != nil { … } // io.EOF, a read error, or a ParseError under Stop
//	ex.Y, err = bad.Label(task, stream.Name(), stream.Line(), ex.Y)
//	…same again
type BadRows struct {
	Policy OnError
	// Skipped is the number of rows skipped.
	Skipped int
	// First holds the first MaxReasons rows skipped, in file order.
	First []*ParseError
	// ByField counts the rows skipped by ParseError.Field, e.g.
	// {`field "rating"`: 300, "label": 12}.
	ByField map[string]int
	// HugeLabels counts the rows read whose label is beyond ±MaxMetricLabel
	// (1e9) or not finite: they are not malformed, but every learner's
	// guard predicts them without learning them and the metrics leave them
	// out (see core.Guarded, core.Metrics.LeftOut). HugeFirst holds the first
	// MaxReasons of them, e.g. `u.data:5: label 1e+300 is beyond ±1e9:
	// predicted, not learned, not scored`.
	HugeLabels int
	HugeFirst  []string
}

// Skip reports whether err is a malformed row that the policy passes over:
// a *ParseError under Skip. It then counts the row. For any other err,
// including nil and io.EOF, or under Stop, it returns false and the caller
// handles err. A nil *BadRows stops.
//
// Only errors after which Stream.Next can go on are ParseErrors: a read
// error (a truncated gzip file) or an unrecognised format always stops.
func (b *BadRows) Skip(err error) bool {
	var pe *ParseError
	if err == nil || b == nil || b.Policy != Skip || !errors.As(err, &pe) {
		return false
	}
	b.Skipped++
	if len(b.First) < MaxReasons {
		b.First = append(b.First, pe)
	}
	if b.ByField == nil {
		b.ByField = make(map[string]int)
	}
	b.ByField[pe.Field]++
	return true
}

// Label maps the label y, read on line of file, to the label a learner of
// task t sees (Task.Label). A label outside the task is a *ParseError with
// Field "label", to pass to Skip like any malformed row. A regression label
// beyond ±1e9 or not finite is returned as it is and counted in HugeLabels
// with its line: the guard and the metrics leave such a row out.
func (b *BadRows) Label(t Task, file string, line int, y float64) (float64, error) {
	if !(math.Abs(y) <= MaxMetricLabel) {
		b.HugeLabels++
		if len(b.HugeFirst) < MaxReasons {
			b.HugeFirst = append(b.HugeFirst, file+":"+str.Itoa(line)+": label "+strconv.FormatFloat(y, 'g', -1, 64)+
				" is beyond ±1e9: predicted, not learned, not scored")
		}
	}
	v, err := t.Label(y)
	if err != nil {
		return 0, &ParseError{File: file, Line: line, Field: "label",
			Msg: str.Quote(strconv.FormatFloat(y, 'g', -1, 64)) +
				" is not a class of the binary task (want -1/+1 or 0/1; labels with other values need the regression task)"}
	}
	return v, nil
}

// AllSkipped returns the error of a stream that ended having learned no
// row because every row read was skipped (rows learned is 0 and Skipped is
// not), or nil: its figures would mean nothing, so the command line and the
// page both end it with this error, e.g. `core: no row was learned: all 3
// rows read were skipped as malformed, the first: r.svm:1: label: …`.
func (b *BadRows) AllSkipped(learned int) error {
	if b == nil || learned > 0 || b.Skipped == 0 {
		return nil
	}
	rows := "all " + str.Thousands(int64(b.Skipped)) + " rows read were"
	if b.Skipped == 1 {
		rows = "the one row read was"
	}
	return errors.New("core: no row was learned: " + rows + " skipped as malformed, the first: " + b.First[0].Reason())
}

// Reasons returns the first skipped rows' errors without the "core: "
// prefix, e.g. `u.data:17: field "rating": "abc" is not a number`.
func (b *BadRows) Reasons() []string {
	out := make([]string, len(b.First))
	for i, e := range b.First {
		out[i] = e.Reason()
	}
	return out
}

// String summarises the skipped rows on one line: "no rows skipped", or
// e.g. `312 rows skipped (field "rating": 300, label: 12); first: u.data:17:
// field "rating": "abc" is not a number; …`.
func (b *BadRows) String() string {
	if b.Skipped == 0 {
		return "no rows skipped"
	}
	var s strings.Builder
	s.WriteString(str.Itoa(b.Skipped))
	if b.Skipped == 1 {
		s.WriteString(" row skipped")
	} else {
		s.WriteString(" rows skipped")
	}
	if len(b.ByField) > 1 {
		s.WriteString(" (")
		for i, f := range b.Fields() {
			if i > 0 {
				s.WriteString(", ")
			}
			s.WriteString(f + ": " + str.Itoa(b.ByField[f]))
		}
		s.WriteString(")")
	}
	s.WriteString("; first: ")
	s.WriteString(strings.Join(b.Reasons(), "; "))
	if b.Skipped > len(b.First) {
		s.WriteString("; …")
	}
	return s.String()
}

// Fields returns the fields of ByField by decreasing count, then by name.
func (b *BadRows) Fields() []string {
	m := b.ByField
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	// Insertion sort: there are a few keys.
	for i := 1; i < len(keys); i++ {
		for j := i; j > 0; j-- {
			a, c := keys[j-1], keys[j]
			if m[a] > m[c] || m[a] == m[c] && a < c {
				break
			}
			keys[j-1], keys[j] = c, a
		}
	}
	return keys
}

package core

import (
	"errors"
	"math"
	"strconv"
	"strings"

	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/internal/str"
)

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
	First []*data.ParseError
	// ByField counts the rows skipped by ParseError.Field, e.g.
	// {`field "rating"`: 300, "label": 12}.
	ByField map[string]int
	// HugeLabels counts the rows read whose label is beyond ±MaxMetricLabel
	// (1e9) or not finite: they are not malformed, but every learner's
	// guard predicts them without learning them and the metrics leave them
	// out (see Guarded, Metrics.LeftOut). HugeFirst holds the first
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
	var pe *data.ParseError
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
func (b *BadRows) Label(t data.Task, file string, line int, y float64) (float64, error) {
	if !(math.Abs(y) <= MaxMetricLabel) {
		b.HugeLabels++
		if len(b.HugeFirst) < MaxReasons {
			b.HugeFirst = append(b.HugeFirst, file+":"+str.Itoa(line)+": label "+strconv.FormatFloat(y, 'g', -1, 64)+
				" is beyond ±1e9: predicted, not learned, not scored")
		}
	}
	v, err := t.Label(y)
	if err != nil {
		return 0, &data.ParseError{File: file, Line: line, Field: "label",
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

package data

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// rawRow is one result of a scripted row source: a row, or an error.
type rawRow struct {
	ex  Example
	err error
}

// scriptSource yields its rows in order, then io.EOF; with again set, it
// returns ErrAgain before a random half of them (a file still arriving).
type scriptSource struct {
	rows  []rawRow
	i     int
	again *rand.Rand
	owed  bool // ErrAgain was returned for rows[i]
}

func (s *scriptSource) Next(ex *Example) error {
	if s.i == len(s.rows) {
		return io.EOF
	}
	if s.again != nil && !s.owed && s.again.IntN(2) == 0 {
		s.owed = true
		return ErrAgain
	}
	s.owed = false
	r := s.rows[s.i]
	s.i++
	if r.err != nil {
		return r.err
	}
	ex.X.Ind = append(ex.X.Ind[:0], r.ex.X.Ind...)
	ex.X.Val = append(ex.X.Val[:0], r.ex.X.Val...)
	ex.Y = r.ex.Y
	return nil
}

// Line numbers the rows from 1, as a stream does.
func (s *scriptSource) Line() int { return s.i }

// script returns n rows with labels from labels, the rows at bad (1-based
// lines) malformed.
func script(rng *rand.Rand, n int, labels []float64, bad ...int) []rawRow {
	rows := make([]rawRow, n)
	for i := range rows {
		k := 1 + rng.IntN(4)
		var ex Example
		for j := range k {
			ex.X.Ind = append(ex.X.Ind, 3*j+rng.IntN(3))
			ex.X.Val = append(ex.X.Val, rng.NormFloat64())
		}
		ex.Y = labels[rng.IntN(len(labels))]
		rows[i] = rawRow{ex: ex}
	}
	for _, line := range bad {
		rows[line-1] = rawRow{err: &ParseError{File: "f", Line: line, Field: "rating", Msg: "not a number"}}
	}
	return rows
}

// drain reads every row of r, calling again after ErrAgain, and returns
// the rows and the error that ended them (nil at io.EOF).
func drain(t *testing.T, r *Rows) ([]Example, error) {
	t.Helper()
	if _, ok := r.Task(); !ok {
		for {
			tk, err := r.Choose("auto")
			if errors.Is(err, ErrAgain) {
				continue
			}
			if err != nil {
				return nil, err
			}
			if got, _ := r.Task(); got != tk {
				t.Fatalf("Choose returned %v, Task %v", tk, got)
			}
			break
		}
	}
	var out []Example
	var ex Example
	for calls := 0; calls < 1e6; calls++ {
		err := r.Next(&ex)
		switch {
		case err == nil:
			out = append(out, ex.Clone())
		case errors.Is(err, ErrAgain):
		case err == io.EOF:
			return out, nil
		default:
			return out, err
		}
	}
	t.Fatal("Rows never ended")
	return nil, nil
}

// TestRows checks the rows read through Rows against the script: the task
// guessed from the leading labels, the rows read ahead returned first and
// in order, malformed rows stopped at or skipped and counted, labels mapped
// to the task, the limit, and the same rows however often the source asks
// to be called again or Pause stops a call.
func TestRows(t *testing.T) {
	for _, tc := range []struct {
		name    string
		n       int
		labels  []float64
		bad     []int
		policy  OnError
		limit   int
		task    string
		want    Task
		rows    int
		skipped int
		err     string
	}{
		{name: "regression", n: 1500, labels: []float64{1, 2, 3, 4, 5}, want: Regression, rows: 1500},
		{name: "classes 0/1", n: 1200, labels: []float64{0, 1}, want: Classification, rows: 1200},
		{name: "few rows", n: 7, labels: []float64{-1, 1}, want: Classification, rows: 7},
		{name: "no rows", n: 0, labels: []float64{1}, want: GuessTask(nil)},
		{name: "limit below guess", n: 1500, labels: []float64{1, 2}, limit: 300, want: Regression, rows: 300},
		{name: "limit above guess", n: 1500, labels: []float64{1, 2}, limit: 1300, want: Regression, rows: 1300},
		{name: "stop in guess", n: 1500, labels: []float64{1, 2}, bad: []int{500}, want: Regression, rows: 499, err: "rating"},
		{name: "stop after guess", n: 1500, labels: []float64{1, 2}, bad: []int{1200}, want: Regression, rows: 1199, err: "rating"},
		{name: "stop first", n: 50, labels: []float64{1, 2}, bad: []int{1}, err: "rating"},
		{name: "skip", n: 1500, labels: []float64{1, 2}, bad: []int{1, 40, 1100, 1101}, policy: Skip, want: Regression, rows: 1496, skipped: 4},
		{name: "skip all", n: 100, labels: []float64{1}, bad: seq(1, 100), policy: Skip, want: GuessTask(nil), skipped: 100},
		{name: "label outside the task", n: 400, labels: []float64{-1, 1, 0.5}, task: "classification", policy: Skip, want: Classification},
		{name: "label outside, stop", n: 400, labels: []float64{-1, 1, 0.5}, task: "classification", want: Classification, err: "label"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rows := script(rand.New(rand.NewPCG(1, uint64(tc.n))), tc.n, tc.labels, tc.bad...)
			var first []Example
			for k, variant := range []string{"plain", "again", "pause"} {
				src := &scriptSource{rows: rows}
				r := &Rows{Source: src, File: "f", Bad: &BadRows{Policy: tc.policy}, Limit: tc.limit}
				switch variant {
				case "again":
					src.again = rand.New(rand.NewPCG(2, 3))
				case "pause":
					r.Pause = func() bool { return true }
				}
				if tc.task != "" {
					if _, err := r.Choose(tc.task); err != nil {
						t.Fatal(err)
					}
				}
				got, err := drain(t, r)
				if tc.err == "" && err != nil || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
					t.Fatalf("%s: error %v, want %q", variant, err, tc.err)
				}
				if task, ok := r.Task(); err == nil && (!ok || task != tc.want) {
					t.Errorf("%s: task %v, want %v", variant, task, tc.want)
				}
				if tc.task == "" && len(got) != tc.rows {
					t.Errorf("%s: %d rows, want %d", variant, len(got), tc.rows)
				}
				if r.Bad.Skipped < tc.skipped || tc.task == "" && r.Bad.Skipped != tc.skipped {
					t.Errorf("%s: %d skipped, want %d", variant, r.Bad.Skipped, tc.skipped)
				}
				if r.Returned() != len(got) {
					t.Errorf("%s: Returned %d, read %d", variant, r.Returned(), len(got))
				}
				if all := r.AllSkipped(); (all != nil) != (len(got) == 0 && r.Bad.Skipped > 0) {
					t.Errorf("%s: AllSkipped %v with %d rows, %d skipped", variant, all, len(got), r.Bad.Skipped)
				}
				// The rows in the script's order, labels mapped to the task.
				task, _ := r.Task()
				j := 0
				for _, raw := range rows {
					if j == len(got) {
						break
					}
					if raw.err != nil {
						continue
					}
					y, lerr := task.Label(raw.ex.Y)
					if lerr != nil {
						continue
					}
					want := raw.ex.Clone()
					want.Y = y
					if !reflect.DeepEqual(got[j], want) {
						t.Fatalf("%s: row %d is %v, want %v", variant, j, got[j], want)
					}
					j++
				}
				if k == 0 {
					first = got
				} else if !reflect.DeepEqual(got, first) {
					t.Errorf("%s: the rows differ from a plain read", variant)
				}
			}
		})
	}
}

// seq returns from, from+1, …, to.
func seq(from, to int) []int {
	out := make([]int, 0, to-from+1)
	for i := from; i <= to; i++ {
		out = append(out, i)
	}
	return out
}

// TestRowsMovieLens: MovieLens ratings are a regression, with no row read
// ahead to guess.
func TestRowsMovieLens(t *testing.T) {
	src := &scriptSource{rows: script(rand.New(rand.NewPCG(1, 1)), 10, []float64{0, 1})}
	r := &Rows{Source: src, Format: FormatMovieLens}
	task, err := r.Choose("auto")
	if err != nil || task != Regression || src.i != 0 {
		t.Fatalf("task %v, err %v, %d rows read", task, err, src.i)
	}
}

// Rows reads a file's labelled rows as occfm run and the page do: the task
// guessed from the leading labels, a malformed row skipped and counted,
// 0/1 labels mapped to ±1 (features are numbered in order of first
// appearance).
func ExampleRows() {
	text := "1 1:0.5 3:1\n0 2:1\n1 2:x\n0 1:1 2:1\n"
	st, err := NewStream(strings.NewReader(text), ReaderSettings{Name: "small.svm", Format: FormatLibSVM})
	if err != nil {
		fmt.Println(err)
		return
	}
	rows := &Rows{Source: st, File: "small.svm", Bad: &BadRows{Policy: Skip}}
	task, _ := rows.Choose("auto")
	fmt.Println("task:", task)
	var ex Example
	for rows.Next(&ex) == nil {
		fmt.Println(ex.Y, ex.X.Ind)
	}
	fmt.Println(rows.Bad)
	// Output:
	// task: classification
	// 1 [0 1]
	// -1 [2]
	// -1 [0 2]
	// 1 row skipped; first: small.svm:3: field 2: value of index 2 "x" is not a number
}

package data

import (
	"errors"
	"io"
	"slices"
	"testing"
)

// stutter yields rows 0..n−1 (label i, one feature i), answering ErrAgain
// before every every-th row.
type stutter struct{ i, n, every, waits int }

func (s *stutter) Next(ex *Example) error {
	if s.i == s.n {
		return io.EOF
	}
	if s.every > 0 && s.i%s.every == 0 && s.waits < s.i/s.every+1 {
		s.waits++
		return ErrAgain
	}
	ex.X.Ind, ex.X.Val, ex.Y = append(ex.X.Ind[:0], s.i), append(ex.X.Val[:0], 1), float64(s.i)
	s.i++
	return nil
}

// TestShuffled checks that Shuffled yields the rows of its source in the
// order ShuffleOrder gives with its seed, whatever the source's ErrAgain
// and its own slices, each row intact; that it counts what it holds; and
// that its check's error ends the reading.
func TestShuffled(t *testing.T) {
	const n = 10000
	want := make([]float64, n)
	for i := range want {
		want[i] = float64(i)
	}
	ShuffleOrder(n, func(i, j int) { want[i], want[j] = want[j], want[i] }, 7)
	for _, every := range []int{0, 1, 977} {
		checks := 0
		s := &Shuffled{Source: &stutter{n: n, every: every}, Seed: 7, Check: func(int64) error { checks++; return nil }}
		var got []float64
		var ex Example
		agains := 0
		for {
			err := s.Next(&ex)
			if err == io.EOF {
				break
			}
			if errors.Is(err, ErrAgain) {
				agains++
				if agains > 2*n+10 {
					t.Fatal("ErrAgain without end")
				}
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(ex.X.Ind) != 1 || float64(ex.X.Ind[0]) != ex.Y {
				t.Fatalf("row %v with label %v", ex.X, ex.Y)
			}
			got = append(got, ex.Y)
		}
		if !slices.Equal(got, want) {
			t.Errorf("every %d: the order differs from ShuffleOrder's (first %v, want %v)", every, got[:5], want[:5])
		}
		if b := s.Held.MemoryBytes(); b < 16*n || checks == 0 {
			t.Errorf("every %d: %d bytes held for %d rows, %d checks", every, b, n, checks)
		}
		t.Logf("every %d: %d ErrAgain, %d checks, %d bytes", every, agains, checks, s.Held.MemoryBytes())
	}
	over := errors.New("over the budget")
	s := &Shuffled{Source: &stutter{n: n}, Seed: 1, Check: func(b int64) error {
		if b > 1<<20 {
			return over
		}
		return nil
	}}
	var ex Example
	for {
		err := s.Next(&ex)
		if errors.Is(err, over) {
			break
		}
		if err != nil && !errors.Is(err, ErrAgain) {
			t.Fatalf("the reading ended with %v, want the check's error", err)
		}
		if err == nil {
			t.Fatal("a row yielded before the budget stopped the reading")
		}
	}
}

package badinput

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Hostile is one of the generated stress inputs that once crashed or
// exhausted memory: `make stress` runs each through every
// learner of the CLI (cmd/occfm TestStressHostile) and through the page
// (TestE2EHostile).
type Hostile struct {
	// Name names the case; File is the file's base name, whose extension
	// tells the format.
	Name, File string
	// Write writes the file.
	Write func(w io.Writer) error
}

// HostileInputs returns the stress inputs: LibSVM rows with index
// 2147483647 and with the hashing trick's 2²⁴, one row of 5,000 and one of
// 15,000 nonzeros (3 rows each), a CSV of 20,000 numeric columns, and
// 1,000,000 ratings of 2,000,000 distinct user and item IDs.
func HostileInputs() []Hostile {
	return []Hostile{
		{"huge-index", "huge-index.svm", buffered(func(w *bufio.Writer) {
			for i := range 200 {
				fmt.Fprintf(w, "%d 1:1 %d:0.5 2147483647:1\n", i%2, 2+i%7)
			}
		})},
		{"hash-index", "hash-index.svm", buffered(func(w *bufio.Writer) {
			for i := range 2000 {
				fmt.Fprintf(w, "%d 3:1 %d:1 16777216:1\n", i%2, 1+(i*7919)%16777216)
			}
		})},
		{"dense-5000", "dense-5000.svm", buffered(func(w *bufio.Writer) { denseRows(w, 3, 5000) })},
		{"dense-15000", "dense-15000.svm", buffered(func(w *bufio.Writer) { denseRows(w, 3, 15000) })},
		{"unsorted-row", "unsorted-row.svm", buffered(func(w *bufio.Writer) {
			w.WriteString("1")
			for i := 1500000; i >= 1; i-- {
				fmt.Fprintf(w, " %d:1", i)
			}
			w.WriteString("\n-1 1:1 2:1\n")
		})},
		{"wide-csv", "wide.csv", buffered(func(w *bufio.Writer) {
			for j := range 20000 {
				fmt.Fprintf(w, "c%d,", j)
			}
			w.WriteString("label\n")
			for i := range 5 {
				for j := range 20000 {
					fmt.Fprintf(w, "%d,", (i*31+j*17)%97)
				}
				fmt.Fprintf(w, "%d\n", i%2)
			}
		})},
		{"many-ids", "many-ids.data", buffered(func(w *bufio.Writer) {
			for i := range 1000000 {
				fmt.Fprintf(w, "%d\t%d\t%d\t881250949\n", 1+i, 1+i, 1+i%5)
			}
		})},
	}
}

// WriteFile writes the input into the folder dir and returns its path.
func (h Hostile) WriteFile(dir string) (string, error) {
	path := filepath.Join(dir, h.File)
	f, err := os.Create(path)
	if err != nil {
		return "", err
	}
	if err := h.Write(f); err != nil {
		f.Close()
		return "", err
	}
	return path, f.Close()
}

// buffered makes a Write of a function that writes to a bufio.Writer.
func buffered(f func(w *bufio.Writer)) func(io.Writer) error {
	return func(out io.Writer) error {
		w := bufio.NewWriterSize(out, 1<<20)
		f(w)
		return w.Flush()
	}
}

// denseRows writes rows LibSVM rows of nnz nonzero features each.
func denseRows(w *bufio.Writer, rows, nnz int) {
	for i := range rows {
		fmt.Fprintf(w, "%d", i%2)
		for j := 1; j <= nnz; j++ {
			fmt.Fprintf(w, " %d:%.3g", j, float64((i*31+j*17)%97)/97)
		}
		w.WriteByte('\n')
	}
}

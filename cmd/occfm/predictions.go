package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/occfm/occfm/core"
)

// predictionWriter writes occfm run's -predictions file: a CSV whose header
// names the learners, then, for every row played, in the order played, one
// line with each learner's prediction made before it learned the row (the
// ŷ core.Play returns and the metrics score: the guard's, clipped with
// -clip). A classification prediction is written as the probability of the
// positive class, σ(ŷ) (core.Sigmoid), as the JS library's predict gives
// it. Numbers are written with strconv's shortest form ('g', -1), which
// reads back as the same float64.
//
// Lines are streamed through a bufio.Writer and never kept. The first
// write error is kept in err, and later rows are not written; play stops
// the run on it at the end of the batch.
type predictionWriter struct {
	path string   // -predictions, for messages
	f    *os.File // nil when writing to standard output
	w    *bufio.Writer
	prob bool   // write σ(ŷ): the classification task
	line []byte // the line being formatted, reused
	err  error
}

// samePath reports whether a and b name the same file: by name, or (when
// both exist) through a symbolic or hard link.
func samePath(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	ai, aerr := os.Stat(a)
	bi, berr := os.Stat(b)
	return aerr == nil && berr == nil && os.SameFile(ai, bi)
}

// checkPredictions returns the usage error of a -predictions path that
// names the run's data file or a model file (-load or -save): opening it
// for the predictions would empty it before it is read, or the model would
// be saved over the predictions. It is checked before anything is opened.
func checkPredictions(rs runSettings) error {
	path := rs.predictions
	if path == "" || path == "-" {
		return nil
	}
	for _, other := range []struct{ flag, path string }{
		{"-data", rs.data}, {"-load", rs.model.load}, {"-save", rs.model.save},
	} {
		if other.path != "" && other.path != "-" && samePath(path, other.path) {
			return usageError{fmt.Errorf("run: -predictions %s is the file of %s %s; write the predictions under another name",
				path, other.flag, other.path)}
		}
	}
	return nil
}

// openPredictions creates the -predictions file, or returns nil without
// the flag. Like gen's -out, "-" and a path naming standard output
// (/dev/stdout) write to stdout; a regular file is created or truncated;
// a device or named pipe is written through.
func openPredictions(path string, stdout io.Writer) (*predictionWriter, error) {
	if path == "" {
		return nil, nil
	}
	p := &predictionWriter{path: path}
	w := stdout
	if path != "-" && !sameAsStdout(path) {
		f, err := createOutput(path)
		if err != nil {
			// Said once: "-predictions no/p.csv: no such file or
			// directory", not the path again.
			var pe *fs.PathError
			if errors.As(err, &pe) && pe.Path == path {
				err = pe.Err
			}
			return nil, fmt.Errorf("run: -predictions %s: %w", path, err)
		}
		p.f, w = f, f
	}
	p.w = bufio.NewWriterSize(w, 1<<16)
	return p, nil
}

// start writes the header, the learners' names, and sets whether the
// predictions are probabilities (classification).
func (p *predictionWriter) start(names []string, classification bool) {
	p.prob = classification
	_, p.err = p.w.WriteString(strings.Join(names, ",") + "\n")
}

// write writes one row's line: yhat holds each learner's prediction, in
// the order of the header.
func (p *predictionWriter) write(yhat []float64) {
	if p.err != nil {
		return
	}
	b := p.line[:0]
	for j, y := range yhat {
		if j > 0 {
			b = append(b, ',')
		}
		if p.prob {
			y = core.Sigmoid(y)
		}
		b = strconv.AppendFloat(b, y, 'g', -1, 64)
	}
	b = append(b, '\n')
	p.line = b
	if _, err := p.w.Write(b); err != nil {
		p.err = fmt.Errorf("-predictions %s: %w", p.path, err)
	}
}

// failed returns the first write error, or nil. A nil p has none.
func (p *predictionWriter) failed() error {
	if p == nil {
		return nil
	}
	return p.err
}

// close flushes the lines and closes the file, and returns the first
// error of the writes, the flush or the close. A nil p does nothing.
func (p *predictionWriter) close() error {
	if p == nil {
		return nil
	}
	err := p.err
	if ferr := p.w.Flush(); err == nil && ferr != nil {
		err = fmt.Errorf("-predictions %s: %w", p.path, ferr)
	}
	if p.f != nil {
		if cerr := p.f.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("-predictions %s: %w", p.path, cerr)
		}
		p.f = nil
	}
	return err
}

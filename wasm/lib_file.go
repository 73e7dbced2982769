package main

import (
	"bytes"
	"errors"
	"io"
	"strconv"

	"github.com/occfm/occfm/core/data"
)

// libFileMax bounds a data file a libLearner reads whole (learnFile,
// predictFile): its rows are parsed before any is learned, so memory is
// a few times the file's size.
const libFileMax = 256 << 20

// readFile parses the data file b, named name, as the CLI reads it
// (data.NewStream: CSV, LibSVM or MovieLens, sniffed, gzip undone) with
// the learner's feature numbering: a learner that has neither learned a
// row nor been given a name takes the file's, any other continues its own
// (a CSV file must then have the model's columns, in its order, as with
// the CLI's -load). It returns the rows, their labels in the task's form
// (labels: true) and the numbering extended by the file's new features.
// The first malformed row is an error naming the file, line and field.
func (l *libLearner) readFile(b []byte, name string, labels bool) ([]data.Example, data.Vocabulary, error) {
	if len(b) > libFileMax {
		return nil, data.Vocabulary{}, errors.New(name + ": " + strconv.Itoa(len(b)>>20) + " MB: the library reads files of at most " + strconv.Itoa(libFileMax>>20) + " MB whole; learn a larger one in parts")
	}
	var v *data.Vocabulary
	if l.rows > 0 || len(l.vocab.Features) > 0 {
		c := l.vocab
		c.Columns = append([]data.VocabularyColumn(nil), c.Columns...)
		c.Features = append([]data.VocabularyFeature(nil), c.Features...)
		v = &c
	}
	s, err := data.NewStream(bytes.NewReader(b), data.ReaderSettings{Name: name, Vocabulary: v})
	if err != nil {
		return nil, data.Vocabulary{}, err
	}
	var rows []data.Example
	// A file to learn is refused when its new features cannot fit the
	// memory budget (see libFloor), at the line where they pass it.
	var floor libFloor
	known, fresh := len(l.vocab.Features), 0
	var seen []bool // by feature index − known
	for {
		var ex data.Example
		err := s.Next(&ex)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, data.Vocabulary{}, err
		}
		if labels {
			where := name + ":" + strconv.Itoa(s.Line())
			if ex.Y, err = l.label(ex.Y, where); err != nil {
				return nil, data.Vocabulary{}, err
			}
			n := 0
			for _, i := range ex.X.Ind {
				if i -= known; i >= 0 {
					if i >= len(seen) {
						seen = append(seen, make([]bool, i+1-len(seen))...)
					}
					if !seen[i] {
						seen[i] = true
						n++
					}
				}
			}
			fresh += n
			// A file's columns are its header's: no new name a row.
			if err := floor.add(l, where, len(ex.X.Ind), n, 0, fresh); err != nil {
				return nil, data.Vocabulary{}, err
			}
		}
		rows = append(rows, ex)
	}
	return rows, s.Vocabulary(), nil
}

// learnFile learns the rows of the data file b, named name, in order
// (see readFile); a malformed row leaves the learner as it was.
func (l *libLearner) learnFile(b []byte, name string) error {
	rows, voc, err := l.readFile(b, name, true)
	if err != nil {
		return err
	}
	l.vocab = voc
	l.reindex()
	for r, ex := range rows {
		if err := l.play(ex, r, len(rows)); err != nil {
			return errors.New(name + ": row " + strconv.Itoa(r+1) + ": " + err.Error() + "; its first " + strconv.Itoa(r+1) + " rows were learned, the later ones were not")
		}
	}
	return nil
}

// predictFile returns ŷ for each row of the data file b, named name,
// without learning them (the labels are read and left out); features new
// to the learner have no weight.
func (l *libLearner) predictFile(b []byte, name string) ([]float64, error) {
	rows, _, err := l.readFile(b, name, false)
	if err != nil {
		return nil, err
	}
	out := make([]float64, len(rows))
	for i, ex := range rows {
		out[i] = l.output(l.l.Predict(ex.X))
	}
	return out, nil
}

package main

import (
	"bytes"
	"io"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/occfm/occfm/core"
	"github.com/occfm/occfm/core/data"
)

// plantedCSV writes rows as a CSV file with the header y,f0,…,f19.
func plantedCSV(rows []libRow) []byte {
	var b strings.Builder
	b.WriteString("y")
	for i := range 20 {
		b.WriteString(",f" + strconv.Itoa(i))
	}
	for _, r := range rows {
		b.WriteString("\n" + strconv.FormatFloat(r.y, 'g', -1, 64))
		for _, f := range r.x {
			b.WriteString("," + strconv.FormatFloat(f.num, 'g', -1, 64))
		}
	}
	return []byte(b.String() + "\n")
}

// TestLibLearnFile learns a CSV file and checks the learner against the
// CLI's path (data.NewStream, a guarded registry learner, core.Play) to
// 1e-12 on fresh rows, given as a file and as named rows; then continues
// it with named rows and with a file of the same columns.
func TestLibLearnFile(t *testing.T) {
	train, fresh := plantedCSV(plantedLibRows(2000, 1)), plantedLibRows(200, 2)
	l := newLib(t, libSettings{Learner: "occfm-k"})
	if err := l.learnFile(train, "train.csv"); err != nil {
		t.Fatal(err)
	}
	if l.rows != 2000 {
		t.Fatalf("%d rows learned, want 2000", l.rows)
	}
	// The reference: the CLI's reading and playing.
	s, err := data.NewStream(bytes.NewReader(train), data.ReaderSettings{Name: "train.csv"})
	if err != nil {
		t.Fatal(err)
	}
	ref, err := core.NewGuarded("occfm-k", core.Config{Task: data.Regression}, core.GuardFor("auto", "", false))
	if err != nil {
		t.Fatal(err)
	}
	m := core.NewMetrics(data.Regression, core.TaskLoss(data.Regression))
	var ex data.Example
	for s.Next(&ex) != io.EOF {
		core.Play(ref, ex, m)
	}
	got, err := l.predictFile(plantedCSV(fresh), "fresh.csv")
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range fresh {
		named, err := l.predict(r.x, "row")
		if err != nil {
			t.Fatal(err)
		}
		var x data.Sparse
		for j, f := range r.x {
			x.Ind, x.Val = append(x.Ind, j), append(x.Val, f.num/l.vocab.Columns[j+1].Scale)
		}
		want := ref.Predict(x)
		if math.Abs(got[i]-want) > 1e-12 || math.Abs(named-want) > 1e-12 {
			t.Fatalf("fresh row %d: ŷ %v from the file, %v from the named row, want %v", i, got[i], named, want)
		}
	}
	if err := l.learn(fresh[:10], 0); err != nil {
		t.Fatal(err)
	}
	if err := l.learnFile(plantedCSV(fresh[10:20]), "more.csv"); err != nil {
		t.Fatal(err)
	}
	if l.rows != 2020 {
		t.Errorf("%d rows after 10 named rows and a file of 10, want 2020", l.rows)
	}
}

// TestLibLearnFileBad checks that a malformed file, another file's
// columns, a LibSVM learner given names, and a file over the bound are
// errors that name what and where, and leave the learner as it was.
func TestLibLearnFileBad(t *testing.T) {
	l := newLib(t, libSettings{Learner: "occfm-k"})
	if err := l.learn(plantedLibRows(300, 1), 0); err != nil {
		t.Fatal(err)
	}
	probe := plantedLibRows(5, 9)
	before, _ := l.predict(probe[0].x, "probe")
	for _, c := range []struct {
		name, file, want string
	}{
		{"bad.csv", string(plantedCSV(plantedLibRows(3, 3))) + "1,x,2\n", "bad.csv:5"},
		{"other.csv", "y,a,b\n1,2,3\n", "column"},
		{"y.csv", "y,f0\n1,NaN\n", "y.csv"},
	} {
		err := l.learnFile([]byte(c.file), c.name)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one with %q", c.name, err, c.want)
		}
		if after, _ := l.predict(probe[0].x, "probe"); after != before || l.rows != 300 {
			t.Errorf("%s: the learner changed: ŷ %v → %v, %d rows", c.name, before, after, l.rows)
		}
	}
	svm := newLib(t, libSettings{Learner: "linear", Task: "classification"})
	if err := svm.learnFile([]byte("+1 1:0.5 3:1\n-1 2:1\n"), "a.svm"); err != nil {
		t.Fatal(err)
	}
	if _, err := svm.predict([]libField{{name: "f", num: 1}}, "x"); err == nil || !strings.Contains(err.Error(), "libsvm file") {
		t.Errorf("named features for a LibSVM learner: %v", err)
	}
	if p, err := svm.predictFile([]byte("+1 1:0.5\n"), "b.svm"); err != nil || len(p) != 1 || !(p[0] > 0 && p[0] < 1) {
		t.Errorf("a LibSVM row's probability: %v, %v", p, err)
	}
	if err := svm.learnFile(make([]byte, libFileMax+1), "big.svm"); err == nil || !strings.Contains(err.Error(), "at most") {
		t.Errorf("a file over the bound: %v", err)
	}
}

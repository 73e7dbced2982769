package data_test

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/internal/str"
	"github.com/occfm/occfm/internal/badinput"
)

// ex builds an Example from alternating index, value pairs.
func ex(y float64, pairs ...float64) data.Example {
	var e data.Example
	e.Y = y
	for k := 0; k < len(pairs); k += 2 {
		e.X.Ind = append(e.X.Ind, int(pairs[k]))
		e.X.Val = append(e.X.Val, pairs[k+1])
	}
	return e
}

func sameExample(a, b data.Example) bool {
	if a.Y != b.Y || len(a.X.Ind) != len(b.X.Ind) || len(a.X.Val) != len(b.X.Val) {
		return false
	}
	for k := range a.X.Ind {
		if a.X.Ind[k] != b.X.Ind[k] || a.X.Val[k] != b.X.Val[k] {
			return false
		}
	}
	return true
}

// readAll reads s to the end. It returns the examples, the messages of the
// ParseErrors met on the way, and the error that ended the stream (nil for
// io.EOF). It checks the invariants of every example.
func readAll(t testing.TB, s *data.Stream) (exs []data.Example, parseErrs []string, end error) {
	t.Helper()
	var e data.Example
	for range 1 << 20 {
		err := s.Next(&e)
		if err == io.EOF {
			return exs, parseErrs, nil
		}
		var pe *data.ParseError
		if errors.As(err, &pe) {
			if e.X.Len() != 0 || e.Y != 0 {
				t.Errorf("after %v the example is not empty: %+v", err, e)
			}
			parseErrs = append(parseErrs, err.Error())
			continue
		}
		if err != nil {
			return exs, parseErrs, err
		}
		checkExample(t, s, e)
		exs = append(exs, e.Clone())
	}
	t.Fatal("stream did not end")
	return
}

// checkExample checks that e is finite, has indices in [0, s.Dim()) without
// repeats, and that every feature has a name.
func checkExample(t testing.TB, s *data.Stream, e data.Example) {
	t.Helper()
	if len(e.X.Ind) != len(e.X.Val) {
		t.Fatalf("line %d: %d indices but %d values", s.Line(), len(e.X.Ind), len(e.X.Val))
	}
	if math.IsNaN(e.Y) || math.IsInf(e.Y, 0) {
		t.Fatalf("line %d: label %v", s.Line(), e.Y)
	}
	seen := make(map[int]bool, len(e.X.Ind))
	for k, i := range e.X.Ind {
		if i < 0 || i >= s.Dim() {
			t.Fatalf("line %d: index %d outside [0, %d)", s.Line(), i, s.Dim())
		}
		if seen[i] {
			t.Fatalf("line %d: index %d repeated", s.Line(), i)
		}
		seen[i] = true
		if v := e.X.Val[k]; math.IsNaN(v) || math.IsInf(v, 0) {
			t.Fatalf("line %d: value %v", s.Line(), v)
		}
		_ = s.FeatureName(i)
	}
}

func gzipBytes(t testing.TB, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	if _, err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

type streamCase struct {
	name   string
	set    data.ReaderSettings
	in     string
	format data.Format
	layout string
	want   []data.Example
	names  []string      // FeatureName(i) for i < Dim() at the end
	errs   []string      // ParseError messages, in order
	warns  []string      // Warnings()
	cols   []data.Column // CSV only
}

var streamCases = []streamCase{
	{
		name:   "libsvm labels",
		in:     "-1 1:0.5 3:2\n+1 2:1\n1.0 1:1\n-1.0 3:-1.5\n0 2:1\n1 1:1 # comment\n2.5 2:0.25\n",
		format: data.FormatLibSVM, layout: "libsvm",
		// Features are numbered in order of first appearance: 1, 3, 2.
		want: []data.Example{
			ex(-1, 0, 0.5, 1, 2), ex(1, 2, 1), ex(1, 0, 1), ex(-1, 1, -1.5),
			ex(0, 2, 1), ex(1, 0, 1), ex(2.5, 2, 0.25),
		},
		names: []string{"1", "3", "2"},
	},
	{
		name:   "libsvm blanks qid zeros comments unsorted",
		in:     "# a comment\n\n  \n2.5 qid:3 1:1 4:0 \t\n-1\t7:1e-3\t2:3 \n-1 \n",
		format: data.FormatLibSVM, layout: "libsvm",
		// 4:0 allocates no feature; the row "7:1e-3 2:3" is sorted by
		// index before it is numbered.
		want:  []data.Example{ex(2.5, 0, 1), ex(-1, 1, 3, 2, 1e-3), ex(-1)},
		names: []string{"1", "2", "7"},
	},
	{
		name: "libsvm forced",
		set:  data.ReaderSettings{Format: data.FormatLibSVM},
		in:   "1 1:1\n", format: data.FormatLibSVM, layout: "libsvm",
		want:  []data.Example{ex(1, 0, 1)},
		names: []string{"1"},
	},
	{
		name:   "u.data",
		in:     "10\t20\t4\t881250949\n11\t20\t3\t881250950\n10\t21\t5\t881250951\n",
		format: data.FormatMovieLens, layout: "movielens u.data (tab)",
		want:  []data.Example{ex(4, 0, 1, 1, 1), ex(3, 2, 1, 1, 1), ex(5, 0, 1, 3, 1)},
		names: []string{"user=10", "item=20", "user=11", "item=21"},
	},
	{
		name:   "user-item-rating tsv",
		in:     "5\t9\t1\n6\t9\t2\n",
		format: data.FormatMovieLens, layout: "movielens user-item-rating (tab)",
		want:  []data.Example{ex(1, 0, 1, 1, 1), ex(2, 2, 1, 1, 1)},
		names: []string{"user=5", "item=9", "user=6"},
	},
	{
		name:   "ratings.dat",
		in:     "7::30::4::900000000\n7::31::2::900000001\n",
		format: data.FormatMovieLens, layout: "movielens ratings.dat (::)",
		want:  []data.Example{ex(4, 0, 1, 1, 1), ex(2, 0, 1, 2, 1)},
		names: []string{"user=7", "item=30", "item=31"},
	},
	{
		name:   "ratings.csv",
		in:     "userId,movieId,rating,timestamp\n3,50,3.5,1100000000\n4,50,0.5,1100000001\n",
		format: data.FormatMovieLens, layout: "movielens ratings.csv",
		want:  []data.Example{ex(3.5, 0, 1, 1, 1), ex(0.5, 2, 1, 1, 1)},
		names: []string{"user=3", "item=50", "user=4"},
	},
	{
		name:   "movielens forced with header",
		set:    data.ReaderSettings{Format: data.FormatMovieLens},
		in:     "user\titem\trating\nu1\ti1\t4\n",
		format: data.FormatMovieLens, layout: "movielens user-item-rating (tab)",
		want:  []data.Example{ex(4, 0, 1, 1, 1)},
		names: []string{"user=u1", "item=i1"},
	},
	{
		name:   "movielens bad rows",
		set:    data.ReaderSettings{Format: data.FormatMovieLens},
		in:     "1\t2\t3\t4\n1\t2\tfive\t4\n1\t2\t3\n\t2\t3\t4\n2\t3\t4\t5\n",
		format: data.FormatMovieLens, layout: "movielens u.data (tab)",
		want:  []data.Example{ex(3, 0, 1, 1, 1), ex(4, 2, 1, 3, 1)},
		names: []string{"user=1", "item=2", "user=2", "item=3"},
		errs: []string{
			`core: input:2: field "rating": "five" is not a number`,
			`core: input:3: row: has 3 fields separated by "\t", want 4 (user, item, rating, timestamp)`,
			`core: input:4: field "user": is empty, want a user ID`,
		},
	},
	{
		name:   "csv guessed roles",
		set:    data.ReaderSettings{Name: "data.csv"},
		in:     "id,age,city,timestamp,clicked\n1,30,Paris,2020-01-01,1\n2,,Lyon,2020-01-02,0\n3,60,Paris,x,1\n",
		format: data.FormatCSV, layout: "csv (,), label \"clicked\"",
		want: []data.Example{
			ex(1, 0, 30, 1, 1, 2, 1),
			ex(0, 3, 1, 4, 1),
			ex(1, 0, 60, 5, 1, 2, 1),
		},
		names: []string{"age", "id=1", "city=Paris", "id=2", "city=Lyon", "id=3"},
		cols: []data.Column{
			{"id", data.RoleCategorical}, {"age", data.RoleNumeric}, {"city", data.RoleCategorical},
			{"timestamp", data.RoleIgnore}, {"clicked", data.RoleLabel},
		},
	},
	{
		name:   "csv last column is the label",
		in:     "a,b,c\n1,x,3\n-2,y,4\n",
		format: data.FormatCSV, layout: "csv (,), label \"c\"",
		want:  []data.Example{ex(3, 0, 1, 1, 1), ex(4, 0, -2, 2, 1)},
		names: []string{"a", "b=x", "b=y"},
		cols:  []data.Column{{"a", data.RoleNumeric}, {"b", data.RoleCategorical}, {"c", data.RoleLabel}},
	},
	{
		name:   "csv roles override",
		set:    data.ReaderSettings{Roles: map[string]data.Role{"age": data.RoleCategorical, "score": data.RoleLabel, "y": data.RoleNumeric, "note": data.RoleIgnore}},
		in:     "age,y,note,score\n30,2,hello,0.5\n",
		format: data.FormatCSV, layout: "csv (,), label \"score\"",
		want:  []data.Example{ex(0.5, 0, 2, 1, 1)},
		names: []string{"y", "age=30"},
		cols:  []data.Column{{"age", data.RoleCategorical}, {"y", data.RoleNumeric}, {"note", data.RoleIgnore}, {"score", data.RoleLabel}},
	},
	{
		name:   "csv ids and user item",
		in:     "user,item,movie_id,rating\n1,2,3,4\n",
		format: data.FormatCSV, layout: "csv (,), label \"rating\"",
		want:  []data.Example{ex(4, 0, 1, 1, 1, 2, 1)},
		names: []string{"user=1", "item=2", "movie_id=3"},
	},
	{
		name:   "csv quoted fields",
		in:     "name,\"note, with comma\",y\n\"Smith, J\",\"He said \"\"hi\"\"\",1\n  plain , \"\" ,2\n",
		format: data.FormatCSV, layout: "csv (,), label \"y\"",
		want:  []data.Example{ex(1, 0, 1, 1, 1), ex(2, 2, 1)},
		names: []string{`name=Smith, J`, `note, with comma=He said "hi"`, "name=plain"},
	},
	{
		name:   "csv semicolon",
		in:     "a;b;y\n1,5;x;2\n",
		format: data.FormatCSV, layout: "csv (;), label \"y\"",
		// "1,5" is 1.5 written with a decimal comma.
		want:  []data.Example{ex(2, 0, 1.5, 1, 1)},
		names: []string{"a", "b=x"},
		warns: []string{`input: column "a" has numbers with a decimal comma ("1,5"): they are read as numbers, the comma as the decimal point.`},
	},
	{
		name:   "csv tab",
		in:     "f\tg\tlabel\n1\t2\t-1\n",
		format: data.FormatCSV, layout: "csv (tab), label \"label\"",
		want:  []data.Example{ex(-1, 0, 1, 1, 2)},
		names: []string{"f", "g"},
	},
	{
		name:   "csv errors",
		set:    data.ReaderSettings{Name: "data.csv", Format: data.FormatCSV},
		in:     "user_id,rating\n1,4\n2,five\n3\n\"4,5\n5,\"6\"x\n6,\n7,2\n",
		format: data.FormatCSV, layout: "csv (,), label \"rating\"",
		want:  []data.Example{ex(4, 0, 1), ex(2, 1, 1)},
		names: []string{"user_id=1", "user_id=7"},
		errs: []string{
			`core: data.csv:3: field "rating": "five" is not a number (want a number: -1/+1 or 0/1 for two classes, any number for regression)`,
			`core: data.csv:4: row: has 1 fields, want 2 as in the header`,
			`core: data.csv:5: field 1: quoted field is not closed: want a closing quote on the same line (a field cannot span lines)`,
			`core: data.csv:6: field 2: unexpected text after the closing quote, want "," or the end of the line`,
			`core: data.csv:7: field "rating": label is empty, want a number`,
		},
	},
	{
		name:   "crlf and bom",
		in:     "\ufeffid,y\r\n1,2\r\n\r\n# c\r\n2,3\r\n",
		format: data.FormatCSV, layout: "csv (,), label \"y\"",
		want:  []data.Example{ex(2, 0, 1), ex(3, 1, 1)},
		names: []string{"id=1", "id=2"},
		cols:  []data.Column{{"id", data.RoleCategorical}, {"y", data.RoleLabel}},
	},
	{
		name:   "libsvm crlf bom",
		in:     "\ufeff+1 1:1\r\n-1 2:1\r\n",
		format: data.FormatLibSVM, layout: "libsvm",
		want:  []data.Example{ex(1, 0, 1), ex(-1, 1, 1)},
		names: []string{"1", "2"},
	},
	{
		name:   "libsvm errors",
		set:    data.ReaderSettings{Name: "t.svm", Format: data.FormatLibSVM},
		in:     "1 1:1\n1 0:1\n1 3\nx 1:1\n1 2:abc\n1 2:1 2:3\n1 2:inf\n-1 2:2\n1 3:5 3:0\n1 3:0 3:5\n",
		format: data.FormatLibSVM, layout: "libsvm",
		want:  []data.Example{ex(1, 0, 1), ex(-1, 1, 2)},
		names: []string{"1", "2"},
		errs: []string{
			`core: t.svm:2: field 2: index 0: LibSVM indices are 1-based (want an integer in [1, 2147483647])`,
			`core: t.svm:3: field 2: "3" is not index:value (e.g. 3:0.5)`,
			`core: t.svm:4: label: "x" is not a number (want a number: -1/+1 or 0/1 for two classes, any number for regression)`,
			`core: t.svm:5: field 2: value of index 2 "abc" is not a number`,
			`core: t.svm:6: field 3: index 2 repeated (want each index once per row)`,
			`core: t.svm:7: field 2: value of index 2 "inf" is not a finite number (want a finite number; leave a missing value empty)`,
			`core: t.svm:9: field 3: index 3 repeated (want each index once per row)`,
			`core: t.svm:10: field 3: index 3 repeated (want each index once per row)`,
		},
	},
}

func TestStreamFormats(t *testing.T) {
	for _, c := range streamCases {
		t.Run(c.name, func(t *testing.T) {
			for _, compressed := range []bool{false, true} {
				in := []byte(c.in)
				if compressed {
					in = gzipBytes(t, in)
				}
				s, err := data.NewStream(bytes.NewReader(in), c.set)
				if err != nil {
					t.Fatalf("gzip %v: NewStream: %v", compressed, err)
				}
				if s.Format() != c.format || s.Layout() != c.layout {
					t.Errorf("gzip %v: format %q layout %q, want %q %q", compressed, s.Format(), s.Layout(), c.format, c.layout)
				}
				got, errs, end := readAll(t, s)
				if end != nil {
					t.Fatalf("gzip %v: %v", compressed, end)
				}
				if len(got) != len(c.want) {
					t.Fatalf("gzip %v: got %d examples %v, want %d %v", compressed, len(got), got, len(c.want), c.want)
				}
				for k := range got {
					if !sameExample(got[k], c.want[k]) {
						t.Errorf("gzip %v: example %d = %v, want %v", compressed, k, got[k], c.want[k])
					}
				}
				if strings.Join(errs, "\n") != strings.Join(c.errs, "\n") {
					t.Errorf("gzip %v: errors\n%s\nwant\n%s", compressed, strings.Join(errs, "\n"), strings.Join(c.errs, "\n"))
				}
				var names []string
				for i := range s.Dim() {
					names = append(names, s.FeatureName(i))
				}
				if strings.Join(names, "|") != strings.Join(c.names, "|") {
					t.Errorf("gzip %v: names %q, want %q", compressed, names, c.names)
				}
				if strings.Join(s.Warnings(), "\n") != strings.Join(c.warns, "\n") {
					t.Errorf("gzip %v: warnings %q, want %q", compressed, s.Warnings(), c.warns)
				}
				if c.cols != nil {
					cols := s.Columns()
					if len(cols) != len(c.cols) {
						t.Fatalf("columns %v, want %v", cols, c.cols)
					}
					for j := range cols {
						if cols[j] != c.cols[j] {
							t.Errorf("column %d = %v, want %v", j, cols[j], c.cols[j])
						}
					}
				}
				if c.format != data.FormatCSV && s.Columns() != nil {
					t.Errorf("Columns() = %v for %s, want nil", s.Columns(), c.format)
				}
			}
		})
	}
}

func TestStreamNewStreamErrors(t *testing.T) {
	binary := []byte("\x00\x01\x02garbage\xff\xfe\n\x00\x00")
	cases := []struct {
		name string
		set  data.ReaderSettings
		in   []byte
		want string
	}{
		{"empty", data.ReaderSettings{Name: "e.txt"}, nil, "core: e.txt: the file is empty, want LibSVM, CSV or MovieLens rows"},
		{"comments only", data.ReaderSettings{}, []byte("# x\n\n   \n"), "core: input: no data: all 3 lines are blank or # comments, want LibSVM, CSV or MovieLens rows"},
		{"empty gzip", data.ReaderSettings{Name: "e.gz"}, gzipBytes(t, nil), "core: e.gz: the file is empty, want LibSVM, CSV or MovieLens rows"},
		{"empty csv", data.ReaderSettings{Format: data.FormatCSV}, nil, "core: input: the file is empty, want LibSVM, CSV or MovieLens rows"},
		{"empty libsvm", data.ReaderSettings{Format: data.FormatLibSVM}, nil, "core: input: the file is empty, want LibSVM, CSV or MovieLens rows"},
		{"binary", data.ReaderSettings{Name: "x.bin"}, binary, "core: x.bin: binary data (a NUL byte or control characters in the first 4096 bytes), want text: LibSVM, CSV or MovieLens, plain or gzip"},
		{"binary forced", data.ReaderSettings{Name: "x.bin", Format: data.FormatLibSVM}, binary, "core: x.bin: binary data (a NUL byte or control characters in the first 4096 bytes), want text: LibSVM, CSV or MovieLens, plain or gzip"},
		{"binary gzip", data.ReaderSettings{Name: "x.gz"}, gzipBytes(t, binary), "core: x.gz: binary data (a NUL byte or control characters in the first 4096 bytes), want text: LibSVM, CSV or MovieLens, plain or gzip"},
		{"text", data.ReaderSettings{Name: "t"}, []byte("hello world\nfoo bar\n"),
			`core: t: cannot recognise the format: most lines are not LibSVM or MovieLens rows, and line 1 ("hello world") is not a CSV header of two or more columns separated by ',', ';' or tab`},
		{"headless csv", data.ReaderSettings{Name: "t"}, []byte("1,2,3\n4,5,6\n"),
			`core: t: cannot recognise the format: most lines are not LibSVM or MovieLens rows, and line 1 ("1,2,3") looks like data, but a CSV needs a header row`},
		{"ragged", data.ReaderSettings{Name: "t"}, []byte("a,b\n1\n2\n3,4\n"),
			"core: t: cannot recognise the format: most lines are not LibSVM or MovieLens rows, and only 1 of the 3 rows read after the CSV header on line 1 have its 2 fields"},
		{"header only", data.ReaderSettings{Name: "h.csv"}, []byte("a,b\n"), `core: h.csv:1: no data rows after the CSV header "a,b", want at least one row`},
		{"ratings.csv header only", data.ReaderSettings{Name: "ratings.csv"}, []byte("\ufeffuserId,movieId,rating,timestamp\r\n"),
			`core: ratings.csv:1: no data rows after the header "userId,movieId,rating,timestamp", want at least one row`},
		{"movielens header only", data.ReaderSettings{Format: data.FormatMovieLens}, []byte("user\titem\trating\n"),
			`core: input:1: no data rows after the header "user\titem\trating", want at least one row`},
		{"unknown format", data.ReaderSettings{Format: "xml"}, []byte("1 1:1\n"),
			`core: unknown format "xml" (want auto, libsvm, csv or movielens)`},
		{"unknown role column", data.ReaderSettings{Roles: map[string]data.Role{"z": data.RoleLabel}}, []byte("a,b\n1,2\n"),
			`core: input: ReaderSettings.Roles names column "z", which is not in the header ["a" "b"]`},
		{"two labels", data.ReaderSettings{Roles: map[string]data.Role{"a": data.RoleLabel, "b": data.RoleLabel}}, []byte("a,b\n1,2\n"),
			"core: input: ReaderSettings.Roles gives 2 label columns, want one"},
		{"no label", data.ReaderSettings{Roles: map[string]data.Role{"a": data.RoleNumeric, "b": data.RoleIgnore}}, []byte("a,b\n1,2\n"),
			"core: input: no label column: ReaderSettings.Roles sets every column and none is RoleLabel"},
		{"bad role", data.ReaderSettings{Roles: map[string]data.Role{"a": data.Role(9)}}, []byte("a,b\n1,2\n"),
			`core: input: ReaderSettings.Roles gives column "a" the invalid role 9`},
		{"repeated column", data.ReaderSettings{Name: "r.csv"}, []byte("a,b,a\n1,2,3\n"),
			`core: r.csv:1: header field 3: column name "a" repeated`},
		{"movielens unreadable", data.ReaderSettings{Format: data.FormatMovieLens}, []byte("1 2 3\n"),
			`core: input:1: cannot read "1 2 3" as MovieLens: want fields separated by "::", tab or comma`},
		{"movielens 2 fields", data.ReaderSettings{Format: data.FormatMovieLens}, []byte("\n1\t2\n"),
			`core: input:2: cannot read "1\t2" as MovieLens: 2 fields separated by "\t", want 3 or 4 (user, item, rating[, timestamp])`},
		{"bad gzip header", data.ReaderSettings{Name: "b.gz"}, []byte("\x1f\x8b\x00"), "core: b.gz: gzip: unexpected EOF: the file is cut short (truncated)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, err := data.NewStream(bytes.NewReader(c.in), c.set)
			if err == nil {
				t.Fatalf("NewStream succeeded with format %s", s.Format())
			}
			if err.Error() != c.want {
				t.Errorf("error\n%s\nwant\n%s", err, c.want)
			}
		})
	}
}

func TestStreamLongLines(t *testing.T) {
	// A line over the limit is a ParseError and reading goes on.
	long := "1"
	for f := 1; f <= 100; f++ {
		long += " " + str.Itoa(f) + ":1"
	}
	for _, in := range []string{
		"1 1:1\n" + long + "\n-1 2:1\n",
		long + "\n1 1:1\n-1 2:1",
	} {
		for _, limit := range []int{50, 1000} {
			s, err := data.NewStreamLimit(strings.NewReader(in), data.ReaderSettings{Name: "l"}, limit)
			if err != nil {
				t.Fatal(err)
			}
			got, errs, end := readAll(t, s)
			if end != nil {
				t.Fatal(end)
			}
			if limit == 1000 {
				if len(errs) != 0 {
					t.Errorf("limit %d: errors %v", limit, errs)
				}
				continue
			}
			if len(got) != 2 || len(errs) != 1 || !strings.HasSuffix(errs[0], ": line: longer than 50 bytes, the limit of a line") {
				t.Errorf("limit %d: got %d examples, errors %q", limit, len(got), errs)
			}
		}
	}

	// Lines longer than the bufio buffer are read whole.
	var b strings.Builder
	b.WriteString("-1")
	for f := 1; f <= 30000; f++ {
		b.WriteString(" " + str.Itoa(f) + ":1")
	}
	b.WriteString("\n+1 3:1\n")
	s, err := data.NewStream(strings.NewReader(b.String()), data.ReaderSettings{})
	if err != nil {
		t.Fatal(err)
	}
	got, errs, end := readAll(t, s)
	if end != nil || len(errs) != 0 || len(got) != 2 || got[0].X.Len() != 30000 || s.Dim() != 30000 {
		t.Fatalf("got %d examples, errors %v, end %v, Dim %d", len(got), errs, end, s.Dim())
	}
}

func TestStreamLine(t *testing.T) {
	s, err := data.NewStream(strings.NewReader("# c\na,y\n\n1,2\n3,4\n"), data.ReaderSettings{})
	if err != nil {
		t.Fatal(err)
	}
	if s.Line() != 2 {
		t.Errorf("Line() = %d before Next, want 2 (the header)", s.Line())
	}
	var e data.Example
	for _, want := range []int{4, 5} {
		if err := s.Next(&e); err != nil {
			t.Fatal(err)
		}
		if s.Line() != want {
			t.Errorf("Line() = %d, want %d", s.Line(), want)
		}
	}
}

func TestStreamManyRows(t *testing.T) {
	// More rows than are read ahead: the replay hands over to live reading
	// without losing or repeating a line.
	for _, n := range []int{data.SniffLines - 1, data.SniffLines, data.SniffLines + 1, 3 * data.SniffLines} {
		var b strings.Builder
		b.WriteString("n,y\n")
		for k := range n {
			b.WriteString(str.Itoa(k) + "," + str.Itoa(k%2) + "\n")
		}
		s, err := data.NewStream(strings.NewReader(b.String()), data.ReaderSettings{})
		if err != nil {
			t.Fatal(err)
		}
		got, errs, end := readAll(t, s)
		if end != nil || len(errs) != 0 || len(got) != n {
			t.Fatalf("n %d: got %d examples, errors %v, end %v", n, len(got), errs, end)
		}
		for k, e := range got {
			if e.Y != float64(k%2) {
				t.Fatalf("n %d: row %d has label %v", n, k, e.Y)
			}
		}
	}
}

func TestStreamFeatureNamePanics(t *testing.T) {
	s, err := data.NewStream(strings.NewReader("1 2:1\n"), data.ReaderSettings{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if recover() == nil {
			t.Error("FeatureName(0) before any row did not panic")
		}
	}()
	s.FeatureName(0)
}

func TestParseNumber(t *testing.T) {
	// The fast path must agree with strconv.ParseFloat.
	good := []string{"0", "1", "-1", "+1", "1.0", "-1.0", "0.731854", "-0.00081", "3.", ".5",
		"123456789012345", "1234567890123456789", "0.000000000000000000000001", "1e3", "1E-3",
		"00012", "4.99999999999999999", "1.7976931348623157e308"}
	for _, in := range good {
		v, ok := data.ParseNumber([]byte(in))
		if !ok {
			t.Errorf("data.ParseNumber(%q) failed", in)
			continue
		}
		if w, _ := strconv.ParseFloat(in, 64); v != w {
			t.Errorf("data.ParseNumber(%q) = %v, want %v", in, v, w)
		}
	}
	// Go's literal syntax is not data: digit separators and hexadecimal.
	for _, in := range []string{"", "-", "+", ".", "-.", "1..2", "abc", "1,5", "inf", "NaN", "1e400", "--1", "1 ",
		"1_000", "1_0.5", "-1_000", "0x1p-2", "0X1P-2", "-0x10", "0x10", "0b101", "0o17"} {
		if v, ok := data.ParseNumber([]byte(in)); ok {
			t.Errorf("data.ParseNumber(%q) = %v, want failure", in, v)
		}
	}
}

func TestStreamHotPathAllocations(t *testing.T) {
	// Once the dictionaries hold every value, Next allocates nothing.
	row := map[string]func(k int) string{
		"u.data": func(k int) string {
			return str.Itoa(k%50+1) + "\t" + str.Itoa(k%70+1) + "\t" + str.Itoa(k%5+1) + "\t881250949\n"
		},
		"ratings.dat": func(k int) string {
			return str.Itoa(k%50+1) + "::" + str.Itoa(k%70+1) + "::" + str.Itoa(k%5+1) + "::881250949\n"
		},
		"libsvm": func(k int) string {
			return "-1.0 " + str.Itoa(k%9+1) + ":0.731854 12:-0.5 " + str.Itoa(k%50+20) + ":1e-3\n"
		},
		"csv": func(k int) string {
			if k == 0 {
				return "user_id,age,city,\"note\",y\n"
			}
			return str.Itoa(k%40) + "," + str.Itoa(k%90) + ".5,\"c" + str.Itoa(k%7) + "\",\"a \"\"b\"\"\"," + str.Itoa(k%2) + "\n"
		},
	}
	for name, row := range row {
		var b strings.Builder
		for k := range 1000 {
			b.WriteString(row(k))
		}
		s, err := data.NewStream(strings.NewReader(b.String()), data.ReaderSettings{})
		if err != nil {
			t.Fatal(err)
		}
		var e data.Example
		for range 600 { // pass the replayed lines and fill the dictionaries
			if err := s.Next(&e); err != nil {
				t.Fatal(name, err)
			}
		}
		allocs := testing.AllocsPerRun(300, func() {
			if err := s.Next(&e); err != nil {
				t.Fatal(name, err)
			}
		})
		if allocs != 0 {
			t.Errorf("%s: Next allocates %v times a row, want 0", name, allocs)
		}
	}
}

// TestStreamBoundedMemory checks that a line over the limit is skipped
// without being held whole (100 MB through a 1 MiB limit allocates a few
// MiB), and that comment lines read ahead are not held: 10 MiB of them
// before the rows leave a Stream of a few hundred KiB.
func TestStreamBoundedMemory(t *testing.T) {
	clean, err := os.ReadFile(filepath.Join("..", "..", "testdata", "bad", "clean.libsvm"))
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	in := io.MultiReader(strings.NewReader("1"), badinput.Repeat([]byte(" 1:1"), 100<<20),
		strings.NewReader("\n"), bytes.NewReader(clean))
	s, err := data.NewStreamLimit(in, data.ReaderSettings{Name: "long"}, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	got, errs, end := readAll(t, s)
	runtime.ReadMemStats(&after)
	if end != nil || len(got) != 20 || len(errs) != 1 ||
		errs[0] != "core: long:1: line: longer than 1048576 bytes (1 MiB), the limit of a line" {
		t.Fatalf("%d rows, errors %q, end %v", len(got), errs, end)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 16<<20 {
		t.Errorf("reading a 100 MB line through a 1 MiB limit allocated %d MiB", alloc>>20)
	}

	in = io.MultiReader(badinput.Repeat([]byte("# a comment line of 32 bytes...\n"), 10<<20),
		bytes.NewReader(bytes.Repeat(clean, 10)))
	s, err = data.NewStream(in, data.ReaderSettings{})
	if err != nil {
		t.Fatal(err)
	}
	if m := s.MemoryBytes(); m > 512<<10 {
		t.Errorf("MemoryBytes() = %d KiB after 10 MiB of comments and 200 rows read ahead", m>>10)
	}
	if got, errs, end = readAll(t, s); end != nil || len(errs) != 0 || len(got) != 200 {
		t.Errorf("%d rows, errors %q, end %v", len(got), errs, end)
	}
}

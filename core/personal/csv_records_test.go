package personal

import (
	"bytes"
	"encoding/csv"
	"errors"
	"io"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// csvRecordCases are inputs on which csvRecords must read what
// encoding/csv's Reader reads (testCSVSame); they seed FuzzCSVRecords.
var csvRecordCases = []string{
	"",
	"\n",
	"\r\n",
	"\r",
	"\n\n\r\n",
	"movieId,title,genres\n1,Toy Story (1995),Animation|Children's\n",
	"a,b,c",
	"a,b,c\n",
	"a,b,c\r\n",
	"a,b,c\r",
	"a,b,c\r\r",
	"a,b,c\r\r\n",
	"a\rb,c\n",
	"\r\ra\n",
	// empty fields
	",",
	",,\n",
	"a,,c\n",
	"a,b,\n",
	`"",""` + "\n",
	`a,"",c`,
	// blank lines and spaces
	"\n\na,b\n\n\nc,d\n\n",
	"\r\n\r\na,b\r\n\r\nc,d",
	" \n",
	"a,b\n \nc\n",
	"\t,\t\n",
	// quotes
	`"a","b","c"`,
	`"a,b",c` + "\n",
	`"a ""quoted"" word",x` + "\n",
	`""""` + "\n",
	`"""",""""""` + "\n",
	`"a""b"`,
	`"a"` + "\r\n" + `"b"` + "\r\n",
	// multi-line quoted fields, CR-LF inside them normalised
	"\"multi\nline\",x\n",
	"\"multi\r\nline\",x\r\n",
	"\"a\r\n\r\nb\"\r\n",
	"\"a\rb\"\n",
	"\"\n\",\"\n\"\n",
	"\"\n\n\n\"\n",
	"x\n\"a\nb\nc\",\"d\ne\"\ny\n",
	// bare quotes
	`a"b,c` + "\n",
	`a,b"` + "\n",
	`a,"b"c"` + "\n",
	` "a",b` + "\n",
	"a,b\nc,d\"e\n",
	"\"a\nb\",c\"\n",
	"\"a\nb\",c,d\"\n",
	// extraneous quotes
	`"a"b,c` + "\n",
	`"a" ,b` + "\n",
	`a,"b"x` + "\n",
	`"a""b"c`,
	"\"a\nb\"c\n",
	"\"a\r\nb\"c\r\n",
	"\"a\"\r\r\n",
	`"a"` + "\r",
	`"a"` + "\rb",
	// unterminated quotes
	`"`,
	`"` + "\n",
	`"` + "\r\n",
	`"` + "\r",
	`"abc`,
	`"abc` + "\n",
	`"abc` + "\r\n",
	`"abc` + "\n\r",
	`"abc` + "\n\n",
	`"abc` + "\n\n\n",
	`"abc` + "\r\n\r\n",
	`"ab"",c`,
	`a,"b`,
	`a,"b` + "\nc\n",
	"x\ny\n\"a\nbc\r\nd",
	`"a""`,
	`""""""`,
	// UTF-8, and bytes that are not
	"movieId,title,genres\n1,\"Misérables, Les (1995)\",Drama\n",
	"é,\"ü,ö\",日本\n",
	"\"é\"x\n",
	"é\"\n",
	"\xe9,\"\xff\xfe\",\x80\n",
	"\"\xe9\"\xe9\n",
	"\xef\xbb\xbfa,b\n",
	"\x00,\"\x00\"\n",
}

// csvOutcome is what reading a whole input gave: the records and the line
// each starts on, then the error (line, column, message), if any.
type csvOutcome struct {
	records [][]string
	lines   []int
	err     string
}

// readCSVStd reads in with encoding/csv's Reader set up as readItemsCSV set
// it up before csvRecords.
func readCSVStd(t testing.TB, in string) csvOutcome {
	cr := csv.NewReader(strings.NewReader(in))
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	var o csvOutcome
	for {
		f, err := cr.Read()
		if err == io.EOF {
			return o
		}
		if err != nil {
			var pe *csv.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("%q: encoding/csv: %v is no *csv.ParseError", in, err)
			}
			o.err = strconv.Itoa(pe.Line) + ":" + strconv.Itoa(pe.Column) + ": " + pe.Err.Error()
			return o
		}
		line, col := cr.FieldPos(0)
		if col != 1 {
			t.Fatalf("%q: encoding/csv: a record starts at column %d", in, col)
		}
		o.records = append(o.records, slices.Clone(f))
		o.lines = append(o.lines, line)
	}
}

// readCSVOwn reads in with csvRecords.
func readCSVOwn(in string) csvOutcome {
	data := []byte(in)
	r := newCSVRecords(data)
	var o csvOutcome
	for {
		f, ok, err := r.next()
		if err != nil {
			o.err = strconv.Itoa(err.Line) + ":" + strconv.Itoa(err.Column) + ": " + err.Msg
			break
		}
		if !ok {
			break
		}
		o.records = append(o.records, slices.Clone(f))
		o.lines = append(o.lines, r.start)
	}
	if string(data) != in {
		o.err += " (the input was changed)"
	}
	return o
}

// testCSVSame fails t unless csvRecords reads in as encoding/csv does.
func testCSVSame(t testing.TB, in string) {
	want := readCSVStd(t, in)
	got := readCSVOwn(in)
	if got.err != want.err || !slices.Equal(got.lines, want.lines) ||
		!slices.EqualFunc(got.records, want.records, slices.Equal[[]string]) {
		t.Errorf("%q:\ncsvRecords:   %q, lines %v, error %q\nencoding/csv: %q, lines %v, error %q",
			in, got.records, got.lines, got.err, want.records, want.lines, want.err)
	}
}

func TestCSVRecords(t *testing.T) {
	for _, in := range csvRecordCases {
		testCSVSame(t, in)
	}
	// A few outcomes spelled out, so that the comparison is not vacuous.
	for _, c := range []struct {
		in   string
		want csvOutcome
	}{
		{"\n\"a\r\nb\",\"\"\"\"\r\n\r\nc,\n", csvOutcome{records: [][]string{{"a\nb", `"`}, {"c", ""}}, lines: []int{2, 5}}},
		{"a,b\nc,d\"e\n", csvOutcome{records: [][]string{{"a", "b"}}, lines: []int{1}, err: `2:4: bare " in non-quoted-field`}},
		{"x\n\"a\nb\"c\n", csvOutcome{records: [][]string{{"x"}}, lines: []int{1}, err: `3:2: extraneous or missing " in quoted-field`}},
		{"\"abc\r\n", csvOutcome{err: `1:6: extraneous or missing " in quoted-field`}},
	} {
		testCSVSame(t, c.in)
		if got := readCSVOwn(c.in); got.err != c.want.err || !slices.Equal(got.lines, c.want.lines) ||
			!slices.EqualFunc(got.records, c.want.records, slices.Equal[[]string]) {
			t.Errorf("%q: %q, lines %v, error %q; want %q, lines %v, error %q",
				c.in, got.records, got.lines, got.err, c.want.records, c.want.lines, c.want.err)
		}
	}
}

// TestCSVRecordsLong reads lines longer than encoding/csv's 4096-byte
// buffer, which it reads in pieces.
func TestCSVRecordsLong(t *testing.T) {
	long := strings.Repeat("x", 10000)
	for _, in := range []string{
		long + "," + long + "\n" + long,
		`"` + long + "\n" + long + `"` + "\n",
		`"` + long + "\n" + long,
		long + `"` + long,
		`"` + long + `"x`,
	} {
		testCSVSame(t, in)
	}
}

func FuzzCSVRecords(f *testing.F) {
	for _, in := range csvRecordCases {
		f.Add(in)
	}
	f.Fuzz(func(t *testing.T, in string) { testCSVSame(t, in) })
}

// csvWriterCases are records appendCSVRecord must write as encoding/csv's
// Writer does.
var csvWriterCases = [][]string{
	{"item_id", "title", "stars"},
	{"1", "Toy Story (1995)", "4.5"},
	{""},
	{"", ""},
	{"a,b", `say "hi"`, "two\nlines", "cr\rhere", "crlf\r\nhere"},
	{" lead", "\tlead", "trail ", "in side", "\u00a0nbsp", "\u2003em", "\u0085nel"},
	{`\.`, `\.x`, `x\.`, `\`},
	{`"`, `""`, `,`, "\n", "\r"},
	{"Misérables, Les (1995)", "日本", "\xff\xfe", "\xe9 x"},
}

// writeCSVStd writes records with encoding/csv's Writer.
func writeCSVStd(t testing.TB, records [][]string) string {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	for _, r := range records {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	w.Flush()
	return b.String()
}

func TestAppendCSVRecord(t *testing.T) {
	var got []byte
	for _, r := range csvWriterCases {
		got = appendCSVRecord(got, r...)
		if want := writeCSVStd(t, [][]string{r}); string(appendCSVRecord(nil, r...)) != want {
			t.Errorf("%q: %q, want %q", r, appendCSVRecord(nil, r...), want)
		}
	}
	if want := writeCSVStd(t, csvWriterCases); string(got) != want {
		t.Errorf("all records: %q, want %q", got, want)
	}
}

// FuzzAppendCSVRecord checks appendCSVRecord against encoding/csv's Writer
// on the fields of s separated by '|'.
func FuzzAppendCSVRecord(f *testing.F) {
	for _, r := range csvWriterCases {
		f.Add(strings.Join(r, "|"))
	}
	f.Fuzz(func(t *testing.T, s string) {
		r := strings.Split(s, "|")
		if got, want := string(appendCSVRecord(nil, r...)), writeCSVStd(t, [][]string{r}); got != want {
			t.Errorf("%q: %q, want %q", r, got, want)
		}
	})
}

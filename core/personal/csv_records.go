package personal

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"
)

// core reads and writes its little CSV (movies.csv in readItemsCSV,
// RatingsCSV's export) itself instead of with encoding/csv: csv.Reader's
// ParseError.Error calls fmt.Sprintf, and it was the last thing that linked
// fmt (and the reflection-driven printer under it) into the page's wasm
// binary (see TestCoreImports). Measured on GOOS=js GOARCH=wasm -trimpath
// -ldflags="-s -w" builds of ./wasm, bytes (gzip -9): with encoding/csv,
// 5,462,460 (1,502,824); with csvRecords for csv.Reader, 5,161,602
// (1,420,534), and no fmt code linked; with appendCSVRecord for csv.Writer
// too (which did not link fmt, but bufio's Writer), 5,151,533 (1,417,218).

// csvRecords reproduces encoding/csv's Reader as readItemsCSV used it
// (Comma ',', FieldsPerRecord -1, LazyQuotes and TrimLeadingSpace false,
// no comments): the same records and, for malformed input, the same line,
// column and message; csv_records_test.go compares the two on a table of
// cases and by fuzzing. The rules:
//
//   - A line ends at '\n'. A "\r\n" end counts as '\n' (one byte), also
//     inside a quoted field's value; the last line may lack its '\n', and
//     then one '\r' ending it is dropped. Any other '\r' is data.
//   - Empty lines (after those rules) are skipped; a line of spaces is a
//     record of one field.
//   - Fields are separated by ','. A field that starts with '"' is quoted:
//     it ends at a '"' followed by ',' or by the line's end, `""` stands for
//     '"', and it may span lines. Bytes are not decoded: invalid UTF-8 is
//     kept as it is, and columns count bytes.
//   - Errors: a '"' in an unquoted field is `bare " in non-quoted-field` at
//     its own line and column; a quote closing a quoted field and followed
//     by anything else is `extraneous or missing " in quoted-field` at that
//     quote's line and column; so is a quoted field the input ends in, at
//     the line of the field's last bytes and the column just after them
//     (its '\n' counted).
type csvRecords struct {
	rest   []byte   // input not read yet
	line   int      // number of the last line read, 1-based
	start  int      // line on which the last record returned starts
	buf    []byte   // the record's field values, one after another
	ends   []int    // end of each field in buf
	fields []string // the last record returned (reused)
}

// csvError is a malformed record: the 1-based line and byte column of the
// problem, as encoding/csv's ParseError gives them, and its message (the
// text of encoding/csv's ErrBareQuote or ErrQuote).
type csvError struct {
	Line, Column int
	Msg          string
}

const (
	csvBareQuote = `bare " in non-quoted-field`
	csvQuote     = `extraneous or missing " in quoted-field`
)

// newCSVRecords returns a reader of the records of data.
func newCSVRecords(data []byte) *csvRecords { return &csvRecords{rest: data} }

// nextLine returns the next line of input without its end, and whether it
// ended in '\n' (or "\r\n"); ok is false at the end of the input. A '\r'
// that ends the input is dropped.
func (r *csvRecords) nextLine() (text []byte, nl, ok bool) {
	if len(r.rest) == 0 {
		return nil, false, false
	}
	r.line++
	i := bytes.IndexByte(r.rest, '\n')
	if i < 0 {
		text, r.rest = r.rest, nil
		if n := len(text); text[n-1] == '\r' {
			text = text[:n-1]
		}
		return text, false, true
	}
	text, r.rest = r.rest[:i], r.rest[i+1:]
	if n := len(text); n > 0 && text[n-1] == '\r' {
		text = text[:n-1]
	}
	return text, true, true
}

// nonEmptyLine returns the next line that is not empty (see nextLine), or
// ok false at the end of the input: empty lines between records are
// skipped.
func (r *csvRecords) nonEmptyLine() (text []byte, nl, ok bool) {
	for {
		if text, nl, ok = r.nextLine(); !ok || len(text) > 0 {
			return text, nl, ok
		}
	}
}

// next returns the next record, or ok false at the end of the input, or a
// *csvError. The slice is reused by the next call; the line on which the
// record starts is r.start.
func (r *csvRecords) next() (fields []string, ok bool, err *csvError) {
	text, nl, ok := r.nonEmptyLine()
	if !ok {
		return nil, false, nil
	}
	r.start = r.line
	r.buf, r.ends = r.buf[:0], r.ends[:0]
	col := 1 // column of text[0] on line r.line
fields:
	for {
		if len(text) == 0 || text[0] != '"' {
			f := text
			i := bytes.IndexByte(text, ',')
			if i >= 0 {
				f = text[:i]
			}
			if j := bytes.IndexByte(f, '"'); j >= 0 {
				return nil, false, &csvError{Line: r.line, Column: col + j, Msg: csvBareQuote}
			}
			r.buf = append(r.buf, f...)
			r.ends = append(r.ends, len(r.buf))
			if i < 0 {
				break fields
			}
			text, col = text[i+1:], col+i+1
			continue fields
		}
		// A quoted field: text[0] is its opening quote.
		text, col = text[1:], col+1
		for {
			i := bytes.IndexByte(text, '"')
			if i < 0 {
				// The field goes on past this line's end, on the next line
				// if it has any bytes at all.
				r.buf = append(r.buf, text...)
				col += len(text)
				last := r.line
				if nl {
					r.buf = append(r.buf, '\n')
					col++
					var more bool
					if text, nl, more = r.nextLine(); more && (len(text) > 0 || nl) {
						col = 1
						continue
					}
				}
				return nil, false, &csvError{Line: last, Column: col, Msg: csvQuote}
			}
			r.buf = append(r.buf, text[:i]...)
			text, col = text[i+1:], col+i+1
			switch {
			case len(text) == 0: // the line's end: the record's too
				r.ends = append(r.ends, len(r.buf))
				break fields
			case text[0] == ',':
				r.ends = append(r.ends, len(r.buf))
				text, col = text[1:], col+1
				continue fields
			case text[0] == '"':
				r.buf = append(r.buf, '"')
				text, col = text[1:], col+1
			default:
				return nil, false, &csvError{Line: r.line, Column: col - 1, Msg: csvQuote}
			}
		}
	}
	return r.split(), true, nil
}

// split returns the record's fields: r.buf cut at r.ends, as one string's
// substrings (one allocation a record).
func (r *csvRecords) split() []string {
	s := string(r.buf)
	r.fields = r.fields[:0]
	from := 0
	for _, end := range r.ends {
		r.fields = append(r.fields, s[from:end])
		from = end
	}
	return r.fields
}

// appendCSVRecord appends a record to b as encoding/csv's Writer writes it
// (Comma ',', UseCRLF false): the fields separated by ',', then '\n'. A
// field is quoted when it holds ',', '"', '\r' or '\n', starts with a space
// (unicode.IsSpace), or is `\.` (PostgreSQL's end-of-data mark); its quotes
// are doubled, the rest is kept as it is. The empty field is not quoted.
func appendCSVRecord(b []byte, fields ...string) []byte {
	for k, f := range fields {
		if k > 0 {
			b = append(b, ',')
		}
		if !csvNeedsQuotes(f) {
			b = append(b, f...)
			continue
		}
		b = append(b, '"')
		for i := 0; i < len(f); i++ {
			if f[i] == '"' {
				b = append(b, '"')
			}
			b = append(b, f[i])
		}
		b = append(b, '"')
	}
	return append(b, '\n')
}

// csvNeedsQuotes reports whether appendCSVRecord quotes the field f.
func csvNeedsQuotes(f string) bool {
	if f == "" {
		return false
	}
	if f == `\.` || strings.ContainsAny(f, ",\"\r\n") {
		return true
	}
	r, _ := utf8.DecodeRuneInString(f)
	return unicode.IsSpace(r)
}

package data

import (
	"bytes"
	"strings"

	"github.com/occfm/occfm/core/internal/str"
)

// This file splits CSV lines into fields, and finds the lines of a record
// whose quoted field runs over several lines, which the reader does not
// read: each of them is a malformed row.

// msgNotClosed is the message of a quoted field not closed on its line.
const msgNotClosed = "quoted field is not closed: want a closing quote on the same line (a field cannot span lines)"

// spanLines bounds the lines after a quoted field left open that are read
// ahead for the line that closes it (and sniffBytes their bytes).
const spanLines = 100

// split splits line into fields at c.sep, unquoting quoted fields into
// c.buf. It returns the number of fields, or, for a malformed line, the
// 1-based position of the bad field and a message: a quoted field not
// closed on the line (msgNotClosed), text after a closing quote, or a quote
// inside an unquoted field (`5" screen`, which RFC 4180 writes `"5"" screen"`):
// such a quote is most often the end of a quoted field that began on an
// earlier line, and reading the field as text would learn that line's
// fragment as a row.
func (c *csvLayout) split(line []byte) (int, string) {
	c.buf = c.buf[:0]
	c.ends = c.ends[:0]
	sep := c.sep
	quoted := bytes.IndexByte(line, '"') >= 0 // else no field needs a look for quotes
	i, n := 0, len(line)
	for {
		for i < n && isBlank(line[i], sep) {
			i++
		}
		if i < n && line[i] == '"' {
			i++
			for {
				j := bytes.IndexByte(line[i:], '"')
				if j < 0 {
					return len(c.ends) + 1, msgNotClosed
				}
				c.buf = append(c.buf, line[i:i+j]...)
				i += j + 1
				if i < n && line[i] == '"' { // "" inside quotes is one quote
					c.buf = append(c.buf, '"')
					i++
					continue
				}
				break
			}
			for i < n && isBlank(line[i], sep) {
				i++
			}
			c.ends = append(c.ends, len(c.buf))
			if i == n {
				return len(c.ends), ""
			}
			if line[i] != sep {
				return len(c.ends), "unexpected text after the closing quote, want " + str.Quote(string(sep)) + " or the end of the line"
			}
			i++
			continue
		}
		j := bytes.IndexByte(line[i:], sep)
		end := n
		if j >= 0 {
			end = i + j
		}
		k := end
		for k > i && isBlank(line[k-1], sep) {
			k--
		}
		if quoted && bytes.IndexByte(line[i:k], '"') >= 0 {
			return len(c.ends) + 1, bareQuote(line[i:k])
		}
		c.buf = append(c.buf, line[i:k]...)
		c.ends = append(c.ends, len(c.buf))
		if j < 0 {
			return len(c.ends), ""
		}
		i = end + 1
	}
}

// isBlank reports whether b is a blank that is not the separator.
func isBlank(b, sep byte) bool { return (b == ' ' || b == '\t') && b != sep }

// detectSeparator returns the most frequent of ',', '\t' and ';' in header
// outside double quotes (',' if none occurs; ties go in that order).
func detectSeparator(header []byte) byte {
	var comma, tab, semi int
	quoted := false
	for _, b := range header {
		switch {
		case b == '"':
			quoted = !quoted
		case quoted:
		case b == ',':
			comma++
		case b == '\t':
			tab++
		case b == ';':
			semi++
		}
	}
	sep, most := byte(','), comma
	if tab > most {
		sep, most = '\t', tab
	}
	if semi > most {
		sep = ';'
	}
	return sep
}

// bareQuote is the message of a quote inside the unquoted field v.
func bareQuote(v []byte) string {
	msg := "a quote inside an unquoted field (want the whole field quoted and its quotes doubled"
	if len(v) <= 40 {
		msg += ": " + `"` + strings.ReplaceAll(string(v), `"`, `""`) + `"`
	}
	return msg + ")"
}

var quoteByte = []byte{'"'}

// openField returns the message of the current line, which opens a quoted
// field and does not close it. When a later line closes it (an odd number
// of quotes, within spanLines lines), the lines up to that one are the rest
// of the record, as RFC 4180 reads it: nextCSV makes each of them a
// malformed row, so that no fragment of the record is learned as a row of
// its own. A quote that no line closes (a typo) leaves the next lines alone.
func (s *Stream) openField() string {
	to := s.closingLine()
	if to == 0 {
		return msgNotClosed
	}
	c := &s.csv
	c.spanFrom, c.spanTo = s.line, to
	rest := "line " + str.Itoa(to) + " is"
	if to > s.line+1 {
		rest = "lines " + str.Itoa(s.line+1) + "–" + str.Itoa(to) + " are"
	}
	return msgNotClosed[:len(msgNotClosed)-1] + ": this one runs to line " + str.Itoa(to) + ", and " + rest + " malformed too)"
}

// inOpenField returns the message of a line inside the record opened by
// openField, or "" for a line after it.
func (s *Stream) inOpenField() string {
	c := &s.csv
	if s.line > c.spanTo {
		return ""
	}
	return "inside the quoted field opened on line " + str.Itoa(c.spanFrom) + ", which runs to line " + str.Itoa(c.spanTo) + " (a field cannot span lines)"
}

// closingLine returns the line that closes the quoted field the current
// line leaves open: the first data line after it with an odd number of
// quotes, among the next spanLines lines and sniffBytes bytes, or 0. The
// lines it reads go to s.pending, which Next replays; the lines known to
// hold an even number of quotes are not counted again.
func (s *Stream) closingLine() int {
	size := 0
	for k, n := s.next, 0; n < spanLines; k, n = k+1, n+1 {
		if k == len(s.pending) && !s.readPending() {
			return 0
		}
		p := s.pending[k]
		if p.tooLong {
			return 0
		}
		if size += p.end - p.start; size > sniffBytes {
			return 0
		}
		if p.line <= s.csv.evenTo {
			continue
		}
		if bytes.Count(s.arena[p.start:p.end], quoteByte)%2 == 1 {
			return p.line
		}
		s.csv.evenTo = p.line
	}
	return 0
}

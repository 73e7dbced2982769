package data

import (
	"bytes"
	"errors"

	"github.com/occfm/occfm/core/internal/str"
)

// csvLayout is the layout of a CSV stream: its separator and columns, and
// the buffers of the field splitter.
type csvLayout struct {
	sep  byte
	cols []csvColumn
	// The fields of the last line split: field k is buf[ends[k-1]:ends[k]].
	buf  []byte
	ends []int
	// spanFrom and spanTo are the lines of the last record whose quoted
	// field runs over several lines (openField); evenTo is the last line
	// closingLine found to hold an even number of quotes.
	spanFrom, spanTo, evenTo int
}

// csvColumn is one CSV column.
type csvColumn struct {
	name    string
	role    Role
	field   string     // `field "name"`, for errors
	feature int        // RoleNumeric: the feature index
	scale   float64    // RoleNumeric: the divisor M of v/M: 1, or a model file's
	dict    dictionary // RoleCategorical: the values seen
	// decimalComma: RoleNumeric or RoleLabel values are written "15,0"
	// (the separator is not ',').
	decimalComma bool
}

// field returns field k of the last line split.
func (c *csvLayout) field(k int) []byte {
	start := 0
	if k > 0 {
		start = c.ends[k-1]
	}
	return c.buf[start:c.ends[k]:c.ends[k]]
}

// csvStats summarises the values of one column in the rows read ahead.
type csvStats struct {
	values  int    // non-empty values
	numbers int    // values that are numbers (NaN and Inf included)
	ints    int    // values that are non-negative integers
	commas  int    // numbers written with a decimal comma ("15,0")
	comma   string // the first of them, for the warning
}

// numeric reports whether the column holds numbers: more than 90 % of its
// values, so that a few malformed values do not turn a column of numbers
// into one-hot categories (they are ParseErrors naming their lines).
func (st *csvStats) numeric() bool { return st.values > 0 && st.numbers*10 > st.values*9 }

// integer reports whether more than 90 % of the column's values are
// non-negative integers.
func (st *csvStats) integer() bool { return st.values > 0 && st.ints*10 > st.values*9 }

// setupCSV reads the header, the first of the data lines read ahead, and
// sets the column roles from roles and from the rows read ahead. With
// recognising set (Format auto), it rejects text that does not look like a
// CSV with a header: it is the last format NewStream tries, so its messages
// say that the lines are not LibSVM or MovieLens either.
func (s *Stream) setupCSV(data []int, roles map[string]Role, recognising bool) error {
	hk := data[0]
	header := s.pendingText(hk)
	headerLine := s.pending[hk].line
	c := &s.csv
	c.sep = detectSeparator(header)
	unrecognised := func(why string) error {
		return errors.New("core: " + s.name + ": cannot recognise the format: most lines are not LibSVM or MovieLens rows, and " + why)
	}

	n, msg := c.split(header)
	if msg != "" {
		if recognising {
			return unrecognised("line " + str.Itoa(headerLine) + " (" + str.QuoteCut(header) + ") is not a CSV header: field " + str.Itoa(n) + ": " + msg)
		}
		return &ParseError{File: s.name, Line: headerLine, Field: "header field " + str.Itoa(n), Msg: msg}
	}
	if recognising && n < 2 {
		return unrecognised("line " + str.Itoa(headerLine) + " (" + str.QuoteCut(header) + ") is not a CSV header of two or more columns separated by ',', ';' or tab")
	}
	allNumbers, err := c.columns(n, s.name, headerLine)
	if err != nil {
		return err
	}
	if recognising && allNumbers {
		return unrecognised("line " + str.Itoa(headerLine) + " (" + str.QuoteCut(header) + ") looks like data, but a CSV needs a header row")
	}
	if allNumbers {
		s.warn(s.name + ":" + str.Itoa(headerLine) + ": the CSV header " + str.QuoteCut(header) + " holds only numbers: the file probably has no header row, and this row is read as the column names.")
	}

	// Summarise the rows read ahead.
	rows := data[1:]
	if len(rows) == 0 {
		return errors.New("core: " + s.name + ":" + str.Itoa(headerLine) + ": no data rows after the CSV header " + str.QuoteCut(header) + ", want at least one row")
	}
	stats, good := c.summarise(s, rows, n)
	if recognising && good*2 <= len(rows) {
		return unrecognised("only " + str.Itoa(good) + " of the " + str.Itoa(len(rows)) + " rows read after the CSV header on line " + str.Itoa(headerLine) + " have its " + str.Itoa(n) + " fields")
	}

	if err := s.assignRoles(roles, stats); err != nil {
		return err
	}
	for j := range c.cols {
		col := &c.cols[j]
		if (col.role == RoleNumeric || col.role == RoleLabel) && stats[j].commas > 0 {
			col.decimalComma = true
			s.warn(s.name + ": column " + str.Quote(col.name) + " has numbers with a decimal comma (" + str.Quote(stats[j].comma) + "): they are read as numbers, the comma as the decimal point.")
		}
		switch col.role {
		case RoleNumeric:
			col.feature = len(s.names)
			s.names = append(s.names, col.name)
			s.dictBytes += nameEntryBytes + int64(len(col.name))
			col.scale = 1 // the learners' guard scales numbers as they come (Scales)
		case RoleCategorical:
			col.dict = newDictionary(col.name + "=")
		}
	}

	s.pending[hk].skip = true
	s.line = headerLine
	s.format = FormatCSV
	switch c.sep {
	case '\t':
		s.layout = "csv (tab)"
	default:
		s.layout = "csv (" + string(c.sep) + ")"
	}
	for _, col := range c.cols {
		if col.role == RoleLabel {
			s.layout += ", label " + str.QuoteCut([]byte(col.name))
		}
	}
	return nil
}

// columns names the n columns from the header just split (an empty name
// is "column J"), and reports whether every name is a number, empty names
// aside (a line that ends with the separator has an empty last field). A
// name repeated is a ParseError of the header on line line of file.
func (c *csvLayout) columns(n int, file string, line int) (allNumbers bool, err error) {
	c.cols = make([]csvColumn, n)
	numbers, empty := 0, 0
	seen := make(map[string]bool, n)
	for j := range c.cols {
		v := c.field(j)
		if len(v) == 0 {
			empty++
		} else if _, ok := parseNumber(v); ok {
			numbers++
		}
		name := string(v)
		if name == "" {
			name = "column " + str.Itoa(j+1)
		}
		if seen[name] {
			return false, &ParseError{File: file, Line: line, Field: "header field " + str.Itoa(j+1),
				Msg: "column name " + str.Quote(name) + " repeated"}
		}
		seen[name] = true
		c.cols[j] = csvColumn{name: name, field: "field " + str.Quote(name)}
	}
	return numbers > 0 && numbers+empty == n, nil
}

// summarise returns the statistics of each of the n columns over the rows
// read ahead (the pending lines rows of s), and how many of those rows
// have n fields.
func (c *csvLayout) summarise(s *Stream, rows []int, n int) ([]csvStats, int) {
	stats := make([]csvStats, n)
	good := 0
	for _, k := range rows {
		m, msg := c.split(s.pendingText(k))
		if msg != "" || m != n {
			continue
		}
		good++
		for j := range stats {
			v := c.field(j)
			if len(v) == 0 {
				continue
			}
			st := &stats[j]
			st.values++
			_, ok := parseNumber(v)
			if !ok && c.sep != ',' {
				if _, ok = parseDecimalComma(v); ok {
					if st.commas == 0 {
						st.comma = string(v)
					}
					st.commas++
				}
			}
			if !ok {
				// NaN or Inf in a column of numbers leaves it numeric:
				// the row is malformed, not the column categorical.
				if nonFinite(v) {
					st.numbers++
				}
				continue
			}
			st.numbers++
			if isUint(v) {
				st.ints++
			}
		}
	}
	return stats, good
}

// parseDecimalComma parses a number written with a decimal comma, "15,0" or
// "-0,5e3": one comma, no point.
func parseDecimalComma(v []byte) (float64, bool) {
	i := bytes.IndexByte(v, ',')
	if i < 0 || bytes.IndexByte(v[i+1:], ',') >= 0 || bytes.IndexByte(v, '.') >= 0 || len(v) > 64 {
		return 0, false
	}
	var buf [64]byte
	b := append(buf[:0], v...)
	b[i] = '.'
	return parseNumber(b)
}

// nextCSV parses one CSV row into ex. Numbers are checked before any new
// categorical value is added, so a bad row does not grow the feature space.
func (s *Stream) nextCSV(line []byte, ex *Example) *ParseError {
	c := &s.csv
	if msg := s.inOpenField(); msg != "" {
		return s.parseError("row", msg)
	}
	n, msg := c.split(line)
	if msg == msgNotClosed {
		msg = s.openField()
	}
	if msg != "" {
		return s.parseError("field "+str.Itoa(n), msg)
	}
	if n != len(c.cols) {
		return s.parseError("row", "has "+str.Itoa(n)+" fields, want "+str.Itoa(len(c.cols))+" as in the header")
	}
	for j := range c.cols {
		col := &c.cols[j]
		switch col.role {
		case RoleLabel:
			v := c.field(j)
			if len(v) == 0 {
				return s.parseError(col.field, "label is empty, want a number")
			}
			y, ok := parseNumber(v)
			if !ok && col.decimalComma {
				y, ok = parseDecimalComma(v)
			}
			if !ok {
				return s.parseError(col.field, labelNotANumber(v))
			}
			ex.Y = y
		case RoleNumeric:
			v := c.field(j)
			if len(v) == 0 {
				continue
			}
			x, ok := parseNumber(v)
			if !ok && col.decimalComma {
				x, ok = parseDecimalComma(v)
			}
			if !ok {
				return s.parseError(col.field, notANumber(v))
			}
			if x != 0 {
				ex.X.Ind = append(ex.X.Ind, col.feature)
				ex.X.Val = append(ex.X.Val, x/col.scale)
			}
		}
	}
	for j := range c.cols {
		col := &c.cols[j]
		if col.role != RoleCategorical {
			continue
		}
		v := c.field(j)
		if len(v) == 0 {
			continue
		}
		ex.X.Ind = append(ex.X.Ind, s.feature(&col.dict, v))
		ex.X.Val = append(ex.X.Val, 1)
	}
	return nil
}

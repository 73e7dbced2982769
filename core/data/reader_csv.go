package data

import (
	"bytes"
	"errors"
	"slices"
	"sort"
	"strings"

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
}

// csvColumn is one CSV column.
type csvColumn struct {
	name    string
	role    Role
	field   string     // `field "name"`, for errors
	feature int        // RoleNumeric: the feature index
	scale   float64    // RoleNumeric: the divisor M of v/M
	dict    dictionary // RoleCategorical: the values seen
	// decimalComma: RoleNumeric or RoleLabel values are written "15,0"
	// (the separator is not ',').
	decimalComma bool
}

// labelNames are the header names guessed to be the label, lower case.
var labelNames = []string{"label", "target", "y", "class", "rating", "clicked", "click", "outcome"}

// ignoredNames are the header names guessed to be ignored, lower case.
var ignoredNames = []string{"timestamp", "time", "date", "datetime"}

// field returns field k of the last line split.
func (c *csvLayout) field(k int) []byte {
	start := 0
	if k > 0 {
		start = c.ends[k-1]
	}
	return c.buf[start:c.ends[k]:c.ends[k]]
}

// split splits line into fields at c.sep, unquoting quoted fields into
// c.buf. It returns the number of fields, or, for a malformed line, the
// 1-based position of the bad field and a message.
func (c *csvLayout) split(line []byte) (int, string) {
	c.buf = c.buf[:0]
	c.ends = c.ends[:0]
	sep := c.sep
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
					return len(c.ends) + 1, "quoted field is not closed: want a closing quote on the same line (a field cannot span lines)"
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

// csvStats summarises the values of one column in the rows read ahead.
type csvStats struct {
	values  int     // non-empty values
	numbers int     // values that are numbers (NaN and Inf included)
	ints    int     // values that are non-negative integers
	commas  int     // numbers written with a decimal comma ("15,0")
	comma   string  // the first of them, for the warning
	maxAbs  float64 // max |v| over the finite numbers
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
			col.scale = 1
			if stats[j].maxAbs > 0 {
				col.scale = stats[j].maxAbs
			}
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
	return nil
}

// columns names the n columns from the header just split (an empty name
// is "column J"), and reports whether every name is a number. A name
// repeated is a ParseError of the header on line line of file.
func (c *csvLayout) columns(n int, file string, line int) (allNumbers bool, err error) {
	c.cols = make([]csvColumn, n)
	allNumbers = true
	seen := make(map[string]bool, n)
	for j := range c.cols {
		v := c.field(j)
		if _, ok := parseNumber(v); !ok {
			allNumbers = false
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
	return allNumbers, nil
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
			x, ok := parseNumber(v)
			if !ok && c.sep != ',' {
				if x, ok = parseDecimalComma(v); ok {
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
			st.maxAbs = max(st.maxAbs, x, -x)
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

// missingColumn is the error of a role given to a column the header does
// not have: the caller's (ReaderSettings.Roles), or a model's, whose
// vocabulary names the CSV columns it was learned on.
func (s *Stream) missingColumn(name string, header []string) error {
	if v := s.continued; v != nil && v.Format == FormatCSV && !slices.Contains(s.rolesGiven, name) {
		var model []string
		for _, c := range v.Columns {
			model = append(model, c.Name)
		}
		return errors.New("core: " + s.name + ": the model continued was learned on a CSV file with the columns " +
			str.QuoteList(model) + ", and this file has no column " + str.Quote(name) + " (its header reads " + str.QuoteList(header) + ")")
	}
	return errors.New("core: " + s.name + ": ReaderSettings.Roles names column " + str.Quote(name) + ", which is not in the header " + str.QuoteList(header))
}

// assignRoles sets the role of every column: from roles by name, else
// guessed (see NewStream).
func (s *Stream) assignRoles(roles map[string]Role, stats []csvStats) error {
	cols := s.csv.cols
	index := make(map[string]int, len(cols))
	for j, col := range cols {
		index[col.name] = j
	}
	names := make([]string, 0, len(roles))
	for name := range roles {
		names = append(names, name)
	}
	sort.Strings(names)
	labels := 0
	for _, name := range names {
		role := roles[name]
		j, ok := index[name]
		if !ok {
			header := make([]string, len(cols))
			for k, col := range cols {
				header[k] = col.name
			}
			return s.missingColumn(name, header)
		}
		if role < RoleGuess || role > RoleIgnore {
			return errors.New("core: " + s.name + ": ReaderSettings.Roles gives column " + str.Quote(name) + " the invalid role " + str.Itoa(int(role)))
		}
		cols[j].role = role
		if role == RoleLabel {
			labels++
		}
	}
	if labels > 1 {
		return errors.New("core: " + s.name + ": ReaderSettings.Roles gives " + str.Itoa(labels) + " label columns, want one")
	}

	if labels == 0 {
		label := -1
		for j, col := range cols {
			if col.role == RoleGuess && contains(labelNames, strings.ToLower(col.name)) {
				label = j
				break
			}
		}
		if label < 0 {
			for j := len(cols) - 1; j >= 0; j-- {
				if cols[j].role == RoleGuess {
					label = j
					break
				}
			}
		}
		if label < 0 {
			return errors.New("core: " + s.name + ": no label column: ReaderSettings.Roles sets every column and none is RoleLabel")
		}
		cols[label].role = RoleLabel
	}

	for j := range cols {
		col := &cols[j]
		if col.role != RoleGuess {
			continue
		}
		st := stats[j]
		switch {
		case contains(ignoredNames, strings.ToLower(col.name)):
			col.role = RoleIgnore
		case isIDName(col.name) && st.integer():
			col.role = RoleCategorical
		case st.numeric():
			col.role = RoleNumeric
		default:
			col.role = RoleCategorical
		}
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, t := range list {
		if t == s {
			return true
		}
	}
	return false
}

// isIDName reports whether a column name looks like an identifier: id,
// user, item, *_id, *-id (any case), or *Id, *ID.
func isIDName(name string) bool {
	lower := strings.ToLower(name)
	switch {
	case lower == "id" || lower == "user" || lower == "item":
		return true
	case strings.HasSuffix(lower, "_id") || strings.HasSuffix(lower, "-id"):
		return true
	case len(name) > 2 && (strings.HasSuffix(name, "Id") || strings.HasSuffix(name, "ID")):
		return true
	}
	return false
}

// nextCSV parses one CSV row into ex. Numbers are checked before any new
// categorical value is added, so a bad row does not grow the feature space.
func (s *Stream) nextCSV(line []byte, ex *Example) *ParseError {
	c := &s.csv
	n, msg := c.split(line)
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

// recognise sniffs the format from the data lines read ahead (see
// NewStream) and sets s up to read it. The guess follows the shape of the
// majority of the lines, not the first line alone, so that a few malformed
// rows anywhere, the first included, are read in the format of the others
// and replayed by Next as ParseErrors naming their lines.
func (s *Stream) recognise(data []int, roles map[string]Role) error {
	first := s.pendingText(data[0])
	if n := movieLensHeader(first); n > 0 {
		s.setMovieLens(",", n)
		return s.skipHeader(data)
	}
	for _, sep := range []string{"::", "\t"} {
		header := looksLikeHeader(first, sep)
		if header && sep == "\t" {
			continue // a tab-separated file with a header is a CSV
		}
		rows := data
		if header {
			rows = data[1:]
		}
		var count [5]int
		for _, k := range rows {
			if n, ok := movieLensShaped(s.pendingText(k), sep); ok {
				count[n]++
			}
		}
		for _, n := range []int{4, 3} {
			if len(rows) > 0 && count[n]*2 > len(rows) {
				s.setMovieLens(sep, n)
				if header {
					return s.skipHeader(data)
				}
				return nil
			}
		}
	}
	shaped := 0
	for _, k := range data {
		if libsvmShaped(s.pendingText(k)) {
			shaped++
		}
	}
	if shaped*2 > len(data) {
		s.format, s.layout = FormatLibSVM, "libsvm"
		return nil
	}
	return s.setupCSV(data, roles, true)
}

// looksLikeHeader reports whether line, split at sep, looks like a header
// row: two or more fields, none of them a number.
func looksLikeHeader(line []byte, sep string) bool {
	fields := bytes.Split(line, []byte(sep))
	if len(fields) < 2 {
		return false
	}
	for _, v := range fields {
		if _, ok := parseNumber(bytes.TrimSpace(v)); ok {
			return false
		}
	}
	return true
}

// movieLensShaped reports whether line has the shape of a MovieLens row
// with fields separated by sep, even if one value is malformed: 3 or 4
// fields, a user and an item (any non-empty IDs: they are dictionary keys),
// and a numeric rating or an integer timestamp. It returns the number of
// fields.
func movieLensShaped(line []byte, sep string) (int, bool) {
	f, n := splitMovieLens(line, sep)
	if n != 3 && n != 4 || len(f[0]) == 0 || len(f[1]) == 0 {
		return min(n, 4), false
	}
	_, rating := parseNumber(f[2])
	return n, rating || n == 4 && isUint(f[3])
}

// libsvmShaped reports whether line has the shape of a LibSVM row, even if
// a value is malformed: a label (a token without ':', ',' or ';'), then
// tokens "index:value" with a decimal index (or qid) and a value without
// ':', ',' or ';', up to an optional "# comment". A label alone must be a
// number. So "1 1:abc" is a LibSVM row with a bad value, while a CSV line,
// or "2020-01-01 10:00:00,5", is not LibSVM.
func libsvmShaped(line []byte) bool {
	tokens := 0
	for _, tok := range bytes.Fields(line) {
		if tok[0] == '#' {
			break
		}
		tokens++
		if tokens == 1 {
			if bytes.ContainsAny(tok, ":,;") {
				return false
			}
			continue
		}
		c := bytes.IndexByte(tok, ':')
		if c <= 0 || bytes.ContainsAny(tok[c+1:], ":,;") {
			return false
		}
		if string(tok[:c]) != "qid" && !isDigits(tok[:c]) {
			return false
		}
	}
	if tokens == 1 {
		_, ok := parseNumber(bytes.Fields(line)[0])
		return ok
	}
	return tokens > 1
}

func isDigits(b []byte) bool {
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return len(b) > 0
}

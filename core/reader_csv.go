package core

import (
	"bytes"
	"fmt"
	"sort"
	"strconv"
	"strings"
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
				return len(c.ends), "unexpected text after the closing quote, want " + strconv.Quote(string(sep)) + " or the end of the line"
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
	numeric bool    // every value is a number
	integer bool    // every value is a non-negative integer
	maxAbs  float64 // max |v| over the numbers
}

// setupCSV reads the header, the first of the data lines read ahead, and
// sets the column roles from roles and from the rows read ahead. With
// recognising set (Format auto), it rejects text that does not look like a
// CSV with a header.
func (s *Stream) setupCSV(data []int, roles map[string]Role, recognising bool) error {
	hk := data[0]
	header := s.pendingText(hk)
	headerLine := s.pending[hk].line
	c := &s.csv
	c.sep = detectSeparator(header)
	unrecognised := func(why string) error {
		return fmt.Errorf("core: %s: cannot recognise the format: %s", s.name, why)
	}

	n, msg := c.split(header)
	if msg != "" {
		if recognising {
			return unrecognised("the first line is not LibSVM, MovieLens or a CSV header")
		}
		return &ParseError{File: s.name, Line: headerLine, Field: "header field " + itoa(n), Msg: msg}
	}
	if recognising && n < 2 {
		return unrecognised("the first line is not LibSVM, MovieLens or a CSV header of two or more columns")
	}
	c.cols = make([]csvColumn, n)
	allNumbers := true
	seen := make(map[string]bool, n)
	for j := range c.cols {
		v := c.field(j)
		if _, ok := parseNumber(v); !ok {
			allNumbers = false
		}
		name := string(v)
		if name == "" {
			name = "column " + itoa(j+1)
		}
		if seen[name] {
			return &ParseError{File: s.name, Line: headerLine, Field: "header field " + itoa(j+1),
				Msg: "column name " + strconv.Quote(name) + " repeated"}
		}
		seen[name] = true
		c.cols[j] = csvColumn{name: name, field: "field " + strconv.Quote(name)}
	}
	if recognising && allNumbers {
		return unrecognised("the first line looks like data, but a CSV needs a header row")
	}

	// Summarise the rows read ahead.
	rows := data[1:]
	if len(rows) == 0 {
		return fmt.Errorf("core: %s:%d: no data rows after the CSV header %s, want at least one row", s.name, headerLine, quote(header))
	}
	stats := make([]csvStats, n)
	for j := range stats {
		stats[j] = csvStats{numeric: true, integer: true}
	}
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
			if !ok {
				// NaN or Inf in a column of numbers leaves it numeric:
				// the row is malformed, not the column categorical.
				st.numeric = st.numeric && nonFinite(v)
				st.integer = false
				continue
			}
			st.maxAbs = max(st.maxAbs, x, -x)
			if !isUint(v) {
				st.integer = false
			}
		}
	}
	if recognising && good*10 < len(rows)*9 {
		return unrecognised(fmt.Sprintf("only %d of the first %d rows have the %d fields of the header", good, len(rows), n))
	}

	if err := s.assignRoles(roles, stats); err != nil {
		return err
	}
	for j := range c.cols {
		col := &c.cols[j]
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
			return fmt.Errorf("core: %s: ReaderSettings.Roles names column %q, which is not in the header %q", s.name, name, header)
		}
		if role < RoleGuess || role > RoleIgnore {
			return fmt.Errorf("core: %s: ReaderSettings.Roles gives column %q the invalid role %d", s.name, name, int(role))
		}
		cols[j].role = role
		if role == RoleLabel {
			labels++
		}
	}
	if labels > 1 {
		return fmt.Errorf("core: %s: ReaderSettings.Roles gives %d label columns, want one", s.name, labels)
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
			return fmt.Errorf("core: %s: no label column: ReaderSettings.Roles sets every column and none is RoleLabel", s.name)
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
		case isIDName(col.name) && st.values > 0 && st.integer:
			col.role = RoleCategorical
		case st.values > 0 && st.numeric:
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
		return s.parseError("field "+itoa(n), msg)
	}
	if n != len(c.cols) {
		return s.parseError("row", "has "+itoa(n)+" fields, want "+itoa(len(c.cols))+" as in the header")
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
// NewStream) and sets s up to read it.
func (s *Stream) recognise(data []int, roles map[string]Role) error {
	first := s.pendingText(data[0])
	if n := movieLensHeader(first); n > 0 {
		s.setMovieLens(",", n)
		return s.skipHeader(data)
	}
	// mostly reports whether at least 90 % of the data lines satisfy ok.
	mostly := func(ok func([]byte) bool) bool {
		good := 0
		for _, k := range data {
			if ok(s.pendingText(k)) {
				good++
			}
		}
		return good*10 >= len(data)*9
	}
	for _, sep := range []string{"::", "\t"} {
		if !bytes.Contains(first, []byte(sep)) {
			continue
		}
		n, ok := looksLikeMovieLens(first, sep)
		if ok && mostly(func(line []byte) bool {
			m, ok := looksLikeMovieLens(line, sep)
			return ok && m == n
		}) {
			s.setMovieLens(sep, n)
			return nil
		}
	}
	var scratch Example
	isLibSVM := func(line []byte) bool {
		scratch.X.Ind, scratch.X.Val = scratch.X.Ind[:0], scratch.X.Val[:0]
		_, _, msg := parseLibSVM(line, &scratch)
		return msg == ""
	}
	if isLibSVM(first) && mostly(isLibSVM) {
		s.format, s.layout = FormatLibSVM, "libsvm"
		return nil
	}
	return s.setupCSV(data, roles, true)
}

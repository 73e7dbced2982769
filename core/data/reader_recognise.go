package data

import "bytes"

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
// fields (and an empty one after them: the line may end with sep), a user and an item (any non-empty IDs: they are dictionary keys),
// and a numeric rating or an integer timestamp. It returns the number of
// fields.
func movieLensShaped(line []byte, sep string) (int, bool) {
	f, n := splitMovieLens(line, sep)
	n = trimmedFields(line, sep, n)
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

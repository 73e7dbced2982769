package data

import (
	"bytes"
	"errors"

	"github.com/occfm/occfm/core/internal/str"
)

// mlLayout is the layout of a MovieLens ratings file: fields "user item
// rating [timestamp]" separated by sep.
type mlLayout struct {
	sep    string // "\t", "::" or ","
	fields int    // 3 or 4
	users  dictionary
	items  dictionary
	// time is the timestamp of the row Next last read, when it has a
	// fourth field that is a whole number (timed).
	time  int64
	timed bool
	// scale watches the ratings for one off the scale of the others.
	scale ratingScale
}

// setMovieLens makes s read MovieLens rows of the given layout.
func (s *Stream) setMovieLens(sep string, fields int) {
	s.format = FormatMovieLens
	s.ml = mlLayout{sep: sep, fields: fields, users: newDictionary("user="), items: newDictionary("item="), scale: ratingScaleFor(s.name)}
	switch {
	case sep == "::":
		s.layout = "movielens ratings.dat (::)"
	case sep == ",":
		s.layout = "movielens ratings.csv"
	case fields == 4:
		s.layout = "movielens u.data (tab)"
	default:
		s.layout = "movielens user-item-rating (tab)"
	}
}

// nextMovieLens parses one MovieLens row into ex: the one-hot features of
// its user and item, and Y = the rating.
func (s *Stream) nextMovieLens(line []byte, ex *Example) *ParseError {
	f, n := splitMovieLens(line, s.ml.sep)
	if n == s.ml.fields+1 && endsWith(line, s.ml.sep) {
		n-- // the line ends with the separator: an empty last field, ignored
	}
	if n != s.ml.fields {
		return s.parseError("row", "has "+str.Itoa(n)+" fields separated by "+str.Quote(s.ml.sep)+
			", want "+str.Itoa(s.ml.fields)+" ("+mlFieldNames(s.ml.fields)+")")
	}
	if len(f[0]) == 0 {
		return s.parseError(`field "user"`, "is empty, want a user ID")
	}
	if len(f[1]) == 0 {
		return s.parseError(`field "item"`, "is empty, want an item ID")
	}
	y, ok := parseNumber(f[2])
	if !ok {
		return s.parseError(`field "rating"`, notANumber(f[2]))
	}
	u := s.feature(&s.ml.users, f[0])
	i := s.feature(&s.ml.items, f[1])
	ex.X.Ind = append(ex.X.Ind, u, i)
	ex.X.Val = append(ex.X.Val, 1, 1)
	ex.Y = y
	s.ml.scale.observe(s.name, y, s.line)
	s.ml.time, s.ml.timed = 0, false
	if n == 4 {
		s.ml.time, s.ml.timed = parseTimestamp(f[3])
	}
	return nil
}

// Timestamp returns the timestamp field of the MovieLens row Next last
// read (u.data's fourth column, ratings.dat's and ratings.csv's
// "timestamp"), in the file's unit (seconds since 1970 in MovieLens), and
// whether that row had one that is a whole number. Learning ignores the
// field; the top-N protocol orders ratings by it. It is (0, false) for
// other formats and before the first row.
func (s *Stream) Timestamp() (int64, bool) {
	if s.format != FormatMovieLens {
		return 0, false
	}
	return s.ml.time, s.ml.timed
}

// parseTimestamp reads an optionally signed decimal integer of 1 to 18
// digits (isUint), surrounding blanks allowed.
func parseTimestamp(b []byte) (int64, bool) {
	b = bytes.TrimSpace(b)
	neg := len(b) > 0 && b[0] == '-'
	if neg || len(b) > 0 && b[0] == '+' {
		b = b[1:]
	}
	if !isUint(b) {
		return 0, false
	}
	var t int64
	for _, c := range b {
		t = 10*t + int64(c-'0')
	}
	if neg {
		t = -t
	}
	return t, true
}

func mlFieldNames(n int) string {
	if n == 4 {
		return "user, item, rating, timestamp"
	}
	return "user, item, rating"
}

// splitMovieLens splits line at sep. It returns the first four fields and
// the number of fields.
func splitMovieLens(line []byte, sep string) (f [4][]byte, n int) {
	for {
		var j int
		if len(sep) == 1 {
			j = bytes.IndexByte(line, sep[0])
		} else {
			j = bytes.Index(line, []byte(sep))
		}
		if j < 0 {
			if n < len(f) {
				f[n] = line
			}
			return f, n + 1
		}
		if n < len(f) {
			f[n] = line[:j]
		}
		n++
		line = line[j+len(sep):]
	}
}

// endsWith reports whether line ends with sep.
func endsWith(line []byte, sep string) bool {
	return len(line) >= len(sep) && string(line[len(line)-len(sep):]) == sep
}

// trimmedFields returns n, the number of fields of line split at sep, less
// one for an empty last field after 3 or 4 (a line that ends with the
// separator, as some exports write every line): "1\t2\t3\t4\t" is a
// u.data row.
func trimmedFields(line []byte, sep string, n int) int {
	if (n == 4 || n == 5) && endsWith(line, sep) {
		return n - 1
	}
	return n
}

// movieLensHeader returns the number of fields of a MovieLens ratings.csv
// header "userId,movieId,rating[,timestamp]", or 0 if line is not one.
func movieLensHeader(line []byte) int {
	switch string(bytes.TrimSpace(line)) {
	case "userId,movieId,rating,timestamp":
		return 4
	case "userId,movieId,rating":
		return 3
	}
	return 0
}

// forceMovieLens sets up a MovieLens reading for Format movielens. The
// separator is taken from the first data line: "::", else tab, else comma.
// A first line that looks like a header (no field is a number) is skipped.
func (s *Stream) forceMovieLens(data []int) error {
	first := s.pendingText(data[0])
	if n := movieLensHeader(first); n > 0 {
		s.setMovieLens(",", n)
		return s.skipHeader(data)
	}
	var sep string
	switch {
	case bytes.Contains(first, []byte("::")):
		sep = "::"
	case bytes.IndexByte(first, '\t') >= 0:
		sep = "\t"
	case bytes.IndexByte(first, ',') >= 0:
		sep = ","
	default:
		return errors.New("core: " + s.name + ":" + str.Itoa(s.pending[data[0]].line) + ": cannot read " + str.QuoteCut(first) +
			" as MovieLens: want fields separated by \"::\", tab or comma")
	}
	_, n := splitMovieLens(first, sep)
	n = trimmedFields(first, sep, n)
	if n != 3 && n != 4 {
		return errors.New("core: " + s.name + ":" + str.Itoa(s.pending[data[0]].line) + ": cannot read " + str.QuoteCut(first) +
			" as MovieLens: " + str.Itoa(n) + " fields separated by " + str.Quote(sep) + ", want 3 or 4 (user, item, rating[, timestamp])")
	}
	s.setMovieLens(sep, n)
	if looksLikeHeader(first, sep) {
		return s.skipHeader(data)
	}
	return nil
}

// skipHeader marks the first data line read ahead as a header for Next to
// skip. A header without rows is an error.
func (s *Stream) skipHeader(data []int) error {
	s.pending[data[0]].skip = true
	if len(data) == 1 {
		return errors.New("core: " + s.name + ":" + str.Itoa(s.pending[data[0]].line) + ": no data rows after the header " +
			str.QuoteCut(s.pendingText(data[0])) + ", want at least one row")
	}
	return nil
}

package data

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strings"

	"github.com/occfm/occfm/core/internal/str"
)

const (
	// maxLineBytes bounds one line; a longer line is a ParseError.
	maxLineBytes = 64 << 20
	// sniffLines and sniffBytes bound the lines NewStream reads ahead to
	// recognise the format and guess CSV roles; Next replays them.
	sniffLines = 200
	sniffBytes = 1 << 20
	// bufferBytes is the size of the line buffer; shorter lines are parsed
	// in place without copying.
	bufferBytes = 64 << 10
	// binaryProbe is how many leading bytes are checked for binary data
	// and UTF-16.
	binaryProbe = 4096
	// gzipBufBytes and utf16Bytes estimate the buffers of a gzip decompressor
	// (its 32 KiB window and Huffman tables) and of a utf16Reader.
	gzipBufBytes = 48 << 10
	utf16Bytes   = 12 << 10
)

// errLineTooLong is returned by readLine for a line over maxLine bytes.
var errLineTooLong = errors.New("line too long")

var _ ExampleSource = (*Stream)(nil)

// Stream reads Examples from an io.Reader in constant memory: it reads line
// by line through a bufio.Reader, and only the few hundred lines it sniffs
// at the start are held at once. Input compressed with gzip is detected by
// its magic bytes 0x1f 0x8b and decompressed, whatever the settings say.
//
// In every format, empty lines and lines whose first non-blank character is
// '#' are skipped, CR, LF and CRLF each end a line wherever they are (lines
// are numbered as an editor numbers them, CRLF once), a UTF-8 byte
// order mark at the start is skipped, UTF-16 text (a byte order mark, or a
// NUL every other byte) is converted to UTF-8 (with a warning), zero bytes
// after the last gzip member are ignored as gzip(1) ignores them, and a line
// longer than 64 MiB is a ParseError (skipped without being held whole).
//
// The feature space grows while streaming: Dim is the number of features
// allocated so far and FeatureName names each one.
//
//   - LibSVM: "label idx:val idx:val …", blank separated, 1-based indices,
//     numbered in order of first appearance (so that the feature space
//     follows the number of distinct indices, not the largest); the
//     feature of idx is named "idx". A "# comment" ends the line and qid:…
//     tokens are ignored. Features with value 0 are dropped (and allocate
//     no feature). The label is the float as written.
//   - MovieLens: each rating "user item rating [timestamp]" becomes two
//     one-hot features, "user=ID" and "item=ID", numbered in order of first
//     appearance in one shared index space; Y is the rating.
//   - CSV: see NewStream for the column roles. Numeric columns are numbered
//     first, in column order, named by their header; each categorical value
//     is a one-hot feature "column=value" numbered in order of first
//     appearance.
//
// The dictionaries of MovieLens IDs and categorical values grow with the
// number of distinct values, not with the number of rows.
//
// A Stream is not safe for concurrent use.
type Stream struct {
	// continued is the Vocabulary the stream continues (ReaderSettings),
	// and rolesGiven the columns the caller gave roles to, for messages.
	continued  *Vocabulary
	rolesGiven []string

	name   string
	format Format
	layout string

	br      *bufio.Reader
	gzipped bool
	maxLine int
	phys    int   // physical lines read from the input
	line    int   // line of the row Next last read
	err     error // sticky: io.EOF or a wrapped read error
	long    []byte

	// Lines read ahead by NewStream, replayed by Next.
	pending []pendingLine
	next    int
	arena   []byte

	// Feature space. LibSVM feature i is the index lib.raw[i] as written,
	// numbered in order of first appearance; libIdentity is the numbering
	// of a Vocabulary saved before that, where index k is feature k−1 and
	// dim is the largest index seen.
	lib         firstSeenIndex
	libIdentity bool
	dim         int
	names       []string // MovieLens and CSV: name of each feature
	// dictBytes estimates the memory of lib, names and the
	// dictionaries, kept up to date as they grow (see MemoryBytes).
	dictBytes int64
	// bufBytes is the memory of the readers' fixed buffers (bufio, gzip,
	// transcoding).
	bufBytes int64

	warnings []string

	ml  mlLayout
	csv csvLayout
}

// pendingLine is a line read ahead: arena[start:end], or a line that was too
// long, or a header that Next must skip.
type pendingLine struct {
	line       int
	start, end int
	tooLong    bool
	skip       bool
}

// pendingLineBytes is the size of a pendingLine.
const pendingLineBytes = 4 * 8

// NewStream returns a Stream reading r, described by s.
//
// With Format auto (or empty), NewStream reads up to 200 data lines ahead
// and recognises, in order:
//
//  1. a MovieLens ratings.csv: a header userId,movieId,rating[,timestamp];
//  2. a MovieLens ratings.dat: "user::item::rating[::timestamp]";
//  3. a MovieLens tab-separated file, u.data "user item rating timestamp"
//     or "user item rating";
//  4. LibSVM;
//  5. CSV with a header row of at least two columns.
//
// For 2–4 the majority (more than half) of the lines read ahead must have
// the shape of the format, whatever the first line: a few malformed rows,
// the first included, are then replayed by Next as ParseErrors naming their
// lines. A MovieLens row has 3 or 4 fields, non-empty user and item IDs (any
// text: they are dictionary keys), and a numeric rating or an integer
// timestamp; a LibSVM row is a label and index:value tokens with decimal
// indices. A first line is a header only when it looks like one: two or
// more fields, none a number. A header-less file of 3 or 4 tab-separated
// columns is therefore read as MovieLens, and a tab-separated file with a
// header as CSV. A MovieLens line may end with its separator (an empty last
// field, ignored). Format movielens forces the MovieLens reading and takes
// the separator from the first line ("::", tab or comma); a first line that
// looks like a header is skipped. Ratings off the scale of the others are
// read, and warned of (see Warnings).
//
// CSV needs a header row. The separator is the most frequent of ',', ';'
// and tab in the header, outside double quotes. Fields may be quoted as in
// RFC 4180, a quote inside quotes doubled, but a quoted field cannot span
// lines: a field left open makes its line malformed, and when a later line
// (within 100) closes it, every line of the record up to that one too. A
// quote inside an unquoted field is malformed. Blanks around unquoted fields
// are trimmed. Column roles come from s.Roles by header name (other formats
// ignore s.Roles); the others are guessed from the header and the rows read
// ahead:
//
//   - The label is the first column named label, target, y, class, rating,
//     clicked, click or outcome (any case), else the last column. Its values
//     must be numbers. Layout names it, and another column named like a
//     label is warned of.
//   - A column named timestamp, time, date or datetime is ignored.
//   - A column named like an ID (id, user, item, *_id, *-id, *Id, *ID) of
//     which more than 90 % of the values are integers is categorical.
//   - A column of which more than 90 % of the values are numbers is
//     numeric, the others being malformed rows (ParseErrors). NaN and Inf
//     count as numbers here. With a separator other than ',', numbers with
//     a decimal comma ("15,0") count too, and are read as numbers (with a
//     warning).
//   - Any other column, including one with no values in the rows read
//     ahead, is categorical, even if it holds free text with a new value on
//     every row: each distinct value becomes a feature.
//
// A numeric value v becomes the feature v as it is, as in a LibSVM file:
// the learners' guard scales every feature as the rows come (Scales), so a
// CSV file and the same rows as LibSVM learn alike. An empty numeric or
// categorical cell is a missing feature: it is omitted.
//
// NewStream returns an error for a format it cannot recognise (binary data,
// text that is none of the above), for an input with no data line (empty,
// or only blank lines and comments), for a CSV or MovieLens header without
// rows, for roles that name no column, and for a read or gzip error before
// the first data line. With Format libsvm it reads only up to the first data
// line ahead.
func NewStream(r io.Reader, s ReaderSettings) (*Stream, error) {
	return newStream(r, s, maxLineBytes)
}

// newStream is NewStream with the line limit as a parameter, for tests.
func newStream(r io.Reader, set ReaderSettings, maxLine int) (*Stream, error) {
	s := &Stream{name: set.Name, maxLine: maxLine}
	if s.name == "" {
		s.name = "input"
	}
	format := set.Format
	switch format {
	case "":
		format = FormatAuto
	case FormatAuto, FormatLibSVM, FormatCSV, FormatMovieLens:
	default:
		return nil, errors.New("core: unknown format " + str.Quote(string(format)) + " (want auto, libsvm, csv or movielens)")
	}

	br, err := s.input(r)
	if err != nil {
		return nil, err
	}
	s.br = br

	ahead := sniffLines
	if format == FormatLibSVM {
		ahead = 1 // only to tell an empty input
	}
	roles := set.Roles
	if set.Vocabulary != nil {
		s.continued = set.Vocabulary
		for name := range set.Roles {
			s.rolesGiven = append(s.rolesGiven, name)
		}
		roles = csvRoles(set.Vocabulary, roles)
	}
	data := s.readAhead(ahead)
	if len(data) == 0 {
		if s.err != nil && s.err != io.EOF {
			return nil, s.err
		}
		if s.phys == 0 {
			return nil, errors.New("core: " + s.name + ": the file is empty, want LibSVM, CSV or MovieLens rows")
		}
		for _, p := range s.pending {
			if p.tooLong {
				return nil, errors.New("core: " + s.name + ":" + str.Itoa(p.line) + ": line: longer than " + sizeText(s.maxLine) +
					", the limit of a line, and no other line holds data: want LibSVM, CSV or MovieLens rows, one per line")
			}
		}
		return nil, errors.New("core: " + s.name + ": no data: all " + str.Itoa(s.phys) + " lines are blank or # comments, want LibSVM, CSV or MovieLens rows")
	}
	if format == FormatLibSVM {
		s.format, s.layout = FormatLibSVM, "libsvm"
		return s.continueVocabulary(set.Vocabulary)
	}
	switch format {
	case FormatMovieLens:
		err = s.forceMovieLens(data)
	case FormatCSV:
		err = s.setupCSV(data, roles, false)
	default:
		err = s.recognise(data, roles)
	}
	if err != nil {
		return nil, err
	}
	return s.continueVocabulary(set.Vocabulary)
}

// input returns the text of r, buffered: gunzipped when it starts with
// gzip's magic bytes, converted to UTF-8 from UTF-16, without a UTF-8 byte
// order mark, every CR, LF and CRLF one LF; binary data is an error.
//
// The first bytes are looked at through a buffer of binaryProbe bytes: the
// buffers of bufferBytes stacked on it then read through it without a copy
// (bufio reads straight into a buffer at least as large as its own).
func (s *Stream) input(r io.Reader) (*bufio.Reader, error) {
	br := bufio.NewReaderSize(r, binaryProbe)
	s.bufBytes = binaryProbe
	magic, err := br.Peek(2)
	if len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		s.gzipped = true
		gz, err := newGzipStream(bufio.NewReaderSize(br, bufferBytes))
		if err != nil {
			return nil, s.wrap(err)
		}
		br = bufio.NewReaderSize(gz, bufferBytes)
		s.bufBytes += 2*bufferBytes + gzipBufBytes
	} else if err != nil && err != io.EOF {
		return nil, s.wrap(err)
	} else if strings.HasSuffix(strings.ToLower(s.name), ".gz") && len(magic) > 0 {
		s.warn(s.name + ": the name ends in .gz but the bytes are not gzip-compressed: read as plain text.")
	}
	if head, _ := br.Peek(binaryProbe); len(head) > 0 {
		if kind, bom := utf16Kind(head); kind != 0 {
			br.Discard(bom)
			br = bufio.NewReaderSize(&utf16Reader{r: br, big: kind == 2}, bufferBytes)
			s.bufBytes += bufferBytes + utf16Bytes
			order := "little-endian"
			if kind == 2 {
				order = "big-endian"
			}
			s.warn(s.name + ": the file is UTF-16 text (" + order + "); it is read converted to UTF-8.")
		}
	}
	if bom, _ := br.Peek(3); bytes.Equal(bom, []byte("\xef\xbb\xbf")) {
		br.Discard(3)
	}
	if head, _ := br.Peek(binaryProbe); isBinary(head) {
		return nil, errors.New("core: " + s.name + ": binary data (a NUL byte or control characters in the first " + str.Itoa(binaryProbe) + " bytes), want text: LibSVM, CSV or MovieLens, plain or gzip")
	}
	s.bufBytes += bufferBytes
	return bufio.NewReaderSize(&crReader{r: br}, bufferBytes), nil
}

// readAhead reads up to maxLines data lines (or sniffBytes) into s.pending
// and returns the indices of the data lines among them.
func (s *Stream) readAhead(maxLines int) []int {
	var data []int
	size := 0
	for len(data) < maxLines && size < sniffBytes && s.readPending() {
		k := len(s.pending) - 1
		if p := s.pending[k]; !p.tooLong {
			data = append(data, k)
			size += p.end - p.start
		}
	}
	return data
}

// readPending reads the next data line, past blank and comment lines, into
// s.pending for Next to replay (a line too long is kept as such). It
// returns false at the end of the input or on a read error, kept in s.err.
func (s *Stream) readPending() bool {
	for {
		line, err := s.readLine()
		if err == errLineTooLong {
			s.pending = append(s.pending, pendingLine{line: s.phys, tooLong: true})
			return true
		}
		if err != nil {
			return false
		}
		if skippable(line) {
			continue
		}
		start := len(s.arena)
		s.arena = append(s.arena, line...)
		s.pending = append(s.pending, pendingLine{line: s.phys, start: start, end: len(s.arena)})
		return true
	}
}

// pendingText returns the text of pending line k.
func (s *Stream) pendingText(k int) []byte {
	p := s.pending[k]
	return s.arena[p.start:p.end:p.end]
}

// Next reads the next example into ex, reusing the slices of ex.X: it sets
// ex.X.Ind and ex.X.Val to length zero and appends. It returns io.EOF at the
// end of the input. For a malformed row it returns a *ParseError, leaves ex
// empty, and may be called again: it continues with the next line. Any other
// error (a read or gzip error) is returned again by every later call.
func (s *Stream) Next(ex *Example) error {
	ex.X.Ind = ex.X.Ind[:0]
	ex.X.Val = ex.X.Val[:0]
	ex.Y = 0
	for {
		var line []byte
		if s.next < len(s.pending) {
			p := s.pending[s.next]
			s.next++
			s.line = p.line
			if p.skip {
				continue
			}
			if p.tooLong {
				return s.tooLong()
			}
			line = s.arena[p.start:p.end:p.end]
		} else {
			if s.pending != nil {
				s.pending, s.arena, s.next = nil, nil, 0
			}
			var err error
			line, err = s.readLine()
			if err == errLineTooLong {
				s.line = s.phys
				return s.tooLong()
			}
			if err != nil {
				return err
			}
			s.line = s.phys
			if skippable(line) {
				continue
			}
		}
		var err *ParseError
		switch s.format {
		case FormatLibSVM:
			err = s.nextLibSVM(line, ex)
		case FormatMovieLens:
			err = s.nextMovieLens(line, ex)
		case FormatCSV:
			err = s.nextCSV(line, ex)
		}
		if err != nil {
			ex.X.Ind = ex.X.Ind[:0]
			ex.X.Val = ex.X.Val[:0]
			ex.Y = 0
			return err
		}
		return nil
	}
}

// Name returns the input's name in error messages: ReaderSettings.Name, or
// "input".
func (s *Stream) Name() string { return s.name }

// Format returns the format being read: the one recognised, or the one
// forced by ReaderSettings.Format.
func (s *Stream) Format() Format { return s.format }

// Layout describes the layout being read, e.g. "movielens u.data (tab)",
// "movielens ratings.dat (::)", "movielens ratings.csv", "movielens
// user-item-rating (tab)", "libsvm" or `csv (,), label "y"` (a CSV's
// separator and its label column).
func (s *Stream) Layout() string { return s.layout }

// Dim returns the number of features allocated so far: the number of
// distinct features seen (for LibSVM, of distinct indices with a nonzero
// value; for a LibSVM stream continuing a Vocabulary saved before OCCFM
// renumbered LibSVM features, the largest index seen). Every index Next has
// returned is below it. It only grows.
func (s *Stream) Dim() int {
	if s.format == FormatLibSVM {
		if s.libIdentity {
			return s.dim
		}
		return len(s.lib.raw)
	}
	return len(s.names)
}

// FeatureName returns the name of feature i: for LibSVM the 1-based index as
// written ("7"), whatever number the feature got; for MovieLens "user=ID" or
// "item=ID"; for CSV the column name of a numeric feature ("age") or
// "column=value" for a categorical one ("city=Paris"). It panics unless
// 0 ≤ i < Dim().
func (s *Stream) FeatureName(i int) string {
	if i < 0 || i >= s.Dim() {
		panic("core: feature " + str.Itoa(i) + " out of range [0, " + str.Itoa(s.Dim()) + ")")
	}
	if s.format == FormatLibSVM {
		if s.libIdentity {
			return str.Itoa(i + 1)
		}
		return str.Itoa(int(s.lib.raw[i]))
	}
	return s.names[i]
}

// Bytes per entry in the estimates of MemoryBytes: a map entry costs its
// key and value plus about as much again in buckets, control bytes and
// growth slack; a name costs a string header, its bytes, and a map entry
// (string key and int value) in its dictionary.
const (
	libsvmEntryBytes = 2*(4+4) + 4 // lib's map entry and raw element
	nameEntryBytes   = 16 + 2*(16+8)
)

// MemoryBytes estimates the memory the Stream holds, in bytes: its
// dictionaries and feature names (which grow with the number of distinct
// features, not with the rows), the lines read ahead (until Next has
// replayed them), the line buffers and the decompressor's and transcoders'
// buffers. It is an estimate, kept up to date as the dictionaries grow, so
// it costs O(1): a caller can check it after every row, to warn before a
// file with millions of distinct values exhausts the memory of a browser
// tab. It does not count the Examples the caller holds.
func (s *Stream) MemoryBytes() int64 {
	n := s.dictBytes + s.bufBytes
	n += int64(cap(s.arena)) + int64(cap(s.pending))*int64(pendingLineBytes)
	n += int64(cap(s.long)) + int64(cap(s.csv.buf)) + 8*int64(cap(s.csv.ends))
	n += int64(cap(s.ml.scale.early)) * scaleRatingBytes
	return n
}

// Warnings returns the surprising guesses NewStream made, each a full
// sentence naming the input (a UTF-16 file converted, a column of numbers
// with decimal commas read as numbers, a CSV header that looks like data, a
// second CSV column named like a label), then what Next has noticed so far:
// MovieLens ratings off the scale of the others, the first with its line and
// the scale, and how many (see ratingScale). It is nil when there is
// nothing to say. They do not stop the reading; the command line and the
// page show them so that a misread is never silent. There are at most a
// handful.
func (s *Stream) Warnings() []string {
	if s.format == FormatMovieLens {
		if w := s.ml.scale.warning(s.name); w != "" {
			return append(s.warnings[:len(s.warnings):len(s.warnings)], w)
		}
	}
	return s.warnings
}

// warn adds the warning msg, up to maxWarnings.
func (s *Stream) warn(msg string) {
	if len(s.warnings) < maxWarnings {
		s.warnings = append(s.warnings, msg)
	}
}

// maxWarnings bounds Warnings.
const maxWarnings = 5

// Columns returns the CSV columns with their final roles (as given in
// ReaderSettings.Roles or guessed; never RoleGuess), or nil for other
// formats. The caller may change the returned slice.
func (s *Stream) Columns() []Column {
	if s.format != FormatCSV {
		return nil
	}
	cols := make([]Column, len(s.csv.cols))
	for j, c := range s.csv.cols {
		cols[j] = Column{Name: c.name, Role: c.role}
	}
	return cols
}

// Line returns the 1-based number of the line holding the row that Next
// last returned or reported. Before the first call to Next it is the line of
// the CSV header, or 0.
func (s *Stream) Line() int { return s.line }

// readLine returns the next line without its line end. The slice is valid
// until the next read. It returns errLineTooLong for a line over s.maxLine
// bytes (having skipped it), io.EOF at the end and a wrapped error for a read
// error; both are sticky.
func (s *Stream) readLine() ([]byte, error) {
	if s.err != nil {
		return nil, s.err
	}
	if cap(s.long) > 1<<20 {
		s.long = nil // do not keep a huge buffer after one long line
	}
	b, err := s.br.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		s.long = append(s.long[:0], b...)
		for err == bufio.ErrBufferFull {
			b, err = s.br.ReadSlice('\n')
			if len(s.long)+len(b) > s.maxLine+1 { // +1 for the "\n"
				for err == bufio.ErrBufferFull {
					_, err = s.br.ReadSlice('\n')
				}
				s.phys++
				if err != nil {
					s.setErr(err)
				}
				s.long = nil
				return nil, errLineTooLong
			}
			s.long = append(s.long, b...)
		}
		b = s.long
	}
	if err != nil {
		s.setErr(err)
		if err != io.EOF || len(b) == 0 {
			// A read error drops the partial line: it is likely cut short.
			return nil, s.err
		}
	}
	s.phys++
	n := len(b)
	if n > 0 && b[n-1] == '\n' {
		n-- // the input's CRs are LFs already (crReader)
	}
	if n > s.maxLine {
		return nil, errLineTooLong
	}
	return b[:n:n], nil
}

func (s *Stream) setErr(err error) {
	if err == io.EOF {
		s.err = io.EOF
		return
	}
	s.err = s.wrap(err)
}

// wrap prefixes a read error with the package, the input name and the line
// being read (once a line was read), and with "gzip: " for compressed input;
// an unexpected end gets a hint: "core: NAME:LINE: gzip: unexpected EOF: the
// file is cut short (truncated)".
func (s *Stream) wrap(err error) error {
	if err == io.EOF && s.gzipped {
		err = io.ErrUnexpectedEOF
	}
	where := s.name
	if s.phys > 0 {
		where += ":" + str.Itoa(s.phys+1)
	}
	hint := ""
	if errors.Is(err, io.ErrUnexpectedEOF) {
		hint = ": the file is cut short (truncated)"
	}
	if s.gzipped && !strings.HasPrefix(err.Error(), "gzip: ") {
		return str.Wrap("core: "+where+": gzip: "+err.Error()+hint, err)
	}
	return str.Wrap("core: "+where+": "+err.Error()+hint, err)
}

func (s *Stream) tooLong() *ParseError {
	return s.parseError("line", "longer than "+sizeText(s.maxLine)+", the limit of a line")
}

// parseError returns a ParseError at the current line.
func (s *Stream) parseError(field, msg string) *ParseError {
	return &ParseError{File: s.name, Line: s.line, Field: field, Msg: msg}
}

// skippable reports whether line is blank or a comment.
func skippable(line []byte) bool {
	for _, c := range line {
		switch c {
		case ' ', '\t', '\r', '\v', '\f':
			continue
		case '#':
			return true
		}
		return false
	}
	return true
}

// isBinary reports whether head looks like binary data rather than text: it
// holds a NUL byte, or more than 10 % control characters other than blanks
// and line ends.
func isBinary(head []byte) bool {
	ctl := 0
	for _, c := range head {
		switch {
		case c == 0:
			return true
		case c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f':
		case c < 0x20 || c == 0x7f:
			ctl++
		}
	}
	return ctl*10 > len(head)
}

// dictionary numbers the distinct values of one MovieLens field or CSV
// column; the feature of value v is named prefix+v.
type dictionary struct {
	prefix string
	index  map[string]int
}

func newDictionary(prefix string) dictionary {
	return dictionary{prefix: prefix, index: make(map[string]int)}
}

// feature returns the feature index of value v in d, allocating the next
// index of the shared feature space when v is new.
func (s *Stream) feature(d *dictionary, v []byte) int {
	if i, ok := d.index[string(v)]; ok {
		return i
	}
	i := len(s.names)
	name := d.prefix + string(v)
	d.index[name[len(d.prefix):]] = i
	s.names = append(s.names, name)
	s.dictBytes += nameEntryBytes + int64(len(name))
	return i
}

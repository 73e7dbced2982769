package core

// This file fixes the reader API. The implementation lives in the reader_*.go
// files.

// Format names a data layout.
type Format string

const (
	// FormatAuto sniffs the layout from the first lines of the stream.
	FormatAuto Format = "auto"
	// FormatLibSVM is LibSVM/svmlight: "label idx:val idx:val …", 1-based
	// indices.
	FormatLibSVM Format = "libsvm"
	// FormatCSV is delimited text with a header row and column roles.
	FormatCSV Format = "csv"
	// FormatMovieLens is a MovieLens ratings file: u.data (tab separated,
	// no header), ratings.dat ("::" separated), ratings.csv (header
	// userId,movieId,rating,timestamp), or a tab-separated "user item rating"
	// file. User and item IDs become one-hot features.
	FormatMovieLens Format = "movielens"
)

// Role is what a CSV column means to the learner.
type Role int

const (
	// RoleGuess lets the reader guess the role from the header and the first
	// rows.
	RoleGuess Role = iota
	// RoleLabel marks the label column (exactly one).
	RoleLabel
	// RoleCategorical one-hot encodes each distinct value as a feature.
	RoleCategorical
	// RoleNumeric uses the value as a real feature.
	RoleNumeric
	// RoleIgnore drops the column.
	RoleIgnore
)

// Column describes one column of a CSV stream.
type Column struct {
	Name string
	Role Role
}

// ReaderSettings configures NewStream. The zero value sniffs the format,
// guesses CSV roles, and names the input "input" in error messages.
type ReaderSettings struct {
	// Name is the file name used in error messages. Empty means "input".
	Name string
	// Format is the layout. Empty or FormatAuto means sniff it.
	Format Format
	// Roles overrides guessed CSV column roles by header name.
	Roles map[string]Role
	// Vocabulary, when not nil, is the feature numbering to continue (see
	// Stream.Vocabulary): known values keep their indices, new ones get the
	// next; CSV columns keep their roles (Roles still take precedence) and
	// numeric scales. NewStream fails if the input's format or CSV header
	// does not match it.
	Vocabulary *Vocabulary
}

// ParseError reports a malformed row. After a ParseError, Stream.Next can be
// called again: it continues with the next line.
type ParseError struct {
	File  string // ReaderSettings.Name
	Line  int    // 1-based line number
	Field string // field name or position, e.g. `"rating"` or "field 3"
	Msg   string // what was found and what was expected
}

func (e *ParseError) Error() string {
	return "core: " + e.Reason()
}

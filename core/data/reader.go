package data

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

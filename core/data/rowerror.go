package data

import "github.com/occfm/occfm/core/internal/str"

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

// Reason returns the error without the "core: " prefix: "FILE:LINE: FIELD:
// MSG".
func (e *ParseError) Reason() string {
	return e.File + ":" + str.Itoa(e.Line) + ": " + e.Field + ": " + e.Msg
}

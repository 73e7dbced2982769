package data

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
)

// TestReadErrorsWrap checks that a read error, and the gzip reader's, are
// wrapped for errors.Is and read as fmt.Errorf's %w made them.
func TestReadErrorsWrap(t *testing.T) {
	_, err := NewStream(errReader{}, ReaderSettings{Name: "in"})
	if !errors.Is(err, errBroken) || err.Error() != fmt.Errorf("core: %s: %w%s", "in", errBroken, "").Error() {
		t.Errorf("read error: %v", err)
	}
	st, err := NewStream(io.MultiReader(strings.NewReader("1 1:1\n"), errReader{}), ReaderSettings{Name: "in"})
	if err != nil {
		t.Fatal(err)
	}
	var ex Example
	for err == nil {
		err = st.Next(&ex)
	}
	if !errors.Is(err, errBroken) || err.Error() != fmt.Errorf("core: %s: %w%s", "in:2", errBroken, "").Error() {
		t.Errorf("read error after a row: %v", err)
	}
	var gz bytes.Buffer
	gz.Write([]byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff})
	_, err = NewStream(&gz, ReaderSettings{Name: "in.gz"})
	if !errors.Is(err, io.ErrUnexpectedEOF) || err.Error() != fmt.Errorf("core: %s: gzip: %w%s", "in.gz", io.ErrUnexpectedEOF, ": the file is cut short (truncated)").Error() {
		t.Errorf("cut gzip: %v", err)
	}
}

var errBroken = errors.New("broken")

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, errBroken }

// TestReaderMessagesMatchFmt checks a sample of the readers' messages,
// those with several verbs or a list, against the formats they were made
// with.
func TestReaderMessagesMatchFmt(t *testing.T) {
	check := func(what string, err error, want string) {
		t.Helper()
		if err == nil || err.Error() != want {
			t.Errorf("%s: %v, want %s", what, err, want)
		}
	}
	text := "a,b,c\n1,2,3\n4,5,6\n"
	_, err := NewStream(strings.NewReader(text), ReaderSettings{Name: "x.csv", Format: FormatCSV, Roles: map[string]Role{"zz": RoleLabel}})
	check("Roles", err, fmt.Sprintf("core: %s: ReaderSettings.Roles names column %q, which is not in the header %q", "x.csv", "zz", []string{"a", "b", "c"}))
	_, err = NewStream(strings.NewReader("1::2::3::4::5\n"), ReaderSettings{Name: "r.dat", Format: FormatMovieLens})
	check("MovieLens", err, fmt.Sprintf("core: %s:%d: cannot read %s as MovieLens: %d fields separated by %q, want 3 or 4 (user, item, rating[, timestamp])",
		"r.dat", 1, `"1::2::3::4::5"`, 5, "::"))

}

package personal

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/occfm/occfm/core/data"
)

// FuzzReadItems checks that ReadItems never panics, that it fails only with
// a *ParseError naming the file and a line within the input, and that what
// it reads is valid: unique non-empty IDs, valid UTF-8, Feature -1. Seeds
// are the fixtures of testdata/catalog.
func FuzzReadItems(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "catalog", "*"))
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("movieId,title,genres\n1,\"a\nb\",Drama\n"))
	f.Add([]byte("1::\xff::Drama"))
	f.Add([]byte("movieId,title,genres\n0\"0")) // once panicked in csv.Reader.FieldPos
	f.Fuzz(func(t *testing.T, text []byte) {
		items, err := ReadItems(bytes.NewReader(text), "f")
		if err != nil {
			var pe *data.ParseError
			if !errors.As(err, &pe) || pe.File != "f" || pe.Line < 1 || pe.Line > bytes.Count(text, []byte("\n"))+1 {
				t.Fatalf("error %v", err)
			}
			return
		}
		ids := map[string]bool{}
		for _, it := range items {
			if it.ID == "" || ids[it.ID] || strings.TrimSpace(it.Title) == "" || it.Feature != -1 || it.Count != 0 {
				t.Fatalf("item %+v", it)
			}
			ids[it.ID] = true
			if !utf8.ValidString(it.ID) || !utf8.ValidString(it.Title) {
				t.Fatalf("invalid UTF-8: %+v", it)
			}
			for _, g := range it.Genres {
				if g == "" || !utf8.ValidString(g) {
					t.Fatalf("genre %q", g)
				}
			}
		}
	})
}

package core

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestCoreImports keeps out of the non-test files of core and its
// packages the packages that weigh on the page's wasm binary, which links
// them whole (tests may use them):
//
//   - fmt: its printer is built on reflect and formats every kind of
//     value. The messages are built with strconv instead, byte for byte as
//     fmt builds them (core/internal/str, which checks itself against fmt).
//   - gonum's mat (with blas/cblas128 under it), lapack/lapack64 and
//     blas/blas64: core calls the concrete lapack/gonum and blas/gonum
//     Implementation types instead, and the linker keeps only the
//     routines they reach. (blas64 stays linked through lapack/gonum.)
//   - encoding/csv: its Reader's ParseError.Error calls fmt.Sprintf, which
//     links fmt. movies.csv is read and RatingsCSV written by the data
//     package's own CSV records, which its tests check against encoding/csv.
//
// On a GOOS=js GOARCH=wasm -trimpath -ldflags="-s -w" build of ./wasm,
// encoding/csv alone adds about 300 KB (85 KB gzipped), most of it fmt and
// reflect.
func TestCoreImports(t *testing.T) {
	banned := map[string]bool{
		"fmt":                                true,
		"gonum.org/v1/gonum/mat":             true,
		"gonum.org/v1/gonum/lapack/lapack64": true,
		"gonum.org/v1/gonum/blas/blas64":     true,
		"gonum.org/v1/gonum/blas/cblas128":   true,
		"encoding/csv":                       true,
	}
	var files []string
	err := filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".go") && !strings.Contains(path, "testdata") {
			files = append(files, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, name, src, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		for _, imp := range f.Imports {
			path, err := strconv.Unquote(imp.Path.Value)
			if err != nil {
				t.Fatal(err)
			}
			if banned[path] {
				t.Errorf("%s imports %q, which core keeps out of the wasm binary (see TestCoreImports)", fset.Position(imp.Pos()), path)
			}
		}
	}
	if checked < 40 {
		t.Fatalf("checked only %d non-test files of core", checked)
	}
}

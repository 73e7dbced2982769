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

// TestCoreImports keeps out of core's non-test files the packages that
// weigh on the page's wasm binary, which links core whole (tests may use
// them):
//
//   - fmt: its printer is built on reflect and formats every kind of
//     value. core's messages are built with strconv instead, byte for byte
//     as fmt built them (errors.go, errors_test.go).
//   - gonum's mat (with blas/cblas128 under it), lapack/lapack64 and
//     blas/blas64: core calls the concrete lapack/gonum and blas/gonum
//     Implementation types instead, and the linker keeps only the
//     routines they reach. (blas64 stays linked through lapack/gonum.)
//   - encoding/csv: its Reader's ParseError.Error calls fmt.Sprintf, which
//     kept fmt linked after core and wasm/ stopped importing it. core reads
//     movies.csv with csvRecords and writes RatingsCSV with
//     appendCSVRecord instead (csv_records.go), which csv_records_test.go
//     checks against encoding/csv.
//
// Measured on GOOS=js GOARCH=wasm -ldflags="-s -w" builds of ./wasm,
// bytes (gzip -9): before, 7,303,449 (1,767,862); without fmt in core,
// 7,286,420 (1,761,649); without mat, lapack64 and blas64 too, 7,174,812
// (1,735,485). fmt itself stayed in the binary while anything else linked
// it: wasm/ did then, and then encoding/csv's Reader (readItemsCSV); in a
// program of its own a csv.Reader adds 814,158 bytes (208,660 gzipped),
// most of it fmt and reflect. Later, with -trimpath too: with encoding/csv,
// 5,462,460 (1,502,824); without it, 5,151,533 (1,417,218), and no fmt
// code is linked at all.
func TestCoreImports(t *testing.T) {
	banned := map[string]bool{
		"fmt":                                true,
		"gonum.org/v1/gonum/mat":             true,
		"gonum.org/v1/gonum/lapack/lapack64": true,
		"gonum.org/v1/gonum/blas/blas64":     true,
		"gonum.org/v1/gonum/blas/cblas128":   true,
		"encoding/csv":                       true,
	}
	files, err := filepath.Glob("*.go")
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

package coretest

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/occfm/occfm/core/internal/str"
)

// SharedDir returns the directory of the real data sets: shared/data beside
// the repository's root (the folder holding go.mod). The data sets are kept
// out of the repository (MovieLens may not be redistributed); the expected
// counts in the tests are those of each folder's PROVENANCE.txt.
func SharedDir() string {
	dir, err := os.Getwd()
	if err != nil {
		return filepath.Join("..", "shared", "data")
	}
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return filepath.Join(filepath.Dir(d), "shared", "data")
		}
		if filepath.Dir(d) == d {
			return filepath.Join("..", "shared", "data")
		}
	}
}

// DataPath returns the path of rel under SharedDir, or skips the test with
// a message saying what it needs when the file is absent.
func DataPath(t testing.TB, rel string) string {
	t.Helper()
	p := filepath.Join(SharedDir(), rel)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("../shared/data not present (%v): this test needs %s", err, rel)
	}
	return p
}

// OpenData opens rel under SharedDir for the test's duration, or skips the
// test when it is absent.
func OpenData(t testing.TB, rel string) *os.File {
	t.Helper()
	f, err := os.Open(DataPath(t, rel))
	if err != nil {
		t.Skipf("../shared/data: %v", err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// TotalAlloc returns the bytes f allocates.
func TotalAlloc(f func()) uint64 {
	var a, b runtime.MemStats
	runtime.ReadMemStats(&a)
	f()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

// AllocBound runs f and fails t when f allocated more than limit bytes in
// all (runtime.MemStats.TotalAlloc, which counts every allocation, freed or
// not, so a decoder that allocates a huge buffer and drops it at once is
// caught too). It is for fuzz targets and tests of hostile inputs: an input
// of a few bytes that makes a decoder or reader allocate gigabytes is a bug
// even when it ends in an error. Allocations of other goroutines count too,
// so it is meant for code that runs alone (fuzz targets do); limit should
// leave room for the testing framework's own (a few KiB).
func AllocBound(t testing.TB, limit uint64, f func()) {
	t.Helper()
	if got := TotalAlloc(f); got > limit {
		t.Fatalf("allocated %s bytes, over the bound of %s", str.Thousands(int64(got)), str.Thousands(int64(limit)))
	}
}

package core

import (
	"runtime"
	"testing"
)

// checkAllocBound runs f and fails t when f allocated more than limit bytes
// in all (runtime.MemStats.TotalAlloc, which counts every allocation, freed
// or not, so a decoder that allocates a huge buffer and drops it at once is
// caught too). It is for fuzz targets and tests of hostile inputs: an input
// of a few bytes that makes a decoder or reader allocate gigabytes is a
// bug even when it ends in an error. Allocations of other goroutines count
// too, so it is meant for code that runs alone (fuzz targets do); limit
// should leave room for the testing framework's own (a few KiB).
func checkAllocBound(t testing.TB, limit uint64, f func()) {
	t.Helper()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > limit {
		t.Fatalf("allocated %s, over the bound of %s", FormatBytes(int64(got)), FormatBytes(int64(limit)))
	}
}

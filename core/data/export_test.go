package data

// The tests of package data_test, which also use core (core imports data,
// so only an external test can), reach these internals through the names
// below.
var (
	NewStreamLimit = newStream
	ParseNumber    = parseNumber
)

const SniffLines = sniffLines

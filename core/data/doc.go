// Package data is what every part of OCCFM reads and learns from: the row
// types ([Sparse], [Example], [Task]) and the streaming readers that turn a
// LibSVM, CSV or MovieLens file, plain or gzip, into [Example] values in
// constant memory.
//
// A [Stream] reads its input line by line through a bounded buffer. It
// sniffs the format from the first lines (or takes [ReaderSettings.Format]),
// numbers features in order of first appearance, and keeps that numbering
// as a [Vocabulary] that a model file stores, so that a stream continuing a
// model's learning numbers the same values the same way. A malformed row is
// a [*ParseError] naming the file, the line and the field; Next can go on
// after it. Memory grows with the number of distinct features, never with
// the number of rows.
//
// The command line and the page read a run's labelled rows through one
// [Rows]: it fixes or guesses the task, maps labels to it, and passes
// malformed rows to a [BadRows], which stops at them or skips and counts
// them. [Shuffled] plays a file's rows, held in a [HeldRows], in a seeded
// random order, and [LabelOrder] tells a file sorted by label. A source
// with no row yet (a file still arriving) answers [ErrAgain].
//
// The package never opens files by name, prints, or imports fmt: the
// command line and the page hand it an io.Reader, so both read every file
// the same way.
package data

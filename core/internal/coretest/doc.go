// Package coretest holds the helpers that the tests of core and its
// packages share: the real data sets of ../shared/data, which tests read
// when they are present and skip without, and a bound on a call's
// allocations.
package coretest

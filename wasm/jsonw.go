package main

import (
	"strconv"

	"github.com/occfm/occfm/core"
)

// The JSON this package writes for the page (snapshots, model info, a
// Recommender's catalog) is appended by hand, with the helpers below and
// an appendJSON method beside each type, and the config JSON the page
// passes is read by hand too (jsonr.go), so that the wasm does without
// encoding/json, which links in, besides its own code, symbols of reflect
// that nothing else needs, encoding/base64, and the time package's
// (Un)Marshal{JSON,Text} methods, which its calls through the Marshaler
// and TextUnmarshaler interfaces make reachable (go build -ldflags=-dumpdep
// lists them). What that saves of the gzipped wasm, and the command that
// measures it: docs/findings.md, "Size and loading of the page".
//
// The output is byte for byte what json.Marshal writes for the same
// values, with the types' json tags (omitempty included): the tags stay on
// the types as their documentation, and jsonw_test.go checks the two
// against each other. One deliberate difference: a NaN or ±Inf is written
// as null wherever it is, where encoding/json fails (and the page would
// show that error instead of the run); the session writes such values only
// through num, numRows and finite (jsonnum.go), which write null for them.

// jsonAppender is a value that appends itself as JSON.
type jsonAppender interface {
	appendJSON(b []byte) []byte
}

// jsonString returns v's JSON as a string.
func jsonString(v jsonAppender) string {
	return string(v.appendJSON(make([]byte, 0, 256)))
}

// appendKey appends an object member's key and colon, after a comma unless
// the member is the object's first (b then ends with its '{'). key is
// written as is: it is one of the package's own ASCII field names.
func appendKey(b []byte, key string) []byte {
	if b[len(b)-1] != '{' {
		b = append(b, ',')
	}
	b = append(b, '"')
	b = append(b, key...)
	return append(b, '"', ':')
}

const hexDigits = "0123456789abcdef"

// appendStrings appends ss as a JSON array of strings; nil is null, as
// encoding/json writes a nil slice.
func appendStrings(b []byte, ss []string) []byte {
	if ss == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, s := range ss {
		if i > 0 {
			b = append(b, ',')
		}
		b = core.AppendString(b, s)
	}
	return append(b, ']')
}

// appendList writes xs as a JSON array, each element by f, or null for a
// nil slice (as encoding/json writes a nil slice).
func appendList[T any](b []byte, xs []T, f func(*T, []byte) []byte) []byte {
	if xs == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i := range xs {
		if i > 0 {
			b = append(b, ',')
		}
		b = f(&xs[i], b)
	}
	return append(b, ']')
}

func appendInt(b []byte, n int) []byte { return strconv.AppendInt(b, int64(n), 10) }

func appendBool(b []byte, v bool) []byte { return strconv.AppendBool(b, v) }

// appendNumPtr appends *x as appendNum does, or null when x is nil.
func appendNumPtr(b []byte, x *float64) []byte {
	if x == nil {
		return append(b, "null"...)
	}
	return core.AppendNum(b, *x)
}

// The objects of a few maps the package wrote with encoding/json, whose
// keys come out sorted.

// errorSnapshot returns the snapshot of a session that could not start or
// failed in a call: {"error", "learners": [], "points": [], "rows": 0,
// "state": "error"} (the keys sorted, as encoding/json wrote the map this
// was).
func errorSnapshot(err error) string {
	msg := err.Error()
	b := core.AppendString(append(make([]byte, 0, 80+len(msg)), `{"error":`...), msg)
	return string(append(b, `,"learners":[],"points":[],"rows":0,"state":"error"}`...))
}

// errorOnlyJSON returns {"error": msg}.
func errorOnlyJSON(msg string) string {
	return string(append(core.AppendString(append(make([]byte, 0, 16+len(msg)), `{"error":`...), msg), '}'))
}

// stateErrorJSON returns {"error": msg, "state": "error"}.
func stateErrorJSON(msg string) string {
	b := core.AppendString(append(make([]byte, 0, 32+len(msg)), `{"error":`...), msg)
	return string(append(b, `,"state":"error"}`...))
}

package core

import (
	"reflect"
	"strconv"
	"strings"
)

// core does not import fmt: it is most of what the page's wasm binary
// would link only for core's messages (see TestCoreImports). The messages
// are built from strings and strconv instead, byte for byte as fmt built
// them; the helpers below stand for the verbs whose output is not a single
// strconv call, and errors_test.go checks them against fmt.

// wrapError is the error fmt.Errorf made for a format with %w: the
// message, and the error it wraps for errors.Is and errors.As.
type wrapError struct {
	msg string
	err error
}

func (e *wrapError) Error() string { return e.msg }
func (e *wrapError) Unwrap() error { return e.err }

// wrapErr returns an error with message msg that wraps err (msg holds
// err's message where the format had %w).
func wrapErr(msg string, err error) error { return &wrapError{msg: msg, err: err} }

// ftoa formats x as fmt's %v and %g do: the shortest 'g' form.
func ftoa(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// quoted is strconv.Quote, which is fmt's %q of a string, kept out of line:
// inlined at its ~50 calls it made the wasm binary 15 KB larger.
//
//go:noinline
func quoted(s string) string { return strconv.Quote(s) }

// quoteList formats a []string as fmt's %q does: ["a" "b"].
func quoteList(s []string) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, v := range s {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(quoted(v))
	}
	b.WriteByte(']')
	return b.String()
}

// typeName formats the dynamic type of x as fmt's %T does.
func typeName(x any) string {
	if x == nil {
		return "<nil>"
	}
	return reflect.TypeOf(x).String()
}

// panicText formats a recovered panic value as fmt.Sprint does for the
// values a panic carries: a string, an error (including the runtime's), a
// Stringer, or a bool, number or string of any named type. Any other value
// (a struct, a slice, a pointer…), which fmt would print field by field, is
// named by its type instead: "panic of type T".
func panicText(r any) string {
	switch v := r.(type) {
	case nil:
		return "<nil>"
	case string:
		return v
	case error:
		return v.Error()
	case interface{ String() string }:
		return v.String()
	}
	v := reflect.ValueOf(r)
	switch v.Kind() {
	case reflect.Bool:
		return strconv.FormatBool(v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(v.Int(), 10)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return strconv.FormatUint(v.Uint(), 10)
	case reflect.Float32:
		return strconv.FormatFloat(v.Float(), 'g', -1, 32)
	case reflect.Float64:
		return ftoa(v.Float())
	case reflect.String:
		return v.String()
	}
	return "panic of type " + typeName(r)
}

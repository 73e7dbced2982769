package str

import (
	"reflect"
	"strconv"
	"strings"
)

// wrapError is the error fmt.Errorf makes for a format with %w: the
// message, and the error it wraps for errors.Is and errors.As.
type wrapError struct {
	msg string
	err error
}

func (e *wrapError) Error() string { return e.msg }
func (e *wrapError) Unwrap() error { return e.err }

// Wrap returns an error with message msg that wraps err (msg holds err's
// message where the format had %w).
func Wrap(msg string, err error) error { return &wrapError{msg: msg, err: err} }

// Itoa formats n as %d does. It is kept out of line: inlined at its ~170
// calls, strconv.Itoa's fast path made the wasm binary 17 KB larger.
//
//go:noinline
func Itoa(n int) string { return strconv.Itoa(n) }

// Ftoa formats x as fmt's %v and %g do: the shortest 'g' form.
func Ftoa(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// Quote is strconv.Quote, which is fmt's %q of a string, kept out of line:
// inlined at its ~50 calls it made the wasm binary 15 KB larger.
//
//go:noinline
func Quote(s string) string { return strconv.Quote(s) }

// QuoteList formats a []string as fmt's %q does: ["a" "b"].
func QuoteList(s []string) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, v := range s {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(Quote(v))
	}
	b.WriteByte(']')
	return b.String()
}

// TypeName formats the dynamic type of x as fmt's %T does.
func TypeName(x any) string {
	if x == nil {
		return "<nil>"
	}
	return reflect.TypeOf(x).String()
}

// Thousands formats n with commas: 12,500.
func Thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// PanicText formats a recovered panic value as fmt.Sprint does for the
// values a panic carries: a string, an error (including the runtime's), a
// Stringer, or a bool, number or string of any named type. Any other value
// (a struct, a slice, a pointer…), which fmt would print field by field, is
// named by its type instead: "panic of type T".
func PanicText(r any) string {
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
		return Ftoa(v.Float())
	case reflect.String:
		return v.String()
	}
	return "panic of type " + TypeName(r)
}

// QuoteCut quotes b for an error message, shortening it past 40 bytes.
func QuoteCut(b []byte) string {
	const max = 40
	if len(b) > max {
		return Quote(string(b[:max])) + "…"
	}
	return Quote(string(b))
}

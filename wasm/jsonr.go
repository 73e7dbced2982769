package main

import (
	"errors"
	"strconv"
	"unicode"
	"unicode/utf8"
)

// jsonReader reads the config JSON the page passes (start and
// personal.start) into its struct, field by field, in place of
// encoding/json (jsonw.go says why). It is strict JSON (RFC 8259) and
// decodes as json.Unmarshal would into the same struct, which
// jsonr_test.go and FuzzConfigJSON check:
//
//   - the whole text is checked: a syntax error anywhere, or anything but
//     white space after the value, is the error, before any type error;
//   - a key matches a field's json name ignoring case, as encoding/json
//     matches it (Unicode simple folding: "SEED" and "ſeed" are "seed");
//     other keys are skipped;
//   - null leaves a string, number or bool unchanged, and sets a slice or
//     map to nil; a top-level null leaves the struct unchanged;
//   - a value of the wrong type, a number out of its field's range or a
//     fraction for an integer is an error naming the field (the first
//     such error, once the rest of the text is read), e.g.
//     json: field "delta": want a number, got string;
//   - strings may hold every escape (\uXXXX surrogate pairs too; a lone
//     surrogate is U+FFFD) and invalid UTF-8 becomes U+FFFD;
//   - an array read into a slice reuses the slice as encoding/json does,
//     and an object read into a map adds to the map.
//
// Deliberate differences: a text longer than jsonMaxLen or nested deeper
// than jsonMaxDepth is refused (errJSONTooLong, errJSONTooDeep;
// encoding/json nests up to 10000 deep), and the error texts are this
// file's own, not encoding/json's.
type jsonReader struct {
	s     string
	i     int   // the offset of the next byte to read
	depth int   // of the arrays and objects open at i
	err   error // the first type error: its value was skipped and reading went on
}

const (
	// jsonMaxLen bounds the text: a config is some hundred bytes.
	jsonMaxLen = 1 << 20
	// jsonMaxDepth bounds the nesting of arrays and objects (a config
	// nests 2 deep), which the skipping of unknown values recurses on.
	jsonMaxDepth = 64
)

var (
	errJSONTooLong = errors.New("json: the text is longer than " + strconv.Itoa(jsonMaxLen) + " bytes")
	errJSONTooDeep = errors.New("json: arrays and objects nest more than " + strconv.Itoa(jsonMaxDepth) + " deep")
	errJSONEnd     = errors.New("json: unexpected end of the text")
)

// decodeJSONObject reads the JSON text s, which must be an object or null,
// calling field for each of the object's members: field reads the
// member's value (positioned at it) or skips it.
func decodeJSONObject(s string, field func(r *jsonReader, key string) error) error {
	if len(s) > jsonMaxLen {
		return errJSONTooLong
	}
	r := &jsonReader{s: s}
	r.space()
	var err error
	switch r.peek() {
	case '{':
		err = r.object(field)
	case 'n':
		err = r.literal("null")
	default:
		err = r.wrong("", "an object")
	}
	if err != nil {
		return err
	}
	r.space()
	if r.i < len(r.s) {
		return r.syntax("after the top-level value")
	}
	return r.err
}

// peek returns the byte at r.i, or 0 at the end.
func (r *jsonReader) peek() byte {
	if r.i < len(r.s) {
		return r.s[r.i]
	}
	return 0
}

func (r *jsonReader) space() {
	for r.i < len(r.s) {
		switch r.s[r.i] {
		case ' ', '\t', '\n', '\r':
			r.i++
		default:
			return
		}
	}
}

// syntax returns the syntax error of the byte at r.i (or the end).
func (r *jsonReader) syntax(context string) error {
	if r.i >= len(r.s) {
		return errJSONEnd
	}
	c := r.s[r.i]
	var what string
	if c >= ' ' && c < utf8.RuneSelf {
		what = "character " + strconv.QuoteRune(rune(c))
	} else {
		what = "byte 0x" + string([]byte{hexDigits[c>>4], hexDigits[c&0xF]})
	}
	return errors.New("json: invalid " + what + " at offset " + strconv.Itoa(r.i) + " " + context)
}

// kind names the JSON type of the value at r.i, or returns "" when no
// value starts there.
func (r *jsonReader) kind() string {
	switch c := r.peek(); {
	case c == '"':
		return "string"
	case c == '{':
		return "object"
	case c == '[':
		return "array"
	case c == 't' || c == 'f':
		return "boolean"
	case c == 'n':
		return "null"
	case c == '-' || '0' <= c && c <= '9':
		return "number"
	}
	return ""
}

// wrong records that the value at r.i is not what the field wants and
// skips it.
func (r *jsonReader) wrong(field, want string) error {
	got := r.kind()
	if got == "" {
		return r.syntax("looking for a value")
	}
	r.typeError(field, want, got)
	return r.skip()
}

// typeError records the error of a value of field (the top-level value
// when field is "") that is not what it wants, unless one came before.
func (r *jsonReader) typeError(field, want, got string) {
	if r.err != nil {
		return
	}
	if field != "" {
		field = "field " + field + ": "
	}
	r.err = errors.New("json: " + field + "want " + want + ", got " + got)
}

func (r *jsonReader) enter() error {
	r.depth++
	if r.depth > jsonMaxDepth {
		return errJSONTooDeep
	}
	return nil
}

// object reads the object at r.i, calling field for each member.
func (r *jsonReader) object(field func(r *jsonReader, key string) error) error {
	if err := r.enter(); err != nil {
		return err
	}
	r.i++ // {
	r.space()
	if r.peek() == '}' {
		r.i++
		r.depth--
		return nil
	}
	for {
		if r.peek() != '"' {
			return r.syntax("looking for an object key")
		}
		key, err := r.str()
		if err != nil {
			return err
		}
		r.space()
		if r.peek() != ':' {
			return r.syntax("after an object key")
		}
		r.i++
		r.space()
		if err := field(r, key); err != nil {
			return err
		}
		r.space()
		switch r.peek() {
		case ',':
			r.i++
			r.space()
			continue
		case '}':
			r.i++
			r.depth--
			return nil
		}
		return r.syntax("after an object member")
	}
}

// skip reads past the value at r.i, checking it.
func (r *jsonReader) skip() error {
	switch c := r.peek(); {
	case c == '"':
		_, err := r.str()
		return err
	case c == '{':
		return r.object(func(r *jsonReader, _ string) error { return r.skip() })
	case c == '[':
		if err := r.enter(); err != nil {
			return err
		}
		r.i++
		r.space()
		if r.peek() == ']' {
			r.i++
			r.depth--
			return nil
		}
		for {
			if err := r.skip(); err != nil {
				return err
			}
			r.space()
			switch r.peek() {
			case ',':
				r.i++
				r.space()
				continue
			case ']':
				r.i++
				r.depth--
				return nil
			}
			return r.syntax("after an array element")
		}
	case c == 't':
		return r.literal("true")
	case c == 'f':
		return r.literal("false")
	case c == 'n':
		return r.literal("null")
	case c == '-' || '0' <= c && c <= '9':
		_, err := r.number()
		return err
	}
	return r.syntax("looking for a value")
}

// literal reads the literal lit (true, false or null) at r.i.
func (r *jsonReader) literal(lit string) error {
	for k := 0; k < len(lit); k++ {
		if r.peek() != lit[k] {
			return r.syntax("in the literal " + lit)
		}
		r.i++
	}
	return nil
}

// number reads the number at r.i and returns its text.
func (r *jsonReader) number() (string, error) {
	start := r.i
	digits := func() {
		for r.i < len(r.s) && '0' <= r.s[r.i] && r.s[r.i] <= '9' {
			r.i++
		}
	}
	if r.peek() == '-' {
		r.i++
	}
	switch c := r.peek(); {
	case c == '0':
		r.i++
	case '1' <= c && c <= '9':
		digits()
	default:
		return "", r.syntax("in a number")
	}
	if r.peek() == '.' {
		r.i++
		if c := r.peek(); c < '0' || c > '9' {
			return "", r.syntax("after a number's decimal point")
		}
		digits()
	}
	if c := r.peek(); c == 'e' || c == 'E' {
		r.i++
		if c := r.peek(); c == '+' || c == '-' {
			r.i++
		}
		if c := r.peek(); c < '0' || c > '9' {
			return "", r.syntax("in a number's exponent")
		}
		digits()
	}
	return r.s[start:r.i], nil
}

// str reads the string at r.i and returns its value.
func (r *jsonReader) str() (string, error) {
	r.i++ // "
	start := r.i
	// Most strings have no escape and are ASCII: their value is their text.
	for r.i < len(r.s) {
		c := r.s[r.i]
		if c == '"' {
			r.i++
			return r.s[start : r.i-1], nil
		}
		if c == '\\' || c < ' ' || c >= utf8.RuneSelf {
			break
		}
		r.i++
	}
	b := []byte(r.s[start:r.i])
	for {
		if r.i >= len(r.s) {
			return "", errJSONEnd
		}
		switch c := r.s[r.i]; {
		case c == '"':
			r.i++
			return string(b), nil
		case c < ' ':
			return "", r.syntax("in a string")
		case c == '\\':
			r.i++
			switch r.peek() {
			case '"', '\\', '/':
				b = append(b, r.s[r.i])
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				r.i--
				c, err := r.hex4()
				if err != nil {
					return "", err
				}
				if 0xd800 <= c && c < 0xdc00 && r.i+6 <= len(r.s) && r.s[r.i] == '\\' && r.s[r.i+1] == 'u' {
					// A high surrogate: a pair with a low one is
					// one rune; alone it is U+FFFD, as the low one
					// then is.
					if lo, ok := hex4(r.s[r.i+2 : r.i+6]); ok && 0xdc00 <= lo && lo < 0xe000 {
						r.i += 6
						c = 0x10000 + (c-0xd800)<<10 + (lo - 0xdc00)
					}
				}
				if 0xd800 <= c && c < 0xe000 {
					c = utf8.RuneError
				}
				b = utf8.AppendRune(b, c)
				continue
			default:
				return "", r.syntax("in a string escape")
			}
			r.i++
		case c < utf8.RuneSelf:
			b = append(b, c)
			r.i++
		default:
			c, size := utf8.DecodeRuneInString(r.s[r.i:])
			if c == utf8.RuneError && size == 1 {
				b = append(b, "\uFFFD"...)
			} else {
				b = append(b, r.s[r.i:r.i+size]...)
			}
			r.i += size
		}
	}
}

// hex4 reads the escape \uXXXX at r.i.
func (r *jsonReader) hex4() (rune, error) {
	r.i += 2 // \u
	var c rune
	for k := 0; k < 4; k++ {
		if r.i >= len(r.s) {
			return 0, errJSONEnd
		}
		d, ok := hexDigit(r.s[r.i])
		if !ok {
			return 0, r.syntax("in a \\u escape")
		}
		c = c<<4 | d
		r.i++
	}
	return c, nil
}

// hex4 returns the value of 4 hex digits.
func hex4(s string) (rune, bool) {
	var c rune
	for k := 0; k < 4; k++ {
		d, ok := hexDigit(s[k])
		if !ok {
			return 0, false
		}
		c = c<<4 | d
	}
	return c, true
}

func hexDigit(d byte) (rune, bool) {
	switch {
	case '0' <= d && d <= '9':
		return rune(d - '0'), true
	case 'a' <= d && d <= 'f':
		return rune(d - 'a' + 10), true
	case 'A' <= d && d <= 'F':
		return rune(d - 'A' + 10), true
	}
	return 0, false
}

// jsonKey returns key folded as encoding/json folds a key to match a
// field's name ignoring case: each rune to the smallest of its Unicode
// simple folding orbit (ASCII letters to upper case; K, the Kelvin sign,
// to K). The config's field names are ASCII: a key folding to anything
// else matches none, and is returned as "".
func jsonKey(key string) string {
	folded := true
	for k := 0; k < len(key); k++ {
		if c := key[k]; c >= utf8.RuneSelf || 'a' <= c && c <= 'z' {
			folded = false
			break
		}
	}
	if folded {
		return key
	}
	b := make([]byte, 0, len(key))
	for _, c := range key {
		if c < utf8.RuneSelf {
			if 'a' <= c && c <= 'z' {
				c -= 'a' - 'A'
			}
		} else {
			for {
				f := unicode.SimpleFold(c)
				if f <= c {
					c = f
					break
				}
				c = f
			}
			if c >= utf8.RuneSelf {
				return ""
			}
		}
		b = append(b, byte(c))
	}
	return string(b)
}

// The readers of a field's value: each reads the value at r.i into *dst,
// or records a type error (naming field) and skips it. Their error is a
// syntax error, which ends the reading.

func (r *jsonReader) stringField(field string, dst *string) error {
	switch r.peek() {
	case '"':
		s, err := r.str()
		if err != nil {
			return err
		}
		*dst = s
		return nil
	case 'n':
		return r.literal("null")
	}
	return r.wrong(field, "a string")
}

func (r *jsonReader) boolField(field string, dst *bool) error {
	switch r.peek() {
	case 't':
		if err := r.literal("true"); err != nil {
			return err
		}
		*dst = true
		return nil
	case 'f':
		if err := r.literal("false"); err != nil {
			return err
		}
		*dst = false
		return nil
	case 'n':
		return r.literal("null")
	}
	return r.wrong(field, "true or false")
}

// numberText reads a number for field; ok is false when the value is
// null (read) or not a number (skipped, its type error recorded).
func (r *jsonReader) numberText(field, want string) (text string, ok bool, err error) {
	switch c := r.peek(); {
	case c == '-' || '0' <= c && c <= '9':
		text, err = r.number()
		return text, err == nil, err
	case c == 'n':
		return "", false, r.literal("null")
	}
	return "", false, r.wrong(field, want)
}

func (r *jsonReader) floatField(field string, dst *float64) error {
	t, ok, err := r.numberText(field, "a number")
	if ok {
		x, perr := strconv.ParseFloat(t, 64)
		if perr != nil {
			r.typeError(field, "a number", t+" (beyond float64's range)")
		} else {
			*dst = x
		}
	}
	return err
}

func (r *jsonReader) uint64Field(field string, dst *uint64) error {
	const want = "an integer from 0 to 2⁶⁴−1"
	t, ok, err := r.numberText(field, want)
	if ok {
		if n, perr := strconv.ParseUint(t, 10, 64); perr != nil {
			r.typeError(field, want, t)
		} else {
			*dst = n
		}
	}
	return err
}

func (r *jsonReader) int64Field(field string, dst *int64) error {
	const want = "an integer from −2⁶³ to 2⁶³−1"
	t, ok, err := r.numberText(field, want)
	if ok {
		if n, perr := strconv.ParseInt(t, 10, 64); perr != nil {
			r.typeError(field, want, t)
		} else {
			*dst = n
		}
	}
	return err
}

func (r *jsonReader) intField(field string, dst *int) error {
	want := "an integer from −2⁶³ to 2⁶³−1"
	if strconv.IntSize == 32 {
		want = "an integer from −2³¹ to 2³¹−1"
	}
	t, ok, err := r.numberText(field, want)
	if ok {
		if n, perr := strconv.ParseInt(t, 10, strconv.IntSize); perr != nil {
			r.typeError(field, want, t)
		} else {
			*dst = int(n)
		}
	}
	return err
}

// stringsField reads an array of strings into *dst, reusing it as
// encoding/json does (a null element leaves what the slice held there).
func (r *jsonReader) stringsField(field string, dst *[]string) error {
	switch r.peek() {
	case '[':
	case 'n':
		if err := r.literal("null"); err != nil {
			return err
		}
		*dst = nil
		return nil
	default:
		return r.wrong(field, "an array of strings")
	}
	if err := r.enter(); err != nil {
		return err
	}
	r.i++
	r.space()
	s, n := *dst, 0
	if r.peek() == ']' {
		r.i++
	} else {
		for {
			if n >= cap(s) {
				s = append(s[:cap(s)], "")
			}
			s = s[:max(len(s), n+1)]
			var err error
			switch r.peek() {
			case '"':
				s[n], err = r.str()
			case 'n':
				err = r.literal("null")
			default:
				err = r.wrong(field+" item "+strconv.Itoa(n), "a string")
			}
			if err != nil {
				return err
			}
			n++
			r.space()
			if c := r.peek(); c == ',' {
				r.i++
				r.space()
				continue
			} else if c == ']' {
				r.i++
				break
			}
			return r.syntax("after an array element")
		}
	}
	r.depth--
	if n == 0 {
		s = []string{}
	}
	*dst = s[:n]
	return nil
}

// stringMapField reads an object of strings into the map *dst, made when
// nil (null: set to nil); a null member's value is "".
func (r *jsonReader) stringMapField(field string, dst *map[string]string) error {
	switch r.peek() {
	case '{':
	case 'n':
		if err := r.literal("null"); err != nil {
			return err
		}
		*dst = nil
		return nil
	default:
		return r.wrong(field, "an object of strings")
	}
	if *dst == nil {
		*dst = map[string]string{}
	}
	m := *dst
	return r.object(func(r *jsonReader, key string) error {
		v := ""
		var err error
		switch r.peek() {
		case '"':
			v, err = r.str()
		case 'n':
			err = r.literal("null")
		default:
			err = r.wrong(field+" key "+strconv.Quote(key), "a string")
		}
		m[key] = v
		return err
	})
}

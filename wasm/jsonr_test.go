package main

import (
	"encoding/json"
	"errors"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// The config JSON is read by hand (jsonr.go); these tests check it against
// json.Unmarshal into the same structs.

// isTypeError reports whether err is one of the reader's type errors (a
// value of the wrong type or range), not a syntax error.
func isTypeError(err error) bool {
	return strings.HasPrefix(err.Error(), "json: field ") || strings.HasPrefix(err.Error(), "json: want ")
}

// crossCheck decodes data into a config with json.Unmarshal and
// decodeJSON, and fails unless both accept it with the same struct, or
// both refuse it (with a syntax error both, or a type error naming the
// same field), or data is past the reader's deliberate bounds. It reports whether encoding/json accepted data into config.
func crossCheck(t *testing.T, data string) bool {
	t.Helper()
	var want, got config
	return crossCheckOne(t, data, &want, &got, json.Unmarshal([]byte(data), &want), got.decodeJSON(data))
}

func crossCheckOne(t *testing.T, data string, want, got any, errWant, errGot error) bool {
	t.Helper()
	if errors.Is(errGot, errJSONTooLong) || errors.Is(errGot, errJSONTooDeep) {
		return false // the reader's bounds, which encoding/json does not have
	}
	switch {
	case errWant == nil && errGot == nil:
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q into %T:\ndecodeJSON    %#v\nencoding/json %#v", data, got, got, want)
		}
		return true
	case errWant == nil:
		t.Fatalf("%q into %T: decodeJSON refused it (%v), encoding/json read %#v", data, got, errGot, want)
	case errGot == nil:
		t.Fatalf("%q into %T: decodeJSON read %#v, encoding/json refused it (%v)", data, got, got, errWant)
	}
	var syntax *json.SyntaxError
	if errors.As(errWant, &syntax) == isTypeError(errGot) {
		t.Fatalf("%q into %T: decodeJSON: %v; encoding/json: %v", data, got, errGot, errWant)
	}
	var typ *json.UnmarshalTypeError
	if errors.As(errWant, &typ) && typ.Field != "" && !strings.HasPrefix(errGot.Error(), `json: field "`+typ.Field+`"`) {
		t.Fatalf("%q into %T: decodeJSON: %v; encoding/json: %v (field %s)", data, got, errGot, errWant, typ.Field)
	}
	return false
}

// validConfigs are texts encoding/json reads into a config without error.
var validConfigs = []string{
	`{"source":"demo","demo":"planted-regression","learners":["occfm-auto"],"task":"auto","delta":0,"eta":0,"gamma":"1/sqrt(t)","loss":"auto","seed":1,"onError":"stop"}`,
	`{"source":"file","file":"u.data","learners":["occfm","fm-ftrl","mean"],"follow":"fm-ftrl","format":"movielens","roles":{"rating":"label","user":"categorical"},"noRegret":true,"regretGrowth":2,"regretEvery":500,"clip":"on","onDiverge":"pause","onError":"skip","maxMemory":-1}`,
	`{"catalog":"files","learner":"occfm","seed":18446744073709551615,"ratings":"ratings.dat","size":9223372036854775807}`,
	`null`, ` {} `, "\t\n\r {\n} \n",
	`{"SOURCE":"demo","Demo":"ratings","sEeD":7,"ſeed":8,"maxmemory":12,"NOREGRET":false,"noregret":null}`,
	`{"learners":["a","b","c"],"learners":["x",null,"y"],"learners":["z"],"learners":[null,null,null]}`,
	`{"learners":["a"],"learners":null}`, `{"learners":[]}`, `{"roles":{}}`, `{"roles":{"a":"x"},"roles":{"b":null}}`,
	`{"roles":{"a":"x"},"roles":null,"roles":{"c":"y"}}`,
	`{"delta":-0,"eta":1e-400,"regretGrowth":1.5e2,"seed":0,"maxMemory":-9223372036854775808,"regretEvery":-0}`,
	`{"delta":null,"seed":null,"source":null,"learners":null,"roles":null,"noRegret":null}`,
	`{"file":"\"\\\/\b\f\n\r\t\u0041\u00e9\ud83d\ude00\ud800\udc00\uDBFF\uDFFF","demo":"\ud800","task":"\udc00x","format":"\ud800\u0041","loss":"\ud800\ud800"}`,
	"{\"file\":\"\xff\xfe\xed\xa0\x80 \xc3 é \u2028\x7f\"}",
	`{"unknown":{"a":[1,2,{"b":null}],"c":true},"other":[[],[[]],{}],"n":-1.5e-3,"t":true,"f":false,"s":"x","z":null}`,
	`{"source":"demo","source":"file"}`, `{"delta":1,"delta":2E+2}`,
	`{"le\u0061rners":["x"],"\u0053eed":3}`, `{"K":1,"ſ":2,"KEY":3}`,
}

func TestConfigJSONMatchesEncodingJSON(t *testing.T) {
	for _, data := range validConfigs {
		if !crossCheck(t, data) {
			t.Errorf("%s: encoding/json refused it", data)
		}
	}
}

// The reader's error texts: the field and what was wrong, or where the
// syntax broke.
func TestConfigJSONErrors(t *testing.T) {
	for _, tc := range []struct{ data, want string }{
		{`{"delta":"1"}`, `json: field "delta": want a number, got string`},
		{`{"eta":true}`, `json: field "eta": want a number, got boolean`},
		{`{"delta":1e400}`, `json: field "delta": want a number, got 1e400 (beyond float64's range)`},
		{`{"source":1}`, `json: field "source": want a string, got number`},
		{`{"file":{}}`, `json: field "file": want a string, got object`},
		{`{"task":[]}`, `json: field "task": want a string, got array`},
		{`{"seed":1.5}`, `json: field "seed": want an integer from 0 to 2⁶⁴−1, got 1.5`},
		{`{"seed":-1}`, `json: field "seed": want an integer from 0 to 2⁶⁴−1, got -1`},
		{`{"seed":18446744073709551616}`, `json: field "seed": want an integer from 0 to 2⁶⁴−1, got 18446744073709551616`},
		{`{"seed":1e3}`, `json: field "seed": want an integer from 0 to 2⁶⁴−1, got 1e3`},
		{`{"maxMemory":9223372036854775808}`, `json: field "maxMemory": want an integer from −2⁶³ to 2⁶³−1, got 9223372036854775808`},
		{`{"regretEvery":2.5}`, `json: field "regretEvery": want an integer from −2⁶³ to 2⁶³−1, got 2.5`},
		{`{"noRegret":"yes"}`, `json: field "noRegret": want true or false, got string`},
		{`{"noRegret":0}`, `json: field "noRegret": want true or false, got number`},
		{`{"learners":"occfm"}`, `json: field "learners": want an array of strings, got string`},
		{`{"learners":["occfm",1]}`, `json: field "learners" item 1: want a string, got number`},
		{`{"roles":[]}`, `json: field "roles": want an object of strings, got array`},
		{`{"roles":{"a\"b":2}}`, `json: field "roles" key "a\"b": want a string, got number`},
		{`{"delta":"x","seed":"y"}`, `json: field "delta": want a number, got string`}, // the first
		{`[]`, `json: want an object, got array`},
		{`"config"`, `json: want an object, got string`},
		{``, `json: unexpected end of the text`},
		{`{"delta":1`, `json: unexpected end of the text`},
		{`{"file":"abc`, `json: unexpected end of the text`},
		{`{"file":"\u12`, `json: unexpected end of the text`},
		{`{"delta":"x",}`, `json: invalid character '}' at offset 13 looking for an object key`}, // syntax first
		{`{"delta":1} x`, `json: invalid character 'x' at offset 12 after the top-level value`},
		{`{"delta":01}`, `json: invalid character '1' at offset 10 after an object member`},
		{`{"delta":1.}`, `json: invalid character '}' at offset 11 after a number's decimal point`},
		{`{"delta":-}`, `json: invalid character '}' at offset 10 in a number`},
		{`{"delta":1e+}`, `json: invalid character '}' at offset 12 in a number's exponent`},
		{`{"delta" 1}`, `json: invalid character '1' at offset 9 after an object key`},
		{`{"learners":["a" "b"]}`, `json: invalid character '"' at offset 17 after an array element`},
		{`{"noRegret":tru}`, `json: invalid character '}' at offset 15 in the literal true`},
		{"{\"file\":\"a\nb\"}", `json: invalid byte 0x0a at offset 10 in a string`},
		{`{"file":"\x"}`, `json: invalid character 'x' at offset 10 in a string escape`},
		{`{"file":"\u12g4"}`, `json: invalid character 'g' at offset 13 in a \u escape`},
		{"\xef\xbb\xbf{}", `json: invalid byte 0xef at offset 0 looking for a value`},
	} {
		var c config
		err := c.decodeJSON(tc.data)
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s: %v\n\twant %s", tc.data, err, tc.want)
		}
		if json.Unmarshal([]byte(tc.data), new(config)) == nil {
			t.Errorf("%s: encoding/json accepts it", tc.data)
		}
		crossCheck(t, tc.data)
	}
}

// TestConfigJSONBounds: the reader's deliberate limits.
func TestConfigJSONBounds(t *testing.T) {
	deep := `{"x":` + strings.Repeat("[", jsonMaxDepth-1) + strings.Repeat("]", jsonMaxDepth-1) + `}`
	var c config
	if err := c.decodeJSON(deep); err != nil {
		t.Errorf("%d deep: %v", jsonMaxDepth, err)
	}
	deeper := `{"x":` + strings.Repeat("[", jsonMaxDepth) + strings.Repeat("]", jsonMaxDepth) + `}`
	if err := c.decodeJSON(deeper); !errors.Is(err, errJSONTooDeep) {
		t.Errorf("%d deep: %v", jsonMaxDepth+1, err)
	}
	if err := c.decodeJSON(`{"x":` + strings.Repeat(`{"y":`, 100000)); !errors.Is(err, errJSONTooDeep) {
		t.Errorf("100000 deep: %v", err)
	}
	long := `{"file":"` + strings.Repeat("a", jsonMaxLen) + `"}`
	if err := c.decodeJSON(long); !errors.Is(err, errJSONTooLong) {
		t.Errorf("%d bytes: %v", len(long), err)
	}
}

// jsonGen writes random JSON texts for a config: mostly objects of the
// config's keys (in any case, escaped, repeated) with values of the
// field's type or of another, numbers at the edges of the integer
// ranges, strings with every escape, and now and then a broken byte.
type jsonGen struct {
	rng *rand.Rand
	b   []byte
}

var genKeys = []string{"source", "demo", "file", "learners", "follow", "task", "format", "roles", "delta", "eta", "gamma", "loss",
	"seed", "noRegret", "regretGrowth", "regretEvery", "clip", "onDiverge", "onError", "maxMemory",
	"catalog", "learner", "ratings", "size", "unknown", "", "SEED", "Delta", "ſeed", "maxmemory", "LEARNERS", "Learner", "sıze", "ſize"}

var genNumbers = []string{"0", "-0", "1", "-1", "7", "1.5", "-2.5", "1e3", "1E-3", "2e+2", "0.0", "1e400", "-1e400", "1e-400",
	"18446744073709551615", "18446744073709551616", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
	"-9223372036854775809", "123456789012345678901234567890", "0.1e1", "100"}

func (g *jsonGen) space() {
	for g.rng.IntN(4) == 0 {
		g.b = append(g.b, " \t\n\r"[g.rng.IntN(4)])
	}
}

// str writes s as a JSON string, escaping at random what it need not.
func (g *jsonGen) str(s string) {
	g.b = append(g.b, '"')
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		raw := s[i : i+size]
		i += size
		switch {
		case r == '"' || r == '\\':
			g.b = append(g.b, '\\', byte(r))
		case r < ' ' || g.rng.IntN(4) == 0:
			switch {
			case r == utf8.RuneError && size == 1:
				g.b = append(g.b, raw...) // invalid UTF-8 as is
			case r >= 0x10000:
				r1, r2 := rune(0xd800+((r-0x10000)>>10)), rune(0xdc00+((r-0x10000)&0x3ff))
				g.b = append(g.b, `\u`+strconv.FormatInt(int64(r1), 16)+`\u`+strings.ToUpper(strconv.FormatInt(int64(r2), 16))...)
			case r == '\n' && g.rng.IntN(2) == 0:
				g.b = append(g.b, `\n`...)
			case r == '/' && g.rng.IntN(2) == 0:
				g.b = append(g.b, `\/`...)
			default:
				h := strconv.FormatInt(int64(r), 16)
				g.b = append(g.b, `\u`+strings.Repeat("0", 4-len(h))+h...)
			}
		default:
			g.b = append(g.b, raw...)
		}
	}
	switch g.rng.IntN(20) {
	case 0:
		g.b = append(g.b, `\ud800`...) // a lone surrogate
	case 1:
		g.b = append(g.b, `\udc00\ud83d\ude00`...)
	}
	g.b = append(g.b, '"')
}

func (g *jsonGen) value(depth int) {
	g.space()
	switch k := g.rng.IntN(10); {
	case k < 3:
		g.str(randString(g.rng))
	case k < 5:
		g.b = append(g.b, genNumbers[g.rng.IntN(len(genNumbers))]...)
	case k == 5:
		g.b = append(g.b, []string{"true", "false", "null"}[g.rng.IntN(3)]...)
	case k == 6 && depth < 4:
		g.b = append(g.b, '[')
		for i := range g.rng.IntN(4) {
			if i > 0 {
				g.b = append(g.b, ',')
			}
			if g.rng.IntN(2) == 0 {
				g.str(randString(g.rng))
			} else {
				g.value(depth + 1)
			}
		}
		g.space()
		g.b = append(g.b, ']')
	case k == 7 && depth < 4:
		g.object(depth + 1)
	default:
		g.b = append(g.b, "null"...)
	}
	g.space()
}

// typed writes a value of the type of key's field, or null.
func (g *jsonGen) typed(key string, depth int) {
	g.space()
	switch jsonKey(key) {
	case "LEARNERS":
		g.b = append(g.b, '[')
		for i := range g.rng.IntN(5) {
			if i > 0 {
				g.b = append(g.b, ',')
			}
			if g.rng.IntN(3) == 0 {
				g.b = append(g.b, "null"...)
			} else {
				g.str(randString(g.rng))
			}
		}
		g.b = append(g.b, ']')
	case "ROLES":
		g.b = append(g.b, '{')
		for i := range g.rng.IntN(4) {
			if i > 0 {
				g.b = append(g.b, ',')
			}
			g.str([]string{"a", "b", "c", randString(g.rng)}[g.rng.IntN(4)])
			g.b = append(g.b, ':')
			if g.rng.IntN(3) == 0 {
				g.b = append(g.b, "null"...)
			} else {
				g.str(randString(g.rng))
			}
		}
		g.b = append(g.b, '}')
	case "DELTA", "ETA", "REGRETGROWTH", "SEED", "REGRETEVERY", "MAXMEMORY", "SIZE":
		g.b = append(g.b, genNumbers[g.rng.IntN(len(genNumbers))]...)
	case "NOREGRET":
		g.b = append(g.b, []string{"true", "false", "null"}[g.rng.IntN(3)]...)
	case "":
		g.value(depth)
	default:
		if g.rng.IntN(8) == 0 {
			g.b = append(g.b, "null"...)
		} else {
			g.str(randString(g.rng))
		}
	}
	g.space()
}

func (g *jsonGen) object(depth int) {
	g.b = append(g.b, '{')
	for i := range g.rng.IntN(6) {
		if i > 0 {
			g.b = append(g.b, ',')
		}
		g.space()
		key := randString(g.rng)
		if g.rng.IntN(5) > 0 {
			key = genKeys[g.rng.IntN(len(genKeys))]
		}
		g.str(key)
		g.space()
		g.b = append(g.b, ':')
		if g.rng.IntN(3) > 0 {
			g.typed(key, depth)
		} else {
			g.value(depth)
		}
	}
	g.space()
	g.b = append(g.b, '}')
}

// text returns a random text: an object at the top mostly, its bytes now
// and then broken.
func (g *jsonGen) text() string {
	g.b = g.b[:0]
	g.space()
	if g.rng.IntN(10) == 0 {
		g.value(0)
	} else {
		g.object(0)
	}
	g.space()
	if len(g.b) > 0 && g.rng.IntN(8) == 0 {
		i := g.rng.IntN(len(g.b))
		switch g.rng.IntN(3) {
		case 0:
			g.b = append(g.b[:i], g.b[i+1:]...)
		case 1:
			const broken = `{}[],:"\ 0-e.tn`
			g.b[i] = broken[g.rng.IntN(len(broken))]
		default:
			g.b = g.b[:i]
		}
	}
	return string(g.b)
}

// TestConfigJSONRandom cross-checks the reader on random texts; about half
// are configs encoding/json accepts.
func TestConfigJSONRandom(t *testing.T) {
	g := &jsonGen{rng: rand.New(rand.NewPCG(31, 32))}
	n := 100000
	if testing.Short() {
		n = 10000
	}
	accepted := 0
	for range n {
		if crossCheck(t, g.text()) {
			accepted++
		}
	}
	if accepted < n/5 {
		t.Errorf("encoding/json accepted %d of %d texts: too few to check the reader", accepted, n)
	}
	t.Logf("encoding/json accepted %d of %d", accepted, n)
}

// FuzzConfigJSON: whenever encoding/json reads a text into a config,
// decodeJSON reads the same struct, and it accepts nothing encoding/json
// refuses; refused by both, the error is of the same kind. Texts past the reader's bounds are the one deliberate difference.
func FuzzConfigJSON(f *testing.F) {
	for _, data := range validConfigs {
		f.Add(data)
	}
	g := &jsonGen{rng: rand.New(rand.NewPCG(41, 42))}
	for range 20 {
		f.Add(g.text())
	}
	f.Add(`{"delta":"x",}`)
	f.Add(`{"seed":1.5}`)
	f.Fuzz(func(t *testing.T, data string) {
		crossCheck(t, data)
	})
}

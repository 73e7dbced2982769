package data_test

// The readers NewStream stacks under its line reader: a gzip file cut
// short, UTF-16 and CR-only text read a byte at a time.

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"testing/iotest"
	"unicode/utf16"

	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/internal/str"
)

// libsvmText returns n LibSVM lines with labels ±1 and up to 5 features.
func libsvmText(n int) []byte {
	var b bytes.Buffer
	for k := range n {
		if k%3 == 0 {
			b.WriteString("+1")
		} else {
			b.WriteString("-1")
		}
		for f := 1; f <= k%5+1; f++ {
			b.WriteString(" " + str.Itoa(f*(k%7+1)) + ":0.25")
		}
		b.WriteString("\n")
	}
	return b.Bytes()
}

func TestStreamTruncatedGzip(t *testing.T) {
	text := libsvmText(20000)
	z := gzipBytes(t, text)
	for _, cut := range []int{12, 100, len(z) / 2, len(z) - 4} {
		s, err := data.NewStream(bytes.NewReader(z[:cut]), data.ReaderSettings{Name: "cut.gz"})
		if err != nil {
			if !strings.HasPrefix(err.Error(), "core: cut.gz") {
				t.Errorf("cut %d: NewStream error %v", cut, err)
			}
			continue
		}
		got, errs, end := readAll(t, s)
		if end == nil {
			t.Fatalf("cut %d: read %d examples and no error", cut, len(got))
		}
		if len(errs) != 0 {
			t.Errorf("cut %d: parse errors %v", cut, errs)
		}
		// The line is the one after the last complete line read.
		want := "core: cut.gz:" + str.Itoa(len(got)+1) + ": gzip: unexpected EOF: the file is cut short (truncated)"
		if end.Error() != want {
			t.Errorf("cut %d: error\n%s\nwant\n%s", cut, end, want)
		}
		var e data.Example
		if err := s.Next(&e); err != end {
			t.Errorf("cut %d: the error is not sticky: %v then %v", cut, end, err)
		}
	}
}

// TestStreamTranscoding reads UTF-16 and CR-only text a byte at a time
// (testing/iotest.OneByteReader), so that surrogate pairs and CRLF pairs
// are split across reads, and compares with the UTF-8, LF reading.
func TestStreamTranscoding(t *testing.T) {
	const text = "user,item é,label\nAda,𝄞 clef,1\nBob,x,0\n"
	utf16LE := func(s string, bom bool) []byte {
		var b []byte
		if bom {
			b = append(b, 0xff, 0xfe)
		}
		for _, u := range utf16.Encode([]rune(s)) {
			b = append(b, byte(u), byte(u>>8))
		}
		return b
	}
	utf16BE := func(s string) []byte {
		b := []byte{0xfe, 0xff}
		for _, u := range utf16.Encode([]rune(s)) {
			b = append(b, byte(u>>8), byte(u))
		}
		return b
	}
	cases := []struct {
		name string
		in   []byte
		warn bool
	}{
		{"utf-16le bom", utf16LE(text, true), true},
		{"utf-16le", utf16LE(text, false), true},
		{"utf-16be bom", utf16BE(text), true},
		{"utf-16le crlf", utf16LE(strings.ReplaceAll(text, "\n", "\r\n"), true), true},
		{"cr only", []byte(strings.ReplaceAll(text, "\n", "\r")), false},
		{"cr only gzip", gzipBytes(t, []byte(strings.ReplaceAll(text, "\n", "\r"))), false},
	}
	want, _, _ := readAll(t, mustStream(t, strings.NewReader(text)))
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := mustStream(t, iotest.OneByteReader(bytes.NewReader(c.in)))
			got, errs, end := readAll(t, s)
			if end != nil || errs != nil || len(got) != len(want) {
				t.Fatalf("%d rows, errors %q, end %v", len(got), errs, end)
			}
			for k := range got {
				if !sameExample(got[k], want[k]) {
					t.Errorf("row %d = %v, want %v", k, got[k], want[k])
				}
			}
			if s.FeatureName(1) != "item é=𝄞 clef" || s.Line() != 3 {
				t.Errorf("feature %q, line %d", s.FeatureName(1), s.Line())
			}
			if (len(s.Warnings()) > 0) != c.warn {
				t.Errorf("warnings %q", s.Warnings())
			}
		})
	}
}

func mustStream(t *testing.T, r io.Reader) *data.Stream {
	t.Helper()
	s, err := data.NewStream(r, data.ReaderSettings{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

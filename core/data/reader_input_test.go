package data_test

// The readers NewStream stacks under its line reader: a gzip file cut
// short, UTF-16 and CR-only text read a byte at a time.

import (
	"bytes"
	"compress/gzip"
	"hash/crc32"
	"io"
	"slices"
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

// TestGunzipMembers reads gzip files whose headers carry every optional
// field (an extra field, a name, a comment, a header CRC), several
// members, zero padding, and the damage each check exists for, against
// compress/gzip's own reading of the same bytes.
func TestGunzipMembers(t *testing.T) {
	text := libsvmText(3000)
	member := func(h gzip.Header, b []byte) []byte {
		var z bytes.Buffer
		w := gzip.NewWriter(&z)
		w.Header = h
		w.Write(b)
		w.Close()
		return z.Bytes()
	}
	full := gzip.Header{Name: "u.data", Comment: "a comment", Extra: []byte("xx\x04\x00abcd")}
	// The longest name and comment compress/gzip reads are 511 bytes (a
	// file's name is at most 255, and gzip(1) writes no comment); the extra
	// field can take all of its 65,535.
	long := gzip.Header{Name: strings.Repeat("n", 511), Comment: strings.Repeat("c", 511), Extra: bytes.Repeat([]byte("xx\xf8\xff"), 1)}
	long.Extra = append(long.Extra, make([]byte, 0xfff8)...)
	tooLong := gzip.Header{Name: strings.Repeat("n", 512)}
	plain := member(gzip.Header{}, text)
	// FHCRC: the low 16 bits of the header's CRC-32 follow the header.
	headerCRC := slices.Clone(plain[:10])
	headerCRC[3] |= 2
	sum := crc32.ChecksumIEEE(headerCRC)
	headerCRC = append(append(headerCRC, byte(sum), byte(sum>>8)), plain[10:]...)
	badHeaderCRC := slices.Clone(headerCRC)
	badHeaderCRC[10] ^= 1
	flipped := slices.Clone(plain)
	flipped[len(flipped)-5] ^= 1 // the CRC-32 in the trailer
	reserved := slices.Clone(plain)
	reserved[3] |= 0x20
	for _, tc := range []struct {
		name string
		z    []byte
		want []byte // nil: an error containing err
		err  string
	}{
		{"plain", plain, text, ""},
		{"every header field", member(full, text), text, ""},
		{"header crc", headerCRC, text, ""},
		{"bad header crc", badHeaderCRC, nil, "gzip: invalid header"},
		{"long name, comment and extra field", member(long, text), text, ""},
		{"name too long", member(tooLong, text), nil, "gzip: invalid header"},
		{"two members, zero padding", append(append(member(full, text[:1000]), member(gzip.Header{}, text[1000:])...), make([]byte, 512)...), text, ""},
		{"empty member", append(member(gzip.Header{}, nil), plain...), text, ""},
		{"trailer crc", flipped, nil, "gzip: invalid checksum"},
		{"reserved flag", reserved, nil, "gzip: invalid header"},
		{"name cut", member(full, text)[:100], nil, "unexpected EOF"},
		{"trailer cut", plain[:len(plain)-3], nil, "unexpected EOF"},
		{"trailing text", append(slices.Clone(plain), "more"...), nil, "neither another gzip member nor zero padding"},
	} {
		r, err := data.Gunzip(bytes.NewReader(tc.z))
		var got []byte
		if err == nil {
			got, err = io.ReadAll(r)
		}
		switch {
		case tc.want != nil && (err != nil || !bytes.Equal(got, tc.want)):
			t.Errorf("%s: read %d bytes, %v; want %d bytes", tc.name, len(got), err, len(tc.want))
		case tc.want == nil && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s: error %v, want one with %q", tc.name, err, tc.err)
		}
		// compress/gzip, read as one multistream Reader, agrees on what is a
		// good file, but for what Gunzip adds: zero padding read, trailing
		// bytes named, reserved flags refused (RFC 1952 says a reader must
		// refuse them, as gzip(1) does).
		if !strings.Contains("two members, zero padding|trailing text|reserved flag", tc.name) {
			zr, err := gzip.NewReader(bytes.NewReader(tc.z))
			if err == nil {
				_, err = io.ReadAll(zr)
			}
			if (err == nil) != (tc.want != nil) {
				t.Errorf("%s: compress/gzip reads it with error %v", tc.name, err)
			}
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

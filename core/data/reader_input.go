package data

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/occfm/occfm/core/internal/str"
)

// This file holds the readers NewStream stacks under its line reader: gzip
// members and UTF-16 to UTF-8, each chosen from the first bytes of the
// input, and every line end (CR, LF, CRLF) to LF, always. Each works in a
// fixed buffer, so a Stream still reads in constant memory.

// gzipStream decompresses a gzip file (RFC 1952) with compress/gzip: one
// member or several concatenated (they read as one stream, as gzip(1) reads
// them), optionally followed by zero bytes, the padding that tape and dd
// tools leave to fill a block, which gzip(1) ignores too. Anything else
// after the last member is an error, and so is a member whose header sets a
// reserved flag (RFC 1952, 2.3.1.2: a reader must refuse it, as gzip(1)
// does; compress/gzip does not look). compress/gzip reads each member alone
// (Multistream(false)), so that what follows it is looked at here.
type gzipStream struct {
	br  *bufio.Reader // the compressed input: gzip reads it exactly to a member's end
	zr  gzip.Reader
	err error // sticky
}

var (
	// errGzipTrailing is the error of bytes after the last gzip member that
	// are neither another member nor zero padding.
	errGzipTrailing = errors.New("gzip: the compressed data is followed by bytes that are neither another gzip member nor zero padding")
	errGzipChecksum = str.Wrap("gzip: invalid checksum: the data decompressed is not the data compressed", gzip.ErrChecksum)
)

// Gunzip returns a reader of what the gzip file r decompresses to, read as
// NewStream reads a gzip input: every member in turn, zero padding after the
// last ignored, other trailing bytes an error. The page gunzips its item
// lists with it, so that they read as the command line reads a file.
func Gunzip(r io.Reader) (io.Reader, error) {
	br, ok := r.(*bufio.Reader)
	if !ok {
		br = bufio.NewReader(r)
	}
	return newGzipStream(br)
}

func newGzipStream(br *bufio.Reader) (*gzipStream, error) {
	g := &gzipStream{br: br}
	if err := g.member(); err != nil {
		return nil, err
	}
	return g, nil
}

// member reads a member's header and starts reading its data.
func (g *gzipStream) member() error {
	if h, _ := g.br.Peek(4); len(h) == 4 && h[3]&0xe0 != 0 {
		return gzip.ErrHeader // a reserved flag
	}
	if err := g.zr.Reset(g.br); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return err
	}
	g.zr.Multistream(false)
	return nil
}

func (g *gzipStream) Read(p []byte) (int, error) {
	for g.err == nil {
		n, err := g.zr.Read(p)
		switch err {
		case nil:
		case io.EOF:
			err = g.next()
		case gzip.ErrChecksum:
			err = errGzipChecksum
		}
		if err != nil {
			g.err = err
		}
		if n > 0 {
			return n, nil // the error, if any, comes with the next call
		}
	}
	return 0, g.err
}

// next starts the member that follows the one just read, or checks that
// only zero bytes are left and returns io.EOF.
func (g *gzipStream) next() error {
	b, err := g.br.Peek(2)
	if len(b) == 0 && err != nil {
		return err // io.EOF: the normal end
	}
	if len(b) == 2 && b[0] == 0x1f && b[1] == 0x8b {
		return g.member()
	}
	var buf [4096]byte
	for {
		n, err := g.br.Read(buf[:])
		for _, c := range buf[:n] {
			if c != 0 {
				return errGzipTrailing
			}
		}
		if err != nil {
			return err
		}
	}
}

// utf16Kind tells whether head, the first bytes of a text, is UTF-16: it
// returns 1 for little-endian, 2 for big-endian, 0 for neither, and the
// length of the byte order mark to skip. Without a mark, it looks for the
// pattern of mostly ASCII text in UTF-16: a NUL as every other byte.
func utf16Kind(head []byte) (kind, bom int) {
	switch {
	case len(head) >= 2 && head[0] == 0xff && head[1] == 0xfe:
		return 1, 2
	case len(head) >= 2 && head[0] == 0xfe && head[1] == 0xff:
		return 2, 2
	}
	pairs := len(head) / 2
	if pairs < 2 {
		return 0, 0
	}
	le, be := 0, 0
	for i := 0; i+1 < len(head); i += 2 {
		switch {
		case head[i] != 0 && head[i+1] == 0:
			le++
		case head[i] == 0 && head[i+1] != 0:
			be++
		}
	}
	switch {
	case le*4 >= pairs*3 && be*10 < pairs:
		return 1, 0
	case be*4 >= pairs*3 && le*10 < pairs:
		return 2, 0
	}
	return 0, 0
}

// utf16Reader decodes UTF-16 from r into UTF-8. An unpaired surrogate, or
// an odd byte at the end, becomes U+FFFD, as in encoding/json.
type utf16Reader struct {
	r   io.Reader
	big bool
	in  [4096]byte // undecoded input in[:n]
	n   int
	out []byte // decoded output not yet returned: out[o:]
	o   int
	err error
}

func (u *utf16Reader) Read(p []byte) (int, error) {
	for u.o == len(u.out) {
		if u.err != nil {
			return 0, u.err
		}
		u.fill()
	}
	n := copy(p, u.out[u.o:])
	u.o += n
	return n, nil
}

func (u *utf16Reader) unit(k int) rune {
	if u.big {
		return rune(u.in[k])<<8 | rune(u.in[k+1])
	}
	return rune(u.in[k+1])<<8 | rune(u.in[k])
}

// fill reads more input and decodes every complete code unit (and pair).
func (u *utf16Reader) fill() {
	m, err := u.r.Read(u.in[u.n:])
	u.n += m
	u.out, u.o = u.out[:0], 0
	k := 0
loop:
	for k+2 <= u.n {
		c, size := u.unit(k), 2
		switch {
		case c >= 0xd800 && c < 0xdc00: // high surrogate
			if k+4 > u.n {
				if err == nil {
					break loop // wait for its pair
				}
				c = utf8.RuneError
			} else if r := utf16.DecodeRune(c, u.unit(k+2)); r != utf8.RuneError {
				c, size = r, 4
			} else {
				c = utf8.RuneError
			}
		case c >= 0xdc00 && c < 0xe000: // unpaired low surrogate
			c = utf8.RuneError
		}
		u.out = utf8.AppendRune(u.out, c)
		k += size
	}
	u.n = copy(u.in[:], u.in[k:u.n])
	if err != nil {
		if u.n > 0 {
			u.out = utf8.AppendRune(u.out, utf8.RuneError)
			u.n = 0
		}
		u.err = err
	}
}

// crReader turns every line end into LF: a CR alone becomes LF, and CRLF
// stays one line end (the LF after a CR is dropped), wherever they are, so
// that a file made of parts from different systems reads as an editor
// shows it. A chunk without CR is passed on untouched, found by
// bytes.IndexByte: a file of LF line ends costs one scan of its bytes.
type crReader struct {
	r  io.Reader
	cr bool // the last byte read was a CR: an LF that follows is dropped
}

func (c *crReader) Read(p []byte) (int, error) {
	for {
		n, err := c.r.Read(p)
		w := c.convert(p[:n])
		if w > 0 || err != nil || n == 0 {
			return w, err
		}
		// The chunk was the LF of a CRLF cut between two reads: read on.
	}
}

// convert converts b in place and returns its new length.
func (c *crReader) convert(b []byte) int {
	if len(b) == 0 {
		return 0
	}
	r := 0 // b[r:] is still to convert, b[:w] done
	if c.cr && b[0] == '\n' {
		r = 1
	}
	c.cr = false
	w := 0
	for {
		i := bytes.IndexByte(b[r:], '\r')
		if i < 0 {
			if w != r {
				w += copy(b[w:], b[r:])
			} else {
				w = len(b)
			}
			return w
		}
		if w != r {
			copy(b[w:], b[r:r+i])
		}
		w += i
		b[w] = '\n'
		w++
		r += i + 1
		switch {
		case r == len(b):
			c.cr = true
			return w
		case b[r] == '\n':
			r++
		}
	}
}

// sizeText writes a byte count for messages: "50 bytes", or "67108864
// bytes (64 MiB)".
func sizeText(n int) string {
	s := str.Itoa(n) + " bytes"
	if n >= 1<<20 && n%(1<<20) == 0 {
		s += " (" + str.Itoa(n>>20) + " MiB)"
	}
	return s
}

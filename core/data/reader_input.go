package data

import (
	"bufio"
	"bytes"
	"compress/flate"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/occfm/occfm/core/internal/str"
)

// This file holds the readers NewStream stacks under its line reader: gzip
// members and UTF-16 to UTF-8, each chosen from the first bytes of the
// input, and every line end (CR, LF, CRLF) to LF, always. Each works in a
// fixed buffer, so a Stream still reads in constant memory.

// gzipStream decompresses a gzip file (RFC 1952): one member or several
// concatenated (they read as one stream, as gzip(1) reads them), optionally
// followed by zero bytes, the padding that tape and dd tools leave to fill a
// block, which gzip(1) ignores too. Anything else after the last member is
// an error. Each member's header is read here (its name, comment and extra
// field skipped), its DEFLATE data by compress/flate, and its trailer's
// CRC-32 and length checked against what was decompressed. (compress/gzip
// would do the same, but its Header's time.Time brings time formatting into
// the page's wasm.)
type gzipStream struct {
	br   *bufio.Reader // the compressed input, read exactly to a member's end
	fr   io.ReadCloser // the current member's DEFLATE data
	crc  uint32        // CRC-32 of the member's bytes so far
	size uint32        // their number, modulo 2³²
	err  error         // sticky
}

var (
	// errGzipTrailing is the error of bytes after the last gzip member that
	// are neither another member nor zero padding.
	errGzipTrailing = errors.New("gzip: the compressed data is followed by bytes that are neither another gzip member nor zero padding")
	errGzipHeader   = errors.New("gzip: invalid header")
	errGzipChecksum = errors.New("gzip: invalid checksum: the data decompressed is not the data compressed")
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

// gzip header flags (RFC 1952, 2.3.1).
const (
	gzipHeaderCRC = 1 << 1
	gzipExtra     = 1 << 2
	gzipName      = 1 << 3
	gzipComment   = 1 << 4
	gzipReserved  = 0xe0
)

// member reads a member's header and starts reading its data.
func (g *gzipStream) member() error {
	var h [10]byte
	if _, err := io.ReadFull(g.br, h[:]); err != nil {
		return unexpectedEOF(err)
	}
	flags := h[3]
	if h[0] != 0x1f || h[1] != 0x8b || h[2] != 8 || flags&gzipReserved != 0 {
		return errGzipHeader
	}
	crc := crc32.Update(0, crc32.IEEETable, h[:]) // of the header, for FHCRC
	if flags&gzipExtra != 0 {
		if _, err := io.ReadFull(g.br, h[:2]); err != nil {
			return unexpectedEOF(err)
		}
		crc = crc32.Update(crc, crc32.IEEETable, h[:2])
		for n := int(h[0]) | int(h[1])<<8; n > 0; {
			b, err := g.br.Peek(min(n, g.br.Size()))
			if len(b) == 0 {
				return unexpectedEOF(err)
			}
			crc = crc32.Update(crc, crc32.IEEETable, b)
			g.br.Discard(len(b))
			n -= len(b)
		}
	}
	for _, f := range [2]byte{gzipName, gzipComment} {
		for err := bufio.ErrBufferFull; flags&f != 0 && err != nil; {
			// A zero-terminated string, read in the buffer's room.
			var b []byte
			b, err = g.br.ReadSlice(0)
			crc = crc32.Update(crc, crc32.IEEETable, b)
			if err != nil && err != bufio.ErrBufferFull {
				return unexpectedEOF(err)
			}
		}
	}
	if flags&gzipHeaderCRC != 0 {
		if _, err := io.ReadFull(g.br, h[:2]); err != nil {
			return unexpectedEOF(err)
		}
		if uint16(crc) != binary.LittleEndian.Uint16(h[:2]) {
			return errGzipHeader
		}
	}
	g.crc, g.size = 0, 0
	if g.fr == nil {
		g.fr = flate.NewReader(g.br)
	} else if err := g.fr.(flate.Resetter).Reset(g.br, nil); err != nil {
		return err
	}
	return nil
}

// unexpectedEOF is err, io.ErrUnexpectedEOF for io.EOF: a gzip member cut
// short.
func unexpectedEOF(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

func (g *gzipStream) Read(p []byte) (int, error) {
	for g.err == nil {
		n, err := g.fr.Read(p)
		g.crc = crc32.Update(g.crc, crc32.IEEETable, p[:n])
		g.size += uint32(n)
		if err == io.EOF {
			err = g.endMember()
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

// endMember checks the trailer of the member just decompressed, then
// starts the member that follows, or checks that only zero bytes are left
// and returns io.EOF.
func (g *gzipStream) endMember() error {
	var t [8]byte
	if _, err := io.ReadFull(g.br, t[:]); err != nil {
		return unexpectedEOF(err)
	}
	if binary.LittleEndian.Uint32(t[:4]) != g.crc || binary.LittleEndian.Uint32(t[4:]) != g.size {
		return errGzipChecksum
	}
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

package core

import (
	"errors"
	"hash/crc32"
	"io"
	"strconv"
	"strings"
)

// A model file streams in and out of the stateCodec in windows, so that
// saving or loading a model holds the model and a few small buffers, never
// a copy of the file: a model whose vocabulary holds 420 MB of user IDs
// loads and saves in about 420 MB, not three times that.
//
// Saving encodes each section twice: once into a counting sink, for the
// lengths the file gives before each body, then into the writer. Loading
// decodes each section from a window over the reader that holds at most
// codecWindow bytes and never reads past the section's end, so that
// a nested section (a stateCodec.sub) reads its own bytes from the same
// reader. The checksum is computed on the way, in both directions.

// codecWindow is the size of a decoder's window and the size at which an
// encoder passes its bytes on to the writer.
const codecWindow = 64 << 10

// modelOut is the writing end of a model file: it counts the bytes written
// and keeps their checksum. With w nil it only counts (the sizing pass).
type modelOut struct {
	w   io.Writer
	n   int64
	crc uint32
	err error
}

func (o *modelOut) write(b []byte) {
	o.n += int64(len(b))
	if o.w == nil || o.err != nil {
		return
	}
	o.crc = crc32.Update(o.crc, modelCRC, b)
	_, o.err = o.w.Write(b)
}

// modelIn is the reading end of a model file: the bytes come from r in
// order, each counted and added to the checksum. It is an io.Reader of
// those bytes.
type modelIn struct {
	r   io.Reader
	n   int64
	crc uint32
	err error // the first error of r, io.EOF included
}

// Read reads from r as io.ReadFull does, adding what it read to the count
// and the checksum.
func (in *modelIn) Read(p []byte) (int, error) {
	if in.err != nil {
		return 0, in.err
	}
	k, err := io.ReadFull(in.r, p)
	in.n += int64(k)
	in.crc = crc32.Update(in.crc, modelCRC, p[:k])
	if err != nil {
		if err == io.ErrUnexpectedEOF {
			err = io.EOF
		}
		in.err = err
	}
	return k, err
}

// spill passes the encoded bytes on to the writer once they fill a window.
func (c *stateCodec) spill() {
	if c.out != nil && len(c.buf) >= codecWindow {
		c.flush()
	}
}

// flush passes every encoded byte on to the writer.
func (c *stateCodec) flush() {
	if c.out != nil && len(c.buf) > 0 {
		c.out.write(c.buf)
		c.buf = c.buf[:0]
	}
}

// raw encodes p as it is, without a length.
func (c *stateCodec) raw(p []byte) {
	if c.out != nil && len(p) >= codecWindow {
		c.flush()
		c.out.write(p)
		return
	}
	c.buf = append(c.buf, p...)
	c.spill()
}

// rest returns the number of bytes of the section not yet decoded.
func (c *stateCodec) rest() int64 { return int64(len(c.buf)) + c.left }

// atEnd reports whether decoding stopped on an error or reached the end of
// the section (a learner's optional fields, written only when not at their
// defaults, come last).
func (c *stateCodec) atEnd() bool { return c.err != nil || c.rest() == 0 }

// fill makes buf hold at least k bytes, or all that is left of the section
// when fewer, reading from in.
func (c *stateCodec) fill(k int) {
	if len(c.buf) >= k || c.left == 0 {
		return
	}
	if cap(c.win) < max(k, codecWindow) {
		c.win = make([]byte, max(k, codecWindow))
	}
	w := c.win[:cap(c.win)]
	n := copy(w, c.buf)
	want := int(min(int64(len(w)-n), c.left))
	got, _ := c.in.Read(w[n : n+want])
	c.left -= int64(got)
	if got < want {
		c.left = 0 // the file ends early: the section is truncated
	}
	c.buf = w[:n+got]
}

// sub returns a decoder of the next n bytes (a nested section), which c
// skips; n must be at most c.rest(). The two share the reader: c reads
// again only once sub has read its bytes, or has failed (and c with it).
func (c *stateCodec) sub(n int) *stateCodec {
	k := min(n, len(c.buf))
	s := &stateCodec{dec: true, buf: c.buf[:k:k], in: c.in, left: int64(n - k), limit: c.limit}
	c.buf = c.buf[k:]
	c.left -= int64(n - k)
	return s
}

// take decodes the next n bytes (n ≤ c.rest()) into a new slice.
func (c *stateCodec) take(n int) []byte {
	b := make([]byte, n)
	k := copy(b, c.buf)
	c.buf = c.buf[k:]
	if k < n {
		got, _ := c.in.Read(b[k:])
		c.left -= int64(got)
		if got < n-k {
			c.left = 0
			c.fail("truncated")
		}
	}
	return b
}

// takeString is take for a string, built in place.
func (c *stateCodec) takeString(n int) string {
	if n <= len(c.buf) {
		s := string(c.buf[:n])
		c.buf = c.buf[n:]
		return s
	}
	var sb strings.Builder
	sb.Grow(n)
	sb.Write(c.buf)
	k := len(c.buf)
	c.buf = c.buf[:0]
	got, _ := io.CopyN(&sb, c.in, int64(n-k))
	c.left -= got
	if got < int64(n-k) {
		c.left = 0
		c.fail("truncated")
	}
	return sb.String()
}

// encodedLen returns the length of what code encodes.
func encodedLen(code func(*stateCodec)) int64 {
	c := &stateCodec{out: &modelOut{}}
	code(c)
	c.flush()
	return c.out.n
}

// sameLen records an error when what encoded to got bytes after its
// sizing pass gave want: the file would give a wrong length.
func (o *modelOut) sameLen(want, got int64, what string) {
	if want != got && o.err == nil {
		o.err = errors.New("core: internal error: " + what + " encoded to " + strconv.FormatInt(want, 10) +
			" bytes, then to " + strconv.FormatInt(got, 10))
	}
}

var modelCRC = crc32.MakeTable(crc32.Castagnoli)

// stateCodec encodes or decodes the fields of a section. Each method takes
// a pointer: encoding appends the value to buf, decoding reads it from buf
// into the pointer. After the first decoding error every call is a no-op
// and err holds the error.
//
// A codec of a model file streams (model_stream.go): encoding, buf passes
// its bytes on to out once it holds a window of them; decoding, buf is the
// window of the section read so far and left the bytes of the section
// still in in. A codec without out or in codes bytes held in memory.
//
// This file holds the codings of values any learner has (numbers, slices,
// strings, a Config, a Vocabulary, a generator, a nested learner); the
// coding of a representation sits beside its type (lowRank in lowrank.go,
// eigSym in ccfm_projected.go, accum in accum.go, …).
type stateCodec struct {
	dec bool
	buf []byte
	err error
	// out, when not nil, receives the encoded bytes.
	out *modelOut
	// in, when not nil, holds the left bytes of the section after buf;
	// win is the window buf is read into.
	in   *modelIn
	left int64
	win  []byte
	// limit, when decoding, bounds in bytes what a dimension read may make
	// the decoder allocate (see alloc); 0 means DefaultMemoryLimit. over is
	// the error of the first dimension over it.
	limit int64
	over  error
}

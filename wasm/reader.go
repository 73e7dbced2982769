package main

import (
	"bytes"
	"errors"
	"io"
	"iter"
	"strconv"
	"strings"

	"github.com/occfm/occfm/core/data"
)

// reader runs a file's data.NewStream and Stream.Next in a coroutine
// (iter.Pull), so that the page reads a file exactly as the command line
// does: the stream reads the feedBuffer as it would read the file, and when
// the buffer is empty before the file's end, the feedBuffer's Read suspends
// the coroutine instead of failing. The session then reports "waiting" and
// resumes it once the page fed more bytes. Long lines and long runs of
// comments are read in the core's own bounded memory: the page adds no limit.
//
// A panic in the coroutine is raised again by resume, in the caller (the
// page's call, which ends the session with it). stop lets the coroutine go:
// a suspended Read returns errStopped and the coroutine unwinds.
type reader struct {
	next func() (bool, bool)
	stop func()

	// Set by the coroutine before it yields a result: the stream (once
	// NewStream returned) and the error of NewStream or of the last Next.
	stream *data.Stream
	err    error
}

// startReader starts reading file with set; Next reads into ex. Nothing is
// read until the first resume.
func startReader(file *feedBuffer, set data.ReaderSettings, ex *data.Example) *reader {
	r := &reader{}
	r.next, r.stop = iter.Pull(func(yield func(bool) bool) {
		// yield(false): waiting for bytes; yield(true): a result.
		file.wait = func() bool { return yield(false) }
		r.stream, r.err = data.NewStream(file, set)
		if !yield(true) || r.err != nil {
			return
		}
		for {
			r.err = r.stream.Next(ex)
			if !yield(true) {
				return
			}
		}
	})
	return r
}

// resume runs the coroutine until it has the next result (true: r.stream
// and r.err are set) or waits for bytes (false).
func (r *reader) resume() bool {
	ready, ok := r.next()
	if !ok {
		// The coroutine has ended: after NewStream failed (r.err holds its
		// error), or after stop.
		if r.err == nil {
			r.err = errStopped
		}
		return true
	}
	return ready
}

// isGzip reports whether b starts with gzip's magic bytes, as data.NewStream
// checks.
func isGzip(b []byte) bool { return len(b) >= 2 && b[0] == 0x1f && b[1] == 0x8b }

// headText returns the text at the start of a file whose first bytes are
// head, at most previewBytes of it: head itself, or what its gzip members
// decompress to (a head cut short decompresses as far as it goes).
func headText(head []byte) []byte {
	if !isGzip(head) {
		return head[:min(len(head), previewBytes)]
	}
	zr, err := data.Gunzip(bytes.NewReader(head))
	if err != nil {
		return nil
	}
	text, _ := io.ReadAll(io.LimitReader(zr, previewBytes))
	return text
}

// headLines returns the preview's lines: up to previewLines complete lines
// of headText(head).
func headLines(head []byte) []string {
	text := headText(head)
	text = bytes.TrimPrefix(text, []byte("\xef\xbb\xbf"))
	lines := strings.Split(string(text), "\n")
	out := []string{}
	for _, l := range lines[:min(previewLines, len(lines)-1)] {
		out = append(out, strings.TrimRight(l, "\r"))
	}
	return out
}

// gunzipMax bounds what gunzip returns: an item list is a few MB (ML-25M's
// movies.csv is 3 MB; core's ReadItems takes at most 64 MiB), so a gzip
// bomb picked as one is refused after that much, not read to the end.
const gunzipMax = 64 << 20

// gunzip decompresses a whole gzip file held in memory (the Personalize
// view's item list) as the core reads a gzip file (data.Gunzip: every
// member, zero padding after the last ignored). It stops with an error past
// gunzipMax bytes.
func gunzip(raw []byte) ([]byte, error) {
	zr, err := data.Gunzip(bytes.NewReader(raw))
	if err != nil {
		return nil, err
	}
	out, err := io.ReadAll(io.LimitReader(zr, gunzipMax+1))
	if err != nil {
		return nil, err
	}
	if len(out) > gunzipMax {
		return nil, errors.New("it decompresses to more than " + strconv.Itoa(gunzipMax>>20) + " MiB, more than an item list holds")
	}
	return out, nil
}

package main

import (
	"errors"
	"io"

	"github.com/occfm/occfm/core"
	"github.com/occfm/occfm/core/data"
)

// errStopped is what feedBuffer.Read returns once the session let its
// reader go (a reset, a new file, an error): the coroutine then unwinds.
var errStopped = errors.New("the session stopped reading this file")

// feedBuffer holds the bytes the page fed and the stream has not read yet.
// It is the io.Reader of the file's data.Stream, which runs in a coroutine
// (reader.go): when it has no bytes and the file is not finished, Read
// calls wait, which suspends the coroutine until the page fed more, and
// then goes on; the stream never sees the page's chunking.
type feedBuffer struct {
	data   []byte
	off    int
	closed bool
	// wait suspends the reading coroutine ("waiting" for the session) and
	// reports whether to go on (false: the session stopped reading).
	wait func() bool
	head []byte // the first headBytes fed, for the preview
}

func (b *feedBuffer) Read(p []byte) (int, error) {
	for b.off == len(b.data) {
		b.data, b.off = b.data[:0], 0 // all read: the next chunk starts at 0
		if b.closed {
			return 0, io.EOF
		}
		if b.wait == nil || !b.wait() {
			return 0, errStopped
		}
	}
	n := copy(p, b.data[b.off:])
	b.off += n
	return n, nil
}

// write appends a chunk, first compacting what was read when the chunk
// would not fit otherwise: the buffer grows only when its unread bytes and
// the chunk need more room, so it stays near aheadBytes plus a chunk
// however long the file is.
func (b *feedBuffer) write(p []byte) {
	if len(b.head) < headBytes {
		b.head = append(b.head, p[:min(len(p), headBytes-len(b.head))]...)
	}
	if b.off > 0 && len(b.data)+len(p) > cap(b.data) {
		n := copy(b.data, b.data[b.off:])
		b.data = b.data[:n]
		b.off = 0
	}
	if n := len(b.data) + len(p); n > cap(b.data) {
		// Doubling, but not past what the page feeds: aheadBytes wanted
		// and the chunk that crosses it.
		grown := make([]byte, len(b.data), max(n, min(2*cap(b.data), aheadBytes+len(p))))
		copy(grown, b.data)
		b.data = grown
	}
	b.data = append(b.data, p...)
}

func (b *feedBuffer) buffered() int { return len(b.data) - b.off }

type preview struct {
	Format  string          `json:"format"`
	Layout  string          `json:"layout"`
	Lines   []string        `json:"lines"`
	Columns []previewColumn `json:"columns,omitempty"`
	// Warnings is what the reader guessed or read past that the person
	// should know (see session.warnings).
	Warnings []string `json:"warnings"`
	sent     bool
}

type previewColumn struct {
	Name string `json:"name"`
	Role string `json:"role"`
}

func (p *preview) appendJSON(b []byte) []byte {
	b = core.AppendString(append(b, `{"format":`...), p.Format)
	b = core.AppendString(append(b, `,"layout":`...), p.Layout)
	b = appendStrings(append(b, `,"lines":`...), p.Lines)
	if len(p.Columns) > 0 {
		b = append(b, `,"columns":[`...)
		for i, c := range p.Columns {
			if i > 0 {
				b = append(b, ',')
			}
			b = core.AppendString(append(b, `{"name":`...), c.Name)
			b = core.AppendString(append(b, `,"role":`...), c.Role)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = appendStrings(append(b, `,"warnings":`...), p.Warnings)
	return append(b, '}')
}

var roleNames = map[data.Role]string{
	data.RoleLabel: "label", data.RoleCategorical: "categorical",
	data.RoleNumeric: "numeric", data.RoleIgnore: "ignore",
}

// feed appends a chunk of the file.
func (s *session) feed(p []byte) {
	if s.file != nil && !s.file.closed && s.state != "error" && s.state != "done" {
		s.file.write(p)
	}
}

// end marks the file complete: a Read past the last byte is io.EOF.
func (s *session) end() {
	if s.file != nil {
		s.file.closed = true
	}
}

// wanted returns how many more bytes the session would like buffered.
func (s *session) wanted() int {
	if s.file == nil || s.file.closed || s.state == "done" || s.state == "error" {
		return 0
	}
	return max(0, aheadBytes-s.file.buffered())
}

// open starts the file's reading coroutine and returns true once its
// data.NewStream has returned (false: waiting for bytes, or an error).
func (s *session) open() bool {
	if s.stream != nil {
		return true
	}
	if s.rd == nil {
		s.rd = startReader(s.file, s.readerSettings(), &s.ex)
	}
	if !s.rd.resume() {
		return false
	}
	if s.rd.err != nil {
		s.fail(s.rd.err)
		return false
	}
	st := s.rd.stream
	s.stream, s.source, s.names = st, st, st
	s.src.Source, s.src.Format = fileRows{s}, st.Format()
	p := &preview{Format: string(st.Format()), Layout: st.Layout(), Lines: headLines(s.file.head), Warnings: []string{}}
	for _, c := range st.Columns() {
		p.Columns = append(p.Columns, previewColumn{Name: c.Name, Role: roleNames[c.Role]})
	}
	p.Warnings = s.warnings()
	s.warningsSent = len(p.Warnings)
	s.preview = p
	return true
}

// readerSettings are the file's data.ReaderSettings: the config's format
// and column roles, and the loaded model's feature numbering.
func (s *session) readerSettings() data.ReaderSettings {
	set := data.ReaderSettings{Name: s.cfg.File, Format: data.Format(s.cfg.Format)}
	if s.cfg.Format == "" {
		set.Format = data.FormatAuto
	}
	if len(s.cfg.Roles) > 0 {
		set.Roles = map[string]data.Role{}
		for col, r := range s.cfg.Roles {
			role := data.RoleGuess
			for k, v := range roleNames {
				if v == r {
					role = k
				}
			}
			set.Roles[col] = role
		}
	}
	if s.base != nil {
		set.Vocabulary = s.base.Vocabulary
	}
	return set
}

// warnings returns what the reader noticed and read past (the stream's
// Warnings: UTF-16, decimal commas, a header of numbers, a .gz name on
// plain bytes), then the first rows with a huge label.
func (s *session) warnings() []string {
	out := []string{}
	if s.stream != nil {
		out = append(out, s.stream.Warnings()...)
	}
	// Rows with a huge label, with their line, as the CLI's report lists
	// them (data.BadRows.HugeFirst).
	return append(out, s.bad.HugeFirst...)
}

//go:build js && wasm

package main

import (
	"syscall/js"

	"github.com/occfm/occfm/core"
	"honnef.co/go/js/dom/v2"
)

// bridge holds the current session and the buffers reused across calls.
type bridge struct {
	s        *session
	cfg      config
	chunk    []byte
	lastRows int
	lastErr  string // the session's error at the last render
	doc      dom.Document

	predRows  []dom.Element    // the rows of the predictions table
	predCells [][4]dom.Element // their cells
	predHead  dom.Element      // the head of its ŷ column
	modelDD   map[string]dom.Element

	// loaded is the model file loadModel accepted, or nil: every start
	// continues it (decoded afresh, so a reset starts from it again).
	loaded []byte
	// fresh is loaded as loadModel decoded it, not yet used by a start
	// (which then need not decode it again), or nil.
	fresh *core.Model

	libs    map[int]*libLearner     // occfm.lib's learners by id (lib_js.go)
	recs    map[int]*libRecommender // occfm.lib's recommenders by id (lib_rec_js.go), the Personalize view's among them
	nextLib int                     // the last id given, to either
	// checks holds the check of the list a learner of libs is checking,
	// part by part (libCheck), until it learns the list or fails.
	checks map[*libLearner]*libCheck
}

// readChunk copies the Uint8Array v into the bridge's reused chunk buffer
// and returns it (valid until the next call).
func (b *bridge) readChunk(v js.Value) []byte {
	n := v.Get("length").Int()
	if cap(b.chunk) < n {
		b.chunk = make([]byte, n)
	}
	b.chunk = b.chunk[:n]
	js.CopyBytesToGo(b.chunk, v)
	return b.chunk
}

func (b *bridge) start(cfg config) string {
	var s *session
	var err error
	switch {
	case b.fresh != nil:
		s, err = newSessionFrom(cfg, *b.fresh)
		b.fresh = nil
	case b.loaded != nil:
		var m core.Model
		if m, _, err = parseModel(b.loaded); err == nil {
			s, err = newSessionFrom(cfg, m)
		}
	default:
		s, err = newSession(cfg)
	}
	if b.s != nil {
		b.s.release() // the old file's reading coroutine
	}
	if err != nil {
		b.s = nil
		b.renderModel() // not the last run's model
		return errorSnapshot(err)
	}
	b.s, b.cfg = s, cfg
	b.lastRows = -1
	b.render(true)
	return s.snapshotJSON()
}

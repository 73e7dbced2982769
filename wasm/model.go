package main

import (
	"bytes"
	"errors"
	"strings"

	"github.com/occfm/occfm/core"
)

// modelInfo is what loadModel tells the page about a model file.
type modelInfo struct {
	Learner  string `json:"learner"`
	Rows     int    `json:"rows"`
	Features int    `json:"features"`
	Task     string `json:"task"`
	Format   string `json:"format,omitempty"` // of the file it learned, if any
	Bytes    int    `json:"bytes"`
}

func (m *modelInfo) appendJSON(b []byte) []byte {
	b = core.AppendString(append(b, `{"learner":`...), m.Learner)
	b = appendInt(append(b, `,"rows":`...), m.Rows)
	b = appendInt(append(b, `,"features":`...), m.Features)
	b = core.AppendString(append(b, `,"task":`...), m.Task)
	if m.Format != "" {
		b = core.AppendString(append(b, `,"format":`...), m.Format)
	}
	b = appendInt(append(b, `,"bytes":`...), m.Bytes)
	return append(b, '}')
}

// parseModel reads a model file for the page. Its errors are for people:
// "not an OCCFM model file", "written by a newer OCCFM (…)", "corrupt model
// file: checksum mismatch", ….
func parseModel(b []byte) (core.Model, modelInfo, error) {
	m, err := core.LoadModel(bytes.NewReader(b))
	if err != nil {
		return core.Model{}, modelInfo{}, errors.New(strings.TrimPrefix(err.Error(), "core: "))
	}
	info := modelInfo{Learner: m.Name, Rows: m.Rows, Task: m.Config.Task.String(), Bytes: len(b)}
	if m.Vocabulary != nil {
		info.Format, info.Features = string(m.Vocabulary.Format), m.Vocabulary.Dim
	} else if d, ok := m.Learner.(interface{ Dim() int }); ok {
		info.Features = d.Dim()
	}
	return m, info, nil
}

// modelHeadError checks the first bytes of a picked model file of size
// bytes (core.CheckModelHeader) and returns the error to show, or "": the
// page reads the whole file only after it, so that a data file or a huge
// file picked by mistake is refused without being read.
func modelHeadError(head []byte, size int64) string {
	if err := core.CheckModelHeader(head, size, core.LoadSettings{}); err != nil {
		if errors.Is(err, core.ErrNotModel) {
			return "not an OCCFM model file"
		}
		return strings.TrimPrefix(err.Error(), "core: ")
	}
	return ""
}

// loadModelJSON validates the model file b and returns the JSON of its
// modelInfo and the model, or {"error": "…"} and nil.
func loadModelJSON(b []byte) (string, *core.Model) {
	m, info, err := parseModel(b)
	if err != nil {
		return errorOnlyJSON(err.Error()), nil
	}
	return jsonString(&info), &m
}

// newSessionFrom starts a session whose single learner continues the model
// m: the learner, task and settings come from m, not cfg, and a file is
// read with m's feature numbering. The regret comparator is off (it would
// only see the rows from here on).
func newSessionFrom(cfg config, m core.Model) (*session, error) {
	cfg.Learners = []string{m.Name}
	cfg.Task = m.Config.Task.String()
	cfg.Delta, cfg.Eta, cfg.Seed = m.Config.Delta, m.Config.Eta, m.Config.Seed
	cfg.Gamma = m.Config.Gamma.String()
	cfg.Loss = "auto"
	if m.Config.Loss != nil {
		cfg.Loss = map[core.Loss]string{core.Squared: "squared", core.Logistic: "logistic"}[*m.Config.Loss]
	}
	if m.Vocabulary != nil {
		cfg.Format = string(m.Vocabulary.Format)
	}
	cfg.NoRegret = true
	cfg.resume = &m
	s, err := newSession(cfg)
	if err != nil {
		return nil, err
	}
	if s.err != "" {
		return nil, errors.New(s.err)
	}
	s.base = &m
	return s, nil
}

// model returns the model of the learner the session follows (the first
// unless the page chose another): its state now,
// the stream's feature numbering, and the rows learned, counting those of
// the model it continues.
func (s *session) model() (core.Model, error) {
	p := s.followed()
	if p == nil {
		return core.Model{}, errors.New("nothing to save yet: the learners start once the task is known")
	}
	m := core.Model{Name: p.Name, Config: s.config, Learner: p.Learner, Rows: s.rows}
	if g, ok := p.Learner.(*core.Guarded); ok {
		// The learner the guard wraps, and the guard's state.
		gm := g.Model()
		m.Learner, m.Extra = gm.Learner, gm.Extra
	}
	if s.base != nil {
		m.Config = s.base.Config
		m.Rows += s.base.Rows
		m.Vocabulary = s.base.Vocabulary
	}
	if s.stream != nil {
		v := s.stream.Vocabulary()
		m.Vocabulary = &v
	}
	return m, nil
}

// saveModel returns the model file of the session's first learner.
func (s *session) saveModel() ([]byte, core.Model, error) {
	m, err := s.model()
	if err != nil {
		return nil, m, err
	}
	var buf bytes.Buffer
	if err := core.SaveModel(&buf, m); err != nil {
		return nil, m, err
	}
	return buf.Bytes(), m, nil
}

package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/occfm/occfm/core"
	"github.com/occfm/occfm/core/data"
)

// modelFlags are the -save and -load flags of occfm run, and which of the
// other flags were given explicitly (a loaded model fixes them).
type modelFlags struct {
	save, load string
	explicit   map[string]string // flag name → value as given
}

// define adds -save and -load to fs.
func (mf *modelFlags) define(fs *flag.FlagSet) {
	fs.StringVar(&mf.save, "save", "", "write the learner's model file here after the run")
	fs.StringVar(&mf.load, "load", "", "continue the learner of this model file")
}

// check records the explicit flags of the parsed fs and checks -save and
// -load against them.
func (mf *modelFlags) check(fs *flag.FlagSet, rs *runSettings) error {
	mf.explicit = make(map[string]string)
	fs.Visit(func(f *flag.Flag) { mf.explicit[f.Name] = f.Value.String() })
	if mf.save != "" && len(rs.learners) != 1 {
		return usageError{fmt.Errorf("run: -save saves one learner, but -learner lists %d (%s)",
			len(rs.learners), strings.Join(rs.learners, ","))}
	}
	if mf.save != "" {
		if err := notAnInput(mf.save, rs.data); err != nil {
			return err
		}
		// Found now, not after the whole run: a target that cannot be
		// written.
		if err := checkWritable(mf.save); err != nil {
			return fmt.Errorf("run: -save %s: %w", mf.save, err)
		}
	}
	if mf.load != "" && rs.regret {
		return usageError{errors.New("run: -regret cannot continue a loaded model (the comparator needs every row from the first)")}
	}
	return nil
}

// notAnInput returns a usage error when the -save target is the data file
// of the run (by name, through a symbolic link or as a hard link of it):
// saving would replace the data by the model. It is checked before
// anything is read. Saving onto the -load file is allowed: that is how a
// model is continued.
func notAnInput(save, data string) error {
	if samePath(save, data) {
		return usageError{fmt.Errorf("run: -save %s is the data file (-data %s): saving would replace the data by the model; save it under another name", save, data)}
	}
	return nil
}

// loadModelFile reads the model file at path. Its errors name the file:
// "x.bin is not an OCCFM model file".
func loadModelFile(path string, limit int64) (core.Model, error) {
	f, err := os.Open(path)
	if err != nil {
		return core.Model{}, err
	}
	defer f.Close()
	// LoadModelWith reads the header first and stops there for a file that
	// is not a model, or that declares more than the budget.
	m, err := core.LoadModelWith(f, core.LoadSettings{MaxBytes: limit})
	if err != nil {
		if errors.Is(err, core.ErrNotModel) {
			return core.Model{}, fmt.Errorf("%s is not an OCCFM model file", path)
		}
		return core.Model{}, fileError{path, err}
	}
	return m, nil
}

// fileError is an error of core about the file at path, said with the
// path in place of core's prefix.
type fileError struct {
	path string
	err  error
}

func (e fileError) Error() string { return e.path + ": " + strings.TrimPrefix(e.err.Error(), "core: ") }

func (e fileError) Unwrap() error { return e.err }

// apply loads the -load model, if any, and makes rs continue it: the
// learner, task, δ, η and (with a vocabulary) the format come from the
// model. A flag given explicitly with another value is a usage error that
// names it. It returns nil without -load.
func (mf *modelFlags) apply(rs *runSettings) (*core.Model, error) {
	if mf.load == "" {
		return nil, nil
	}
	m, err := loadModelFile(mf.load, rs.budget.Limit)
	if err != nil {
		return nil, budgetFlag(err, rs.maxMemory)
	}
	eff := m.Config
	if c, ok := m.Learner.(core.Configured); ok {
		eff = c.Config()
	}
	var conflicts []string
	same := func(name, value string, alternatives ...string) {
		given, ok := mf.explicit[name]
		if !ok {
			return
		}
		for _, v := range append(alternatives, value) {
			if given == v {
				return
			}
		}
		conflicts = append(conflicts, fmt.Sprintf("-%s %s (the model has %s)", name, given, value))
	}
	num := func(x float64) string { return fmt.Sprint(x) }
	same("learner", m.Name)
	same("task", m.Config.Task.String(), "auto")
	same("delta", num(m.Config.Delta), num(eff.Delta))
	same("eta", num(m.Config.Eta), num(eff.Eta))
	same("gamma", m.Config.Gamma.String())
	same("seed", fmt.Sprint(m.Config.Seed), fmt.Sprint(eff.Seed))
	same("loss", m.Config.LossOf().String(), "auto")
	if m.Vocabulary != nil {
		same("format", string(m.Vocabulary.Format), "auto")
	}
	if len(conflicts) > 0 {
		return nil, usageError{fmt.Errorf("run: -load %s: %s: drop these flags, the loaded model fixes them",
			mf.load, strings.Join(conflicts, ", "))}
	}
	rs.learners = []string{m.Name}
	rs.task = m.Config.Task.String()
	rs.delta, rs.eta = m.Config.Delta, m.Config.Eta
	rs.gamma, rs.loss, rs.seed = m.Config.Gamma, m.Config.Loss, m.Config.Seed
	if m.Vocabulary != nil {
		rs.format = m.Vocabulary.Format
	}
	return &m, nil
}

// continuing returns err, when a model is continued (loaded not nil),
// formatted by format with err and the -load path: a run's error may come
// from the model, not the data.
func (mf *modelFlags) continuing(err error, loaded *core.Model, format string) error {
	if loaded == nil {
		return err
	}
	return fmt.Errorf(format, err, mf.load)
}

// loadedVocabulary returns the loaded model's vocabulary, or nil.
func loadedVocabulary(m *core.Model) *data.Vocabulary {
	if m == nil {
		return nil
	}
	return m.Vocabulary
}

// saveModel writes the -save model file, if asked: the single player's
// learner with cfg, the stream's vocabulary and the rows learned (those of
// the loaded model plus this run's), through writeFile.
func (mf *modelFlags) saveModel(cfg core.Config, p *core.Player, voc data.Vocabulary, rows int, loaded *core.Model) error {
	if mf.save == "" {
		return nil
	}
	m := core.Model{Name: p.Name, Config: cfg, Learner: p.Learner, Vocabulary: &voc, Rows: rows}
	if g, ok := p.Learner.(*core.Guarded); ok {
		// The learner the guard wraps, and the guard's state.
		gm := g.Model()
		m.Learner, m.Extra = gm.Learner, gm.Extra
	}
	if loaded != nil {
		m.Config = loaded.Config
		m.Rows += loaded.Rows
	}
	// Streamed: the file is never held in memory beside the model.
	if err := writeFile(mf.save, func(w io.Writer) error { return core.SaveModel(w, m) }); err != nil {
		return fmt.Errorf("-save %s: %w", mf.save, err)
	}
	return nil
}

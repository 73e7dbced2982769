package main

import (
	"bytes"
	"errors"
	"math"
	"strconv"
	"strings"

	"github.com/occfm/occfm/core"
	"github.com/occfm/occfm/core/data"
)

// libLearner is one learner of the library calls (occfm.lib, see
// lib_js.go): a guarded registry learner with its own feature names,
// independent of the page's sessions and of every other libLearner, so that
// a page may hold any number. A row's features are named: a number is a
// numeric feature of that name, a string s the one-hot feature name=s (a
// categorical column), true the numeric feature at 1 (false leaves it
// out). The names are kept as a CSV vocabulary (the name a column, s a
// value, and a first column "y", the label, which no feature may be
// named), so that a model file carries them and Load reads them back.
type libLearner struct {
	name  string
	cfg   core.Config
	l     *core.Guarded
	vocab data.Vocabulary
	col   map[string]int // column index of a name
	feat  map[libKey]int // feature index of a (column, value)
	rows  int
	m     *core.Metrics
	// maxMemory is the memory budget in bytes of the learner, its metrics
	// and its names (core.MemoryBudget's Limit: 0 means
	// core.DefaultMemoryLimit, 512 MiB, within what a tab gives a wasm
	// module).
	maxMemory int64
}

// libKey is a feature of a libLearner: a column and, for a categorical
// one, its value ("" for a numeric column).
type libKey struct {
	col   int
	value string
}

// libField is one named value of a row, as the JS object gives it: a
// number (str == "" and !isStr), or a string.
type libField struct {
	name  string
	num   float64
	str   string
	isStr bool
}

// libRow is a row to learn: its features and its label.
type libRow struct {
	x []libField
	y float64
}

// libDefaultLearner is the registry name of the learner lib.create makes
// when none is named: Learner.create's default, which occfm.js passes as
// "" and reads from lib.defaults (learners' defaultFor), never writes.
const libDefaultLearner = "occfm-k"

// libSettings are what lib.create takes: the registry name (empty:
// libDefaultLearner), the task ("regression", the default, or "classification"), δ,
// η and the seed (0: the learner's defaults).
type libSettings struct {
	Learner, Task string
	Delta, Eta    float64
	Seed          uint64
	MaxMemory     int64 // bytes; 0: core.DefaultMemoryLimit
}

// newLibLearner makes the learner s names, guarded (reset when it
// diverges, as in the page); its predictions are not clipped.
func newLibLearner(s libSettings) (*libLearner, error) {
	if s.Learner == "" {
		s.Learner = libDefaultLearner
	}
	var task data.Task
	switch s.Task {
	case "", "regression":
		task = data.Regression
	case "classification":
		task = data.Classification
	default:
		return nil, errors.New(`task "` + s.Task + `": want "regression" or "classification"`)
	}
	if !(s.Delta >= 0) || math.IsInf(s.Delta, 0) {
		return nil, errors.New("delta " + fmtG(s.Delta) + ": want a finite number ≥ 0 (0: the learner's default)")
	}
	if !(s.Eta >= 0) || math.IsInf(s.Eta, 0) {
		return nil, errors.New("eta " + fmtG(s.Eta) + ": want a finite number ≥ 0 (0: the learner's default)")
	}
	cfg := core.Config{Task: task, Delta: s.Delta, Eta: s.Eta, Seed: s.Seed}
	if err := core.CheckTaken([]string{s.Learner}, cfg); err != nil {
		return nil, err
	}
	g, err := core.NewGuarded(s.Learner, cfg, core.GuardFor("auto", "", false))
	if err != nil {
		return nil, err
	}
	// Column 0 is the label, "y", as in a CSV file the CLI reads.
	v := data.Vocabulary{Format: data.FormatCSV, Columns: []data.VocabularyColumn{{Name: "y", Role: data.RoleLabel}}}
	if s.MaxMemory < 0 {
		return nil, errors.New("maxMemory " + strconv.FormatInt(s.MaxMemory, 10) + ": want a number of bytes ≥ 0 (0: 512 MiB)")
	}
	l := &libLearner{name: s.Learner, cfg: cfg, l: g, vocab: v, maxMemory: s.MaxMemory}
	l.index()
	return l, nil
}

// index rebuilds the maps from the vocabulary and starts the metrics.
func (l *libLearner) index() {
	l.reindex()
	l.m = core.NewMetrics(l.cfg.Task, core.TaskLoss(l.cfg.Task))
}

// reindex rebuilds the maps from the vocabulary. The names are a CSV
// file's columns; the features of a LibSVM or MovieLens file have none,
// and check refuses named rows for them.
func (l *libLearner) reindex() {
	l.col, l.feat = map[string]int{}, map[libKey]int{}
	if l.vocab.Format != data.FormatCSV {
		return
	}
	for c, col := range l.vocab.Columns {
		l.col[col.Name] = c
	}
	for i, f := range l.vocab.Features {
		l.feat[libKey{f.Field, f.Value}] = i
	}
}

// check reports the first field of x that cannot be read, naming where
// (e.g. "row 3") and the field: a number that is not finite, an empty name,
// or a name used before with the other kind of value (a number where a
// string was, or the reverse), in the model or, for a name new to it, in
// the rows checked before with the same pending map (nil: none).
func (l *libLearner) check(x []libField, where string, pending map[string]bool) error {
	if l.vocab.Format != data.FormatCSV && len(x) > 0 {
		return errors.New(where + ": this learner learned a " + string(l.vocab.Format) + " file, whose features have numbers, not names: give it such files (learn, predictMany)")
	}
	for _, f := range x {
		if f.name == "" {
			return errors.New(where + ": a feature with an empty name")
		}
		if !f.isStr && (math.IsNaN(f.num) || math.IsInf(f.num, 0)) {
			return errors.New(where + `: feature "` + f.name + `" is ` + fmtG(f.num) + ": want a finite number, a string or a boolean")
		}
		c, ok := l.col[f.name]
		if !ok {
			if pending == nil {
				continue
			}
			if isStr, seen := pending[f.name]; !seen {
				pending[f.name] = f.isStr
			} else if isStr != f.isStr {
				return errors.New(where + `: feature "` + f.name + `" is ` + kindOf(f) + ", and " + map[bool]string{true: "a string", false: "a number"}[isStr] + " in an earlier row")
			}
			continue
		}
		switch role := l.vocab.Columns[c].Role; {
		case role == data.RoleNumeric && f.isStr:
			return errors.New(where + `: feature "` + f.name + `" is ` + kindOf(f) + ", and a number before")
		case role == data.RoleCategorical && !f.isStr:
			return errors.New(where + `: feature "` + f.name + `" is ` + kindOf(f) + ", and a string before")
		case role != data.RoleNumeric && role != data.RoleCategorical:
			return errors.New(where + `: feature "` + f.name + `" is a column the model does not read (its label or an ignored one)`)
		}
	}
	return nil
}

// kindOf names f's value for an error: `the string "high"`, `the number 2`.
func kindOf(f libField) string {
	if f.isStr {
		return `the string "` + f.str + `"`
	}
	return "the number " + fmtG(f.num)
}

// sparse maps x onto the learner's features into dst: a name not seen
// before gets a new feature when add is set, and is left out otherwise (a
// feature never learned has no weight). x must have passed check.
func (l *libLearner) sparse(x []libField, add bool, dst *data.Sparse) {
	dst.Ind, dst.Val = dst.Ind[:0], dst.Val[:0]
	for _, f := range x {
		c, ok := l.col[f.name]
		if !ok {
			if !add {
				continue
			}
			role := data.RoleNumeric
			if f.isStr {
				role = data.RoleCategorical
			}
			c = len(l.vocab.Columns)
			l.vocab.Columns = append(l.vocab.Columns, data.VocabularyColumn{Name: f.name, Role: role, Scale: 1})
			l.col[f.name] = c
		}
		k, v := libKey{col: c}, f.num
		if f.isStr {
			k.value, v = f.str, 1
		} else if s := l.vocab.Columns[c].Scale; s > 0 {
			v /= s
		}
		if v == 0 {
			continue
		}
		i, ok := l.feat[k]
		if !ok {
			if !add {
				continue
			}
			i = len(l.vocab.Features)
			l.vocab.Features = append(l.vocab.Features, data.VocabularyFeature{Field: c, Value: k.value})
			l.vocab.Dim = len(l.vocab.Features)
			l.feat[k] = i
		}
		dst.Ind, dst.Val = append(dst.Ind, i), append(dst.Val, v)
	}
	sortSparse(dst)
}

// sortSparse orders a row's features by index (data.Sparse.Sort), summing
// repeats (a name given twice).
func sortSparse(x *data.Sparse) {
	x.Sort()
	out := 0
	for i := range x.Ind {
		if out > 0 && x.Ind[out-1] == x.Ind[i] {
			x.Val[out-1] += x.Val[i]
			continue
		}
		x.Ind[out], x.Val[out] = x.Ind[i], x.Val[i]
		out++
	}
	x.Ind, x.Val = x.Ind[:out], x.Val[:out]
}

// known reports whether f names a feature the model has.
func (l *libLearner) known(f libField) bool {
	c, ok := l.col[f.name]
	if !ok {
		return false
	}
	_, ok = l.feat[libKey{col: c, value: f.str}]
	return ok
}

// label returns the label y in the task's form: a finite number for
// regression; for classification 1 (from 1 or true) or −1 (from 0, −1 or
// false), any other value an error.
func (l *libLearner) label(y float64, where string) (float64, error) {
	if math.IsNaN(y) || math.IsInf(y, 0) {
		return 0, errors.New(where + ": y is " + fmtG(y) + ": want a finite number")
	}
	v, err := l.cfg.Task.Label(y)
	if err != nil {
		return 0, errors.New(where + ": " + err.Error())
	}
	return v, nil
}

// libCheck is the state of a check of one list of rows given in parts
// (lib.check, part by part, before lib.learn learns any): the kinds of the
// names new to the model and the features new to it, over the parts
// checked so far.
type libCheck struct {
	pending map[string]bool
	fresh   map[libKey]bool // by name (col −1)
	cols    map[string]bool // names new to the model
	floor   libFloor
}

// libFloor is a lower bound on what the rows checked so far add to the
// memory a learner's budget counts (see play): core.GrowthFloor of each
// row, and vocabFeatureBytes for each new feature and each new name (a
// column of the vocabulary). pairs counts the pairs of features never seen
// together, for the error; held is what the learner held when the check
// began (read at its first row: the learner does not change while a list
// is checked).
type libFloor struct {
	bytes, pairs, held int64
	started            bool
}

// add counts a row of nnz nonzero features, fresh of them new and cols of
// their names new, to be learned by l, and returns the error of rows that
// cannot fit the memory budget (nil when they may): what l holds and the
// floor of the rows checked up to where, with all new features among
// them, pass maxMemory. A list refused here is refused whole, before a row
// is learned: the most features a learner takes is what fits its budget,
// for its learner.
func (f *libFloor) add(l *libLearner, where string, nnz, fresh, cols, all int) error {
	if !f.started {
		f.held, f.started = l.l.MemoryBytes()+l.m.MemoryBytes()+vocabSize{&l.vocab}.MemoryBytes(), true
	}
	if fresh > 0 {
		f.bytes += core.GrowthFloor(l.l, nnz, fresh) + int64(fresh+cols)*vocabFeatureBytes
		n, old := int64(nnz), int64(nnz-fresh)
		f.pairs += n*(n-1)/2 - old*(old-1)/2
	}
	budget := core.MemoryBudget{Limit: l.maxMemory}.Max()
	if f.held+f.bytes <= budget {
		return nil
	}
	return f.refusal(l, where, all, budget)
}

// refusal is add's error: the memory the rows would take, what holds it,
// and that none was learned.
func (f *libFloor) refusal(l *libLearner, where string, fresh int, budget int64) error {
	what := core.FormatCount(int64(fresh)) + " new features"
	perPair := core.GrowsPerPair(l.l)
	if perPair {
		what += " and " + core.FormatCount(f.pairs) + " pairs of features new together, each of which " + l.name + " stores"
	}
	msg := where + ": learning the rows up to this one would take " + l.name + " to at least " + core.FormatBytes(f.held+f.bytes) +
		" (" + what + "), over the memory budget of " + core.FormatBytes(budget) + " (maxMemory); learn fewer features or raise maxMemory"
	if perPair {
		msg += " (linear and fm-ftrl grow per feature, not per pair)"
	}
	return errors.New(msg + "; none of these rows was learned")
}

func newLibCheck() *libCheck {
	return &libCheck{pending: map[string]bool{}, fresh: map[libKey]bool{}, cols: map[string]bool{}}
}

// checkRows checks rows as learn learns them, rows[0] being row first,
// with st carried over the parts of one list, and returns their labels in
// the task's form. The error names the first bad row.
func (l *libLearner) checkRows(rows []libRow, first int, st *libCheck) ([]float64, error) {
	ys := make([]float64, len(rows))
	for r, row := range rows {
		where := "row " + strconv.Itoa(first+r)
		if err := l.check(row.x, where, st.pending); err != nil {
			return nil, err
		}
		y, err := l.label(row.y, where)
		if err != nil {
			return nil, err
		}
		ys[r] = y
		nnz, fresh, cols := 0, 0, 0
		for _, f := range row.x {
			if len(f.name) > libMaxName || len(f.str) > libMaxName {
				return nil, errors.New(where + `: feature "` + clip(f.name) + `": a name or value of ` + strconv.Itoa(max(len(f.name), len(f.str))) + " bytes: at most " + strconv.Itoa(libMaxName))
			}
			if !f.isStr && f.num == 0 {
				continue // left out of the row (see sparse)
			}
			nnz++
			if l.known(f) {
				continue
			}
			if k := (libKey{col: -1, value: f.name + "\x00" + f.str}); !st.fresh[k] {
				st.fresh[k] = true
				fresh++
				if _, ok := l.col[f.name]; !ok && !st.cols[f.name] {
					st.cols[f.name] = true
					cols++
				}
			}
		}
		if err := st.floor.add(l, where, nnz, fresh, cols, len(st.fresh)); err != nil {
			return nil, err
		}
	}
	return ys, nil
}

// libMaxName bounds the bytes of a feature's name and of a string value.
const libMaxName = 1 << 10

// clip returns s, cut to 40 bytes with "…" when longer, for an error.
func clip(s string) string {
	if len(s) <= 40 {
		return s
	}
	return strings.ToValidUTF8(s[:40], "") + "…"
}

// learn learns rows in order, predicting each first (progressive metrics).
// Every row is checked before any is learned: a bad one leaves the
// learner as it was, and the error names it, rows[0] being row first (a
// caller that learns a long array in parts passes each part's offset,
// after lib.check has checked every part). The memory budget (maxMemory)
// is checked as play says: past it, learn stops, and the error names the
// memory, what holds it and the last row learned (numbered as the caller
// numbers its list: the rows before first were learned by earlier calls
// of the same list).
func (l *libLearner) learn(rows []libRow, first int) error {
	ys, err := l.checkRows(rows, first, newLibCheck())
	if err != nil {
		return err
	}
	var ex data.Example
	for r, row := range rows {
		l.sparse(row.x, true, &ex.X)
		ex.Y = ys[r]
		if err := l.play(ex, r, len(rows)); err != nil {
			return errors.New("row " + strconv.Itoa(first+r) + ": " + err.Error() + "; the rows up to row " + strconv.Itoa(first+r) + " were learned, the later ones were not")
		}
	}
	return nil
}

// play learns ex, row r of n in a call, and checks the memory budget when
// a check is due: spaced as a session's (memoryEvery rows, and after a row
// of more than wideRow nonzeros), and after the call's last row.
func (l *libLearner) play(ex data.Example, r, n int) error {
	core.Play(l.l, ex, l.m)
	l.rows++
	if (r+1)%memoryEvery != 0 && len(ex.X.Ind) <= wideRow && r != n-1 {
		return nil
	}
	return core.MemoryBudget{Limit: l.maxMemory}.Check(
		core.MemoryPart{Name: l.name, Value: l.l},
		core.MemoryPart{Name: "metrics", Value: l.m},
		core.MemoryPart{Name: "feature names", Value: vocabSize{&l.vocab}})
}

// vocabSize is a vocabulary's memory (core.Sized): about 96 bytes a
// feature and a column, with the maps that index them, beside their names.
type vocabSize struct{ v *data.Vocabulary }

func (s vocabSize) MemoryBytes() int64 {
	return vocabFeatureBytes * int64(len(s.v.Features)+len(s.v.Columns))
}

// vocabFeatureBytes is what a feature or a column of a vocabulary costs
// beside its name: its entry and the maps' that index it.
const vocabFeatureBytes = 96

// predict returns ŷ for x without learning it: a rating (regression) or
// the probability of the positive class (classification); an error names
// where x is.
func (l *libLearner) predict(x []libField, where string) (float64, error) {
	if err := l.check(x, where, nil); err != nil {
		return 0, err
	}
	var s data.Sparse
	l.sparse(x, false, &s)
	return l.output(l.l.Predict(s)), nil
}

// output returns the learner's ŷ as the library gives it: a rating as it
// is, a class as the probability of the positive one, σ(ŷ).
func (l *libLearner) output(y float64) float64 {
	if l.cfg.Task == data.Classification {
		return core.Sigmoid(y)
	}
	return y
}

// save returns the model file: the learner, the guard's state, the
// feature names and the rows learned.
func (l *libLearner) save() ([]byte, error) {
	gm := l.l.Model()
	v := l.vocab
	m := core.Model{Name: l.name, Config: l.cfg, Learner: gm.Learner, Extra: gm.Extra, Vocabulary: &v, Rows: l.rows}
	var buf bytes.Buffer
	if err := core.SaveModel(&buf, m); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// loadLibLearner reads a model file save wrote, or one the CLI or the page
// wrote after learning a data file: a CSV file's columns are names, a
// LibSVM or MovieLens file's features are read from such files only.
func loadLibLearner(b []byte) (*libLearner, error) {
	m, err := core.LoadModel(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	if m.Vocabulary == nil {
		return nil, errors.New("a model file with no feature numbering (of a demo): the library reads models of rows or data files")
	}
	g, err := core.ResumeGuarded(m, core.GuardFor("auto", "", false))
	if err != nil {
		return nil, err
	}
	l := &libLearner{name: m.Name, cfg: m.Config, l: g, vocab: *m.Vocabulary, rows: m.Rows}
	l.index()
	return l, nil
}

// summary returns what the library reports of the learner: its name, task,
// rows learned and progressive metrics.
func (l *libLearner) summary() core.Summary { return l.m.Summary() }

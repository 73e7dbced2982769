package core

import (
	"bufio"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"io/fs"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/internal/str"
)

// Model is everything needed to resume online learning where it stopped:
// the learner with its full state, the settings it was made with, the
// feature numbering of the stream it learned from, and the number of rows
// it has learned. SaveModel writes one to a versioned file and LoadModel
// reads it back; a learner loaded from a file and one that never stopped
// make bit-identical predictions on the rows that follow.
type Model struct {
	// Name is the learner's registry name (see Learners). SaveModel fills
	// it in from the learner's type when it is empty.
	Name string
	// Config is the common configuration the learner was made with. It is
	// kept for the record and for callers that check flags against it; the
	// learner's own settings (defaults filled in) are part of its state.
	Config Config
	// Learner is the learner; it must be one made by the registry (one of
	// the types NewLearner returns).
	Learner Learner
	// Vocabulary, when not nil, is the feature numbering of the stream the
	// learner learned from (see Stream.Vocabulary): a stream started with
	// it (ReaderSettings.Vocabulary) numbers the features as before.
	Vocabulary *data.Vocabulary
	// Rows is the number of rows the learner has learned.
	Rows int
	// Extra holds named opaque sections for state owned by other code (a
	// wrapper around the learner, say). The file keeps and checksums them
	// but does not interpret them. Names must be non-empty.
	Extra map[string][]byte
}

// ModelFormat is the version of the model file format SaveModel writes.
// LoadModel reads versions 1 to ModelFormat and rejects newer ones.
const ModelFormat = 1

// modelMagic starts every model file. Like PNG's signature, it holds a
// non-ASCII byte and both line ends, so that a text-mode transfer that
// rewrites line ends shows as "not a model file" rather than as garbage.
const modelMagic = "\x89OCCFM\r\n\x1a\n"

// The model file, version 1 (all integers little-endian):
//
//	magic     10 bytes  "\x89OCCFM\r\n\x1a\n"
//	version    2 bytes  uint16, ModelFormat
//	size       8 bytes  uint64, the length of the whole file
//	sections            each: uvarint name length, name, uvarint body
//	                    length, body; in the order "model", "vocabulary"
//	                    (optional), "learner", then "extra:<name>" in sorted
//	                    name order
//	crc        4 bytes  CRC-32 (Castagnoli) of everything before it
//
// Inside the bodies, floats are their IEEE-754 bits (math.Float64bits, 8
// bytes), integers zig-zag varints, booleans one byte, strings and slices a
// uvarint length followed by their elements, maps their entries in sorted
// key order. The "learner" body is the learner's settings (defaults filled
// in) followed by its state, in an order fixed by its stateCode method
// (model_state.go).
const (
	modelHeaderLen = len(modelMagic) + 2 + 8
	modelCRCLen    = 4
)

// SaveModel writes m to w in the model file format (version ModelFormat).
// It does not change m or its learner. It returns an error, and writes
// nothing, when m.Learner is not a registered learner or m.Name does not
// match it; otherwise only w's errors. It streams: besides m it holds a
// 64 KiB buffer, encoding each section twice (model_stream.go), once for
// the length the file gives before it and once to w.
func SaveModel(w io.Writer, m Model) error {
	secs, err := modelSectionsOf(m)
	if err != nil {
		return err
	}
	lens := make([]int64, len(secs))
	size := int64(modelHeaderLen + modelCRCLen)
	for i, s := range secs {
		lens[i] = encodedLen(s.code)
		size += int64(uvarintLen(uint64(len(s.name)))+len(s.name)+uvarintLen(uint64(lens[i]))) + lens[i]
	}
	bw := bufio.NewWriterSize(w, codecWindow)
	out := &modelOut{w: bw}
	head := append([]byte(modelMagic), 0, 0)
	binary.LittleEndian.PutUint16(head[len(modelMagic):], ModelFormat)
	out.write(binary.LittleEndian.AppendUint64(head, uint64(size)))
	for i, s := range secs {
		c := &stateCodec{out: out}
		name := s.name
		c.string(&name)
		c.length(int(lens[i]), 1)
		c.flush()
		from := out.n
		s.code(c)
		c.flush()
		out.sameLen(lens[i], out.n-from, "section "+str.Quote(name))
	}
	if out.err != nil {
		return out.err
	}
	if _, err := bw.Write(binary.LittleEndian.AppendUint32(nil, out.crc)); err != nil {
		return err
	}
	return bw.Flush()
}

// modelSection is one section of a model file: its name and the coding of
// its body.
type modelSection struct {
	name string
	code func(c *stateCodec)
}

// modelSectionsOf returns the sections of m's file, in their order, or the
// error that stops SaveModel before it writes.
func modelSectionsOf(m Model) ([]modelSection, error) {
	sc, ok := m.Learner.(stateCoder)
	if !ok {
		return nil, errors.New("core: cannot save a learner of type " + str.TypeName(m.Learner) + ": it is not a registered learner")
	}
	name := NameOf(m.Learner)
	if m.Name != "" && m.Name != name {
		return nil, errors.New("core: cannot save: the model is named " + str.Quote(m.Name) + " but its learner is a " + name)
	}
	if m.Rows < 0 {
		return nil, errors.New("core: cannot save: " + str.Itoa(m.Rows) + " rows")
	}
	secs := []modelSection{{"model", func(c *stateCodec) {
		c.string(&name)
		c.int(&m.Rows)
		c.config(&m.Config)
	}}}
	if m.Vocabulary != nil {
		if err := m.Vocabulary.Check(); err != nil {
			return nil, errors.New("core: cannot save: bad vocabulary: " + err.Error())
		}
		secs = append(secs, modelSection{"vocabulary", func(c *stateCodec) { c.vocabulary(m.Vocabulary) }})
	}
	secs = append(secs, modelSection{"learner", sc.stateCode})
	keys := make([]string, 0, len(m.Extra))
	for k := range m.Extra {
		if k == "" {
			return nil, errors.New("core: cannot save: an Extra section has an empty name")
		}
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		body := m.Extra[k]
		secs = append(secs, modelSection{"extra:" + k, func(c *stateCodec) { c.raw(body) }})
	}
	return secs, nil
}

// LoadModel reads a model file written by SaveModel (format version 1 to
// ModelFormat) and returns the model, its learner ready to continue exactly
// where the saved one stopped. It is LoadModelWith with the default
// LoadSettings: files and learners of up to DefaultMemoryLimit.
func LoadModel(r io.Reader) (Model, error) { return LoadModelWith(r, LoadSettings{}) }

// LoadSettings configures LoadModelWith.
type LoadSettings struct {
	// MaxBytes bounds both the size the file declares and the memory of
	// the learner it decodes to (its MemoryBytes, which counts what its
	// next row will allocate, such as the dense d×d matrix of a
	// DenseProjection). Zero means DefaultMemoryLimit (512 MiB); negative
	// means no limit.
	MaxBytes int64
}

// LoadModelWith reads a model file as LoadModel does, within s. It reads
// the 20-byte header first (the signature, the version and the declared
// size) and stops there when the input is not a model file, is from a
// newer OCCFM, or declares a size over s.MaxBytes or over what the input
// holds (when r has a Len method, as *bytes.Reader and *strings.Reader do,
// or a Stat method, as *os.File does); then it reads exactly the declared
// size, and one byte more to check that the file ends there. It never reads
// an unbounded input to its end: given /dev/zero it returns after 10 bytes.
// It streams: it holds what it decodes and a 64 KiB window, never the
// file's bytes, and checks the checksum as it reads (a file that fails it
// is refused with "checksum mismatch" whatever else is wrong with it).
//
// A file that is not a model file, was written by a newer OCCFM, is
// truncated, fails its checksum, names an unknown learner, holds
// inconsistent state, or would take more memory than s allows is rejected
// with an error that says which (see ErrNotModel, ErrModelVersion,
// ErrModelCorrupt, ErrMemoryBudget); every dimension read is checked
// against the budget before anything is allocated for it, and what the
// vocabulary and the extra sections decode to is counted with the
// learner against it. The learner is
// decoded into a new value that is returned only on success, so nothing the
// caller holds is changed. It does not panic on any input.
func LoadModelWith(r io.Reader, s LoadSettings) (Model, error) {
	limit := MemoryBudget{Limit: s.MaxBytes}.Max()
	var head [modelHeaderLen]byte
	n, err := io.ReadFull(r, head[:])
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return Model{}, str.Wrap("core: reading the model: "+err.Error(), err)
	}
	size, err := checkModelHeader(head[:n], -1, limit)
	if err != nil {
		return Model{}, err
	}
	if left, ok := inputLen(r); ok && uint64(left) < size-uint64(modelHeaderLen) {
		return Model{}, corrupt("truncated: " + strconv.FormatInt(int64(modelHeaderLen)+left, 10) + " of " + strconv.FormatUint(size, 10) + " bytes")
	}
	in := &modelIn{r: r, n: int64(modelHeaderLen), crc: crc32.Update(0, modelCRC, head[:])}
	end := int64(size) - modelCRCLen
	m, derr := decodeModel(in, end-int64(modelHeaderLen), limit)
	// The bytes decoding left unread (after an error), for the checksum.
	if in.err == nil && in.n < end {
		io.CopyN(io.Discard, in, end-in.n)
	}
	var sum [modelCRCLen]byte
	if in.err == nil {
		k, err := io.ReadFull(r, sum[:])
		in.n += int64(k)
		if err != nil {
			in.err = io.EOF
			if err != io.ErrUnexpectedEOF && err != io.EOF {
				in.err = err
			}
		}
	}
	switch {
	case in.err == io.EOF:
		return Model{}, corrupt("truncated: " + strconv.FormatInt(in.n, 10) + " of " + strconv.FormatUint(size, 10) + " bytes")
	case in.err != nil:
		return Model{}, str.Wrap("core: reading the model: "+in.err.Error(), in.err)
	}
	if left, ok := inputLen(r); ok && left > 0 {
		return Model{}, corrupt(strconv.FormatInt(left, 10) + " bytes after the end of the model")
	}
	var one [1]byte
	if k, _ := io.ReadFull(r, one[:]); k > 0 {
		return Model{}, corrupt("data after the end of the model")
	}
	if binary.LittleEndian.Uint32(sum[:]) != in.crc {
		return Model{}, corrupt("checksum mismatch")
	}
	return m, derr
}

// inputLen returns the bytes left in r when r can tell: a Len method
// (*bytes.Reader, *bytes.Buffer, *strings.Reader) or, for a file, its size
// minus its offset.
func inputLen(r io.Reader) (int64, bool) {
	switch v := r.(type) {
	case interface{ Len() int }:
		return int64(v.Len()), true
	case interface {
		Stat() (fs.FileInfo, error)
		io.Seeker
	}:
		fi, err := v.Stat()
		if err != nil || !fi.Mode().IsRegular() {
			return 0, false
		}
		off, err := v.Seek(0, io.SeekCurrent)
		if err != nil {
			return 0, false
		}
		return max(fi.Size()-off, 0), true
	}
	return 0, false
}

// checkHeader checks the first bytes of a model file (up to
// modelHeaderLen) and returns the size it declares.
// ModelHeaderLen is the length of a model file's header: the signature,
// the format version and the declared size.
const ModelHeaderLen = modelHeaderLen

// CheckModelHeader checks the first ModelHeaderLen bytes of a file (or all
// of it, when shorter) and a file of length size (or -1 when unknown)
// against a model file's header and the budget of s, before the rest is
// read: it returns ErrNotModel for a file without the signature, ErrModelVersion
// for a newer format, ErrModelCorrupt for a header that cannot be right
// (including a size that is not the file's), and ErrMemoryBudget for a
// declared size over the budget. The page reads a picked file's header
// with it first, so that a big file picked by mistake is never read whole.
func CheckModelHeader(head []byte, size int64, s LoadSettings) error {
	_, err := checkModelHeader(head, size, MemoryBudget{Limit: s.MaxBytes}.Max())
	return err
}

// checkModelHeader is CheckModelHeader with the limit in bytes; it returns
// the declared size.
func checkModelHeader(head []byte, size, limit int64) (uint64, error) {
	declared, err := checkHeader(head)
	if err != nil {
		return 0, err
	}
	if declared > uint64(limit) {
		return 0, overBudget("the model file declares", int64(min(declared, math.MaxInt64)), limit)
	}
	if size >= 0 && uint64(size) != declared {
		if uint64(size) < declared {
			return 0, corrupt("truncated: " + strconv.FormatInt(size, 10) + " of " + strconv.FormatUint(declared, 10) + " bytes")
		}
		return 0, corrupt(strconv.FormatUint(uint64(size)-declared, 10) + " bytes after the end of the model")
	}
	return declared, nil
}

func checkHeader(data []byte) (uint64, error) {
	if len(data) < len(modelMagic) || string(data[:len(modelMagic)]) != modelMagic {
		if len(data) < len(modelMagic) && strings.HasPrefix(modelMagic, string(data)) && len(data) > 0 {
			return 0, corrupt("truncated: " + str.Itoa(len(data)) + " bytes, not even the file header")
		}
		return 0, str.Wrap("core: "+ErrNotModel.Error()+" (it does not start with the OCCFM model signature)", ErrNotModel)
	}
	if len(data) < modelHeaderLen {
		return 0, corrupt("truncated: " + str.Itoa(len(data)) + " bytes, not even the file header")
	}
	version := binary.LittleEndian.Uint16(data[len(modelMagic):])
	if version == 0 {
		return 0, corrupt("format version 0")
	}
	if version > maxModelFormat {
		// A damaged header, not a newer OCCFM: formats are numbered from 1
		// and a new one comes with a release.
		return 0, corrupt("format version " + str.Itoa(int(version)) + " is none an OCCFM writes (at most " +
			str.Itoa(maxModelFormat) + "): the file's header is damaged")
	}
	if version > ModelFormat {
		return 0, str.Wrap("core: "+ErrModelVersion.Error()+": written by a newer OCCFM (model format "+
			str.Itoa(int(version))+", this build reads up to "+str.Itoa(ModelFormat)+")", ErrModelVersion)
	}
	size := binary.LittleEndian.Uint64(data[len(modelMagic)+2:])
	if size < uint64(modelHeaderLen+modelCRCLen) {
		return 0, corrupt("the header gives an impossible size of " + strconv.FormatUint(size, 10) + " bytes")
	}
	return size, nil
}

// maxModelFormat is the largest format version checkHeader takes for one of
// a newer OCCFM rather than for a damaged header.
const maxModelFormat = 255

// decodeModel decodes the sections of a model file, the body bytes of in
// (after the header, before the checksum), checking that they come in the
// order SaveModel writes them, so that a file loads to a model that saves
// to the same bytes. What the model holds is counted against limit: the
// vocabulary and the extra sections, then the learner within what they
// leave.
func decodeModel(in *modelIn, body, limit int64) (Model, error) {
	top := &stateCodec{dec: true, in: in, left: body, limit: limit}
	var m Model
	var order sectionOrder
	var held int64 // bytes of the vocabulary and extra sections
	for top.rest() > 0 {
		var name string
		top.string(&name)
		n := top.length(0, 1)
		if top.err != nil {
			return Model{}, corrupt("bad section framing: " + top.err.Error())
		}
		if err := order.next(name); err != nil {
			return Model{}, err
		}
		c := top.sub(n)
		var err error
		switch {
		case name == "model":
			err = m.decodeHead(c)
		case name == "vocabulary":
			err = m.decodeVocabulary(c, limit, &held)
		case name == "learner":
			err = m.decodeLearner(c, limit, held)
		default:
			held += int64(len(name)) + c.rest() + 64
			if held > limit {
				return Model{}, overBudget("the model's extra sections would take", held, limit)
			}
			if m.Extra == nil {
				m.Extra = make(map[string][]byte)
			}
			m.Extra[name[len("extra:"):]] = c.take(int(c.rest()))
			err = c.finish(name)
		}
		if err != nil {
			return Model{}, err
		}
	}
	if !order.model {
		return Model{}, corrupt(`no "model" section`)
	}
	if !order.learner {
		return Model{}, corrupt(`no "learner" section`)
	}
	if held > 0 {
		if b := m.Learner.(Sized).MemoryBytes(); b+held > limit {
			return Model{}, overBudget("the model's "+m.Name+" and its vocabulary would hold", b+held, limit)
		}
	}
	return m, nil
}

// sectionOrder checks the names of a model file's sections as they come:
// "model", "vocabulary" (optional), "learner", then "extra:NAME" sections
// in increasing NAME order.
type sectionOrder struct {
	model, vocabulary, learner bool
	lastExtra                  string
}

func (o *sectionOrder) next(name string) error {
	repeated := false
	inOrder := false
	switch {
	case name == "model":
		repeated, inOrder = o.model, !o.model && !o.vocabulary && !o.learner
		o.model = true
	case name == "vocabulary":
		repeated, inOrder = o.vocabulary, o.model && !o.learner
		o.vocabulary = true
	case name == "learner":
		repeated, inOrder = o.learner, o.model
		o.learner = true
	case strings.HasPrefix(name, "extra:"):
		repeated = name == o.lastExtra
		inOrder = o.learner && name > o.lastExtra
		if inOrder && name == "extra:" {
			return corrupt("unknown section " + str.Quote(name))
		}
		o.lastExtra = name
	}
	if repeated {
		return corrupt("section " + str.Quote(name) + " repeated")
	}
	if !inOrder {
		want := "model, learner"
		if o.vocabulary {
			want = "model, vocabulary, learner"
		}
		return corrupt("section " + str.Quote(name) + " out of order (want " + want + ", then extra:… sorted)")
	}
	return nil
}

// decodeHead decodes the "model" section: the learner's name, the rows
// learned and the Config.
func (m *Model) decodeHead(c *stateCodec) error {
	c.string(&m.Name)
	c.int(&m.Rows)
	c.config(&m.Config)
	if err := c.finish("model"); err != nil {
		return err
	}
	if m.Rows < 0 {
		return corrupt(str.Itoa(m.Rows) + " rows")
	}
	if _, ok := registry[m.Name]; !ok {
		return corrupt("unknown learner " + str.Quote(m.Name) + " (this build has " + strings.Join(registeredNames(), ", ") + ")")
	}
	return nil
}

// decodeVocabulary decodes the "vocabulary" section and adds what it holds
// to *held.
func (m *Model) decodeVocabulary(c *stateCodec, limit int64, held *int64) error {
	m.Vocabulary = new(data.Vocabulary)
	c.vocabulary(m.Vocabulary)
	if c.over != nil {
		return c.over
	}
	if err := c.finish("vocabulary"); err != nil {
		return err
	}
	*held += vocabularyBytes(m.Vocabulary)
	if *held > limit {
		return overBudget("the model's vocabulary would hold", *held, limit)
	}
	return nil
}

// decodeLearner decodes the "learner" section into a new learner of the
// registry's type for m.Name, within what held leaves of limit.
func (m *Model) decodeLearner(c *stateCodec, limit, held int64) error {
	l := registry[m.Name].state()
	c.limit = max(limit-held, 1)
	l.stateCode(c)
	if c.over != nil {
		return c.over
	}
	if err := c.finish("learner"); err != nil {
		return err
	}
	if b := l.(Sized).MemoryBytes(); b > limit {
		return overBudget("the model's "+m.Name+" would hold", b, limit)
	}
	m.Learner = l
	return nil
}

// vocabularyBytes estimates the memory v holds.
func vocabularyBytes(v *data.Vocabulary) int64 {
	n := vocabularyFeatureBytes*int64(cap(v.Features)) + vocabularyColumnBytes*int64(cap(v.Columns)) + 4*int64(cap(v.Indices))
	for _, f := range v.Features {
		n += int64(len(f.Value))
	}
	for _, col := range v.Columns {
		n += int64(len(col.Name))
	}
	return n
}

func registeredNames() []string {
	var names []string
	for _, s := range Learners() {
		names = append(names, s.Name)
	}
	return names
}

// guardSection names the Model.Extra section that holds a Guarded's own
// state, scaleSection the one that holds its feature scales (data.Scales).
const (
	guardSection = "guard"
	scaleSection = "scale"
)

// Model returns the guarded learner as a Model for SaveModel: the learner
// the guard wraps, the settings it was made with, and in Extra["guard"] the
// guard's own state (the labels' mean and range, the smoothed losses, its
// counters and events), so that ResumeGuarded goes on exactly as if the
// guard had never stopped. The caller sets Vocabulary and Rows.
func (g *Guarded) Model() Model {
	c := &stateCodec{}
	g.stateCode(c)
	extra := map[string][]byte{guardSection: c.buf}
	if !g.sc.Trivial() {
		sc := &stateCodec{}
		s, floor := g.sc.State()
		sc.scales(&floor, &s)
		extra[scaleSection] = sc.buf
	}
	return Model{Name: g.name, Config: g.cfg, Learner: g.inner, Extra: extra}
}

// ResumeGuarded guards the learner of a loaded model with s: it continues
// the guard's state saved by Guarded.Model, or starts a fresh guard for a
// model saved without one. Its feature scales are the saved ones; a model
// saved without scales (learned from one-hot or 0/1 features only, or
// saved before the guard scaled rows) starts every feature at scale 1, so
// that it predicts as it did. A reset makes a fresh learner of m.Name for
// m.Config. It returns an error for a model whose guard state is malformed.
func ResumeGuarded(m Model, s GuardSettings) (*Guarded, error) {
	spec, ok := registry[m.Name]
	if !ok || m.Learner == nil {
		return nil, errors.New("core: the model has no learner of the registry (" + str.Quote(m.Name) + ")")
	}
	c := m.Config
	g := &Guarded{set: s.withDefaults(), name: m.Name, spec: spec, cfg: c, task: c.Task, loss: c.LossOf(),
		fresh: func() Learner { return spec.New(c) }, inner: m.Learner}
	if b, ok := m.Extra[guardSection]; ok {
		dc := &stateCodec{dec: true, buf: b}
		g.stateCode(dc)
		if err := dc.finish("extra:" + guardSection); err != nil {
			return nil, err
		}
	}
	var floor float64 = 1
	var scales []float64
	if b, ok := m.Extra[scaleSection]; ok {
		dc := &stateCodec{dec: true, buf: b}
		dc.scales(&floor, &scales)
		if err := dc.finish("extra:" + scaleSection); err != nil {
			return nil, err
		}
	}
	sc, err := data.RestoreScales(scales, floor)
	if err != nil {
		return nil, corrupt(err.Error())
	}
	g.sc = sc
	return g, nil
}

// scales codes the feature scales of a guard (data.Scales.State): its
// floor, then the scales; data.RestoreScales checks them.
func (c *stateCodec) scales(floor *float64, s *[]float64) {
	c.float(floor)
	c.floats(s)
}

// stateCode codes the guard's state (not its settings, which come from the
// caller, nor the learner, which is the model's).
func (g *Guarded) stateCode(c *stateCodec) {
	c.int(&g.rows)
	c.int(&g.since)
	c.int(&g.n)
	c.float(&g.mean)
	c.float(&g.lo)
	c.float(&g.hi)
	for _, e := range []*ewma{&g.eL, &g.eS, &g.eB} {
		c.float(&e.sum)
		c.float(&e.mass)
		if c.violates(e.mass >= 0 && e.mass <= 1 && e.sum >= 0) {
			c.fail("smoothed loss (" + str.Ftoa(e.sum) + ", " + str.Ftoa(e.mass) + ") out of range")
		}
	}
	r := &g.rep
	c.int(&r.Divergences)
	c.int(&r.Resets)
	c.int(&r.Refused)
	c.bool(&r.Paused)
	c.int(&r.PausedAt)
	c.check(g.rows >= 0 && g.since >= 0 && g.n >= 0 && g.n <= g.rows && g.lo <= g.hi &&
		r.Divergences >= 0 && r.Resets >= 0 && r.Resets <= r.Divergences && r.Refused >= 0 &&
		r.PausedAt >= 0 && r.PausedAt <= g.rows, "guard counters out of range")
	n := c.length(len(r.Events), 3)
	if c.dec {
		if c.err != nil || n > guardEvents+1+maxAutoExperts {
			c.fail("guard events: " + str.Itoa(n))
			return
		}
		r.Events = make([]GuardEvent, n)
	}
	for i := range r.Events {
		e := &r.Events[i]
		c.int(&e.Row)
		c.string(&e.Kind)
		c.string(&e.Msg)
	}
	// The breakdown of Refused, at the end and only when not zero, so that
	// files written before it existed load and save to the same bytes.
	if !c.dec && r.TooWide == 0 && r.BadLabels == 0 || c.dec && c.atEnd() {
		return
	}
	c.int(&r.TooWide)
	c.int(&r.BadLabels)
	if c.violates(r.TooWide >= 0 && r.BadLabels >= 0 && r.TooWide+r.BadLabels <= r.Refused && r.TooWide+r.BadLabels > 0) {
		c.fail("refused rows " + str.Itoa(r.TooWide) + " too wide and " + str.Itoa(r.BadLabels) + " with a bad label of " + str.Itoa(r.Refused))
	}
}

package core

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"io/fs"
	"math"
	"math/bits"
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

var modelCRC = crc32.MakeTable(crc32.Castagnoli)

// Errors of LoadModel, for errors.Is. The messages returned say more.
var (
	// ErrNotModel: the input is not an OCCFM model file at all.
	ErrNotModel = errors.New("not an OCCFM model file")
	// ErrModelVersion: the file was written by a newer OCCFM.
	ErrModelVersion = errors.New("model file from a newer OCCFM")
	// ErrModelCorrupt: the file is truncated, fails its checksum, or is
	// inconsistent.
	ErrModelCorrupt = errors.New("corrupt model file")
)

// stateCoder is implemented by every registered learner: stateCode writes
// (c encoding) or reads (c decoding) the learner's settings and state, in
// one fixed order, so that the two directions cannot disagree. Decoding
// starts on the zero value of the learner type and rebuilds it through its
// constructor once the settings are read.
type stateCoder interface {
	Learner
	stateCode(c *stateCodec)
}

// stateTypes makes the zero learner of each registered name, to decode
// into.
var stateTypes = map[string]func() stateCoder{
	"occfm":      func() stateCoder { return new(OCCFM) },
	"ccfm-ogd":   func() stateCoder { return new(CCFMOGD) },
	"ccfm-pa":    func() stateCoder { return new(CCFMPA) },
	"ccfm-ftrl":  func() stateCoder { return new(CCFMFTRL) },
	"fm-ftrl":    func() stateCoder { return new(FMFTRL) },
	"cfm-ftrl":   func() stateCoder { return new(CFMFTRL) },
	"mean":       func() stateCoder { return new(Mean) },
	"bias":       func() stateCoder { return new(Bias) },
	"linear":     func() stateCoder { return new(Linear) },
	"occfm-lin":  func() stateCoder { return new(OCCFMLin) },
	"occfm-auto": func() stateCoder { return new(OCCFMAuto) },
	"ccfm-pairs": func() stateCoder { return new(CCFMPairs) },
	"occfm-k":    func() stateCoder { return new(OCCFMK) },
}

// learnerName returns the registry name of l's type, or "".
func learnerName(l Learner) string {
	switch l.(type) {
	case *OCCFM:
		return "occfm"
	case *CCFMOGD:
		return "ccfm-ogd"
	case *CCFMPA:
		return "ccfm-pa"
	case *CCFMFTRL:
		return "ccfm-ftrl"
	case *FMFTRL:
		return "fm-ftrl"
	case *CFMFTRL:
		return "cfm-ftrl"
	case *Mean:
		return "mean"
	case *Bias:
		return "bias"
	case *OCCFMK:
		return "occfm-k"
	case *Linear:
		return "linear"
	case *OCCFMLin:
		return "occfm-lin"
	case *OCCFMAuto:
		return "occfm-auto"
	case *CCFMPairs:
		return "ccfm-pairs"
	}
	return ""
}

// SaveModel writes m to w in the model file format (version ModelFormat).
// It does not change m or its learner. It returns an error, and writes
// nothing, when m.Learner is not a registered learner or m.Name does not
// match it; otherwise only w's errors.
func SaveModel(w io.Writer, m Model) error {
	b, err := appendModel(nil, m)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// appendModel appends the model file of m to b.
func appendModel(b []byte, m Model) ([]byte, error) {
	sc, ok := m.Learner.(stateCoder)
	if !ok {
		return nil, errors.New("core: cannot save a learner of type " + str.TypeName(m.Learner) + ": it is not a registered learner")
	}
	name := learnerName(m.Learner)
	if m.Name != "" && m.Name != name {
		return nil, errors.New("core: cannot save: the model is named " + str.Quote(m.Name) + " but its learner is a " + name)
	}
	if m.Rows < 0 {
		return nil, errors.New("core: cannot save: " + str.Itoa(m.Rows) + " rows")
	}
	if m.Vocabulary != nil {
		if err := m.Vocabulary.Check(); err != nil {
			return nil, errors.New("core: cannot save: bad vocabulary: " + err.Error())
		}
	}
	start := len(b)
	b = append(b, modelMagic...)
	b = binary.LittleEndian.AppendUint16(b, ModelFormat)
	b = binary.LittleEndian.AppendUint64(b, 0) // size, set below

	c := &stateCodec{}
	c.string(&name)
	c.int(&m.Rows)
	c.config(&m.Config)
	b = appendSection(b, "model", c.buf)

	if m.Vocabulary != nil {
		c = &stateCodec{}
		c.vocabulary(m.Vocabulary)
		b = appendSection(b, "vocabulary", c.buf)
	}

	c = &stateCodec{}
	sc.stateCode(c)
	b = appendSection(b, "learner", c.buf)

	keys := make([]string, 0, len(m.Extra))
	for k := range m.Extra {
		if k == "" {
			return nil, errors.New("core: cannot save: an Extra section has an empty name")
		}
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		b = appendSection(b, "extra:"+k, m.Extra[k])
	}
	size := len(b) - start + modelCRCLen
	binary.LittleEndian.PutUint64(b[start+len(modelMagic)+2:], uint64(size))
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b[start:], modelCRC)), nil
}

func appendSection(b []byte, name string, body []byte) []byte {
	b = binary.AppendUvarint(b, uint64(len(name)))
	b = append(b, name...)
	b = binary.AppendUvarint(b, uint64(len(body)))
	return append(b, body...)
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
//
// A file that is not a model file, was written by a newer OCCFM, is
// truncated, fails its checksum, names an unknown learner, holds
// inconsistent state, or would take more memory than s allows is rejected
// with an error that says which (see ErrNotModel, ErrModelVersion,
// ErrModelCorrupt, ErrMemoryBudget); every dimension read is checked
// against the budget before anything is allocated for it. The learner is
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
	// Read into a buffer that grows with the bytes actually read, so that a
	// short input declaring a large size does not allocate it.
	var buf bytes.Buffer
	buf.Grow(int(min(size, 1<<20)))
	buf.Write(head[:])
	if _, err := io.CopyN(&buf, r, int64(size)-int64(modelHeaderLen)); err != nil {
		if err == io.EOF {
			return Model{}, corrupt("truncated: " + str.Itoa(buf.Len()) + " of " + strconv.FormatUint(size, 10) + " bytes")
		}
		return Model{}, str.Wrap("core: reading the model: "+err.Error(), err)
	}
	if left, ok := inputLen(r); ok && left > 0 {
		return Model{}, corrupt(strconv.FormatInt(left, 10) + " bytes after the end of the model")
	}
	var one [1]byte
	if k, _ := io.ReadFull(r, one[:]); k > 0 {
		return Model{}, corrupt("data after the end of the model")
	}
	return parseModelWithin(buf.Bytes(), limit)
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
		return 0, str.Wrap("core: the model file declares "+FormatBytes(int64(min(declared, math.MaxInt64)))+
			", "+ErrMemoryBudget.Error()+" of "+FormatBytes(limit), ErrMemoryBudget)
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

// corrupt returns an error that wraps ErrModelCorrupt, saying msg. It is
// kept out of line, as fail is.
//
//go:noinline
func corrupt(msg string) error {
	return str.Wrap("core: "+ErrModelCorrupt.Error()+": "+msg, ErrModelCorrupt)
}

// parseModel is LoadModel on the bytes of a file.
func parseModel(data []byte) (Model, error) { return parseModelWithin(data, DefaultMemoryLimit) }

// parseModelWithin is LoadModelWith on the bytes of a file, with the memory
// limit in bytes.
func parseModelWithin(file []byte, limit int64) (Model, error) {
	size, err := checkHeader(file[:min(len(file), modelHeaderLen)])
	if err != nil {
		return Model{}, err
	}
	switch {
	case uint64(len(file)) < size:
		return Model{}, corrupt("truncated: " + str.Itoa(len(file)) + " of " + strconv.FormatUint(size, 10) + " bytes")
	case uint64(len(file)) > size:
		return Model{}, corrupt(strconv.FormatUint(uint64(len(file))-size, 10) + " bytes after the end of the model")
	}
	body, sum := file[:size-modelCRCLen], binary.LittleEndian.Uint32(file[size-modelCRCLen:])
	if crc32.Checksum(body, modelCRC) != sum {
		return Model{}, corrupt("checksum mismatch")
	}

	sections := make(map[string][]byte)
	var order []string
	rest := body[modelHeaderLen:]
	for len(rest) > 0 {
		c := &stateCodec{dec: true, buf: rest}
		var name string
		var sec []byte
		c.string(&name)
		c.bytes(&sec)
		if c.err != nil {
			return Model{}, corrupt("bad section framing: " + c.err.Error())
		}
		if _, dup := sections[name]; dup {
			return Model{}, corrupt("section " + str.Quote(name) + " repeated")
		}
		sections[name] = sec
		order = append(order, name)
		rest = c.buf
	}

	// The sections must come in the order SaveModel writes them, so that
	// a file loads to a model that saves to the same bytes.
	want := []string{"model"}
	if _, ok := sections["vocabulary"]; ok {
		want = append(want, "vocabulary")
	}
	want = append(want, "learner")
	for i, name := range order {
		switch {
		case i < len(want) && name == want[i]:
		case i >= len(want) && strings.HasPrefix(name, "extra:") && (i == len(want) || order[i-1] < name):
		default:
			return Model{}, corrupt("section " + str.Quote(name) + " out of order (want " + strings.Join(want, ", ") + ", then extra:… sorted)")
		}
	}

	var m Model
	head, ok := sections["model"]
	if !ok {
		return Model{}, corrupt(`no "model" section`)
	}
	c := &stateCodec{dec: true, buf: head}
	c.string(&m.Name)
	c.int(&m.Rows)
	c.config(&m.Config)
	if err := c.finish("model"); err != nil {
		return Model{}, err
	}
	if m.Rows < 0 {
		return Model{}, corrupt(str.Itoa(m.Rows) + " rows")
	}
	mk, ok := stateTypes[m.Name]
	if !ok {
		return Model{}, corrupt("unknown learner " + str.Quote(m.Name) + " (this build has " + strings.Join(registeredNames(), ", ") + ")")
	}

	if voc, ok := sections["vocabulary"]; ok {
		c = &stateCodec{dec: true, buf: voc}
		m.Vocabulary = new(data.Vocabulary)
		c.vocabulary(m.Vocabulary)
		if err := c.finish("vocabulary"); err != nil {
			return Model{}, err
		}
	}

	st, ok := sections["learner"]
	if !ok {
		return Model{}, corrupt(`no "learner" section`)
	}
	l := mk()
	c = &stateCodec{dec: true, buf: st, limit: limit}
	l.stateCode(c)
	if c.over != nil {
		return Model{}, c.over
	}
	if err := c.finish("learner"); err != nil {
		return Model{}, err
	}
	if b := l.(Sized).MemoryBytes(); b > limit {
		return Model{}, str.Wrap("core: the model's "+m.Name+" would hold "+FormatBytes(b)+
			", "+ErrMemoryBudget.Error()+" of "+FormatBytes(limit), ErrMemoryBudget)
	}
	m.Learner = l

	for _, name := range order {
		switch {
		case name == "model" || name == "vocabulary" || name == "learner":
		case strings.HasPrefix(name, "extra:") && len(name) > len("extra:"):
			if m.Extra == nil {
				m.Extra = make(map[string][]byte)
			}
			m.Extra[name[len("extra:"):]] = bytes.Clone(sections[name])
		default:
			return Model{}, corrupt("unknown section " + str.Quote(name))
		}
	}
	return m, nil
}

func registeredNames() []string {
	var names []string
	for _, s := range Learners() {
		names = append(names, s.Name)
	}
	return names
}

// stateCodec encodes or decodes the fields of a section. Each method takes
// a pointer: encoding appends the value to buf, decoding reads it from buf
// into the pointer. After the first decoding error every call is a no-op
// and err holds the error.
type stateCodec struct {
	dec bool
	buf []byte
	err error
	// limit, when decoding, bounds in bytes what a dimension read may make
	// the decoder allocate (see alloc); 0 means DefaultMemoryLimit. over is
	// the error of the first dimension over it.
	limit int64
	over  error
}

// bytesOf returns the product of its factors, saturated at MaxInt64 (and 0
// for a negative factor).
func bytesOf(factors ...int) int64 {
	f := 1.0
	for _, x := range factors {
		f *= float64(max(x, 0))
	}
	if f >= math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(f)
}

// alloc checks, when decoding, that allocating about n bytes for what
// stays within the limit, before the decoder allocates them: a crafted
// file must not make LoadModel allocate beyond its budget. It reports
// whether decoding goes on.
func (c *stateCodec) alloc(n int64, what string) bool {
	if !c.dec || c.err != nil {
		return c.err == nil
	}
	limit := c.limit
	if limit == 0 {
		limit = DefaultMemoryLimit
	}
	if n > limit {
		c.fail(what + " would take " + FormatBytes(max(n, 0)))
		c.over = str.Wrap("core: the model's "+what+" would take "+FormatBytes(max(n, 0))+
			", "+ErrMemoryBudget.Error()+" of "+FormatBytes(limit), ErrMemoryBudget)
		return false
	}
	return true
}

// fail records a decoding error (the first one wins). It is kept out of
// line: inlined at its ~120 calls it made the wasm binary 43 KB larger.
//
//go:noinline
func (c *stateCodec) fail(msg string) {
	if c.err == nil {
		c.err = errors.New(msg)
	}
}

// check fails with msg unless ok (decoding only).
func (c *stateCodec) check(ok bool, msg string) {
	if c.dec && !ok {
		c.fail(msg)
	}
}

// violates reports whether the decoded data violate the condition ok, so
// that the caller records the error: when decoding, ok is false and no
// error was recorded yet. It is check for a message built from values,
// which only a violation should pay for:
//
//	if c.violates(n >= 0) {
//		c.fail(str.Itoa(n) + " rows")
//	}
func (c *stateCodec) violates(ok bool) bool { return c.dec && !ok && c.err == nil }

// finish returns the decoding error of the section named name, if any,
// including bytes left over.
func (c *stateCodec) finish(name string) error {
	if c.err == nil && len(c.buf) > 0 {
		c.err = errors.New(str.Itoa(len(c.buf)) + " bytes left over")
	}
	if c.err != nil {
		return corrupt("section " + str.Quote(name) + ": " + c.err.Error())
	}
	return nil
}

// uvarintLen is the length of the shortest (canonical) uvarint of v: a
// longer one decodes too, but would save to other bytes.
func uvarintLen(v uint64) int { return max(1, (bits.Len64(v)+6)/7) }

// varintLen is the length of the canonical (zig-zag) varint of v.
func varintLen(v int64) int { return uvarintLen(uint64(v<<1) ^ uint64(v>>63)) }

func (c *stateCodec) uvarint() uint64 {
	v, n := binary.Uvarint(c.buf)
	if n <= 0 || n != uvarintLen(v) {
		c.fail("truncated or badly encoded integer")
		return 0
	}
	c.buf = c.buf[n:]
	return v
}

func (c *stateCodec) int(p *int) {
	if !c.dec {
		c.buf = binary.AppendVarint(c.buf, int64(*p))
		return
	}
	if c.err != nil {
		return
	}
	v, n := binary.Varint(c.buf)
	if n <= 0 || n != varintLen(v) {
		c.fail("truncated or badly encoded integer")
		return
	}
	if int64(int(v)) != v {
		c.fail("integer " + strconv.FormatInt(v, 10) + " out of range")
		return
	}
	c.buf = c.buf[n:]
	*p = int(v)
}

// enum codes an integer-valued enumeration, checking 0 ≤ *p < n.
func codeEnum[T ~int](c *stateCodec, p *T, n int, what string) {
	v := int(*p)
	c.int(&v)
	if c.violates(v >= 0 && v < n) {
		c.fail(what + " " + str.Itoa(v) + " out of range")
	}
	if c.dec && c.err == nil {
		*p = T(v)
	}
}

func (c *stateCodec) uint64(p *uint64) {
	if !c.dec {
		c.buf = binary.LittleEndian.AppendUint64(c.buf, *p)
		return
	}
	if c.err != nil {
		return
	}
	if len(c.buf) < 8 {
		c.fail("truncated")
		return
	}
	*p = binary.LittleEndian.Uint64(c.buf)
	c.buf = c.buf[8:]
}

// float codes a float64: decoding rejects NaN, ±Inf and values beyond
// maxStateValue, which no learner holds in its state unless it has
// diverged, and which could make its loops run on NaN (see floatOrInf).
func (c *stateCodec) float(p *float64) {
	c.floatOrInf(p)
	c.check(!math.IsInf(*p, 0), "infinite value in the state")
}

// maxStateValue bounds the magnitude of every value LoadModel accepts
// (except ±Inf sentinels): far beyond any learner that has not diverged,
// and far enough below the overflow threshold that a crafted file cannot
// drive a learner's arithmetic to Inf and NaN.
const maxStateValue = 1e50

// floatOrInf codes a float64 that may be ±Inf (a sentinel) but not NaN.
func (c *stateCodec) floatOrInf(p *float64) {
	bits := math.Float64bits(*p)
	c.uint64(&bits)
	if c.dec && c.err == nil {
		*p = math.Float64frombits(bits)
		if c.violates(math.IsInf(*p, 0) || math.Abs(*p) <= maxStateValue) {
			c.fail("value " + str.Ftoa(*p) + " out of range in the state")
		}
	}
}

func (c *stateCodec) bool(p *bool) {
	if !c.dec {
		v := byte(0)
		if *p {
			v = 1
		}
		c.buf = append(c.buf, v)
		return
	}
	if c.err != nil {
		return
	}
	if len(c.buf) < 1 || c.buf[0] > 1 {
		c.fail("bad boolean")
		return
	}
	*p = c.buf[0] == 1
	c.buf = c.buf[1:]
}

// length codes a slice length whose elements take at least size bytes
// each, checking on decoding that they can fit in what is left.
func (c *stateCodec) length(n int, size int) int {
	if !c.dec {
		c.buf = binary.AppendUvarint(c.buf, uint64(n))
		return n
	}
	if c.err != nil {
		return 0
	}
	v := c.uvarint()
	if c.err != nil {
		return 0
	}
	if v > uint64(len(c.buf))/uint64(size) {
		c.fail("truncated: a length of " + strconv.FormatUint(v, 10) + " does not fit in " + str.Itoa(len(c.buf)) + " bytes")
		return 0
	}
	return int(v)
}

func (c *stateCodec) bytes(p *[]byte) {
	n := c.length(len(*p), 1)
	if !c.dec {
		c.buf = append(c.buf, *p...)
		return
	}
	if c.err != nil {
		return
	}
	*p = c.buf[:n:n]
	c.buf = c.buf[n:]
}

func (c *stateCodec) string(p *string) {
	b := []byte(*p)
	c.bytes(&b)
	if c.dec && c.err == nil {
		*p = string(b)
	}
}

// floats codes a slice of float64, keeping nil and empty apart (some
// learners test for nil).
func (c *stateCodec) floats(p *[]float64) {
	isNil := *p == nil
	c.bool(&isNil)
	n := c.length(len(*p), 8)
	if !c.dec {
		for _, v := range *p {
			c.buf = binary.LittleEndian.AppendUint64(c.buf, math.Float64bits(v))
		}
		return
	}
	if c.err != nil {
		return
	}
	if isNil {
		if c.violates(n == 0) {
			c.fail("nil slice of length " + str.Itoa(n))
		}
		*p = nil
		return
	}
	s := make([]float64, n)
	for i := range s {
		s[i] = math.Float64frombits(binary.LittleEndian.Uint64(c.buf[8*i:]))
		if !(math.Abs(s[i]) <= maxStateValue) {
			c.fail("value " + str.Ftoa(s[i]) + " out of range in the state")
			return
		}
	}
	c.buf = c.buf[8*n:]
	*p = s
}

func (c *stateCodec) int32s(p *[]int32) {
	n := c.length(len(*p), 1)
	if !c.dec {
		for _, v := range *p {
			c.buf = binary.AppendVarint(c.buf, int64(v))
		}
		return
	}
	if c.err != nil {
		return
	}
	s := make([]int32, n)
	for i := range s {
		v, k := binary.Varint(c.buf)
		if k <= 0 || k != varintLen(v) || int64(int32(v)) != v {
			c.fail("bad int32")
			return
		}
		c.buf = c.buf[k:]
		s[i] = int32(v)
	}
	*p = s
}

// config codes a Config.
func (c *stateCodec) config(cf *Config) {
	codeEnum(c, &cf.Task, 2, "task")
	c.float(&cf.Delta)
	c.float(&cf.Eta)
	c.uint64(&cf.Seed)
	c.int(&cf.Rank)
	codeEnum(c, &cf.Gamma, 3, "γ schedule")
	hasLoss := cf.Loss != nil
	c.bool(&hasLoss)
	var loss Loss
	if hasLoss && !c.dec {
		loss = *cf.Loss
	}
	codeEnum(c, &loss, 2, "loss")
	c.check(hasLoss || loss == 0, "a loss without its flag")
	if c.dec && c.err == nil && hasLoss {
		cf.Loss = &loss
	}
}

// rebuild, when decoding, replaces *o with the learner that the
// constructor mk makes from the settings s read from a file, turning its
// panic on invalid settings into an error, and checks that mk kept s as
// read (settings are saved with their defaults filled in). It reports
// whether coding goes on; encoding, it does nothing and reports true.
func rebuild[T any, S comparable](c *stateCodec, o *T, s S, mk func(S) *T, settings func(*T) S) bool {
	if !c.dec {
		return true
	}
	fresh := construct(c, func() *T { return mk(s) })
	if c.err != nil {
		return false
	}
	c.check(settings(fresh) == s, "settings are not in effective form")
	*o = *fresh
	return c.err == nil
}

// construct runs a learner's constructor on settings read from a file,
// turning its panic on invalid settings into an error.
func construct[T any](c *stateCodec, mk func() T) (t T) {
	if c.err != nil {
		return t
	}
	defer func() {
		if r := recover(); r != nil {
			c.fail("invalid settings: " + str.PanicText(r))
		}
	}()
	return mk()
}

// vocabulary codes a Vocabulary (model.go's "vocabulary" section).
func (c *stateCodec) vocabulary(v *data.Vocabulary) {
	f := string(v.Format)
	c.string(&f)
	v.Format = data.Format(f)
	c.int(&v.Dim)
	nc := c.length(len(v.Columns), 3)
	if c.dec && c.err == nil {
		v.Columns = make([]data.VocabularyColumn, nc)
	}
	for j := 0; j < nc && c.err == nil; j++ {
		col := &v.Columns[j]
		c.string(&col.Name)
		codeEnum(c, &col.Role, int(data.RoleIgnore)+1, "role")
		c.float(&col.Scale)
	}
	nf := c.length(len(v.Features), 2)
	if c.dec && c.err == nil {
		v.Features = make([]data.VocabularyFeature, nf)
	}
	for i := 0; i < nf && c.err == nil; i++ {
		c.int(&v.Features[i].Field)
		c.string(&v.Features[i].Value)
	}
	// The LibSVM numbering comes last, and only when renumbered, so that a
	// vocabulary saved before it existed reads (as the identity numbering)
	// and saves to the same bytes.
	if v.Format == data.FormatLibSVM && (!c.dec && v.Renumbered || c.dec && c.err == nil && len(c.buf) > 0) {
		v.Renumbered = true
		c.int32s(&v.Indices)
	}
	if c.dec && c.err == nil {
		if err := v.Check(); err != nil {
			c.fail(err.Error())
		}
	}
	if c.dec && c.err == nil && nc == 0 {
		v.Columns = nil
	}
	if c.dec && c.err == nil && nf == 0 {
		v.Features = nil
	}
}

package core

import (
	"encoding/binary"
	"errors"
	"math"
	"math/bits"
	"math/rand/v2"
	"strconv"

	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/internal/str"
)

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
		c.over = overBudget("the model's "+what+" would take", n, limit)
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
	if c.err == nil && c.rest() > 0 {
		c.err = errors.New(strconv.FormatInt(c.rest(), 10) + " bytes left over")
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
	c.fill(binary.MaxVarintLen64)
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
		c.spill()
		return
	}
	if c.err != nil {
		return
	}
	c.fill(binary.MaxVarintLen64)
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
		c.spill()
		return
	}
	if c.err != nil {
		return
	}
	c.fill(8)
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
		c.spill()
		return
	}
	if c.err != nil {
		return
	}
	c.fill(1)
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
		c.spill()
		return n
	}
	if c.err != nil {
		return 0
	}
	v := c.uvarint()
	if c.err != nil {
		return 0
	}
	if v > uint64(c.rest())/uint64(size) {
		c.fail("truncated: a length of " + strconv.FormatUint(v, 10) + " does not fit in " + strconv.FormatInt(c.rest(), 10) + " bytes")
		return 0
	}
	return int(v)
}

func (c *stateCodec) bytes(p *[]byte) {
	n := c.length(len(*p), 1)
	if !c.dec {
		c.raw(*p)
		return
	}
	if c.err != nil {
		return
	}
	*p = c.take(n)
}

func (c *stateCodec) string(p *string) {
	n := c.length(len(*p), 1)
	if !c.dec {
		// In windows: a long string passes through buf without a copy of
		// its own.
		for rest := *p; len(rest) > 0; {
			k := min(len(rest), codecWindow)
			c.buf = append(c.buf, rest[:k]...)
			rest = rest[k:]
			c.spill()
		}
		return
	}
	if c.err != nil {
		return
	}
	*p = c.takeString(n)
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
			c.spill()
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
		if len(c.buf) < 8 {
			c.fill(8)
			if len(c.buf) < 8 {
				c.fail("truncated")
				return
			}
		}
		s[i] = math.Float64frombits(binary.LittleEndian.Uint64(c.buf))
		if !(math.Abs(s[i]) <= maxStateValue) {
			c.fail("value " + str.Ftoa(s[i]) + " out of range in the state")
			return
		}
		c.buf = c.buf[8:]
	}
	*p = s
}

func (c *stateCodec) int32s(p *[]int32) {
	n := c.length(len(*p), 1)
	if !c.dec {
		for _, v := range *p {
			c.buf = binary.AppendVarint(c.buf, int64(v))
			c.spill()
		}
		return
	}
	if c.err != nil {
		return
	}
	s := make([]int32, n)
	for i := range s {
		if len(c.buf) < binary.MaxVarintLen64 {
			c.fill(binary.MaxVarintLen64)
		}
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
	if c.dec && c.alloc(bytesOf(nf, vocabularyFeatureBytes), "vocabulary") {
		v.Features = make([]data.VocabularyFeature, nf)
	}
	for i := 0; i < nf && c.err == nil; i++ {
		c.int(&v.Features[i].Field)
		c.string(&v.Features[i].Value)
	}
	// The LibSVM numbering comes last, and only when renumbered, so that a
	// vocabulary saved before it existed reads (as the identity numbering)
	// and saves to the same bytes.
	if v.Format == data.FormatLibSVM && (!c.dec && v.Renumbered || c.dec && !c.atEnd()) {
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

// maxUnbackedDim bounds a dimension that the file does not back with data
// (C's dimension while C has no basis columns, say), so that a crafted file
// cannot make LoadModel allocate without bound.
const maxUnbackedDim = 1 << 16

// maxSubspace bounds the k×k buffers of settings read from a file.
const maxSubspace = 1 << 12

// checkNumbering checks that the nonzero (first ≥ 1) or non-negative
// (first = 0, −1 meaning none) entries of idx number exactly the
// coordinates first … n−1, each once.
func checkNumbering(c *stateCodec, idx []int32, first, n int, what string) {
	if !c.dec || c.err != nil {
		return
	}
	if n-first > len(idx) || n < first {
		c.fail(str.Itoa(n-first) + " " + what + "s numbered by " + str.Itoa(len(idx)) + " entries")
		return
	}
	seen := make([]bool, n)
	count := 0
	for _, v := range idx {
		if int(v) < first {
			if first == 1 && v == 0 || first == 0 && v == -1 {
				continue
			}
			c.fail(what + " number " + str.Itoa(int(v)) + " out of range")
			return
		}
		if int(v) >= n || seen[v] {
			c.fail(what + " number " + str.Itoa(int(v)) + " out of range or repeated")
			return
		}
		seen[v] = true
		count++
	}
	if c.violates(count == n-first) {
		c.fail(str.Itoa(count) + " of " + str.Itoa(n-first) + " " + what + "s numbered")
	}
}

// pcg codes the state of a PCG generator.
func (c *stateCodec) pcg(p *rand.PCG) {
	var b []byte
	if !c.dec {
		b, _ = p.MarshalBinary() // never fails
	}
	c.bytes(&b)
	if c.dec && c.err == nil {
		if err := p.UnmarshalBinary(b); err != nil {
			c.fail("generator state: " + err.Error())
		}
	}
}

// nested codes a learner's state as a length-prefixed section of its own,
// so that a learner whose coding reads to the end of its bytes (OCCFM's
// tail) can sit inside another's.
func (c *stateCodec) nested(l stateCoder) {
	if !c.dec {
		c.encodeNested(l)
		return
	}
	n := c.length(0, 1)
	if c.err != nil {
		return
	}
	sub := c.sub(n)
	l.stateCode(sub)
	if sub.err == nil && sub.rest() > 0 {
		sub.fail(strconv.FormatInt(sub.rest(), 10) + " bytes left over")
	}
	if sub.err != nil {
		c.fail(sub.err.Error())
		if c.over == nil {
			c.over = sub.over
		}
	}
}

// encodeNested is nested's encoding. Streaming, it encodes l twice: into a
// counting sink for its length, then to the writer.
func (c *stateCodec) encodeNested(l stateCoder) {
	if c.out == nil {
		sub := &stateCodec{}
		l.stateCode(sub)
		c.bytes(&sub.buf)
		return
	}
	n := encodedLen(l.stateCode)
	c.length(int(n), 1)
	c.flush()
	sub := &stateCodec{out: c.out}
	from := c.out.n
	l.stateCode(sub)
	sub.flush()
	c.out.sameLen(n, c.out.n-from, "a nested learner")
}

// overBudget returns the error of a model over the memory budget limit:
// "core: " + what + " " + n in bytes + ", over the memory budget of " +
// limit, wrapping ErrMemoryBudget.
func overBudget(what string, n, limit int64) error {
	return str.Wrap("core: "+what+" "+FormatBytes(max(n, 0))+", "+ErrMemoryBudget.Error()+" of "+FormatBytes(limit), ErrMemoryBudget)
}

// corrupt returns an error that wraps ErrModelCorrupt, saying msg. It is
// kept out of line, as fail is.
//
//go:noinline
func corrupt(msg string) error {
	return str.Wrap("core: "+ErrModelCorrupt.Error()+": "+msg, ErrModelCorrupt)
}

// The sizes of a data.VocabularyFeature (an int and a string header) and a
// data.VocabularyColumn (a string header, an int and a float64), with
// 64-bit ints as on every platform OCCFM builds for.
const (
	vocabularyFeatureBytes = 24
	vocabularyColumnBytes  = 32
)

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

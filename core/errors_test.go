package core

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/occfm/occfm/core/internal/str"
	"io"
	"math"
	"strings"
	"testing"
)

// The tests below check errors.go's stand-ins for fmt, and a sample of
// core's messages, against fmt itself: core does not import fmt (see
// TestCoreImports), but its messages are to read as they did when it did.

// TestPanicText checks panicText against fmt.Sprint on the values a panic
// carries, including the runtime's own, and names the type of the others.
func TestPanicText(t *testing.T) {
	recovered := func(f func()) (r any) {
		defer func() { r = recover() }()
		f()
		return nil
	}
	var nilMap map[string]int
	var s []int
	vals := []any{
		"core: tridiagonal eigendecomposition failed",
		errors.New("an error"),
		fmt.Errorf("wrapped: %w", io.EOF),
		recovered(func() { _ = s[3] }),                   // runtime.Error: index out of range
		recovered(func() { nilMap["x"] = 1 }),            // assignment to a nil map
		recovered(func() { panic(nil) }),                 // *runtime.PanicNilError
		recovered(func() { var e error; _ = e.Error() }), // nil pointer dereference
		Squared, Logistic, Loss(7), Classification, Skip, // Stringers
		true, false, 0, -3, int8(-8), int16(16), int32(-32), int64(math.MinInt64),
		uint(3), uint8(8), uint16(16), uint32(32), uint64(math.MaxUint64), uintptr(9),
		float32(0.1), float32(3), 0.1, 1e21, math.NaN(), math.Inf(-1),
		RoleLabel, Format("csv"), // named int and string types without String
	}
	for _, v := range vals {
		if got, want := str.PanicText(v), fmt.Sprint(v); got != want {
			t.Errorf("str.PanicText(%#v) = %q, fmt.Sprint gives %q", v, got, want)
		}
	}
	for _, v := range []any{struct{ a, b int }{1, 2}, []int{1}, &Bias{}, complex(1, 2)} {
		if got, want := str.PanicText(v), "panic of type "+fmt.Sprintf("%T", v); got != want {
			t.Errorf("str.PanicText(%#v) = %q, want %q", v, got, want)
		}
	}
}

// TestWrapErr checks that the errors core made with fmt.Errorf's %w still
// match their sentinels and read the same.
func TestWrapErr(t *testing.T) {
	if err := corrupt("checksum mismatch"); !errors.Is(err, ErrModelCorrupt) ||
		err.Error() != fmt.Errorf("core: %w: %s", ErrModelCorrupt, "checksum mismatch").Error() {
		t.Errorf("corrupt: %v", err)
	}
	_, err := LoadModel(strings.NewReader("not a model at all, but long enough"))
	if !errors.Is(err, ErrNotModel) || err.Error() != fmt.Errorf("core: %w (it does not start with the OCCFM model signature)", ErrNotModel).Error() {
		t.Errorf("LoadModel of text: %v", err)
	}
	head := []byte(modelMagic)
	head = append(head, 0xff, 0xff)
	head = append(head, make([]byte, 8)...)
	err = CheckModelHeader(head, -1, LoadSettings{})
	if want := fmt.Errorf("core: %w: written by a newer OCCFM (model format %d, this build reads up to %d)", ErrModelVersion, uint16(0xffff), ModelFormat); !errors.Is(err, ErrModelVersion) || err.Error() != want.Error() {
		t.Errorf("newer format: %v, want %v", err, want)
	}
	head[len(modelMagic)], head[len(modelMagic)+1] = 1, 0
	for i := range 8 {
		head[len(modelMagic)+2+i] = 0xff
	}
	err = CheckModelHeader(head, -1, LoadSettings{MaxBytes: 1 << 20})
	var be *BudgetError
	if !errors.Is(err, ErrMemoryBudget) || errors.As(err, &be) || !strings.HasPrefix(err.Error(), "core: the model file declares ") {
		t.Errorf("huge size: %v", err)
	}
	// A read error is wrapped, and the gzip reader's too.
	_, err = NewStream(errReader{}, ReaderSettings{Name: "in"})
	if !errors.Is(err, errBroken) || err.Error() != fmt.Errorf("core: %s: %w%s", "in", errBroken, "").Error() {
		t.Errorf("read error: %v", err)
	}
	st, err := NewStream(io.MultiReader(strings.NewReader("1 1:1\n"), errReader{}), ReaderSettings{Name: "in"})
	if err != nil {
		t.Fatal(err)
	}
	var ex Example
	for err == nil {
		err = st.Next(&ex)
	}
	if !errors.Is(err, errBroken) || err.Error() != fmt.Errorf("core: %s: %w%s", "in:2", errBroken, "").Error() {
		t.Errorf("read error after a row: %v", err)
	}
	var gz bytes.Buffer
	gz.Write([]byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff})
	_, err = NewStream(&gz, ReaderSettings{Name: "in.gz"})
	if !errors.Is(err, io.ErrUnexpectedEOF) || err.Error() != fmt.Errorf("core: %s: gzip: %w%s", "in.gz", io.ErrUnexpectedEOF, ": the file is cut short (truncated)").Error() {
		t.Errorf("cut gzip: %v", err)
	}
}

var errBroken = errors.New("broken")

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, errBroken }

// TestMessagesMatchFmt checks a sample of core's messages, those with
// several verbs or a list, against the formats they were made with.
func TestMessagesMatchFmt(t *testing.T) {
	var names []string
	for _, s := range Learners() {
		names = append(names, s.Name)
	}
	_, err := NewLearner("nope", Config{})
	check := func(what string, err error, want string) {
		t.Helper()
		if err == nil || err.Error() != want {
			t.Errorf("%s: %v, want %s", what, err, want)
		}
	}
	check("NewLearner", err, fmt.Sprintf("core: unknown learner %q (have %v)", "nope", names))
	_, err = ParseTask("x\ty")
	check("ParseTask", err, fmt.Sprintf("core: unknown task %q (want regression or classification)", "x\ty"))
	_, err = ParseOnError("never")
	check("ParseOnError", err, fmt.Sprintf("core: unknown bad-row policy %q (want stop or skip)", "never"))
	_, err = ParseSize("12Q")
	check("ParseSize", err, fmt.Sprintf("core: memory size %q: want a number of bytes with an optional unit K, M, G or T (1K = 1024), such as 512M or 2G", "12Q"))
	_, err = Classification.Label(0.5)
	check("Label", err, fmt.Sprintf("label %v is not a binary class (want -1/+1 or 0/1)", 0.5))

	csv := "a,b,c\n1,2,3\n4,5,6\n"
	_, err = NewStream(strings.NewReader(csv), ReaderSettings{Name: "x.csv", Format: FormatCSV, Roles: map[string]Role{"zz": RoleLabel}})
	check("Roles", err, fmt.Sprintf("core: %s: ReaderSettings.Roles names column %q, which is not in the header %q", "x.csv", "zz", []string{"a", "b", "c"}))
	_, err = NewStream(strings.NewReader("1::2::3::4::5\n"), ReaderSettings{Name: "r.dat", Format: FormatMovieLens})
	check("MovieLens", err, fmt.Sprintf("core: %s:%d: cannot read %s as MovieLens: %d fields separated by %q, want 3 or 4 (user, item, rating[, timestamp])",
		"r.dat", 1, `"1::2::3::4::5"`, 5, "::"))

	v := Vocabulary{Format: FormatCSV, Dim: 1, Features: []VocabularyFeature{{Field: 1}}, Columns: []VocabularyColumn{{Name: "y", Role: RoleLabel}, {Name: "x", Role: RoleNumeric, Scale: -0.5}}}
	check("Vocabulary.check", v.check(), fmt.Sprintf("column %q has scale %v", "x", -0.5))
	if got, want := v.String(), fmt.Sprintf("%s, %d features", v.Format, v.Dim); got != want {
		t.Errorf("Vocabulary.String = %q, want %q", got, want)
	}
	_, err = appendModel(nil, Model{Learner: unregistered{}})
	check("appendModel", err, fmt.Sprintf("core: cannot save a learner of type %T: it is not a registered learner", unregistered{}))

	g, err := NewGuarded("occfm", Config{Delta: 1e6}, GuardSettings{})
	if err != nil {
		t.Fatal(err)
	}
	l, _ := NewLearner("occfm", Config{})
	want := fmt.Sprintf("δ = %g is above %s's default %g: a ball this large no longer holds the model in, so the learning rate alone decides whether it is stable; try a smaller %s, or a smaller %s.",
		1e6, "occfm", l.(Configured).Config().Delta, "-delta", "-eta")
	if got := g.DivergenceAdvice("-delta", "-eta"); got != want {
		t.Errorf("DivergenceAdvice = %q, want %q", got, want)
	}
}

type unregistered struct{}

func (unregistered) Predict(Sparse) float64 { return 0 }
func (unregistered) Update(Sparse, float64) {}

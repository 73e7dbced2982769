package core

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"testing"

	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/internal/str"
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
		Squared, Logistic, Loss(7), data.Classification, data.Skip, // Stringers
		true, false, 0, -3, int8(-8), int16(16), int32(-32), int64(math.MinInt64),
		uint(3), uint8(8), uint16(16), uint32(32), uint64(math.MaxUint64), uintptr(9),
		float32(0.1), float32(3), 0.1, 1e21, math.NaN(), math.Inf(-1),
		data.RoleLabel, data.Format("csv"), // named int and string types without String
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
	head = append(head, 7, 0)
	head = append(head, make([]byte, 8)...)
	err = CheckModelHeader(head, -1, LoadSettings{})
	if want := fmt.Errorf("core: %w: written by a newer OCCFM (model format %d, this build reads up to %d)", ErrModelVersion, 7, ModelFormat); !errors.Is(err, ErrModelVersion) || err.Error() != want.Error() {
		t.Errorf("newer format: %v, want %v", err, want)
	}
	// A byte of the version flipped (0x0001 → 0xff01) is a damaged
	// header, not a newer OCCFM.
	head[len(modelMagic)], head[len(modelMagic)+1] = 1, 0xff
	err = CheckModelHeader(head, -1, LoadSettings{})
	if want := fmt.Errorf("core: %w: format version 65281 is none an OCCFM writes (at most 255): the file's header is damaged", ErrModelCorrupt); !errors.Is(err, ErrModelCorrupt) || err.Error() != want.Error() {
		t.Errorf("a flipped version byte: %v, want %v", err, want)
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
}

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
	_, err = data.ParseTask("x\ty")
	check("ParseTask", err, fmt.Sprintf("core: unknown task %q (want regression or classification)", "x\ty"))
	_, err = data.ParseOnError("never")
	check("ParseOnError", err, fmt.Sprintf("core: unknown bad-row policy %q (want stop or skip)", "never"))
	_, err = ParseSize("12Q")
	check("ParseSize", err, fmt.Sprintf("core: memory size %q: want a number of bytes with an optional unit K, M, G or T (1K = 1024), such as 512M or 2G", "12Q"))
	_, err = data.Classification.Label(0.5)
	check("Label", err, fmt.Sprintf("label %v is not a binary class (want -1/+1 or 0/1)", 0.5))

	v := data.Vocabulary{Format: data.FormatCSV, Dim: 1, Features: []data.VocabularyFeature{{Field: 1}}, Columns: []data.VocabularyColumn{{Name: "y", Role: data.RoleLabel}, {Name: "x", Role: data.RoleNumeric, Scale: -0.5}}}
	check("Vocabulary.Check", v.Check(), fmt.Sprintf("column %q has scale %v", "x", -0.5))
	if got, want := v.String(), fmt.Sprintf("%s, %d features", v.Format, v.Dim); got != want {
		t.Errorf("Vocabulary.String = %q, want %q", got, want)
	}
	err = SaveModel(io.Discard, Model{Learner: unregistered{}})
	check("SaveModel", err, fmt.Sprintf("core: cannot save a learner of type %T: it is not a registered learner", unregistered{}))

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

func (unregistered) Predict(data.Sparse) float64 { return 0 }
func (unregistered) Update(data.Sparse, float64) {}

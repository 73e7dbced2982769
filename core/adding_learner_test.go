package core

import (
	"bytes"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/internal/str"
)

// The learner below is the example of docs/adding-a-learner.md, which
// quotes the code between the two marker lines word for word (the test
// checks it): a new learner is this one file plus one line in registry.

// ---- the learner's file: core/ema.go ----

// EMASettings configures NewEMA. The zero value is the documented default
// of every field.
type EMASettings struct {
	// Rate is the weight α of the newest label in the average. Zero means
	// 0.01.
	Rate float64
}

// EMA predicts the exponential moving average of the labels seen so far,
// ŷₜ₊₁ = (1 − α)·ŷₜ + α·yₜ, whatever x: a baseline that follows drift.
type EMA struct {
	s    EMASettings
	mean float64
}

// emaSpec registers EMA (see registry).
var emaSpec = Spec{
	Name:    "ema",
	Plain:   "Predicts the recent average label, forgetting old rows slowly.",
	Summary: "reference: the exponential moving average of y, rate α = 0.01",
	New:     func(c Config) Learner { return NewEMA(EMASettings{}) },
	state:   func() stateCoder { return new(EMA) },
}

// NewEMA returns an EMA learner that predicts 0 until its first label.
func NewEMA(s EMASettings) *EMA {
	if s.Rate == 0 {
		s.Rate = 0.01
	}
	if !(s.Rate > 0 && s.Rate <= 1) {
		panic("core: EMA rate " + str.Ftoa(s.Rate) + " outside (0, 1]")
	}
	return &EMA{s: s}
}

// Predict returns the average; it does not read x.
func (m *EMA) Predict(x data.Sparse) float64 { return m.mean }

// Update moves the average towards y.
func (m *EMA) Update(x data.Sparse, y float64) { m.mean += m.s.Rate * (y - m.mean) }

// MemoryBytes estimates the bytes m holds (see Sized).
func (m *EMA) MemoryBytes() int64 { return structBytes }

// stateCode codes the settings, then the state (see stateCoder).
func (m *EMA) stateCode(c *stateCodec) {
	s := m.s
	c.float(&s.Rate)
	if !rebuild(c, m, s, NewEMA, func(m *EMA) EMASettings { return m.s }) {
		return
	}
	c.float(&m.mean)
}

// ---- end of the learner's file ----

// TestAddingALearner adds EMA to the registry with the one line of
// docs/adding-a-learner.md and checks that everything that reads the
// registry takes it: the list of learners, NewLearner, the contract of
// Learner and Play (the conformance suite), the guard, and model files,
// saved and loaded byte for byte. It then checks that the docs page quotes
// the learner's file as it is here.
func TestAddingALearner(t *testing.T) {
	registry[emaSpec.Name] = emaSpec // the one line, as in registry's list
	t.Cleanup(func() { delete(registry, emaSpec.Name) })

	if !slicesContainsName(Learners(), "ema") {
		t.Fatal("Learners does not list ema")
	}
	checkConformance(t, emaSpec)
	if InBall(NewEMA(EMASettings{})) {
		t.Error("InBall(EMA) = true; its Spec does not say Ball")
	}

	g, err := NewGuarded("ema", Config{Task: data.Regression}, GuardSettings{})
	if err != nil {
		t.Fatal(err)
	}
	rows := conformanceStream(data.Regression, 300)
	for _, ex := range rows[:200] {
		Play(g, ex, nil)
	}
	saved := g.Model()
	saved.Rows = 200
	var file bytes.Buffer
	if err := SaveModel(&file, saved); err != nil {
		t.Fatal(err)
	}
	m, err := LoadModel(bytes.NewReader(file.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	resumed, err := ResumeGuarded(m, GuardSettings{})
	if err != nil {
		t.Fatal(err)
	}
	if m.Name != "ema" || m.Rows != 200 {
		t.Errorf("loaded %q after %d rows, want ema after 200", m.Name, m.Rows)
	}
	resaved := resumed.Model()
	resaved.Rows = m.Rows
	var again bytes.Buffer
	if err := SaveModel(&again, resaved); err != nil || !bytes.Equal(again.Bytes(), file.Bytes()) {
		t.Errorf("saving the loaded model gave other bytes (%v)", err)
	}
	for i, ex := range rows[200:] {
		if a, b := Play(g, ex, nil), Play(resumed, ex, nil); a != b || math.IsNaN(a) {
			t.Fatalf("row %d after loading: ŷ = %v, the saved learner gave %v", 200+i, b, a)
		}
	}

	doc, err := os.ReadFile("../docs/adding-a-learner.md")
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("adding_learner_test.go")
	if err != nil {
		t.Fatal(err)
	}
	const begin, end = "// ---- the learner's file: core/ema.go ----\n", "// ---- end of the learner's file ----"
	text := string(src)
	file0 := strings.Index(text, begin) + len(begin)
	code := strings.TrimSpace(text[file0:strings.Index(text, end)])
	want := "```go\npackage core\n\nimport (\n\t\"github.com/occfm/occfm/core/data\"\n\t\"github.com/occfm/occfm/core/internal/str\"\n)\n\n" + code + "\n```"
	if !strings.Contains(string(doc), want) {
		t.Errorf("docs/adding-a-learner.md does not quote the learner's file as adding_learner_test.go has it; it should hold:\n%s", want)
	}
}

func slicesContainsName(specs []Spec, name string) bool {
	for _, s := range specs {
		if s.Name == name {
			return true
		}
	}
	return false
}

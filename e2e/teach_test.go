//go:build e2e

package e2e

import (
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// canvasInkJS counts the pixels of a canvas that are not white or
// transparent: a drawn heatmap has many.
const canvasInkJS = `((id) => {
	const c = document.getElementById(id);
	const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
	let n = 0;
	for (let i = 0; i < d.length; i += 4) if (d[i + 3] > 0 && (d[i] < 250 || d[i + 1] < 250 || d[i + 2] < 250)) n++;
	return n;
})`

// TestE2EModelPicture checks the model picture (data-testid="model-picture")
// and the spectrum with its δ gauge (data-testid="spectrum") on the
// planted demo: drawn, the whole C (40 features and the bias), ‖C‖* within
// δ = 10, and a picture that changes as the demo learns.
func TestE2EModelPicture(t *testing.T) {
	t.Parallel()
	s := newSession(t, 2*time.Minute)
	s.url += "#demo=planted-regression&learners=occfm&speed=300"
	s.openDemo()
	pic := `document.querySelector('[data-testid="model-picture"]')`
	// The picture draws only while it is on screen.
	evalJS[bool](s, "("+pic+".scrollIntoView(), true)")
	// The demo's features are numbered as they first appear, as a file's
	// are: the picture holds every feature seen, then all 40 and the bias.
	s.waitJS("a picture of every feature", pic+".dataset.rows > 0 && "+pic+".dataset.k === \"41\"", 20*time.Second)
	sum1 := evalJS[string](s, pic+".dataset.sum")
	rows1 := evalJS[string](s, pic+".dataset.rows")
	if ink := evalJS[int](s, canvasInkJS+`("picture-canvas")`); ink < 1000 {
		t.Errorf("the heatmap has %d coloured pixels", ink)
	}
	s.waitJS("a later picture", pic+".dataset.rows > "+rows1+" + 200", 15*time.Second)
	if sum2 := evalJS[string](s, pic+".dataset.sum"); sum2 == sum1 {
		t.Errorf("the picture did not change from row %s to %s (Σ|C| = %s)", rows1, evalJS[string](s, pic+".dataset.rows"), sum1)
	}
	sp := `document.querySelector('[data-testid="spectrum"]')`
	nuc, _ := strconv.ParseFloat(evalJS[string](s, sp+".dataset.nuclear"), 64)
	delta, _ := strconv.ParseFloat(evalJS[string](s, sp+".dataset.delta"), 64)
	if delta != 10 || !(nuc > 0 && nuc <= delta*(1+1e-9)) {
		t.Errorf("spectrum: ‖C‖* = %v, δ = %v; want 0 < ‖C‖* ≤ δ = 10", nuc, delta)
	}
	if cap := evalJS[string](s, `document.querySelector('[data-testid="spectrum-caption"]').textContent`); !strings.Contains(cap, "of δ = 10") {
		t.Errorf("spectrum caption %q", cap)
	}
	if ink := evalJS[int](s, canvasInkJS+`("spectrum-canvas")`); ink < 200 {
		t.Errorf("the spectrum has %d coloured pixels", ink)
	}
	// Hovering a square reads its entry.
	evalJS[bool](s, `(() => { const c = document.getElementById("picture-canvas"); const r = c.getBoundingClientRect();
		c.dispatchEvent(new PointerEvent("pointermove", {clientX: r.left + 2, clientY: r.bottom - 2, bubbles: true})); return true; })()`)
	if h := evalJS[string](s, `document.querySelector('[data-testid="picture-hover"]').textContent`); !strings.Contains(h, "C[1 (bias), ") {
		t.Errorf("hover over the bottom-left square says %q", h)
	}
}

// TestE2EFWStep checks the step view (data-testid="fw-step"): hidden at
// full speed, shown after a Step with the LMO's eigenvector and γ, and
// C after = (1 − γ)·C before + γ·Ĉ on every square drawn.
func TestE2EFWStep(t *testing.T) {
	t.Parallel()
	s := newSession(t, 2*time.Minute)
	s.url += "#demo=planted-regression&learners=occfm,bias&speed=max"
	s.openDemo()
	fw := `document.querySelector('[data-testid="fw-step"]')`
	if !evalJS[bool](s, fw+".hidden") {
		t.Error("the step view shows at full speed")
	}
	s.click("play") // pause
	s.waitState("paused", 5*time.Second)
	for range 3 {
		before := s.rows()
		s.click("step")
		s.waitJS("a row learned", jsRows+" > "+strconv.Itoa(before), 5*time.Second)
		s.waitJS("the step view of that row", fw+".dataset.round == "+strconv.Itoa(before+1), 5*time.Second)
		if evalJS[bool](s, fw+".hidden") {
			t.Fatal("the step view is hidden after a Step")
		}
		type check struct {
			K        int     `json:"k"`
			Gamma    float64 `json:"gamma"`
			Lambda   float64 `json:"lambda"`
			MaxErr   float64 `json:"maxErr"`
			AtomNorm float64 `json:"atomNorm"`
			Changed  bool    `json:"changed"`
		}
		c := evalJS[check](s, `(() => {
			const st = occfm.fwStep();
			const k = st.labels.length;
			let maxErr = 0, atomNorm = 0, changed = false;
			for (let i = 0; i < k * k; i++) {
				maxErr = Math.max(maxErr, Math.abs(st.after[i] - ((1 - st.gamma) * st.before[i] + st.gamma * st.atom[i])));
				atomNorm += st.atom[i] * st.atom[i];
				if (st.after[i] !== st.before[i]) changed = true;
			}
			return {k, gamma: st.gamma, lambda: st.lambda, maxErr, atomNorm, changed};
		})()`)
		// γ is min(γₜ, γ*) with the line search's γ* clipped to [0, 1]
		// (core.OCCFM.lineSearch): 0 is a step that leaves C as it is,
		// which a run paused at full speed can land on (row 1093 once).
		if c.K < 2 || !(c.Gamma >= 0 && c.Gamma <= 1) || c.Lambda == 0 || c.MaxErr > 1e-12 || c.AtomNorm == 0 || c.Changed != (c.Gamma > 0) {
			t.Errorf("step %d: %+v: want the mix exact (max error ≤ 1e-12), γ in [0, 1], λ ≠ 0, an atom, and C changed exactly when γ > 0", before+1, c)
		}
		text := evalJS[string](s, `document.querySelector('[data-testid="fw-numbers"]').textContent`)
		if !strings.Contains(text, "λ = ") || !strings.Contains(text, "γ = ") {
			t.Errorf("step numbers %q", text)
		}
		g, _ := strconv.ParseFloat(evalJS[string](s, fw+".dataset.gamma"), 64)
		if math.Abs(g-c.Gamma) > 1e-15 {
			t.Errorf("the view shows γ = %v, the core says %v", g, c.Gamma)
		}
		for _, id := range []string{"fw-before-canvas", "fw-grad-canvas", "fw-atom-canvas", "fw-after-canvas"} {
			if ink := evalJS[int](s, canvasInkJS+`("`+id+`")`); ink < 50 {
				t.Errorf("%s has %d coloured pixels", id, ink)
			}
		}
	}
	// A learner without a Frank-Wolfe step says so.
	s.setControl("follow", "bias")
	before := s.rows()
	s.click("step")
	s.waitJS("a row learned", jsRows+" > "+strconv.Itoa(before), 5*time.Second)
	s.waitJS("the step view's note", `!document.querySelector('[data-testid="fw-why"]').hidden`, 5*time.Second)
	if why := evalJS[string](s, `document.querySelector('[data-testid="fw-why"]').textContent`); !strings.Contains(why, "bias takes no step on a matrix C") {
		t.Errorf("following bias, the step view says %q", why)
	}
}

// TestE2EReferenceLines checks the reference lines of the metric and loss
// charts: a demo's best possible metric and the constant guess (the label
// mean, the majority class), on a demo and on a file.
func TestE2EReferenceLines(t *testing.T) {
	t.Parallel()
	refs := func(s *session, id string) string {
		return evalJS[string](s, `document.querySelector('[data-testid="`+id+`"]').dataset.refs || ""`)
	}
	for _, tc := range []struct{ hash, metric, loss string }{
		{"#demo=ratings&learners=bias", "best possible (the true model)=0.422;always the label mean=", "always the label mean="},
		{"#demo=planted-classification&learners=bias", "best possible (the label noise)=0.05;always the majority class=", "always the majority class="},
	} {
		s := newSession(t, time.Minute)
		s.url += tc.hash
		s.openDemo()
		s.waitJS("the reference lines", `(document.querySelector('[data-testid="metric-chart"]').dataset.refs || "").includes("always")`, 10*time.Second)
		if got := refs(s, "metric-chart"); !strings.Contains(got, tc.metric) {
			t.Errorf("%s: metric chart's lines %q, want %q", tc.hash, got, tc.metric)
		}
		if got := refs(s, "loss-chart"); !strings.Contains(got, tc.loss) {
			t.Errorf("%s: loss chart's lines %q, want %q", tc.hash, got, tc.loss)
		}
	}
	// A file: the label mean only, with the file's own value.
	dir := t.TempDir()
	path := dir + "/labels.csv"
	var b strings.Builder
	b.WriteString("y,a\n")
	for i := range 400 {
		b.WriteString(strconv.Itoa(i%4) + "," + strconv.Itoa(i%7) + "\n")
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	s := newSession(t, time.Minute)
	s.url += "#demo=ratings&learners=bias"
	s.openDemo()
	s.upload(path)
	// The line is in hindsight over the rows learned so far: read it once
	// every row is (on a busy machine it first showed a prefix's 1.1154).
	s.waitState("done", time.Minute)
	s.waitJS("the file's reference line", `(document.querySelector('[data-testid="metric-chart"]').dataset.refs || "").startsWith("always the label mean=")`, 15*time.Second)
	got := refs(s, "metric-chart")
	// Labels 0, 1, 2, 3 equally often: standard deviation √1.25.
	v, err := strconv.ParseFloat(strings.TrimPrefix(got, "always the label mean="), 64)
	if err != nil || math.Abs(v-math.Sqrt(1.25)) > 1e-9 || strings.Contains(got, "best") {
		t.Errorf("file's metric lines %q, want only the label mean's RMSE √1.25", got)
	}
}

// TestE2EPlainWords checks that every learner says what it does in plain
// words before its technical line, and that every setting has a one-line
// hint.
func TestE2EPlainWords(t *testing.T) {
	t.Parallel()
	s := newSession(t, time.Minute)
	s.openDemo()
	type learnerText struct {
		Name, Plain, Ref string
		PlainFirst       bool
	}
	ls := evalJS[[]learnerText](s, `[...document.querySelectorAll("#learners .learner")].map((l) => {
		const p = l.querySelector(".learner-plain"), r = l.querySelector(".learner-ref");
		return {Name: l.querySelector("input").value, Plain: p ? p.textContent : "", Ref: r ? r.textContent : "",
			PlainFirst: !!(p && r && (p.compareDocumentPosition(r) & Node.DOCUMENT_POSITION_FOLLOWING))};
	})`)
	if len(ls) < 10 {
		t.Fatalf("%d learners listed", len(ls))
	}
	for _, l := range ls {
		if l.Plain == "" || l.Ref == "" || !l.PlainFirst {
			t.Errorf("learner %s: plain %q, then reference %q (plain first: %v)", l.Name, l.Plain, l.Ref, l.PlainFirst)
		}
	}
	missing := evalJS[[]string](s, `["speed", "demo", "on-error", "read-as", "follow", "delta", "eta", "gamma", "loss", "clip", "seed"].filter((id) => {
		const el = document.querySelector('[data-testid="' + id + '"]');
		const hint = el && el.closest("label") && el.closest("label").querySelector(".control-hint");
		return !(hint && hint.textContent.trim().length > 5);
	})`)
	if len(missing) > 0 {
		t.Errorf("settings without a one-line hint: %v", missing)
	}
}

//go:build e2e

package e2e

import (
	"encoding/csv"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// libCLIScenarioJS learns a planted regression and a planted
// classification with occfm.js (occfm-k), saves each, loads the file into
// a new learner, and plays 200 fresh rows through it as occfm run plays a
// file: each row predicted, then learned. It answers the model files (as
// arrays of bytes), the fresh rows and the predictions.
const libCLIScenarioJS = `import {Learner} from "/lib/occfm.js";
export async function scenario() {
	` + plantedRowsJS + `
	const out = {};
	for (const task of ["regression", "classification"]) {
		const make = task === "regression" ? row : () => { const r = row(); return {x: r.x, y: r.y > 1 ? 1 : 0}; };
		const l = await Learner.create({learner: "occfm-k", task});
		await l.learn(Array.from({length: 3000}, make));
		const file = await l.save();
		const c = await Learner.load(file);
		const fresh = Array.from({length: 200}, make), preds = [];
		for (const r of fresh) {
			preds.push(await c.predict(r));
			await c.learn([r]);
		}
		out[task] = {model: Array.from(file), rows: fresh.map((r) => [r.y, ...Array.from({length: 20}, (_, i) => r.x["f" + i])]), preds};
	}
	return out;
}`

// TestE2ELibCLI checks that the library and the command line are one
// learner: a model file occfm.js saved, continued by occfm run -load on
// the same rows (written as a CSV file with the library's columns, y and
// the names in the order first seen), predicts each row as the library
// did, to 1e-12, for regression and for classification (the probability
// of the positive class). occfm run -predictions writes the CLI's.
func TestE2ELibCLI(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cli := filepath.Join(dir, "occfm")
	if out, err := exec.Command("go", "build", "-o", cli, "./cmd/occfm").CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/occfm: %v\n%s", err, out)
	}
	h := hostPage(libModuleHostHTML[:strings.Index(libModuleHostHTML, "const w = new Worker")]+"</script>",
		map[string]string{"/scenario.js": libCLIScenarioJS}, e2eHandler(e2eDist))
	s := newSessionWith(t, time.Minute, h)
	s.open()
	s.waitJS("the library's answer", "window.__mainResult !== undefined", e2eHang)
	var got map[string]struct {
		Model []byte // a JSON array of numbers decodes element by element
		Rows  [][]float64
		Preds []float64
	}
	raw := evalJS[string](s, "window.__mainResult")
	if err := json.Unmarshal([]byte(raw), &got); err != nil {
		t.Fatalf("%v: %.300s", err, raw)
	}
	for _, task := range []string{"regression", "classification"} {
		g := got[task]
		model, data, preds := filepath.Join(dir, task+".occfm"), filepath.Join(dir, task+".csv"), filepath.Join(dir, task+"-p.csv")
		var b strings.Builder
		b.WriteString("y")
		for i := range 20 {
			b.WriteString(",f" + strconv.Itoa(i))
		}
		for _, r := range g.Rows {
			b.WriteString("\n")
			for i, v := range r {
				if i > 0 {
					b.WriteString(",")
				}
				b.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
			}
		}
		if err := os.WriteFile(data, []byte(b.String()+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(model, g.Model, 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(cli, "run", "-load", model, "-data", data, "-predictions", preds, "-quiet")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: occfm run: %v\n%s", task, err, out)
		}
		f, err := os.Open(preds)
		if err != nil {
			t.Fatal(err)
		}
		recs, err := csv.NewReader(f).ReadAll()
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if len(recs) != len(g.Preds)+1 {
			t.Fatalf("%s: the CLI wrote %d lines, want a header and %d rows", task, len(recs), len(g.Preds))
		}
		worst := 0.0
		for i, p := range g.Preds {
			v, err := strconv.ParseFloat(recs[i+1][0], 64)
			if err != nil {
				t.Fatal(err)
			}
			worst = max(worst, math.Abs(v-p))
		}
		t.Logf("%s: %d rows, the CLI's predictions and the library's differ by at most %.3g", task, len(g.Preds), worst)
		if !(worst <= 1e-12) {
			t.Errorf("%s: the CLI's predictions and the library's differ by %.3g, want ≤ 1e-12", task, worst)
		}
	}
}

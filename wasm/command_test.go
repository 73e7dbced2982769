package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/occfm/occfm/core"
)

// TestCommandReplays plays the page's session on a demo or a file, asks
// the page's "Copy as command" (ui/js/learn/command.js, run by node) for
// the commands that replay it, runs them with the command line built from
// this tree (through sh, as a user pastes them), and checks that the
// command line's -json report has the page's figures for every learner,
// to the bit: the page's settings reach the command line as flags, and
// the page and the command line read the same rows the same way.
func TestCommandReplays(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command line; skipped with -short")
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed: it runs the page's command.js")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "occfm")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/occfm").CombinedOutput(); err != nil {
		t.Fatalf("building the command line: %v\n%s", err, out)
	}
	// A file the page reads whole, shuffled: written by the command line.
	file := filepath.Join(dir, "p.svm")
	if out, err := exec.Command(bin, "gen", "-demo", "planted-regression", "-rows", "800", "-seed", "7", "-out", file).CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	text, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		cfg  config
		rows int
	}{
		{config{Source: "file", File: "p.svm", Shuffle: 3, Learners: []string{"occfm-lin", "fm-ftrl"}, Eta: 0.3, OnError: "skip"}, 800},
		{config{Source: "demo", Demo: "ratings", Seed: 1, Learners: []string{"occfm", "occfm-auto", "bias", "fm-ftrl"}}, 1500},
		{config{Source: "demo", Demo: "planted-classification", Seed: 4, Learners: []string{"occfm-k", "linear"}, Eta: 0.5, Loss: "logistic"}, 900},
		{config{Source: "demo", Demo: "planted-regression", Seed: 2, Learners: []string{"occfm", "ccfm-ogd"}, Delta: 3, Gamma: "2/(t+1)", Clip: "on", NoRegret: true}, 700},
	} {
		s, err := newSession(tc.cfg)
		if err != nil {
			t.Fatal(err)
		}
		if tc.cfg.Source == "file" {
			runAll(t, s, string(text), 1000)
		} else {
			s.step(time.Now().Add(time.Minute), tc.rows)
		}
		if s.rows != tc.rows {
			t.Fatalf("%s%s: the page played %d rows, want %d", tc.cfg.Demo, tc.cfg.File, s.rows, tc.rows)
		}
		line := pageCommand(t, tc.cfg, s)
		sh := exec.Command("sh", "-c", strings.ReplaceAll(line, "occfm ", bin+" ")+" -json -quiet")
		sh.Dir = dir
		out, err := sh.Output()
		if err != nil {
			t.Fatalf("%s: %v\n%s", line, err, out)
		}
		dec := json.NewDecoder(strings.NewReader(string(out)))
		for i, p := range s.players {
			var got map[string]any
			if err := dec.Decode(&got); err != nil {
				t.Fatalf("%s: report %d: %v", line, i, err)
			}
			want := core.NewResult(&p.Player, p.Metrics.Summary(), s.rows, s.config)
			if got["learner"] != p.Name || int(got["rows"].(float64)) != s.rows || got["avg_loss"].(float64) != float64(want.AvgLoss) {
				t.Errorf("%s\n%s: command line %v rows %v avg loss %v; the page %d rows %v", line, p.Name, got["learner"], got["rows"], got["avg_loss"], s.rows, want.AvgLoss)
			}
		}
	}
}

// pageCommand returns what the page's commandLine (ui/js/learn/command.js)
// gives for the session s started with cfg.
func pageCommand(t *testing.T, cfg config, s *session) string {
	t.Helper()
	c, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	run, _ := json.Marshal(map[string]any{"rows": s.rows, "task": s.task.String(), "done": s.state == "done", "clip": s.guardSettings(s.task).Clip})
	mod, err := filepath.Abs("../ui/js/learn/command.js")
	if err != nil {
		t.Fatal(err)
	}
	script := `import {commandLine} from ` + strconv.Quote(mod) + `; process.stdout.write(commandLine(JSON.parse(process.argv[1]), JSON.parse(process.argv[2])));`
	out, err := exec.Command("node", "--input-type=module", "-e", script, string(c), string(run)).Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	return string(out)
}

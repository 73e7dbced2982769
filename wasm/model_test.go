package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/occfm/occfm/core"
)

// TestSessionModelContinues learns the first half of a file in a page
// session, saves its model, continues it in a new session on the second
// half, and checks that the model saved then is byte for byte the one a
// session over the whole file saves, for a matrix learner and a linear one.
func TestSessionModelContinues(t *testing.T) {
	text := ratingsText(1500, 9)
	cut := strings.Index(text[len(text)/2:], "\n") + len(text)/2 + 1
	for _, learner := range []string{"occfm", "fm-ftrl"} {
		cfg := config{Source: "file", File: "u.data", Learners: []string{learner}, NoRegret: true}
		whole, err := newSession(cfg)
		if err != nil {
			t.Fatal(err)
		}
		runAll(t, whole, text, 1<<12)
		want, _, err := whole.saveModel()
		if err != nil {
			t.Fatal(err)
		}

		first, _ := newSession(cfg)
		runAll(t, first, text[:cut], 1<<12)
		half, _, err := first.saveModel()
		if err != nil {
			t.Fatal(err)
		}
		info, loaded := loadModelJSON(half)
		var mi modelInfo
		if loaded == nil || json.Unmarshal([]byte(info), &mi) != nil || mi.Learner != learner || mi.Rows != first.rows || mi.Format != "movielens" {
			t.Fatalf("loadModel: %s", info)
		}
		m, _, _ := parseModel(half)
		second, err := newSessionFrom(config{Source: "file", File: "u.data", Learners: []string{"mean", "bias"}}, m)
		if err != nil {
			t.Fatal(err)
		}
		runAll(t, second, text[cut:], 1<<12)
		got, _, err := second.saveModel()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: the continued session's model (%d bytes) differs from the whole file's (%d bytes)", learner, len(got), len(want))
		}
		if len(second.players) != 1 || second.reg != nil {
			t.Errorf("%s: a continued session races %d learners, regret %v", learner, len(second.players), second.reg != nil)
		}
	}
}

// TestLoadModelJSONErrors checks the page's messages for bad model files.
func TestLoadModelJSONErrors(t *testing.T) {
	s, _ := newSession(config{Source: "demo", Demo: "ratings"})
	s.step(time.Now().Add(time.Second), 200)
	good, _, err := s.saveModel()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		file []byte
		msg  string
	}{
		{"foreign", []byte("1\t2\t3\t4\n"), "not an OCCFM model file"},
		{"truncated", good[:len(good)-9], "corrupt model file: truncated"},
		{"empty", nil, "not an OCCFM model file"},
	} {
		out, m := loadModelJSON(tc.file)
		var e struct{ Error string }
		if m != nil || json.Unmarshal([]byte(out), &e) != nil || !strings.HasPrefix(e.Error, tc.msg) {
			t.Errorf("%s: %s, want an error starting %q", tc.name, out, tc.msg)
		}
	}
	if _, err := (&session{}).model(); err == nil {
		t.Error("saved a session without learners")
	}
}

// TestModelHead: the page checks a picked model file's header before it
// reads the file: a data file, a newer format or a size over the budget is
// refused from the first bytes, and a good header passes.
func TestModelHead(t *testing.T) {
	good := core.Model{Name: "bias", Config: core.Config{}, Learner: core.NewBias(core.BiasSettings{})}
	var buf bytes.Buffer
	if err := core.SaveModel(&buf, good); err != nil {
		t.Fatal(err)
	}
	file := buf.Bytes()
	huge := append([]byte(nil), file[:core.ModelHeaderLen]...)
	binary.LittleEndian.PutUint64(huge[core.ModelHeaderLen-8:], 1<<40)
	for _, c := range []struct {
		name string
		head []byte
		size int64
		want string
	}{
		{"good", file[:core.ModelHeaderLen], int64(len(file)), ""},
		{"data file", []byte("1 1:1 2:1\n-1 3:1\n0 1:1"), 1 << 30, "not an OCCFM model file"},
		{"zeros", make([]byte, core.ModelHeaderLen), 1 << 40, "not an OCCFM model file"},
		{"cut", file[:core.ModelHeaderLen], int64(len(file)) - 1, "truncated"},
		{"huge", huge, 1 << 40, "over the memory budget"},
	} {
		if got := modelHeadError(c.head, c.size); c.want == "" && got != "" || !strings.Contains(got, c.want) {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

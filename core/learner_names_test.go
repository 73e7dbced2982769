package core

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// TestNoLearnerSwitch keeps what a learner is in its own file: outside the
// files of core that register a learner (a Spec), no code asserts a
// learner's concrete type (x.(*core.OCCFMK), case *core.OCCFMAuto) or tests
// a learner's registry name (name == "occfm-k", case "occfm-auto", a
// constant holding one) to decide what to do. The front-ends ask the
// optional abilities instead (Mixture, EigenPairs, MatrixModel, the step
// tracers, Spec's fields), so that a new learner is its file and one line
// in the registry (docs/adding-a-learner.md). It reads the non-test Go
// files of the module and the page's JS.
func TestNoLearnerSwitch(t *testing.T) {
	var types, names []string
	for _, s := range Learners() {
		names = append(names, regexp.QuoteMeta(s.Name))
		types = append(types, reflect.TypeOf(s.state()).Elem().Name())
	}
	ty := "(" + strings.Join(types, "|") + ")"
	nm := "(" + strings.Join(names, "|") + ")"
	goOutside := regexp.MustCompile(`\.\(\*core\.` + ty + `\)|case \*core\.` + ty + `\b|, \*core\.` + ty + `\b`)
	goInside := regexp.MustCompile(`\.\(\*` + ty + `\)|case \*` + ty + `\b`)
	goName := regexp.MustCompile(`(==|!=)\s*"` + nm + `"|"` + nm + `"\s*(==|!=)|case\s+"` + nm + `"|Contains\([^)]*"` + nm + `"\)`)
	// In the page's JS a comparison counts when its other side names a
	// learner (personal.learner === "occfm-k"); "mean" and "bias" are also
	// sort keys and words there, so only the distinctive names count in a
	// case or an includes.
	var distinct []string
	for _, n := range names {
		if n != "mean" && n != "bias" && n != "linear" {
			distinct = append(distinct, n)
		}
	}
	dn := "(" + strings.Join(distinct, "|") + ")"
	q := "[\"'\x60]"
	jsName := regexp.MustCompile(`(?i:learner|name)[\w.\[\]]*\s*(===?|!==?)\s*` + q + nm + q + `|` + q + nm + q + `\s*(===?|!==?)\s*[\w.]*(?i:learner|name)|case\s+` + q + dn + q + `|includes\(\s*` + q + dn + q + `\s*\)`)
	registers := regexp.MustCompile(`(?m)^var \w+Spec = Spec\{`)

	checked := 0
	walk := func(root string, check func(path string, src []byte)) {
		err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && (d.Name() == "node_modules" || d.Name() == "testdata" || d.Name() == "test") {
				return filepath.SkipDir
			}
			if d.IsDir() || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			check(path, src)
			checked++
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	report := func(path string, src []byte, re *regexp.Regexp, what string) {
		for i, line := range strings.Split(string(src), "\n") {
			code, _, _ := strings.Cut(line, "//")
			if m := re.FindString(code); m != "" {
				t.Errorf("%s:%d: %s %q outside the learner's own file: ask an optional ability (core.Mixture, core.EigenPairs, Spec's fields) instead", path, i+1, what, m)
			}
		}
	}
	var ownFile func(path string) bool
	goCheck := func(path string, src []byte) {
		if !strings.HasSuffix(path, ".go") {
			return
		}
		report(path, src, goName, "learner name test")
		report(path, src, goOutside, "learner type test")
		if filepath.Dir(path) == "." && !ownFile(path) {
			report(path, src, goInside, "learner type test")
		}
	}
	// A learner's own files are the one that registers it (var xSpec =
	// Spec{…}) and those named after that one: occfm_auto.go registers
	// occfm-auto, and occfm_auto_codec.go is its model file's code.
	var stems []string
	core, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range core {
		if src, err := os.ReadFile(path); err == nil && !strings.HasSuffix(path, "_test.go") && registers.Match(src) {
			stems = append(stems, strings.TrimSuffix(path, ".go"))
		}
	}
	if len(stems) < 10 {
		t.Fatalf("%d files of core register a learner; want one a learner file", len(stems))
	}
	ownFile = func(path string) bool {
		for _, s := range stems {
			if path == s+".go" || strings.HasPrefix(path, s+"_") {
				return true
			}
		}
		return false
	}
	walk(".", goCheck)
	walk("../wasm", goCheck)
	walk("../cmd", goCheck)
	walk("../ui", func(path string, src []byte) {
		if strings.HasSuffix(path, ".js") {
			report(path, src, jsName, "learner name test")
		}
	})
	if checked < 100 {
		t.Fatalf("read %d files; want the module's Go and the page's JS", checked)
	}
}

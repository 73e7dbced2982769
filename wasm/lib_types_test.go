package main

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/occfm/occfm/core"
)

// TestLibTypesDocumented checks the library's types, ui/lib/occfm.d.ts:
// every exported name and every member of its interfaces and classes (a
// method, an option, a field) has a doc comment, so that an editor's hover
// says what it is; and LearnerName is the registry's names, no more, no
// fewer.
func TestLibTypesDocumented(t *testing.T) {
	b, err := os.ReadFile("../ui/lib/occfm.d.ts")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	member := regexp.MustCompile(`^\t(readonly |static )*[A-Za-z_][A-Za-z0-9_]*(<[^>]*>)?\??[:(]`)
	checked := 0
	for i, line := range lines {
		if !strings.HasPrefix(line, "export ") && !member.MatchString(line) {
			continue
		}
		checked++
		prev := ""
		for j := i - 1; j >= 0 && prev == ""; j-- {
			prev = strings.TrimSpace(lines[j])
		}
		if !strings.HasSuffix(prev, "*/") {
			t.Errorf("occfm.d.ts:%d: %q has no doc comment", i+1, strings.TrimSpace(line))
		}
	}
	if checked < 60 {
		t.Errorf("%d declarations checked: the file's shape changed (want 60 or more)", checked)
	}

	union := regexp.MustCompile(`(?s)export type LearnerName =(.*?);`).FindSubmatch(b)
	if union == nil {
		t.Fatal("occfm.d.ts has no LearnerName")
	}
	var typed, registry []string
	for _, m := range regexp.MustCompile(`"([a-z0-9-]+)"`).FindAllSubmatch(union[1], -1) {
		typed = append(typed, string(m[1]))
	}
	for _, s := range core.Learners() {
		registry = append(registry, s.Name)
	}
	slices.Sort(typed)
	slices.Sort(registry)
	if !slices.Equal(typed, registry) {
		t.Errorf("LearnerName in occfm.d.ts is %v; the registry is %v", typed, registry)
	}
}

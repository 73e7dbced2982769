package core

import (
	"strings"
	"testing"
)

// TestLearnerPlainWords checks that every learner of the registry says
// what it does in plain words, short, with the paper's references left to
// Summary.
func TestLearnerPlainWords(t *testing.T) {
	for _, s := range Learners() {
		if s.Plain == "" || len([]rune(s.Plain)) > 200 {
			t.Errorf("%s: plain words %q: want one sentence of at most 200 characters", s.Name, s.Plain)
		}
		for _, jargon := range []string{"§", "Algorithm", "Theorem", "FTRL-Proximal", "Rendle", "Yamada", "Vovk"} {
			if strings.Contains(s.Plain, jargon) {
				t.Errorf("%s: plain words %q cite %q: that belongs in Summary", s.Name, s.Plain, jargon)
			}
		}
	}
}

package personal

import (
	"strings"
	"testing"
)

// TestPersonalMovieLensGenres: on ML-100K (skipped when …/shared/data is
// absent) five of the most rated films of one genre at 5★ and five of
// another at 1★ put at least 5 films of the first genre and at most 1 of
// the second in the default learner's top 10, for pairs of tastes a person
// might state. Measured: Horror/Romance 10 and 0, Romance/Horror 8 and 0,
// Children's/Crime 9 and 0, Crime/Children's 7 and 0, Sci-Fi/Drama 8 and 0.
func TestPersonalMovieLensGenres(t *testing.T) {
	l, c, you := learnML100K(t, DefaultLearner)
	for _, g := range [][2]string{{"Horror", "Romance"}, {"Romance", "Horror"}, {"Children's", "Crime"}, {"Crime", "Children's"}, {"Sci-Fi", "Drama"}} {
		like, hate := genreTop(t, l, c, you, g[0], g[1])
		t.Logf("%s 5★, %s 1★: %d and %d in the top 10", g[0], g[1], like, hate)
		if like < 5 || hate > 1 {
			t.Errorf("%s 5★, %s 1★: %d %s and %d %s films in the top 10, want ≥ 5 and ≤ 1", g[0], g[1], like, g[0], hate, g[1])
		}
	}
}

// TestGenreAffinity checks the affinities against their formula: no genre
// moves for a person whose stars do not depend on the genre, and a stated
// taste is shrunk and cut as documented.
func TestGenreAffinity(t *testing.T) {
	l, c, s := learnSynthetic(t, DefaultLearner, 1)
	p, err := NewPersonalizer(l, c, s.Dim())
	if err != nil {
		t.Fatal(err)
	}
	if aff := p.genreAffinity(); aff != nil {
		t.Errorf("no rating: affinities %v", aff)
	}
	// Every film at 4★: no deviation from the person's mean.
	for k := range 12 {
		p.Rate(k, 4)
	}
	if aff := p.genreAffinity(); len(aff) != 0 {
		t.Errorf("the same stars for all: affinities %v", aff)
	}
	p.Clear()
	// Five films of a genre at 5★, five without it at 1★.
	var liked, hated []int
	for k, it := range c.Items {
		has := strings.Join(it.Genres, "|")
		switch {
		case len(liked) < 5 && strings.Contains(has, "Horror"):
			liked = append(liked, k)
		case len(hated) < 5 && !strings.Contains(has, "Horror"):
			hated = append(hated, k)
		}
	}
	for k := range 5 {
		p.Rate(liked[k], 5)
		p.Rate(hated[k], 1)
	}
	// w̄ = 0: Horror's films deviate by +1 each.
	want := 5.0/(5+genreShrink) - genreCut
	if got := p.genreAffinity()["Horror"]; got < want-1e-12 || got > want+1e-12 {
		t.Errorf("Horror affinity %v, want %v", got, want)
	}
}

package personal

import (
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/occfm/occfm/core"
	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/internal/coretest"
	"github.com/occfm/occfm/core/internal/str"
)

// readFixture reads an item list of testdata/catalog.
func readFixture(t *testing.T, file string) []CatalogItem {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "catalog", file))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	items, err := ReadItems(f, file)
	if err != nil {
		t.Fatal(err)
	}
	return items
}

func TestCatalogReadItems(t *testing.T) {
	cases := []struct {
		file string
		want []CatalogItem
	}{
		{"u.item.txt", []CatalogItem{
			{ID: "1", Title: "Plain Story (1995)", Genres: []string{"Animation", "Children's", "Comedy"}},
			{ID: "2", Title: "Misérables, Les (1995)", Genres: []string{"Drama"}},
			{ID: "3", Title: "unknown"}, // the flag "unknown" adds no genre
		}},
		{"movies.dat.txt", []CatalogItem{
			{ID: "1", Title: "Plain Story (1995)", Genres: []string{"Animation", "Children's", "Comedy"}},
			{ID: "2", Title: "Misérables, Les (1995)", Genres: []string{"Drama"}},
			{ID: "3", Title: "Nothing Listed (2001)"},
		}},
		{"movies.csv.txt", []CatalogItem{
			{ID: "1", Title: "Plain Story (1995)", Genres: []string{"Adventure", "Animation"}},
			{ID: "2", Title: `Comma, The "Quoted" (1996)`, Genres: []string{"Comedy", "Drama", "Romance"}},
			{ID: "3", Title: "Café Stories (1999)", Genres: []string{"Drama"}},
		}},
	}
	for _, c := range cases {
		got := readFixture(t, c.file)
		if len(got) != len(c.want) {
			t.Errorf("%s: %d items, want %d", c.file, len(got), len(c.want))
			continue
		}
		for k, w := range c.want {
			w.Feature = -1
			g := got[k]
			if g.ID != w.ID || g.Title != w.Title || !slices.Equal(g.Genres, w.Genres) || g.Feature != -1 || g.Count != 0 || g.Mean != 0 {
				t.Errorf("%s: item %d = %+v, want %+v", c.file, k, g, w)
			}
		}
	}
}

func TestCatalogReadItemsErrors(t *testing.T) {
	flags := strings.Repeat("|0", 19)
	cases := []struct {
		name, in   string
		line       int
		field, msg string
	}{
		{"empty", "", 1, "file", "empty"},
		{"blank", "\n \n", 1, "file", "empty"},
		{"unknown layout", "1,Toy Story\n", 1, "line", "no MovieLens item line"},
		{"u.item fields", "1|A (1990)|d||u" + flags + "\n2|B|d||u|0\n", 2, "line", "expected 24"},
		{"u.item flag", "1|A (1990)|d||u" + strings.Repeat("|0", 18) + "|x\n", 1, `genre "Western"`, "expected 0 or 1"},
		{"u.item empty id", "|A (1990)|d||u" + flags + "\n", 1, `"id"`, "empty"},
		{"u.item empty title", "1| |d||u" + flags + "\n", 1, `"title"`, "empty"},
		{"dat fields", "1::A (1990)::Drama\n2::B\n", 2, "line", "expected 3"},
		{"dat duplicate", "1::A::Drama\n\n1::B::Drama\n", 3, `"id"`, "listed twice"},
		{"dat space in id", "1 2::A::Drama\n", 1, `"id"`, "holds a space"},
		{"csv header", "movieId,name,genres\n1,A,Drama\n", 1, "header", "expected movieId,title,genres"},
		{"csv fields", "movieId,title,genres\n1,A,Drama\n2,B\n", 3, "line", "expected 3"},
		{"csv quote", "movieId,title,genres\n1,A,Drama\n2,\"B, (1990),Drama\n", 3, "field", "quote"},
		{"csv bare quote", "movieId,title,genres\n1,A \"B\",Drama\n", 2, "field", "quote"},
	}
	for _, c := range cases {
		_, err := ReadItems(strings.NewReader(c.in), "items.txt")
		var pe *data.ParseError
		if !errors.As(err, &pe) {
			t.Errorf("%s: error %v, want a *ParseError", c.name, err)
			continue
		}
		if pe.File != "items.txt" || pe.Line != c.line || !strings.HasPrefix(pe.Field, c.field) || !strings.Contains(pe.Msg, c.msg) {
			t.Errorf("%s: %v; want items.txt:%d: %s…: …%s…", c.name, err, c.line, c.field, c.msg)
		}
		if !strings.HasPrefix(err.Error(), "core: items.txt:") {
			t.Errorf("%s: %q does not start with the prefix and the place", c.name, err)
		}
	}
}

// TestCatalogReadItemsRealData reads MovieLens' own item lists from
// …/shared/data when present (they are never copied into the repository).
func TestCatalogReadItemsRealData(t *testing.T) {
	for _, c := range []struct {
		file  string
		n     int
		title string
	}{
		{"movielens-100k/u.item", 1682, "Misérables, Les (1995)"},
		{"movielens-1m/movies.dat", 3883, "Misérables, Les (1995)"},
	} {
		t.Run(c.file, func(t *testing.T) {
			items, err := ReadItems(coretest.OpenData(t, c.file), filepath.Base(c.file))
			if err != nil {
				t.Fatal(err)
			}
			if len(items) != c.n {
				t.Errorf("%d items, want %d", len(items), c.n)
			}
			found := false
			for _, it := range items {
				if !utf8.ValidString(it.Title) || it.Feature != -1 {
					t.Fatalf("item %+v", it)
				}
				found = found || it.Title == c.title
			}
			if !found {
				t.Errorf("no item titled %q", c.title)
			}
			if items[0].ID != "1" || items[0].Title != "Toy Story (1995)" || !slices.Contains(items[0].Genres, "Animation") {
				t.Errorf("first item %+v", items[0])
			}
		})
	}
}

// namesOf is a feature numbering for tests.
type namesOf []string

func (n namesOf) FeatureName(i int) string { return n[i] }
func (n namesOf) Dim() int                 { return len(n) }

func TestCatalogNewCatalog(t *testing.T) {
	items := []CatalogItem{
		{ID: "10", Title: "Ten (1990)", Genres: []string{"Drama"}, Feature: 7, Count: 9},
		{ID: "20", Title: "Twenty (1991)", Feature: -1},
	}
	names := namesOf{"user=1", "item=30", "item=10", "user=2"}
	var pop Popularity
	for _, e := range []data.Example{
		{X: data.Sparse{Ind: []int{0, 2}, Val: []float64{1, 1}}, Y: 4},
		{X: data.Sparse{Ind: []int{3, 2}, Val: []float64{1, 1}}, Y: 5},
		{X: data.Sparse{Ind: []int{3, 1}, Val: []float64{1, 1}}, Y: 2},
		{X: data.Sparse{Ind: []int{3, 1}, Val: []float64{1, 0}}, Y: 1}, // a zero value counts nothing
	} {
		pop.Observe(e)
	}
	c := NewCatalog(items, names, &pop)
	want := []CatalogItem{
		{ID: "10", Title: "Ten (1990)", Genres: []string{"Drama"}, Feature: 2, Count: 2, Mean: 4.5},
		{ID: "20", Title: "Twenty (1991)", Feature: -1},
		{ID: "30", Title: "item 30", Feature: 1, Count: 1, Mean: 2},
	}
	if len(c.Items) != len(want) {
		t.Fatalf("%d items, want %d", len(c.Items), len(want))
	}
	for k, w := range want {
		g := c.Items[k]
		if g.ID != w.ID || g.Title != w.Title || !slices.Equal(g.Genres, w.Genres) || g.Feature != w.Feature || g.Count != w.Count || g.Mean != w.Mean {
			t.Errorf("item %d = %+v, want %+v", k, g, w)
		}
	}
	if items[0].Feature != 7 || items[0].Count != 9 {
		t.Error("NewCatalog changed its input")
	}
	if pop.Count(3) != 3 || pop.Count(99) != 0 || pop.Mean(99) != 0 || (*Popularity)(nil).Count(1) != 0 {
		t.Error("Popularity counts")
	}
	if c := NewCatalog(nil, names, nil); len(c.Items) != 2 || c.Items[0].Count != 0 {
		t.Errorf("nil popularity: %+v", c.Items)
	}
}

func TestCatalogSynthetic(t *testing.T) {
	t0 := time.Now()
	var s *SyntheticCatalog
	alloc := coretest.TotalAlloc(func() { s = NewSyntheticCatalog(1) })
	took := time.Since(t0)
	items := s.Items()
	if len(items) != 400 || s.Dim() != 700 {
		t.Fatalf("%d items, Dim %d", len(items), s.Dim())
	}
	titles := map[string]bool{}
	for i, it := range items {
		if it.ID != str.Itoa(i) || it.Feature != -1 || it.Count != 0 || len(it.Genres) < 1 || len(it.Genres) > 3 || titles[it.Title] {
			t.Fatalf("item %d: %+v", i, it)
		}
		titles[it.Title] = true
		if s.FeatureName(300+i) != "item="+it.ID {
			t.Fatalf("feature %d is %q", 300+i, s.FeatureName(300+i))
		}
	}
	var pop Popularity
	var ex data.Example
	users := map[int]bool{}
	pairs := map[[2]int]bool{}
	rows, sum := 0, 0.0
	for {
		err := s.Next(&ex)
		if err == io.EOF {
			break
		}
		if len(ex.X.Ind) != 2 || ex.X.Ind[0] >= 300 || ex.X.Ind[1] < 300 || ex.X.Ind[1] >= 700 || ex.Y != math.Round(ex.Y) || ex.Y < 1 || ex.Y > 5 {
			t.Fatalf("row %d: %+v", rows, ex)
		}
		pair := [2]int{ex.X.Ind[0], ex.X.Ind[1]}
		if pairs[pair] {
			t.Fatalf("row %d: user %d rates item %d twice", rows, pair[0], pair[1]-300)
		}
		pairs[pair] = true
		users[ex.X.Ind[0]] = true
		pop.Observe(ex)
		rows++
		sum += ex.Y
	}
	if s.Next(&ex) != io.EOF || len(ex.X.Ind) != 0 {
		t.Error("Next after the end")
	}
	c := NewCatalog(items, s, &pop)
	seen := 0
	for _, it := range c.Items {
		if it.Count > 0 {
			seen++
		}
	}
	t.Logf("seed 1: %d ratings (mean %.2f), %d users, %d of %d items rated, most popular %d ratings; generated in %d draws and %d weights, %s allocated (%v)",
		rows, sum/float64(rows), len(users), seen, len(items), slices.MaxFunc(c.Items, func(a, b CatalogItem) int { return a.Count - b.Count }).Count,
		s.draws, s.weighed, core.FormatBytes(int64(alloc)), took)
	if rows < 30_000 || rows > 60_000 || len(users) != 300 || seen < 350 {
		t.Errorf("%d ratings, %d users, %d items rated: want 30k–60k, 300, ≥ 350", rows, len(users), seen)
	}
	// The work is bounded, not timed: the draws (an item drawn again for a
	// user is drawn anew, which a user rating most of the items by their
	// weights would make endless without choose's new sums), the weights
	// summed (every item's once a user, and again at each new sum) and the
	// bytes allocated. Seed 1 takes 1.4 draws a rating and 2.8 sums a user.
	// BenchmarkSyntheticCatalog times it.
	if s.draws > 3*rows || s.weighed > 4*300*400 || alloc > 64*uint64(rows)+1<<20 {
		t.Errorf("%d ratings took %d draws and %d weights and allocated %s: want ≤ 3 draws a rating, ≤ 4 sums a user and 64 bytes a rating (+ 1 MiB)",
			rows, s.draws, s.weighed, core.FormatBytes(int64(alloc)))
	}
	// Deterministic per seed, different across seeds.
	a, b, d := NewSyntheticCatalog(1), NewSyntheticCatalog(0), NewSyntheticCatalog(2)
	if !slices.Equal(a.rows, b.rows) || a.items[5].Title != s.items[5].Title || slices.Equal(a.rows, d.rows) {
		t.Error("not deterministic per seed")
	}
	p, q := s.NewPerson(4), s.NewPerson(4)
	for i := range items {
		if r := s.TrueRating(p, i); r != s.TrueRating(q, i) || r < 1 || r > 5 {
			t.Fatalf("TrueRating(person 4, %d) = %v", i, r)
		}
	}
	// People choose by taste: the share of the ratings of items of a user's
	// favourite taste is above that of the same draws by popularity alone.
	var fav, favPop, popAll float64
	for _, r := range s.rows {
		pu := s.p[int(r.u)*synthTastes : int(r.u+1)*synthTastes]
		if main := slices.Index(pu, slices.Max(pu)); s.q[int(r.i)*synthTastes+main] > 0.5 {
			fav++
		}
	}
	for u := range 300 {
		pu := s.p[u*synthTastes : (u+1)*synthTastes]
		main := slices.Index(pu, slices.Max(pu))
		for i := range 400 {
			popAll += s.pop[i]
			if s.q[i*synthTastes+main] > 0.5 {
				favPop += s.pop[i]
			}
		}
	}
	t.Logf("ratings of items of the user's favourite taste: %.2f (by popularity alone %.2f)", fav/float64(rows), favPop/popAll)
	if fav/float64(rows) < 1.5*favPop/popAll {
		t.Errorf("favourite taste in %.2f of the ratings, %.2f by popularity: want ≥ 1.5×", fav/float64(rows), favPop/popAll)
	}
	// A new person chooses the same way, distinct items, the same per seed.
	ch := s.Chosen(p, 20, 7)
	if len(ch) != 20 || !slices.Equal(ch, s.Chosen(q, 20, 7)) || slices.Equal(ch, s.Chosen(p, 20, 8)) || len(slices.Compact(slices.Sorted(slices.Values(ch)))) != 20 {
		t.Errorf("Chosen(person 4, 20, 7) = %v: want 20 distinct items, the same for the same seed", ch)
	}
	if len(s.Chosen(p, 400, 1)) != 400 || len(s.Chosen(p, 0, 1)) != 0 {
		t.Error("Chosen of every item or none")
	}
	// The planted taste shows: the person's favourite genres rate higher.
	var in, out, nIn, nOut float64
	for i, it := range items {
		if slices.Contains(it.Genres, p.Genres[0]) || slices.Contains(it.Genres, p.Genres[1]) {
			in += s.TrueRating(p, i)
			nIn++
		} else {
			out += s.TrueRating(p, i)
			nOut++
		}
	}
	if in/nIn < out/nOut+0.5 {
		t.Errorf("favourite genres %v rate %.2f, others %.2f", p.Genres, in/nIn, out/nOut)
	}
}

func BenchmarkSyntheticCatalog(b *testing.B) {
	for range b.N {
		NewSyntheticCatalog(1)
	}
}

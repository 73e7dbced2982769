package personal

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/internal/str"
)

// CatalogItem is one item (a film) of a catalog.
type CatalogItem struct {
	ID      string   // MovieLens movie ID, or the synthetic item's ID ("17")
	Title   string   // "Toy Story (1995)"; valid UTF-8 (Latin-1 files decoded)
	Genres  []string // "Animation", "Children's", …
	Feature int      // index of the feature "item=ID" in the learned stream, -1 if the stream never had it
	Count   int      // ratings of the item in the learned stream (popularity)
	Mean    float64  // their mean rating (0 when Count is 0)
}

// Catalog is a list of items bound to the feature numbering of a learned
// stream (see NewCatalog).
type Catalog struct {
	Items []CatalogItem
	// Scale is the rating scale of the catalog's stream (NewCatalog: the
	// Popularity's); the zero Scale means DefaultScale, 1 to 5 whole stars.
	Scale Scale
}

// itemListMax bounds the size of an item list ReadItems accepts (ML-25M's
// movies.csv is 3 MB).
const itemListMax = 64 << 20

// u100kGenres are the genre names of ML-100K's u.genre, in the order of
// u.item's 19 flags. Flag 0, "unknown", adds no genre.
var u100kGenres = [19]string{"unknown", "Action", "Adventure", "Animation", "Children's", "Comedy",
	"Crime", "Documentary", "Drama", "Fantasy", "Film-Noir", "Horror", "Musical", "Mystery",
	"Romance", "Sci-Fi", "Thriller", "War", "Western"}

// ReadItems reads a MovieLens item list, sniffing the layout: u.item
// ("id|title|date|video|url|19 genre flags", Latin-1, genre names of
// ML-100K's u.genre built in; the flag "unknown" adds no genre), movies.dat
// ("id::title::Genre|Genre", Latin-1), movies.csv (header movieId,title,genres;
// UTF-8, RFC-4180 quotes). Bytes that are not valid UTF-8 are decoded as
// Latin-1 (u.item's "Misérables, Les (1995)" is byte 0xE9), field by field.
// Malformed lines are *ParseError (file name, line, field, what was
// expected): a wrong number of fields, an empty ID or title, a genre flag
// other than 0 or 1, an ID seen before. Blank lines are skipped; a UTF-8 BOM
// and CR-LF line ends are accepted. Genres "(no genres listed)" is no genre.
// Feature is -1, Count 0. name is the file name used in errors.
func ReadItems(r io.Reader, name string) ([]CatalogItem, error) {
	text, err := io.ReadAll(io.LimitReader(r, itemListMax+1))
	if err != nil {
		return nil, errors.New("core: " + name + ": " + err.Error())
	}
	if len(text) > itemListMax {
		return nil, &data.ParseError{File: name, Line: 1, Field: "file", Msg: "larger than 64 MiB: not an item list"}
	}
	text = bytes.TrimPrefix(text, []byte("\xef\xbb\xbf"))
	first, line := firstLine(text)
	switch {
	case first == nil:
		return nil, &data.ParseError{File: name, Line: 1, Field: "file", Msg: "empty: expected a MovieLens item list (u.item, movies.dat or movies.csv)"}
	case bytes.Contains(first, []byte("::")):
		return readItemLines(text, name, "::")
	case bytes.HasPrefix(bytes.ToLower(first), []byte("movieid,")):
		return readItemsCSV(text, name)
	case bytes.IndexByte(first, '|') >= 0:
		return readItemLines(text, name, "|")
	}
	return nil, &data.ParseError{File: name, Line: line, Field: "line", Msg: str.QuoteCut(first) +
		` is no MovieLens item line: expected "id|title|…" (u.item), "id::title::genres" (movies.dat) or the header "movieId,title,genres" (movies.csv)`}
}

// firstLine returns the first non-blank line of text (without its line end)
// and its 1-based number, or nil.
func firstLine(text []byte) ([]byte, int) {
	for n := 1; len(text) > 0; n++ {
		l, rest, _ := bytes.Cut(text, []byte("\n"))
		text = rest
		if l = bytes.TrimRight(l, "\r"); len(bytes.TrimSpace(l)) > 0 {
			return l, n
		}
	}
	return nil, 0
}

// readItemLines reads u.item (sep "|") or movies.dat (sep "::").
func readItemLines(text []byte, name, sep string) ([]CatalogItem, error) {
	var items []CatalogItem
	seen := map[string]int{}
	for n := 1; len(text) > 0; n++ {
		l, rest, _ := bytes.Cut(text, []byte("\n"))
		text = rest
		l = bytes.TrimRight(l, "\r")
		if len(bytes.TrimSpace(l)) == 0 {
			continue
		}
		f := strings.Split(string(l), sep)
		perr := func(field, msg string) error { return &data.ParseError{File: name, Line: n, Field: field, Msg: msg} }
		var it CatalogItem
		if sep == "|" {
			if len(f) != 24 {
				return nil, perr("line", str.Itoa(len(f))+` fields: expected 24 (u.item: "id|title|date|video date|url|" and 19 genre flags)`)
			}
			for k, flag := range f[5:] {
				switch strings.TrimSpace(flag) {
				case "1":
					if k > 0 {
						it.Genres = append(it.Genres, u100kGenres[k])
					}
				case "0":
				default:
					return nil, perr("genre "+str.QuoteCut([]byte(u100kGenres[k])), str.QuoteCut([]byte(flag))+" is not a genre flag: expected 0 or 1")
				}
			}
		} else {
			if len(f) != 3 {
				return nil, perr("line", str.Itoa(len(f))+` fields: expected 3 (movies.dat: "id::title::Genre|Genre")`)
			}
			it.Genres = splitGenres(f[2])
		}
		if err := fillItem(&it, f[0], f[1], seen, len(items)); err != nil {
			return nil, perr(err[0], err[1])
		}
		items = append(items, it)
	}
	return items, nil
}

// readItemsCSV reads movies.csv.
func readItemsCSV(text []byte, name string) ([]CatalogItem, error) {
	cr := newCSVRecords(text)
	var items []CatalogItem
	seen := map[string]int{}
	for rec := 0; ; rec++ {
		f, ok, pe := cr.next()
		if pe != nil {
			return nil, &data.ParseError{File: name, Line: pe.Line, Field: "field " + str.Itoa(pe.Column), Msg: pe.Msg + " (movies.csv quotes fields RFC-4180 style)"}
		}
		if !ok {
			return items, nil
		}
		line := cr.start
		perr := func(field, msg string) error { return &data.ParseError{File: name, Line: line, Field: field, Msg: msg} }
		if len(f) != 3 {
			return nil, perr("line", str.Itoa(len(f))+" fields: expected 3 (movies.csv: movieId,title,genres)")
		}
		if rec == 0 {
			if !strings.EqualFold(f[0], "movieId") || !strings.EqualFold(f[1], "title") || !strings.EqualFold(f[2], "genres") {
				return nil, perr("header", str.QuoteCut([]byte(strings.Join(f, ",")))+": expected movieId,title,genres")
			}
			continue
		}
		it := CatalogItem{Genres: splitGenres(f[2])}
		if e := fillItem(&it, f[0], f[1], seen, len(items)); e != nil {
			return nil, perr(e[0], e[1])
		}
		items = append(items, it)
	}
}

// fillItem sets the ID and title of it, checking them; it returns the field
// and message of a problem, or nil.
func fillItem(it *CatalogItem, id, title string, seen map[string]int, k int) []string {
	it.ID = strings.TrimSpace(decodeText(id))
	it.Title = strings.TrimSpace(decodeText(title))
	it.Feature = -1
	switch {
	case it.ID == "":
		return []string{`"id"`, "empty: expected the movie's ID"}
	case strings.ContainsAny(it.ID, " \t"):
		return []string{`"id"`, str.QuoteCut([]byte(it.ID)) + " holds a space: expected the movie's ID"}
	case it.Title == "":
		return []string{`"title"`, "empty: expected the movie's title"}
	}
	if _, dup := seen[it.ID]; dup {
		return []string{`"id"`, it.ID + " is listed twice: expected each movie once"}
	}
	seen[it.ID] = k
	return nil
}

// splitGenres splits "Genre|Genre"; "(no genres listed)" is no genre.
func splitGenres(s string) []string {
	var g []string
	for _, x := range strings.Split(decodeText(s), "|") {
		if x = strings.TrimSpace(x); x != "" && x != "(no genres listed)" {
			g = append(g, x)
		}
	}
	return g
}

// decodeText returns s if it is valid UTF-8, else s decoded as Latin-1
// (each byte the code point of its value).
func decodeText(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); i++ {
		b.WriteRune(rune(s[i]))
	}
	return b.String()
}

// Popularity counts, while a ratings stream is learned, the ratings and
// their sum per feature, and watches their scale. The zero value is ready
// to use.
type Popularity struct {
	count []int
	sum   []float64
	scale scaleWatch
}

// Scale returns the scale of the ratings observed (see Scale):
// DefaultScale with none, or for a nil p.
func (p *Popularity) Scale() Scale {
	if p == nil {
		return DefaultScale
	}
	return p.scale.scale()
}

// Observe counts the example: for each feature of ex.X with a non-zero
// value, one rating ex.Y. It does not change ex.
func (p *Popularity) Observe(ex data.Example) {
	p.scale.observe(ex.Y)
	for k, i := range ex.X.Ind {
		if i < 0 || ex.X.Val[k] == 0 {
			continue
		}
		if i >= len(p.count) {
			n := max(i+1, 2*len(p.count))
			p.count = append(p.count, make([]int, n-len(p.count))...)
			p.sum = append(p.sum, make([]float64, n-len(p.sum))...)
		}
		p.count[i]++
		p.sum[i] += ex.Y
	}
}

// Count returns the number of ratings of feature i (0 for a feature never
// seen).
func (p *Popularity) Count(i int) int {
	if p == nil || i < 0 || i >= len(p.count) {
		return 0
	}
	return p.count[i]
}

// Mean returns the mean rating of feature i, 0 when it has none.
func (p *Popularity) Mean(i int) float64 {
	if c := p.Count(i); c > 0 {
		return p.sum[i] / float64(c)
	}
	return 0
}

// NewCatalog binds items to a learned stream: Feature from the names
// "item=ID" of names (e.g. a *Stream; FeatureName(i) for i < Dim()), Count,
// Mean and the catalog's Scale from pop (which may be nil: no counts, 1 to
// 5 whole stars). Items the stream never saw
// keep Feature -1 (they cannot be recommended). Items seen in the stream but
// missing from items are added, in feature order, with Title "item ID". It
// does not change items.
func NewCatalog(items []CatalogItem, names interface {
	FeatureName(int) string
	Dim() int
}, pop *Popularity) *Catalog {
	c := &Catalog{Items: make([]CatalogItem, len(items)), Scale: pop.Scale()}
	byID := make(map[string]int, len(items))
	for k, it := range items {
		it.Genres = append([]string(nil), it.Genres...)
		it.Feature, it.Count, it.Mean = -1, 0, 0
		c.Items[k] = it
		if _, dup := byID[it.ID]; !dup {
			byID[it.ID] = k
		}
	}
	for i := range names.Dim() {
		id, ok := strings.CutPrefix(names.FeatureName(i), "item=")
		if !ok {
			continue
		}
		k, ok := byID[id]
		if !ok {
			k = len(c.Items)
			byID[id] = k
			c.Items = append(c.Items, CatalogItem{ID: id, Title: "item " + id})
		}
		it := &c.Items[k]
		it.Feature, it.Count, it.Mean = i, pop.Count(i), pop.Mean(i)
	}
	return c
}

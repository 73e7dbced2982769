package personal

import (
	"errors"
	"io"
	"slices"
	"strings"

	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/internal/str"
)

// Ratings is a MovieLens ratings file held in memory with its timestamps,
// for the top-N protocol ([TopN]): each rating's user and item as the
// file's IDs, its stars and its time. Personalize itself never needs the
// times; the protocol orders each person's ratings by them.
type Ratings struct {
	rows  []timedRating
	names []string // feature → "user=ID" or "item=ID" (data.Stream's names)
	scale Scale    // of every rating of the file
}

// timedRating is one rating: user and item as features of Ratings.names.
type timedRating struct {
	user, item int32
	stars      float64
	time       int64
	line       int32
}

// MaxRatings bounds the ratings ReadRatings holds: 10,000,000 ratings take
// about 320 MB (32 bytes each), ML-10M's size; ML-25M is refused with a
// message rather than filling the memory.
const MaxRatings = 10_000_000

// ReadRatings reads a MovieLens ratings file with timestamps: u.data
// ("user item rating timestamp", tab), ratings.dat ("user::item::rating::
// timestamp") or ratings.csv (header userId,movieId,rating,timestamp),
// plain or gzip, through data.NewStream as Personalize reads it (half stars
// are ratings like any other). A malformed row is an error naming the file,
// the line and the field; so is a row without a whole-number timestamp, and
// a file of more than MaxRatings ratings. name is the file name used in
// errors.
func ReadRatings(r io.Reader, name string) (*Ratings, error) {
	s, err := data.NewStream(r, data.ReaderSettings{Name: name, Format: data.FormatMovieLens})
	if err != nil {
		return nil, err
	}
	rs := &Ratings{}
	var ex data.Example
	var scale scaleWatch
	for {
		ex.X.Ind, ex.X.Val = ex.X.Ind[:0], ex.X.Val[:0]
		err := s.Next(&ex)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		t, ok := s.Timestamp()
		if !ok {
			return nil, &data.ParseError{File: name, Line: s.Line(), Field: `field "timestamp"`,
				Msg: "missing or not a whole number: the top-N protocol orders each person's ratings by time (u.data, ratings.dat and ratings.csv have a fourth field, the timestamp)"}
		}
		if len(rs.rows) == MaxRatings {
			return nil, errors.New("core: " + name + ": more than " + str.Thousands(MaxRatings) + " ratings: the top-N protocol holds every rating in memory (32 bytes each); use a smaller file")
		}
		scale.observe(ex.Y)
		rs.rows = append(rs.rows, timedRating{user: int32(ex.X.Ind[0]), item: int32(ex.X.Ind[1]), stars: ex.Y, time: t, line: int32(s.Line())})
	}
	if len(rs.rows) == 0 {
		return nil, errors.New("core: " + name + ": no ratings")
	}
	rs.scale = scale.scale()
	rs.names = make([]string, s.Dim())
	for i := range rs.names {
		rs.names[i] = s.FeatureName(i)
	}
	// Time order; ratings at the same time keep the file's order.
	slices.SortStableFunc(rs.rows, func(a, b timedRating) int {
		switch {
		case a.time < b.time:
			return -1
		case a.time > b.time:
			return 1
		}
		return 0
	})
	return rs, nil
}

// Len returns the number of ratings.
func (rs *Ratings) Len() int { return len(rs.rows) }

// id returns the ID of feature f ("user=ID" or "item=ID").
func (rs *Ratings) id(f int32) string {
	n := rs.names[f]
	if _, id, ok := strings.Cut(n, "="); ok {
		return id
	}
	return n
}

// learned is the stream of the people not held out, in time order, with
// features numbered in order of first appearance in it, as a ratings file
// of theirs alone would be read: an ExampleSource with FeatureName and Dim,
// for Play and NewCatalog.
type learned struct {
	rows  []timedRating // user and item in the learned numbering
	names []string
	next  int
}

// newLearned returns the ratings of the people not in held, renumbered.
func (rs *Ratings) newLearned(held map[int32]bool) *learned {
	l := &learned{}
	num := map[int32]int32{}
	feat := func(f int32) int32 {
		if k, ok := num[f]; ok {
			return k
		}
		k := int32(len(l.names))
		num[f] = k
		l.names = append(l.names, rs.names[f])
		return k
	}
	for _, r := range rs.rows {
		if held[r.user] {
			continue
		}
		r.user, r.item = feat(r.user), feat(r.item)
		l.rows = append(l.rows, r)
	}
	return l
}

func (l *learned) Next(ex *data.Example) error {
	if l.next == len(l.rows) {
		return io.EOF
	}
	r := l.rows[l.next]
	l.next++
	ex.X.Ind = append(ex.X.Ind[:0], int(r.user), int(r.item))
	ex.X.Val = append(ex.X.Val[:0], 1, 1)
	ex.Y = r.stars
	return nil
}

func (l *learned) FeatureName(i int) string { return l.names[i] }
func (l *learned) Dim() int                 { return len(l.names) }

package data

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/occfm/occfm/core/internal/coretest"
)

func TestStreamRealData(t *testing.T) {
	cases := []struct {
		file    string
		layout  string
		rows    int
		dim     int
		users   int // MovieLens: distinct users
		classes bool
	}{
		{file: "movielens-100k/u.data", layout: "movielens u.data (tab)", rows: 100000, dim: 2625, users: 943},
		{file: "movielens-1m/ratings_uir.tsv.gz", layout: "movielens user-item-rating (tab)", rows: 1000209, dim: 9746, users: 6040},
		{file: "movielens-1m/ratings-users0001-2999.dat.gz", layout: "movielens ratings.dat (::)", rows: 487650, users: 2999},
		{file: "ijcnn1/ijcnn1.gz", layout: "libsvm", rows: 49990, dim: 22, classes: true},
		{file: "ijcnn1/ijcnn1.t.gz", layout: "libsvm", rows: 91701, dim: 22, classes: true},
		{file: "a9a/a9a", layout: "libsvm", rows: 32561, dim: 123, classes: true},
		{file: "a9a/a9a.t", layout: "libsvm", rows: 16281, dim: 122, classes: true},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			if testing.Short() && c.rows > 200000 {
				t.Skip("large file skipped in -short mode")
			}
			f := coretest.OpenData(t, c.file)
			start := time.Now()
			s, err := NewStream(f, ReaderSettings{Name: filepath.Base(c.file)})
			if err != nil {
				t.Fatal(err)
			}
			if s.Layout() != c.layout {
				t.Errorf("layout %q, want %q", s.Layout(), c.layout)
			}
			rows := 0
			var ex Example
			for {
				err := s.Next(&ex)
				if err != nil {
					if err.Error() != "EOF" {
						t.Fatal(err)
					}
					break
				}
				rows++
				if c.classes && ex.Y != 1 && ex.Y != -1 {
					t.Fatalf("line %d: label %v, want ±1", s.Line(), ex.Y)
				}
				if c.users > 0 && (ex.Y < 1 || ex.Y > 5 || ex.X.Len() != 2) {
					t.Fatalf("line %d: rating %v with %d features", s.Line(), ex.Y, ex.X.Len())
				}
				for _, i := range ex.X.Ind {
					if i >= s.Dim() {
						t.Fatalf("line %d: index %d ≥ Dim %d", s.Line(), i, s.Dim())
					}
				}
			}
			t.Logf("%s: %d rows, Dim %d in %v", c.file, rows, s.Dim(), time.Since(start))
			if rows != c.rows {
				t.Errorf("%d rows, want %d", rows, c.rows)
			}
			if c.dim > 0 && s.Dim() != c.dim {
				t.Errorf("Dim %d, want %d", s.Dim(), c.dim)
			}
			if c.users > 0 {
				users := 0
				for i := range s.Dim() {
					if strings.HasPrefix(s.FeatureName(i), "user=") {
						users++
					}
				}
				if users != c.users {
					t.Errorf("%d users, want %d", users, c.users)
				}
			}
		})
	}
}

func benchmarkStream(b *testing.B, rel string) {
	f := coretest.OpenData(b, rel)
	info, err := f.Stat()
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(info.Size())
	b.ReportAllocs()
	for b.Loop() {
		if _, err := f.Seek(0, 0); err != nil {
			b.Fatal(err)
		}
		s, err := NewStream(f, ReaderSettings{})
		if err != nil {
			b.Fatal(err)
		}
		var ex Example
		for s.Next(&ex) == nil {
		}
	}
}

func BenchmarkStreamUData(b *testing.B)  { benchmarkStream(b, "movielens-100k/u.data") }
func BenchmarkStreamML1M(b *testing.B)   { benchmarkStream(b, "movielens-1m/ratings_uir.tsv.gz") }
func BenchmarkStreamIJCNN1(b *testing.B) { benchmarkStream(b, "ijcnn1/ijcnn1.gz") }
func BenchmarkStreamA9A(b *testing.B)    { benchmarkStream(b, "a9a/a9a") }

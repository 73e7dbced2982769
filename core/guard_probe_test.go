package core

import (
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
)

func TestGuardProbe(t *testing.T) {
	if os.Getenv("GPROBE") == "" {
		t.Skip()
	}
	type ds struct {
		name, path string
		limit      int
	}
	sets0 := []ds{{"ml100k", "../../shared/data/movielens-100k/u.data", 0}, {"ijcnn1", "../../shared/data/ijcnn1/ijcnn1.gz", 0}, {"a9a", "../../shared/data/a9a/a9a", 0}, {"ml1m", "../../shared/data/movielens-1m/ratings.dat", 300000}}
	for _, d := range Demos() {
		sets0 = append(sets0, ds{"demo:" + d.Name, "", 20000})
	}
	var sets []ds
	for _, s := range sets0 {
		if os.Getenv("GSETS") == "" || strings.Contains(os.Getenv("GSETS"), s.name) {
			sets = append(sets, s)
		}
	}
	etas := strings.Split(os.Getenv("GPROBE"), ",")
	for _, set := range sets {
		var rows []Example
		var task Task
		if strings.HasPrefix(set.name, "demo:") {
			d, _ := DemoByName(set.name[5:])
			src := d.New(1)
			task = d.Task
			for i := 0; i < set.limit; i++ {
				var ex Example
				if src.Next(&ex) != nil {
					break
				}
				rows = append(rows, ex.Clone())
			}
		} else {
			f, err := os.Open(set.path)
			if err != nil {
				t.Log(err)
				continue
			}
			var r io.Reader = f
			if strings.HasSuffix(set.path, ".gz") {
				r, _ = gzip.NewReader(f)
			}
			s, err := NewStream(r, ReaderSettings{Name: set.name})
			if err != nil {
				t.Fatal(err)
			}
			var ex Example
			for set.limit == 0 || len(rows) < set.limit {
				if s.Next(&ex) != nil {
					break
				}
				rows = append(rows, ex.Clone())
			}
			labels := make([]float64, 0)
			for _, r := range rows[:1000] {
				labels = append(labels, r.Y)
			}
			task = GuessTask(labels)
			if s.Format() == FormatMovieLens {
				task = Regression
			}
			for i := range rows {
				rows[i].Y, _ = task.Label(rows[i].Y)
			}
		}
		for _, es := range etas {
			var eta float64
			fmt.Sscan(es, &eta)
			for _, spec := range Learners() {
				if spec.Name == "ccfm-ftrl" && eta != 0 {
					continue
				}
				g, _ := NewGuarded(spec.Name, Config{Task: task, Eta: eta}, GuardSettings{Factor: 1e300})
				maxR := 0.0
				at := 0
				for i, ex := range rows {
					g.PredictUpdate(ex.X, ex.Y)
					if g.since >= guardWindow {
						r := g.eL / (g.eB + g.floor())
						if r > maxR {
							maxR, at = r, i
						}
					}
					if spec.Name == "ccfm-ftrl" && i > 20000 || (spec.Name == "ccfm-ogd" || spec.Name == "ccfm-pa") && i > 20000 {
						break
					}
				}
				rep := g.Report()
				fmt.Printf("%-28s eta=%-6s %-10s maxratio %10.3g at %7d  div %d refused %d %v\n", set.name, es, spec.Name, maxR, at, rep.Divergences, rep.Refused, rep.Events)
			}
		}
	}
}

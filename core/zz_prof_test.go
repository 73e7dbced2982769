package core

import (
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/occfm/occfm/core/data"
)

func loadRows(t testing.TB, path string) []data.Example {
	f, err := os.Open(path)
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	st, err := data.NewStream(f, data.ReaderSettings{Name: path})
	if err != nil {
		t.Fatal(err)
	}
	var rows []data.Example
	var ex data.Example
	for st.Next(&ex) == nil {
		rows = append(rows, ex.Clone())
	}
	return rows
}

func TestZZProf(t *testing.T) {
	path := os.Getenv("ZZ_DATA")
	if path == "" {
		t.Skip()
	}
	rows := loadRows(t, path)
	if s := zzEnvT("ZZ_SHUF"); s > 0 {
		rand.New(rand.NewPCG(uint64(s), uint64(s))).Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
	}
	names := strings.Split(os.Getenv("ZZ_L"), ",")
	if os.Getenv("ZZ_L") == "" {
		names = []string{"fm-ftrl", "occfm-k"}
	}
	for _, name := range names {
		var l Learner
		if name == "occfm-k" {
			l = NewOCCFMK(OCCFMKSettings{Rank: int(zzEnvT("ZZ_K"))})
		} else {
			l, _ = NewLearner(name, Config{})
		}
		t0 := time.Now()
		var se float64
		for _, ex := range rows {
			p := Play(l, ex, nil)
			p = min(5, max(1, p))
			se += (p - ex.Y) * (p - ex.Y)
		}
		el := time.Since(t0).Seconds()
		extra := ""
		if k, ok := l.(*OCCFMK); ok {
			extra = " refreshes " + strconv.Itoa(k.refreshes)
		}
		t.Logf("%s: %.0f upd/s rmse %.4f%s", name, float64(len(rows))/el, math.Sqrt(se/float64(len(rows))), extra)
	}
}

func zzEnvT(k string) float64 { v, _ := strconv.ParseFloat(os.Getenv(k), 64); return v }

package main

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/personal"
)

// catalogDemo is the -demo of occfm gen that writes a Personalize catalog:
// personal.NewSyntheticCatalogSize's ratings as a MovieLens ratings.csv
// (userId,movieId,rating,timestamp; the timestamp is the row's number) to
// -out and its items as a movies.csv (movieId,title,genres) to -items, the
// two files Personalize and occfm topn read. Made-up films and people: a
// catalog of a real one's size without shipping one.
const catalogDemo = "catalog"

// genCatalog writes -demo catalog's two files.
func genCatalog(gs genSettings, stdout, stderr io.Writer) error {
	s := personal.NewSyntheticCatalogSize(gs.seed, gs.rows)
	var w io.Writer = stdout
	name := "stdout"
	if gs.out != "" && gs.out != "-" && !sameAsStdout(gs.out) {
		f, err := createOutput(gs.out)
		if err != nil {
			return err
		}
		defer f.Close()
		w, name = f, gs.out
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	bw.WriteString("userId,movieId,rating,timestamp\n")
	var ex data.Example
	n := 0
	for s.Next(&ex) == nil {
		n++
		user := strings.TrimPrefix(s.FeatureName(ex.X.Ind[0]), "user=")
		item := strings.TrimPrefix(s.FeatureName(ex.X.Ind[1]), "item=")
		fmt.Fprintf(bw, "%s,%s,%s,%d\n", user, item, strconv.FormatFloat(ex.Y, 'g', -1, 64), n)
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if f, ok := w.(*os.File); ok && f != os.Stdout {
		if err := f.Close(); err != nil {
			return err
		}
	}
	f, err := createOutput(gs.items)
	if err != nil {
		return err
	}
	defer f.Close()
	cw := csv.NewWriter(bufio.NewWriter(f))
	cw.Write([]string{"movieId", "title", "genres"})
	items := s.Items()
	for _, it := range items {
		cw.Write([]string{it.ID, it.Title, strings.Join(it.Genres, "|")})
	}
	if cw.Flush(); cw.Error() != nil {
		return cw.Error()
	}
	if err := f.Close(); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "occfm: wrote %s ratings of the catalog (seed %d) to %s and its %s items to %s\n",
		commas(n), gs.seed, name, commas(len(items)), gs.items)
	return nil
}

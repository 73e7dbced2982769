package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/personal"
)

// shopDemo is the -demo of occfm gen that writes personal.NewSyntheticShop's
// small made-up shop as two JSON arrays, for the JS library's example: its
// ratings, [{"user":"s0","item":"p17","rating":5}, …], to -out, and its
// products, [{"id":"p0","title":"Trail Lantern","tags":["outdoor","camping"]},
// …], to -items (a product's first tag is its group). One object a line.
const shopDemo = "shop"

// shopRating and shopItem are the JSON objects of -demo shop's two files.
type shopRating struct {
	User   string `json:"user"`
	Item   string `json:"item"`
	Rating int    `json:"rating"`
}

type shopItem struct {
	ID    string   `json:"id"`
	Title string   `json:"title"`
	Tags  []string `json:"tags"`
}

// genShop writes -demo shop's two files.
func genShop(gs genSettings, stdout, stderr io.Writer) error {
	s := personal.NewSyntheticShop(gs.seed)
	var ratings []shopRating
	var ex data.Example
	for s.Next(&ex) == nil {
		ratings = append(ratings, shopRating{
			User:   strings.TrimPrefix(s.FeatureName(ex.X.Ind[0]), "user="),
			Item:   strings.TrimPrefix(s.FeatureName(ex.X.Ind[1]), "item="),
			Rating: int(ex.Y),
		})
	}
	var items []shopItem
	for _, it := range s.Items() {
		items = append(items, shopItem{ID: it.ID, Title: it.Title, Tags: it.Genres})
	}
	name := "stdout"
	if gs.out != "" && gs.out != "-" && !sameAsStdout(gs.out) {
		name = gs.out
		if err := writeJSONArrayFile(gs.out, ratings); err != nil {
			return err
		}
	} else if err := writeJSONArray(stdout, ratings); err != nil {
		return err
	}
	if err := writeJSONArrayFile(gs.items, items); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "occfm: wrote %s ratings of the shop (seed %d) to %s and its %s products to %s\n",
		commas(len(ratings)), gs.seed, name, commas(len(items)), gs.items)
	return nil
}

// writeJSONArrayFile writes vs to the file path as writeJSONArray does.
func writeJSONArrayFile[T any](path string, vs []T) error {
	f, err := createOutput(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := writeJSONArray(f, vs); err != nil {
		return err
	}
	return f.Close()
}

// writeJSONArray writes vs as a JSON array, one element a line.
func writeJSONArray[T any](w io.Writer, vs []T) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	bw.WriteString("[")
	for k, v := range vs {
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		if k > 0 {
			bw.WriteString(",")
		}
		bw.WriteString("\n")
		bw.Write(b)
	}
	bw.WriteString("\n]\n")
	return bw.Flush()
}

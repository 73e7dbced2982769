package data_test

import (
	"fmt"
	"io"
	"strings"

	"github.com/occfm/occfm/core/data"
)

// ExampleNewStream reads three ratings in the layout of MovieLens u.data
// (user, item, rating, timestamp; tab separated). The format is sniffed;
// each row becomes one-hot user and item features, with the rating as label.
func ExampleNewStream() {
	text := "1\t10\t4\t874965758\n2\t10\t3\t874965759\n1\t20\t5\t874965760\n"
	s, err := data.NewStream(strings.NewReader(text), data.ReaderSettings{Name: "u.data"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s.Format(), "/", s.Layout())
	var ex data.Example
	for {
		err := s.Next(&ex)
		if err == io.EOF {
			break
		}
		if err != nil {
			fmt.Println(err)
			return
		}
		var feats []string
		for k, i := range ex.X.Ind {
			feats = append(feats, fmt.Sprintf("%s:%.4g", s.FeatureName(i), ex.X.Val[k]))
		}
		fmt.Printf("y=%.4g x=%v\n", ex.Y, feats)
	}
	fmt.Println("features:", s.Dim())
	// Output:
	// movielens / movielens u.data (tab)
	// y=4 x=[user=1:1 item=10:1]
	// y=3 x=[user=2:1 item=10:1]
	// y=5 x=[user=1:1 item=20:1]
	// features: 4
}

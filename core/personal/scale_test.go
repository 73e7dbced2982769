package personal

import (
	"bytes"
	"math"
	"strconv"
	"strings"
	"testing"
)

// TestScale: Check takes the ratings of a scale and refuses the others
// with an error that names the scale; Clip, Mid, Weight and String.
func TestScale(t *testing.T) {
	half := Scale{Lo: 0.5, Hi: 5, Step: 0.5}
	ten := Scale{Lo: 1, Hi: 10, Step: 1}
	cont := Scale{Lo: 0, Hi: 100}
	for _, c := range []struct {
		s     Scale
		stars float64
		ok    bool
	}{
		{Scale{}, 1, true}, {Scale{}, 5, true}, {Scale{}, 2.5, false}, {Scale{}, 0, false}, {Scale{}, 6, false},
		{half, 0.5, true}, {half, 2.5, true}, {half, 5, true}, {half, 0.7, false}, {half, 0, false}, {half, 5.5, false},
		{ten, 10, true}, {ten, 2.5, false}, {ten, 11, false},
		{cont, 37.25, true}, {cont, -0.1, false},
		{half, math.NaN(), false}, {half, math.Inf(1), false},
	} {
		err := c.s.Check(c.stars)
		if (err == nil) != c.ok {
			t.Errorf("%v.Check(%v) = %v, want ok %v", c.s, c.stars, err, c.ok)
		}
		if err != nil && !strings.Contains(err.Error(), c.s.String()) {
			t.Errorf("%v.Check(%v) = %q: does not name the scale", c.s, c.stars, err)
		}
	}
	for _, c := range []struct {
		s    Scale
		want string
	}{{Scale{}, "1 to 5 in whole stars"}, {half, "0.5 to 5 in half stars"}, {ten, "1 to 10 in whole stars"}, {cont, "0 to 100"},
		{Scale{Lo: 1, Hi: 2, Step: 0.25}, "1 to 2 in steps of 0.25"}} {
		if got := c.s.String(); got != c.want {
			t.Errorf("%#v.String() = %q, want %q", c.s, got, c.want)
		}
	}
	if half.Clip(0.1) != 0.5 || half.Clip(7) != 5 || half.Clip(3.3) != 3.3 {
		t.Errorf("Clip on %v", half)
	}
	if ten.Mid() != 5.5 || (Scale{}).Mid() != 3 {
		t.Errorf("Mid: %v, %v", ten.Mid(), (Scale{}).Mid())
	}
	for _, c := range []struct {
		s        Scale
		stars, w float64
	}{{Scale{}, 1, -1}, {Scale{}, 3, 0}, {Scale{}, 5, 1}, {half, 0.5, -1}, {half, 5, 1}, {ten, 5.5, 0}} {
		if got := c.s.Weight(c.stars); math.Abs(got-c.w) > 1e-12 {
			t.Errorf("%v.Weight(%v) = %v, want %v", c.s, c.stars, got, c.w)
		}
	}
}

// TestScaleWatch: the scale of a stream is its range, with step 1 when
// every rating is whole, 0.5 when every one is a half, none otherwise.
func TestScaleWatch(t *testing.T) {
	for _, c := range []struct {
		ys   []float64
		want Scale
	}{
		{nil, DefaultScale},
		{[]float64{3, 1, 5, 4}, Scale{Lo: 1, Hi: 5, Step: 1}},
		{[]float64{3, 0.5, 5, 4.5}, Scale{Lo: 0.5, Hi: 5, Step: 0.5}},
		{[]float64{1, 10, 7}, Scale{Lo: 1, Hi: 10, Step: 1}},
		{[]float64{1.25, 3, 4.5}, Scale{Lo: 1.25, Hi: 4.5}},
		{[]float64{2, math.NaN(), 4}, Scale{Lo: 2, Hi: 4, Step: 1}},
	} {
		var w scaleWatch
		for _, y := range c.ys {
			w.observe(y)
		}
		if got := w.scale(); got != c.want {
			t.Errorf("%v: scale %#v, want %#v", c.ys, got, c.want)
		}
	}
}

// TestTopNHalfStars: the protocol runs to the end on a ratings.csv with
// half stars (a tenth of topnData's ratings lowered by half a star), and
// the held-out people's half stars are fed as they are: the catalog's
// scale is the file's, 0.5 to 5 in half stars.
func TestTopNHalfStars(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("userId,movieId,rating,timestamp\n")
	halves := 0
	for k, line := range strings.Split(strings.TrimSpace(string(topnData(120, 60, 1))), "\n") {
		f := strings.Split(line, "\t")
		stars, _ := strconv.ParseFloat(f[2], 64)
		if k%10 == 3 {
			stars -= 0.5
			halves++
		}
		b.WriteString(f[0] + "," + f[1] + "," + strconv.FormatFloat(stars, 'g', -1, 64) + "," + f[3] + "\n")
	}
	rs, err := ReadRatings(&b, "ratings.csv")
	if err != nil {
		t.Fatal(err)
	}
	if want := (Scale{Lo: 0.5, Hi: 5, Step: 0.5}); rs.scale != want {
		t.Fatalf("the file's scale %v, want %v", rs.scale, want)
	}
	res, err := TopN(rs, TopNSettings{Learners: []string{"item-lift", "occfm-k"}, People: 30, Seeds: []uint64{1}, Feed: []int{3, 10}, MinRatings: 20})
	if err != nil {
		t.Fatalf("%d half stars: %v", halves, err)
	}
	for _, r := range res {
		if r.Learner == "item-lift" && r.Seed == 0 && !(r.RMSE.N > 0 && r.RMSE.Mean < 2) {
			t.Errorf("item-lift K=%d on half stars: RMSE %+v", r.Feed, r.RMSE)
		}
	}
}

package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/occfm/occfm/core"
	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/personal"
)

const topnUsage = `occfm topn measures Personalize as a recommender for real people: the held-out
top-N protocol. For each seed, -users people with at least -min-ratings ratings
are held out; everyone else's ratings are learned in time order (the timestamp
column) by each learner, as the page learns a catalog; each held-out person is
then a new person in Personalize (their first K ratings by time, rated one by
one) and is measured on their remaining ratings.

Usage:

  occfm topn -data RATINGS [-items ITEMS] [-learner L1,L2] [-users 100]
             [-seeds 1,2,3] [-feed 3,10,20] [-min-ratings 40] [-json]

  -data PATH         MovieLens ratings with timestamps: u.data, ratings.dat or
                     ratings.csv (half stars read), plain or gzip
  -items PATH        the item list: u.item, movies.dat or movies.csv (titles
                     only; without it items are "item ID")
  -learner L,...     registry learners to measure (default: Personalize's,
                     ` + personal.DefaultLearner + `); the baselines most-rated, highest-bias, ease
                     and rp3beta are always measured
  -users N           people held out per seed (default 100)
  -seeds S,...       seeds: each draws its own held-out people (default 1)
  -feed K,...        first ratings given to each held-out person (default
                     3,10,20)
  -min-ratings N     ratings a person needs to be held out (default 40)
  -ease-lambda L     λ of the ease baseline (default 1e6, the best of a sweep
                     on ML-100K: docs/personalize.md)
  -rp3-alpha A       α of the rp3beta baseline (default 0.01) and β, the
  -rp3-beta B        power of the popularity it divides by (default 0):
                     the best of a sweep on ML-100K (docs/personalize.md)
  -json              one JSON object per line: learner × K × seed, then
                     learner × K over all seeds ("seed": "all")
  -quiet             no progress on stderr

Measures (mean ± standard error over people): hits10, how many of the top 10
the person rates ≥ 4 later; tail_hits10, the same with the top 10 drawn from
the items outside the 10 % most rated, against the liked items among them;
ndcg10; recall20, the liked items in the top 20 over min(20, liked); rmse of
the predicted stars on the remaining ratings, and rmse_cold, the same
learner's with no rating fed.
`

type topnFlags struct {
	data, items string
	set         personal.TopNSettings
	json, quiet bool
}

func parseTopNFlags(args []string, stderr io.Writer) (topnFlags, error) {
	var tf topnFlags
	var learners, seeds, feed string
	fs := flag.NewFlagSet("topn", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&tf.data, "data", "", "")
	fs.StringVar(&tf.items, "items", "", "")
	fs.StringVar(&learners, "learner", personal.DefaultLearner, "")
	fs.IntVar(&tf.set.People, "users", 100, "")
	fs.StringVar(&seeds, "seeds", "1", "")
	fs.StringVar(&feed, "feed", "3,10,20", "")
	fs.IntVar(&tf.set.MinRatings, "min-ratings", 40, "")
	fs.Float64Var(&tf.set.EASELambda, "ease-lambda", personal.DefaultEASELambda, "")
	fs.Float64Var(&tf.set.RP3Alpha, "rp3-alpha", personal.DefaultRP3Alpha, "")
	fs.Float64Var(&tf.set.RP3Beta, "rp3-beta", personal.DefaultRP3Beta, "")
	fs.BoolVar(&tf.json, "json", false, "")
	fs.BoolVar(&tf.quiet, "quiet", false, "")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			io.WriteString(stderr, topnUsage)
			return tf, err
		}
		return tf, usageError{fmt.Errorf("topn: %w (see occfm topn -h)", err)}
	}
	bad := func(format string, a ...any) (topnFlags, error) {
		return tf, usageError{fmt.Errorf("topn: "+format, a...)}
	}
	if fs.NArg() > 0 {
		return bad("unexpected argument %q (flags come as -name value)", fs.Arg(0))
	}
	if tf.data == "" {
		return bad("-data is missing: a MovieLens ratings file with timestamps (u.data, ratings.dat, ratings.csv)")
	}
	for _, name := range strings.Split(learners, ",") {
		if name = strings.TrimSpace(name); name != "" {
			if err := core.CheckLearners([]string{name}); err != nil {
				return bad("-learner: %v", err)
			}
			tf.set.Learners = append(tf.set.Learners, name)
		}
	}
	if len(tf.set.Learners) == 0 {
		return bad("-learner %q: name at least one learner", learners)
	}
	for _, v := range strings.Split(seeds, ",") {
		s, err := strconv.ParseUint(strings.TrimSpace(v), 10, 64)
		if err != nil || s == 0 {
			return bad("-seeds %q: want whole numbers ≥ 1, comma-separated", seeds)
		}
		tf.set.Seeds = append(tf.set.Seeds, s)
	}
	for _, v := range strings.Split(feed, ",") {
		k, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || k < 0 {
			return bad("-feed %q: want whole numbers ≥ 0, comma-separated", feed)
		}
		tf.set.Feed = append(tf.set.Feed, k)
	}
	switch {
	case tf.set.People < 1:
		return bad("-users %d: want at least 1", tf.set.People)
	case tf.set.MinRatings < 1:
		return bad("-min-ratings %d: want at least 1", tf.set.MinRatings)
	case !(tf.set.EASELambda > 0):
		return bad("-ease-lambda %v: want a positive number", tf.set.EASELambda)
	case !(tf.set.RP3Alpha > 0 && tf.set.RP3Alpha <= 10):
		return bad("-rp3-alpha %v: want a number in (0, 10]", tf.set.RP3Alpha)
	case !(tf.set.RP3Beta >= 0 && tf.set.RP3Beta <= 10):
		return bad("-rp3-beta %v: want a number in [0, 10]", tf.set.RP3Beta)
	}
	return tf, nil
}

func topnCommand(args []string, stdout, stderr io.Writer) error {
	tf, err := parseTopNFlags(args, stderr)
	if err != nil {
		return err
	}
	f, name, err := openData(tf.data)
	if err != nil {
		return err
	}
	rs, err := personal.ReadRatings(f, name)
	f.Close()
	if err != nil {
		return err
	}
	if tf.items != "" {
		if tf.set.Items, err = readItemList(tf.items); err != nil {
			return err
		}
	}
	start := time.Now()
	if !tf.quiet {
		tf.set.Progress = func(msg string) {
			fmt.Fprintf(stderr, "topn: %5.0fs  %s\n", time.Since(start).Seconds(), msg)
		}
	}
	res, err := personal.TopN(rs, tf.set)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(stdout)
	if tf.json {
		for _, r := range res {
			w.Write(appendTopNJSON(nil, r))
			w.WriteByte('\n')
		}
	} else {
		fmt.Fprintf(w, "%d ratings of %s; %d people held out per seed, seeds %s\n\n", rs.Len(), name, tf.set.People, joinSeeds(tf.set.Seeds))
		writeTopNTable(w, res)
	}
	return w.Flush()
}

// readItemList reads an item list file, gunzipping it when it is gzip.
func readItemList(path string) ([]personal.CatalogItem, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	br := bufio.NewReader(f)
	var r io.Reader = br
	if head, _ := br.Peek(2); len(head) == 2 && head[0] == 0x1f && head[1] == 0x8b {
		if r, err = data.Gunzip(br); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	return personal.ReadItems(r, filepath.Base(path))
}

func joinSeeds(seeds []uint64) string {
	s := make([]string, len(seeds))
	for k, v := range seeds {
		s[k] = strconv.FormatUint(v, 10)
	}
	return strings.Join(s, ",")
}

// writeTopNTable writes the results over all seeds as a Markdown table,
// each value mean ± standard error.
func writeTopNTable(w io.Writer, res []personal.TopNResult) {
	fmt.Fprintln(w, "| learner | K | hits@10 | tail hits@10 | NDCG@10 | recall@20 | RMSE | RMSE cold |")
	fmt.Fprintln(w, "|---|---:|---|---|---|---|---|---|")
	for _, r := range res {
		if r.Seed != 0 {
			continue
		}
		fmt.Fprintf(w, "| %s | %d | %s | %s | %s | %s | %s | %s |\n", r.Learner, r.Feed, pm(r.Hits10, 2), pm(r.TailHits10, 2),
			pm(r.NDCG10, 3), pm(r.Recall20, 3), pm(r.RMSE, 3), pm(r.RMSECold, 3))
	}
}

func pm(s personal.Stat, digits int) string {
	if s.N == 0 {
		return "–"
	}
	return strconv.FormatFloat(s.Mean, 'f', digits, 64) + " ± " + strconv.FormatFloat(s.SE, 'f', digits, 64)
}

// appendTopNJSON appends r as one JSON object: learner, feed, seed (a
// number, or "all"), users, then each measure and its standard error
// (hits10, hits10_se, …); a measure not taken (rmse of a list that
// predicts no rating) is null.
func appendTopNJSON(b []byte, r personal.TopNResult) []byte {
	b = append(b, `{"learner":`...)
	b = strconv.AppendQuote(b, r.Learner)
	b = append(b, `,"feed":`...)
	b = strconv.AppendInt(b, int64(r.Feed), 10)
	b = append(b, `,"seed":`...)
	if r.Seed == 0 {
		b = append(b, `"all"`...)
	} else {
		b = strconv.AppendUint(b, r.Seed, 10)
	}
	b = append(b, `,"users":`...)
	b = strconv.AppendInt(b, int64(r.People), 10)
	for _, m := range [...]struct {
		key string
		s   personal.Stat
	}{{"hits10", r.Hits10}, {"tail_hits10", r.TailHits10}, {"ndcg10", r.NDCG10}, {"recall20", r.Recall20}, {"rmse", r.RMSE}, {"rmse_cold", r.RMSECold}} {
		b = append(b, `,"`+m.key+`":`...)
		b = appendStatNum(b, m.s, m.s.Mean)
		b = append(b, `,"`+m.key+`_se":`...)
		b = appendStatNum(b, m.s, m.s.SE)
	}
	return append(b, '}')
}

func appendStatNum(b []byte, s personal.Stat, v float64) []byte {
	if s.N == 0 {
		return append(b, "null"...)
	}
	return strconv.AppendFloat(b, v, 'g', 6, 64)
}

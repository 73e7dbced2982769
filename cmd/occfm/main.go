// Command occfm plays the online learners of package core over a data file,
// predict-then-update, and reports their progressive metrics.
//
// Usage:
//
//	occfm run -data PATH [flags]   play learners over the rows of PATH
//	occfm paper [-quick]           reproduce the paper's Tables 2 and 3
//	occfm gen -size 1G -out PATH   write a demo stream as a large LibSVM file
//	occfm topn -data u.data        measure Personalize on held-out people
//	occfm learners                 list the registered learners
//	occfm help                     print the flags of run
//
// For example, on MovieLens 100K:
//
//	occfm run -data u.data -delta 10 -eta 0.1
//	occfm run -data ijcnn1.gz -task classification -shuffle 1 -json
//
// The command is a thin edge: it parses flags, opens the file, and calls
// data.NewStream, core.NewLearner and core.Play; it computes nothing itself.
// Errors go to stderr prefixed "occfm:"; the exit status is 1 for a failed
// run and 2 for a command-line mistake.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"text/tabwriter"

	"github.com/occfm/occfm/core"
)

func main() {
	defer func() {
		// Learners are guarded (core.Guarded) and readers fuzzed; a panic
		// left is a bug: say so plainly, with the stack for the report.
		if p := recover(); p != nil {
			fmt.Fprintf(os.Stderr, "occfm: internal error: %v (please report it, with this output)\n%s", p, debug.Stack())
			os.Exit(3)
		}
	}()
	err := run(os.Args[1:], os.Stdout, os.Stderr)
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return
	case errors.As(err, new(usageError)):
		fmt.Fprintln(os.Stderr, "occfm:", err)
		os.Exit(2)
	case errors.As(err, new(interruptError)):
		fmt.Fprintln(os.Stderr, "occfm:", err)
		os.Exit(130)
	default:
		fmt.Fprintln(os.Stderr, "occfm:", err)
		os.Exit(1)
	}
}

// usageError is a command-line mistake, as opposed to a failed run.
type usageError struct{ error }

func (e usageError) Unwrap() error { return e.error }

// run runs the command line args (without the program name), writing results
// to stdout and progress to stderr. It returns flag.ErrHelp after printing
// help for -h.
func run(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return usageError{errors.New("no command (want run, paper, gen, topn, learners or help; see occfm help)")}
	}
	switch args[0] {
	case "run":
		return runCommand(args[1:], stdout, stderr)
	case "paper":
		return paperCommand(args[1:], stdout, stderr)
	case "gen":
		return genCommand(args[1:], stdout, stderr)
	case "topn":
		return topnCommand(args[1:], stdout, stderr)
	case "learners":
		if len(args) > 1 {
			return usageError{fmt.Errorf("learners takes no arguments, got %q", args[1:])}
		}
		return printLearners(stdout)
	case "help", "-h", "-help", "--help":
		return printUsage(stdout)
	}
	return usageError{fmt.Errorf("unknown command %q (want run, paper, gen, topn, learners or help)", args[0])}
}

// usage is the help text; printUsage appends the learner list.
const usage = `occfm plays online learners over a data file, predict-then-update, and
reports progressive metrics (each row is scored before its label is learned).

Usage:

  occfm run -data PATH [flags]   play learners over the rows of PATH
  occfm paper [-quick] [flags]   reproduce the paper's Tables 2 and 3 and its
                                 efficiency figures (occfm paper -h)
  occfm gen (-rows N | -size S) [-demo D] [-seed S] [-out PATH]
                                 write a built-in demo stream (default
                                 planted-classification) as a LibSVM file of
                                 N rows or about S bytes (200M, 1G), in
                                 constant memory: test data for big files
  occfm gen -demo catalog -rows N -out ratings.csv -items movies.csv
                                 write a made-up Personalize catalog of N
                                 ratings (ratings.csv and movies.csv, as
                                 MovieLens writes them; 100000 gives 9,709
                                 films and 672 people, about MovieLens'
                                 ml-latest-small; at most 337000)
  occfm gen -demo shop -out ratings.json -items items.json [-seed S]
                                 write a made-up shop of 200 products and 300
                                 shoppers (about 8,400 ratings) as JSON arrays:
                                 {"user","item","rating"} and
                                 {"id","title","tags"}, the first tag a
                                 product's group
  occfm topn -data RATINGS [-items ITEMS] [flags]
                                 measure Personalize on held-out people: top-N
                                 hits against most-rated, highest-bias and
                                 ease (occfm topn -h)
  occfm learners                 list the registered learners
  occfm help                     print this help

Flags of run:

  -data PATH       data file, or - for standard input: LibSVM, CSV with a
                   header, or MovieLens (u.data, ratings.dat, ratings.csv);
                   gzip is detected
  -format F        auto (sniff), libsvm, csv or movielens (default auto)
  -task T          auto, regression or classification (default auto: MovieLens
                   is regression; otherwise guessed from the first 1,000 labels,
                   classification when they are all -1/+1 or all 0/1)
  -learner L,...   comma-separated learners, each playing the same rows in the
                   same order (default occfm-auto, which needs no delta)
  -delta D         bound delta on the nuclear norm (0: each learner's default)
  -eta E           learning rate eta (0: each learner's default)
  -gamma G         OCCFM's step schedule: 1/sqrt(t) (default), 2/(t+1) or
                   constant
  -loss L          auto (default: squared for regression, logistic for
                   classification), squared or logistic
  -seed S          the learners' seed (0: each learner's default)
                   A setting no learner of the run takes is refused.
  -shuffle SEED    0 keeps file order and streams in constant memory; any other
                   seed reads the rows into memory and plays them in a seeded
                   random order (for files that fit in memory)
  -limit N         read at most N rows (0: all); with -shuffle, the first N rows
                   of the file are read, then shuffled
  -on-error P      a malformed row (a field that is not a number, a label
                   outside the task, …): stop (default) ends the run with an
                   error naming the file, line and field; skip passes over it,
                   and the progress line and the report count the rows skipped
                   and show the first reasons
  -scale S        auto (default) divides each feature by its running max |x|
                   as the rows come, so that a number's units do not matter
                   (one-hot and 0/1 features keep their values); off passes
                   the rows as they are, for features scaled beforehand
  -clip C          auto (default: on for MovieLens ratings), on or off:
                   regression predictions clipped to the range of the labels
                   seen so far
  -on-diverge A    reset (default) or pause. Every learner is guarded: it never
                   outputs NaN or Inf; a learner that diverges (a prediction
                   that is not finite or absurdly far from the labels, a failed
                   update, or a smoothed loss 100 times that of the label mean)
                   is reset to a fresh one up to 3 times, then paused (it
                   predicts the label mean and learns no more); with pause it
                   is paused at once. A row with a feature or a label beyond
                   ±1e9 is predicted but not learned, and so is a row of more
                   than 1,000 nonzeros for occfm, cfm-ftrl and ccfm-ftrl
                   (their memory grows with a row's pairs of features). The
                   report says what happened.
  -max-memory M    the most memory the process may take, its peak resident
                   set (default 512M; 2G, 1.5GiB, 800000000 also read; at
                   least 64M; 0: no limit). occfm itself takes 24 MiB of it;
                   the Go runtime's memory limit keeps the heap within the
                   rest; the run stops, with a message saying what holds the
                   memory, when what it keeps (learners, metrics,
                   comparator, feature dictionaries, a loaded model,
                   -shuffle's rows, room for its largest learner's arrays
                   to grow, and the live heap beyond these estimates)
                   passes M less 24 MiB and a quarter of M (360 MiB of
                   512M), the quarter being the collector's room
  -json            print one JSON object per learner on stdout
  -quiet           no progress line on stderr
  -save PATH       after the run, write the learner's model file (settings,
                   state, feature numbering, rows learned) to PATH, replacing
                   it atomically; needs exactly one -learner
  -load PATH       continue the learner of a model file on -data: the learner,
                   task, delta, eta and feature numbering come from the model
                   (giving those flags other values is an error); the result
                   is bit-identical to one run over all the rows
  -predictions PATH
                   write every row's predictions, made before the row is
                   learned, to PATH as CSV (- or /dev/stdout: standard
                   output): a header naming the learners, then one line per
                   row played, in the order played, one column per learner.
                   Regression: the prediction the metrics scored (clipped
                   with -clip); classification: the probability of the
                   positive class, 1/(1+exp(-score)), as the JS library's
                   predict. Rows skipped by -on-error skip are left out;
                   rows predicted but not learned (a label beyond ±1e9) are
                   in. With -load: the loaded model's predictions, as the
                   library gives them on the same model file

Metrics: rows, avg_loss (squared or logistic loss), then rmse and mae for
regression, or error_rate (sign of the prediction, 0 counts as +1), auc and
logloss for classification. "seconds" is the time a learner spent in
core.Play (predict, score, update), excluding reading and parsing; so
updates_per_sec = rows / seconds. "wall_seconds" is the whole run.
`

func printUsage(w io.Writer) error {
	if _, err := io.WriteString(w, usage); err != nil {
		return err
	}
	if _, err := io.WriteString(w, "\nLearners:\n\n"); err != nil {
		return err
	}
	return printLearners(w)
}

// printLearners lists the core registry, one learner a line.
func printLearners(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	for _, s := range core.Learners() {
		mark := ""
		if s.Name == core.DefaultLearner {
			mark = " (default)"
		}
		fmt.Fprintf(tw, "  %s%s\t%s\n", s.Name, mark, s.Summary)
	}
	return tw.Flush()
}

package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/demo"
	"github.com/occfm/occfm/core/personal"
)

// genSettings are the flags of occfm gen.
type genSettings struct {
	demo  string
	rows  int
	size  int64 // bytes; 0: -rows decides
	seed  uint64
	out   string
	items string // -demo catalog and shop: the item list's file
}

// parseGenFlags parses the flags of occfm gen.
func parseGenFlags(args []string) (genSettings, error) {
	gs := genSettings{}
	var size string
	fs := flag.NewFlagSet("gen", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&gs.demo, "demo", "planted-classification", "built-in demo stream")
	fs.IntVar(&gs.rows, "rows", 0, "rows to write")
	fs.StringVar(&size, "size", "", "bytes to write: 200M, 1G, …")
	fs.Uint64Var(&gs.seed, "seed", 1, "seed of the stream")
	fs.StringVar(&gs.out, "out", "", "output file (empty or -: stdout)")
	fs.StringVar(&gs.items, "items", "", "-demo catalog or shop: where to write the item list (movies.csv, items.json)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return gs, err
		}
		return gs, usageError{fmt.Errorf("gen: %w (see occfm help)", err)}
	}
	bad := func(format string, a ...any) (genSettings, error) {
		return gs, usageError{fmt.Errorf("gen: "+format, a...)}
	}
	if fs.NArg() > 0 {
		return bad("unexpected argument %q (flags come as -name value)", fs.Arg(0))
	}
	if gs.demo == catalogDemo {
		switch {
		case gs.rows <= 0 || size != "":
			return bad("-demo catalog: want -rows N (the ratings), not -size")
		case gs.rows > personal.MaxSyntheticRatings:
			return bad("-demo catalog: -rows %s: at most %s ratings (32,767 films at 10.3 ratings each, numbered in 16 bits)",
				commas(gs.rows), commas(personal.MaxSyntheticRatings))
		case gs.items == "":
			return bad("-demo catalog: -items is missing: where to write the item list (movies.csv)")
		}
		return gs, nil
	}
	if gs.demo == shopDemo {
		switch {
		case gs.rows != 0 || size != "":
			return bad("-demo shop: no -rows or -size: the shop is a fixed 200 products and 300 shoppers (about 8,400 ratings); -seed draws another")
		case gs.items == "":
			return bad("-demo shop: -items is missing: where to write the product list (items.json)")
		}
		return gs, nil
	}
	if gs.items != "" {
		return bad("-items is for -demo catalog and -demo shop")
	}
	if _, ok := demo.ByName(gs.demo); !ok {
		var names []string
		for _, d := range demo.All() {
			names = append(names, d.Name)
		}
		return bad("-demo %q: want one of %s, catalog or shop", gs.demo, strings.Join(names, ", "))
	}
	if size != "" {
		n, err := parseSize(size)
		if err != nil {
			return bad("-size %q: %v", size, err)
		}
		gs.size = n
	}
	switch {
	case gs.rows < 0:
		return bad("-rows %d: want N ≥ 0", gs.rows)
	case (gs.rows == 0) == (gs.size == 0):
		return bad("want one of -rows N or -size BYTES")
	}
	return gs, nil
}

// parseSize parses a byte count with an optional binary suffix K, M or G
// (KiB, MiB, GiB; a trailing B or iB is allowed): "1G" is 1,073,741,824.
func parseSize(s string) (int64, error) {
	t := strings.TrimSuffix(strings.TrimSuffix(strings.ToUpper(s), "B"), "I")
	mult := int64(1)
	if n := len(t); n > 0 {
		switch t[n-1] {
		case 'K':
			mult = 1 << 10
		case 'M':
			mult = 1 << 20
		case 'G':
			mult = 1 << 30
		}
		if mult > 1 {
			t = t[:n-1]
		}
	}
	v, err := strconv.ParseInt(t, 10, 64)
	if err != nil || v <= 0 || v > math.MaxInt64/mult {
		return 0, errors.New("want a positive whole number of bytes, optionally with K, M or G")
	}
	return v * mult, nil
}

// genCommand is occfm gen: it writes a built-in demo stream as a LibSVM file
// of any length, one row at a time, in constant memory. With -size it stops
// after the first row that reaches the size, so the file is a little
// larger.
func genCommand(args []string, stdout, stderr io.Writer) error {
	gs, err := parseGenFlags(args)
	if errors.Is(err, flag.ErrHelp) {
		return printUsage(stdout)
	}
	if err != nil {
		return err
	}
	switch gs.demo {
	case catalogDemo:
		return genCatalog(gs, stdout, stderr)
	case shopDemo:
		return genShop(gs, stdout, stderr)
	}
	d, _ := demo.ByName(gs.demo)
	rows := gs.rows
	if gs.size > 0 {
		rows = math.MaxInt
	}
	var w io.Writer = stdout
	name := "stdout"
	var f *os.File
	if gs.out != "" && gs.out != "-" && !sameAsStdout(gs.out) {
		if f, err = createOutput(gs.out); err != nil {
			return err
		}
		defer f.Close()
		w, name = f, gs.out
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	src := d.NewRows(gs.seed, rows)
	var ex data.Example
	var line []byte
	var n int
	var written int64
	for gs.size == 0 || written < gs.size {
		if err := src.Next(&ex); err == io.EOF {
			break
		} else if err != nil {
			return err
		}
		line = data.AppendLibSVM(line[:0], ex)
		if _, err := bw.Write(line); err != nil {
			return err
		}
		n++
		written += int64(len(line))
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if f != nil {
		if err := f.Close(); err != nil {
			return err
		}
	}
	fmt.Fprintf(stderr, "occfm: wrote %s rows of %s (seed %d), %s bytes, to %s\n", commas(n), gs.demo, gs.seed, commas(int(written)), name)
	return nil
}

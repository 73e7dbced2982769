package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/occfm/occfm/core/data"
)

// stopped adds to a malformed row's error, under -on-error stop, how to
// skip such rows instead.
func stopped(err error) error {
	var pe *data.ParseError
	if errors.As(err, &pe) {
		return fmt.Errorf("%w; -on-error skip would skip such rows and count them", err)
	}
	return err
}

// skippedNote is the progress line's tail: "  12 skipped", or "" when no
// row was skipped.
func skippedNote(bad *data.BadRows) string {
	if bad == nil || bad.Skipped == 0 {
		return ""
	}
	return "  " + commas(bad.Skipped) + " skipped"
}

// writeSkipped writes the report's lines on skipped rows: the count by
// field, then the first reasons, one a line.
func writeSkipped(w io.Writer, bad *data.BadRows) {
	if bad.Skipped == 0 {
		fmt.Fprintf(w, "skipped\t0 rows\n")
		return
	}
	rows := "rows"
	if bad.Skipped == 1 {
		rows = "row"
	}
	fmt.Fprintf(w, "skipped\t%s %s", commas(bad.Skipped), rows)
	if len(bad.ByField) > 1 {
		fmt.Fprint(w, " (")
		first := true
		for _, f := range bad.Fields() {
			if !first {
				fmt.Fprint(w, ", ")
			}
			first = false
			fmt.Fprintf(w, "%s: %s", f, commas(bad.ByField[f]))
		}
		fmt.Fprint(w, ")")
	}
	fmt.Fprintln(w)
	for i, r := range bad.Reasons() {
		label := ""
		if i == 0 {
			label = "first"
		}
		fmt.Fprintf(w, "%s\t  %s\n", label, r)
	}
	if more := bad.Skipped - len(bad.First); more > 0 {
		fmt.Fprintf(w, "\t  … and %s more\n", commas(more))
	}
}

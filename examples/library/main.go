// Command library is a Go program of its own that runs what `httpvs run
// --quick` runs, through package experiment, with no httpvs binary: the
// child server is this program, started again, which the first line of
// main serves. It prints the report and exits 1 unless every cell was
// measured.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"

	"github.com/httpvs/httpvs/experiment"
	"github.com/httpvs/httpvs/report"
)

func main() {
	if experiment.ServeChild() {
		return
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	res, err := experiment.Run(ctx, experiment.Quick())
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := report.Matrix(os.Stdout, res); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	failed := 0
	for _, c := range res.Cells {
		if c.Failed {
			failed++
		}
	}
	fmt.Printf("%d cells, %d failed\n", len(res.Cells), failed)
	if failed > 0 || res.Partial || len(res.Cells) == 0 {
		os.Exit(1)
	}
}

package experiment_test

import (
	"context"
	"fmt"
	"os"

	"github.com/httpvs/httpvs/experiment"
	"github.com/httpvs/httpvs/report"
	"github.com/httpvs/httpvs/tune"
)

// A Go program doing what `httpvs run --quick` does: every transport and
// the default scenarios, one short round a cell, Go as shipped, against
// the child server (this program, whose main calls ServeChild first),
// then the report.
func Example() {
	res, err := experiment.Run(context.Background(), experiment.Quick())
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return
	}
	report.Matrix(os.Stdout, res)
}

// A Go program doing what `httpvs run --net lan --net 4g --quick` does:
// the experiment across two emulated links, one after another (Linux:
// root, or a user namespace), one results per link, then the verdict
// across them.
func ExampleSweep() {
	o := experiment.SweepOptions{Base: experiment.Quick().Base}
	for _, text := range []string{"lan", "4g"} {
		link, err := experiment.ParseLink(text)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return
		}
		o.Links = append(o.Links, link)
	}
	runs, err := experiment.Sweep(context.Background(), o)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return
	}
	for _, res := range runs {
		report.Matrix(os.Stdout, res)
	}
	report.When(os.Stdout, runs)
}

// A Go program doing what `httpvs run --go 1.26.11,1.27.4 --quick` does:
// download and small-sequential over h1 and h2c, Go as shipped, with a
// server and a client built by each toolchain (fetched once through the
// module proxy), two short rounds a cell.
func ExampleVersions() {
	res, err := experiment.Versions(context.Background(), experiment.QuickVersions("go1.26.11", "go1.27.4"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return
	}
	report.GoVersions(os.Stdout, res)
}

// A Go program doing what `httpvs tune --net 4g --write best.json` does:
// search h2c's, h2's and h3's download knobs across an emulated 4G link
// (Linux: root, or a user namespace), print the report and write the best
// settings as a knob file, which `httpvs run --knobs best.json` reads; a
// program measures them directly with rep.KnobSet as Matrix.Knobs.
func ExampleTune() {
	ctx := context.Background()
	l, err := experiment.ParseLink("4g")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return
	}
	rep, err := experiment.Tune(ctx, tune.Options{}, &l) // trial and budget sized for the link
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return
	}
	report.Tune(os.Stdout, rep) // ends with the values that were one transport's best only
	f, err := os.Create("best.json")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return
	}
	defer f.Close()
	if err := rep.WriteKnobFile(f, "tune best.json"); err != nil {
		fmt.Fprintln(os.Stderr, err)
	}
}

package experiment_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"

	"github.com/httpvs/httpvs/experiment"
	"github.com/httpvs/httpvs/report"
)

// A Go program doing what `httpvs run --quick` does: every transport and
// the default scenarios, one short round a cell, Go as shipped, against
// a child `httpvs serve` (the httpvs binary on $PATH), then the report.
func Example() {
	o := experiment.Quick()
	exe, err := exec.LookPath("httpvs")
	if err != nil {
		fmt.Fprintln(os.Stderr, "install httpvs: go install github.com/httpvs/httpvs/cmd/httpvs@latest")
		return
	}
	o.Executable = exe
	res, err := experiment.Run(context.Background(), o)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return
	}
	report.Matrix(os.Stdout, res)
}

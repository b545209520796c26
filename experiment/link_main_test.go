//go:build measured

package experiment_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/httpvs/httpvs/experiment"
	"github.com/httpvs/httpvs/internal/cli"
	"github.com/httpvs/httpvs/internal/testenv"
	"github.com/httpvs/httpvs/plan"
	"github.com/httpvs/httpvs/report"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/transport"
)

// The measured checks of runs across an emulated link: rates at the
// link's bound, round trips per handshake, losses as set. They measure
// speed, so they build only with -tags measured and run in .ci/run's
// measured step, one package at a time with nothing else running (go
// test -tags measured -p 1), serial, before this package's parallel
// tests start. Each calls the library as `httpvs run --net` does (Run, or
// Sweep across several links) and reads its results and the report's
// text of them; the command's own wording is internal/cli's tests'.

// What the tests of whole runs share (internal/testenv), by the names
// these tests use.
var (
	netLeftovers     = testenv.NetLeftovers
	checkNoLeftovers = testenv.CheckNoLeftovers
)

// runQuickAcross is `httpvs run --net spec --scenarios list --quick
// --duration d` as the library call it makes (acrossLink).
func runQuickAcross(t *testing.T, spec, list string, d time.Duration) (*results.Results, string) {
	t.Helper()
	o := experiment.Quick()
	o.Matrix.Duration = d
	res, text, _ := acrossLink(t, o, spec, list, "")
	return res, text
}

// rounds is `httpvs run --repeat n`'s options across a link: run's own
// (the zero Options) with n rounds a cell and no more.
func rounds(n int) experiment.Options {
	var o experiment.Options
	o.Matrix.Repeat = n
	return o
}

// acrossLink is `httpvs run --net spec --scenarios list --protocols
// protos` with o's other settings, as the library call it makes:
// experiment.Run across the link. It returns the results, the report's
// text of them (report.Matrix, what run prints) and what run says on
// stderr before the cells: the cost line of the plan heard
// (cli.CostLine) and its sizing lines. protos "" is every transport.
func acrossLink(t *testing.T, o experiment.Options, spec, list, protos string) (*results.Results, string, string) {
	t.Helper()
	needLink(t)
	link, err := experiment.ParseLink(spec)
	if err != nil {
		t.Fatal(err)
	}
	o.Link = &link
	if o.Matrix.Scenarios, err = plan.ParseScenarios(list); err != nil {
		t.Fatal(err)
	}
	if protos != "" {
		if o.Matrix.Protocols, err = transport.ParseList(protos); err != nil {
			t.Fatal(err)
		}
	}
	var said []string
	o.OnCost = func(p experiment.Cost) { said = append(append(said, cli.CostLine(p)), p.Sizing...) }
	res, err := experiment.Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	var text bytes.Buffer
	if err := report.Matrix(&text, res); err != nil {
		t.Fatal(err)
	}
	return res, text.String(), strings.Join(said, "\n")
}

// rttFloor is the least a 40 ms round trip can take: the ferry may write
// a packet up to 50 us before its due time, each way.
const rttFloor = 0.040 - 2*50e-6

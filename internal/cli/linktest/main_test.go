//go:build measured

package linktest

import (
	"bytes"
	"context"
	"os"
	"testing"
	"time"

	"github.com/httpvs/httpvs/experiment"
	"github.com/httpvs/httpvs/internal/cli"
	"github.com/httpvs/httpvs/internal/runtest"
	"github.com/httpvs/httpvs/plan"
	"github.com/httpvs/httpvs/report"
	"github.com/httpvs/httpvs/results"
)

// What the tests of whole runs share (internal/runtest), by the names
// internal/cli's tests use.
type syncBuffer = runtest.SyncBuffer

var (
	readResults      = runtest.ReadResults
	needLink         = runtest.NeedLink
	netLeftovers     = runtest.NetLeftovers
	checkNoLeftovers = runtest.CheckNoLeftovers
)

// TestMain serves as the child server when a run starts this binary as
// one, as cmd/httpvs does.
func TestMain(m *testing.M) {
	if experiment.ServeChild() {
		return
	}
	os.Exit(m.Run())
}

// runQuickAcross is `httpvs run --net spec --scenarios list --quick
// --duration d` as the library call it makes: experiment.Run, its
// results, and the report's text of them (report.Matrix, what run prints).
func runQuickAcross(t *testing.T, spec, list string, d time.Duration) (*results.Results, string) {
	t.Helper()
	needLink(t)
	link, err := experiment.ParseLink(spec)
	if err != nil {
		t.Fatal(err)
	}
	scenarios, err := plan.ParseScenarios(list)
	if err != nil {
		t.Fatal(err)
	}
	o := experiment.Quick()
	o.Link = &link
	o.Matrix.Scenarios, o.Matrix.Duration = scenarios, d
	res, err := experiment.Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	var text bytes.Buffer
	if err := report.Matrix(&text, res); err != nil {
		t.Fatal(err)
	}
	return res, text.String()
}

func runMain(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut syncBuffer
	code = cli.Main(context.Background(), args, &out, &errOut)
	return code, out.String(), errOut.String()
}

// rttFloor is the least a 40 ms round trip can take: the ferry may write
// a packet up to 50 us before its due time, each way.
const rttFloor = 0.040 - 2*50e-6

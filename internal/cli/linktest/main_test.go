//go:build measured

package linktest

import (
	"context"
	"os"
	"testing"

	"github.com/httpvs/httpvs/experiment"
	"github.com/httpvs/httpvs/internal/cli"
	"github.com/httpvs/httpvs/internal/runtest"
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

// TestMain runs cli.Main in a child when asked: a run across a link starts
// its server as this binary, with experiment.ChildEnv set.
func TestMain(m *testing.M) {
	if os.Getenv(experiment.ChildEnv) == "1" {
		ctx, stop := cli.SignalContext() // as cmd/httpvs does
		code := cli.Main(ctx, os.Args[1:], os.Stdout, os.Stderr)
		stop()
		os.Exit(code)
	}
	os.Exit(m.Run())
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

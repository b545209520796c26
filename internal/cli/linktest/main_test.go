// Package linktest holds the cli tests that run httpvs across an emulated
// link and hold it to the link's physics: rates at the link's bound, round
// trips per handshake, losses as set. They are a package of their own so
// that `go test ./...` runs them beside package cli's other tests, not
// after them: each test here runs alone in this package (none is
// parallel), as a link's figures ask, and the go tool already runs them
// beside other packages' tests, which they allow for (a machine too busy
// for its emulator is reported as such).
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

// TestMain serves as the child server when a run starts this binary as
// one, as cmd/httpvs does.
func TestMain(m *testing.M) {
	if experiment.ServeChild() {
		return
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

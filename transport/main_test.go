package transport

import (
	"os"
	"testing"

	"github.com/httpvs/httpvs/internal/testenv"
)

// TestMain runs more parallel tests at once than go test's default: those
// marked t.Parallel() (the data-rate floor's) each have a server of their
// own and mostly wait out its grace period.
func TestMain(m *testing.M) {
	testenv.RaiseParallel(testenv.Waiting)
	os.Exit(m.Run())
}

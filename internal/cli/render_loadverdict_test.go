package cli

import (
	"strings"
	"testing"

	"github.com/httpvs/httpvs/load/loadresult"
	"github.com/httpvs/httpvs/stats"
)

// TestLoadFailedOver: a run with more failures than allowed fails, in
// one line that says how many; one at or under the limit does not.
func TestLoadFailedOver(t *testing.T) {
	res := loadresult.Result{Requests: 1000, Succeeded: 540, Errors: stats.ErrorCounts{Total: 460, Timeout: 460}, FirstError: "timeout"}
	msg := LoadFailedOver(res, DefaultMaxFailedShare)
	if !strings.HasPrefix(msg, "FAILED: 460 of 1000 requests failed (46.0%") || strings.Contains(msg, "\n") {
		t.Fatalf("46%% failed: %q", msg)
	}
	res.Succeeded, res.Errors = 980, stats.ErrorCounts{Total: 20, Timeout: 20}
	if msg := LoadFailedOver(res, DefaultMaxFailedShare); msg != "" {
		t.Fatalf("2%% failed, 2%% allowed: %q", msg)
	}
	if msg := LoadFailedOver(res, 0); msg == "" {
		t.Fatal("2% failed, none allowed: no verdict")
	}
}

package cli

import (
	"fmt"
	"time"

	"github.com/httpvs/httpvs/load/loadresult"
)

// LoadVerdict says in one line why a load run whose figures were printed
// still failed: nothing completed, it was interrupted or stopped, or most
// requests failed; "" when it did not.
func LoadVerdict(res loadresult.Result) string {
	switch {
	case res.Requests == 0 && res.Errors.Total == 0 && !res.Interrupted:
		return fmt.Sprintf("no request completed within %v", time.Duration(res.Seconds*float64(time.Second)))
	case res.Interrupted:
		return "interrupted: the figures above are what was measured until then"
	case res.Stopped != "":
		return fmt.Sprintf("%s; %d of %d requests failed (%s)", res.Stopped, res.Errors.Total, res.Requests, res.Errors)
	case res.Errors.Total > 0 && res.Succeeded == 0:
		return fmt.Sprintf("every request failed (%s): %s", res.Errors, res.FirstError)
	case res.Errors.Total > res.Succeeded:
		return fmt.Sprintf("more requests failed (%s) than succeeded (%d): %s", res.Errors, res.Succeeded, res.FirstError)
	}
	return ""
}

// DefaultMaxFailedShare is the share of failed requests above which a load
// run fails: a few percent, beyond the odd reset of a busy server.
const DefaultMaxFailedShare = 0.02

// LoadFailedOver says, in one line, that more than max (a fraction of 1:
// 0.02 is 2%) of res's requests failed; "" when they did not, or when
// LoadVerdict already has something to say.
func LoadFailedOver(res loadresult.Result, max float64) string {
	if LoadVerdict(res) != "" || res.Requests == 0 {
		return ""
	}
	share := float64(res.Errors.Total) / float64(res.Requests)
	if share <= max {
		return ""
	}
	return fmt.Sprintf("FAILED: %d of %d requests failed (%.1f%%: %s), more than the %.3g%% allowed: %s",
		res.Errors.Total, res.Requests, 100*share, res.Errors, 100*max, res.FirstError)
}

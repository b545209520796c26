package cli

import (
	"fmt"

	"github.com/httpvs/httpvs/transfer"
	"github.com/httpvs/httpvs/transfer/transferresult"
	"github.com/httpvs/httpvs/transport"
)

// TransferFailure explains a get's or put's failures in one line, with
// a hint; an interruption when none failed.
func TransferFailure(res transferresult.Result, plan transfer.Plan) string {
	if res.Errors.Total == 0 {
		return "interrupted: the numbers above are what was measured until then"
	}
	hint := ""
	switch {
	case res.Errors.Refused > 0:
		hint = "; is a server listening there? start one with: httpvs serve"
	case res.Errors.TLS > 0:
		hint = "; for a self-signed certificate pass -k, or --cacert FILE (httpvs serve --write-cert FILE)"
	case res.Errors.Protocol > 0:
		hint = fmt.Sprintf("; the server does not speak %s there: try another -p", plan.Client.Protocol)
	case res.Errors.Timeout > 0:
		hint = timeoutHint(res, plan)
	}
	return fmt.Sprintf("%s of %d transfers failed: %s%s", res.Errors.String(), res.Streams, res.FirstError, hint)
}

// timeoutHint names the timeout that expired: the dial timeout when no
// connection could be set up (for h3, quic-go's handshake idle timeout,
// which it sets), --timeout when a transfer took too long, or both.
func timeoutHint(res transferresult.Result, plan transfer.Plan) string {
	dial := plan.Client.Config.Effective().DialTimeout
	where := "is a server listening there?"
	if plan.Client.Protocol == transport.H3 {
		where = "is an HTTP/3 server listening on that UDP port?"
	}
	switch setup, all := res.SetupTimeouts, res.Errors.Timeout; {
	case setup == all:
		return fmt.Sprintf("; gave up after --dial-timeout %v with no connection set up: %s", dial, where)
	case setup > 0:
		return fmt.Sprintf("; %d found no connection within --dial-timeout %v, %d took longer than --timeout %v", setup, dial, all-setup, plan.RequestTimeout)
	}
	return fmt.Sprintf("; a transfer that takes longer than --timeout %v fails", plan.RequestTimeout)
}

package cli

import (
	"context"
	"fmt"
	"time"

	"github.com/httpvs/httpvs/internal/fdlimit"
	"github.com/httpvs/httpvs/report"
	"github.com/httpvs/httpvs/transfer"
	"github.com/httpvs/httpvs/transport"
)

// transferFlags are the flags get and put share.
type transferFlags struct {
	target   targetFlags
	n, conns int
	json     bool
	timeout  time.Duration
	noStats  bool
	profile  string
	cfg      transport.ClientConfig
}

func (f *transferFlags) register(fs *flagSet) {
	f.target.register(fs)
	fs.IntVar(&f.n, "n", 1, "parallel transfers: h1 opens one connection each, h2c/h2/h3 one stream each on one connection")
	fs.IntVar(&f.conns, "conns", 0, "spread the transfers over this many connections (default: see -n)")
	fs.BoolVar(&f.json, "json", false, "print exactly one JSON object")
	fs.DurationVar(&f.timeout, "timeout", 10*time.Minute, "bound on the whole run")
	fs.BoolVar(&f.noStats, "no-server-stats", false, "do not read the server's /stats before and after")
	fs.StringVar(&f.profile, "profile", "", "write CPU and heap profiles of the client, and of the server if it is httpvs serve --profiling on http://, to `dir`")
	clientFlags(fs, &f.cfg)
}

// plan checks the flags against rawURL and builds a transfer plan.
func (f *transferFlags) plan(rawURL string) (transfer.Plan, error) {
	opts, err := f.target.options(rawURL, f.cfg)
	if err != nil {
		return transfer.Plan{}, err
	}
	p := opts.Protocol
	if f.n < 1 {
		return transfer.Plan{}, usagef("-n %d: want at least 1", f.n)
	}
	if f.conns < 0 || f.conns > f.n {
		return transfer.Plan{}, usagef("--conns %d: want 1 to -n (%d)", f.conns, f.n)
	}
	if f.timeout <= 0 {
		return transfer.Plan{}, usagef("--timeout %v: want a positive duration, e.g. 30s", f.timeout)
	}
	conns := f.conns
	if conns == 0 && p.Version() == 1 {
		conns = f.n
	}
	if lim := fdlimit.Limit(); lim > 0 && conns+fdlimit.Reserve > lim {
		return transfer.Plan{}, usagef("%d connections need more file descriptors than the limit of %d allows; raise it (ulimit -n) or use fewer connections (--conns)", conns, lim)
	}
	return transfer.Plan{
		URL:         rawURL,
		Transfers:   f.n,
		Conns:       f.conns,
		Client:      opts,
		Timeout:     f.timeout,
		ServerStats: !f.noStats,
	}, nil
}

func runGet(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "get", "URL [flags]")
	var f transferFlags
	f.register(fs)
	pos, err := fs.parse(args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("want one URL, e.g. httpvs get http://127.0.0.1:8080/10g; got %d arguments", len(pos))
	}
	plan, err := f.plan(pos[0])
	if err != nil {
		return err
	}
	return runTransfer(ctx, e, &f, plan)
}

func runPut(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "put", "URL SIZE [flags]")
	var f transferFlags
	f.register(fs)
	pos, err := fs.parse(args)
	if err != nil {
		return err
	}
	if len(pos) != 2 {
		return usagef("want a URL and a size, e.g. httpvs put http://127.0.0.1:8080/sink 1g; got %d arguments", len(pos))
	}
	size, err := parseSizeArg("SIZE", pos[1])
	if err != nil {
		return err
	}
	plan, err := f.plan(pos[0])
	if err != nil {
		return err
	}
	plan.Direction, plan.Size = transfer.Upload, size
	return runTransfer(ctx, e, &f, plan)
}

func runTransfer(ctx context.Context, e *env, f *transferFlags, plan transfer.Plan) error {
	if plan.Client.Protocol == transport.H3 {
		if w := transport.UDPBufferWarning(); w != "" && !f.json {
			fmt.Fprintln(e.stderr, w)
		}
	}
	stopProfile := func() {}
	if f.profile != "" {
		prof, err := newProfiler(f.profile, profileServerURL(plan.URL), nil, e.stderr)
		if err != nil {
			return err
		}
		stopProfile = prof.start(plan.Direction.String())
	}
	res, err := transfer.Run(ctx, plan)
	stopProfile()
	if err != nil {
		return usagef("%v", err)
	}
	if f.json {
		if err := report.JSON(e.stdout, res); err != nil {
			return err
		}
	} else if err := report.Transfer(e.stdout, res); err != nil {
		return err
	}
	if res.Errors.Total == 0 && !res.Interrupted {
		return nil
	}
	// One line on stderr that says what went wrong and what would work.
	fmt.Fprintf(e.stderr, "httpvs %s: %s\n", map[transfer.Direction]string{transfer.Download: "get", transfer.Upload: "put"}[plan.Direction], failureLine(res, plan))
	return errReported
}

// failureLine explains a run's failures in one line, with a hint.
func failureLine(res transfer.Result, plan transfer.Plan) string {
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
	case res.Errors.Timeout > 0 && res.Interrupted:
		hint = fmt.Sprintf("; the run hit --timeout %v", plan.Timeout)
	}
	return fmt.Sprintf("%s of %d transfers failed: %s%s", res.Errors.String(), res.Streams, res.FirstError, hint)
}

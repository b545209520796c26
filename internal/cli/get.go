package cli

import (
	"context"
	"fmt"
	"time"

	"github.com/httpvs/httpvs/config"
	"github.com/httpvs/httpvs/internal/cli/flagset"
	"github.com/httpvs/httpvs/internal/fdlimit"
	"github.com/httpvs/httpvs/internal/profiling"
	"github.com/httpvs/httpvs/internal/render"
	"github.com/httpvs/httpvs/internal/udpbuf"
	"github.com/httpvs/httpvs/report"
	"github.com/httpvs/httpvs/transfer"
	"github.com/httpvs/httpvs/transport"
	"github.com/httpvs/httpvs/units"
)

// transferFlags are the flags get and put share.
type transferFlags struct {
	target             flagset.Target
	n, parallel, conns int
	json               bool
	timeout            time.Duration
	noStats            bool
	profile            string
	header             flagset.Header
	body               flagset.Body // put only
	writeSize          units.Bytes  // put only
	cfg                config.Client
	set                map[string]bool // the flags given
}

func (f *transferFlags) register(fs *flagset.Set, upload bool) {
	f.target.Register(fs)
	fs.IntVar(&f.n, "n", 1, "transfers to run, each one request (default -P, or 1)")
	fs.Alias("n", "requests")
	fs.IntVar(&f.parallel, "P", 0, "transfers at once, a new one starting when one ends: h1 opens a connection for each, h2c/h2/h3 a stream each on one connection, or on more when the server allows fewer streams per connection (default -n: all at once)")
	fs.Alias("P", "parallel")
	fs.IntVar(&f.conns, "c", 0, "spread the transfers over this many connections, 1 to -P (default: one per transfer at once for h1, 1 for h2c/h2/h3)")
	fs.Alias("c", "conns")
	fs.BoolVar(&f.json, "json", false, "print exactly one JSON object")
	fs.DurationVar(&f.timeout, "timeout", 10*time.Minute, "bound on each transfer (its request and whole body)")
	fs.BoolVar(&f.noStats, "no-server-stats", false, "do not read the server's /stats before and after")
	fs.StringVar(&f.profile, "profile", "", "write CPU and heap profiles of the client, and of the server if it is httpvs serve --profiling on http://, to `dir`")
	fs.HeaderVar(&f.header)
	if upload {
		fs.Var(&f.body, "body", "what each transfer uploads, `size|@file`: that many bytes of a pattern (as the SIZE argument), or @FILE, a file's contents (as curl) (default: the SIZE argument; one of the two is needed)")
		fs.Var(&f.writeSize, "write-size", "most bytes the client hands its connection at once, the upload's write chunk `size` (default: the client's own, up to 256Ki)")
	}
	fs.ClientKnobs(&f.cfg)
	fs.Group("what to transfer", "p", "k", "cacert", "H", "body")
	fs.Group("how many and how long", "n", "P", "c", "timeout")
	fs.Group(flagset.InstrumentKnobs, flagset.ClientKnobNames...)
	fs.Group("output", "json", "no-server-stats", "profile")
}

// plan checks the flags against rawURL and builds a transfer plan.
func (f *transferFlags) plan(fs *flagset.Set, rawURL string) (transfer.Plan, error) {
	f.set = fs.Given()
	opts, err := f.target.Options(rawURL, f.cfg)
	if err != nil {
		return transfer.Plan{}, err
	}
	switch {
	case !f.set["P"]:
		f.parallel = f.n
	case !f.set["n"]:
		f.n = f.parallel
	case f.parallel > f.n:
		return transfer.Plan{}, usagef("%s %d: want 1 to -n (%d): more at once than there are transfers", fs.Typed("P"), f.parallel, f.n)
	}
	if f.writeSize > units.GiB {
		return transfer.Plan{}, usagef("--write-size %v: want 1 byte to 1Gi", f.writeSize)
	}
	if f.conns > f.parallel {
		return transfer.Plan{}, usagef("%s %d: want 1 to -P (%d), the transfers at once", fs.Typed("c"), f.conns, f.parallel)
	}
	conns := f.conns
	if conns == 0 && opts.Protocol.Version() == 1 {
		conns = f.parallel
	}
	// get and put are instruments: over h1 they read as curl does, with
	// blocking sockets (the result says so); run measures Go's own I/O.
	opts.BlockingSockets = transfer.BlockingSuits(opts.Protocol, max(conns, 1))
	if lim := fdlimit.Limit(); lim > 0 && conns+fdlimit.Reserve > lim {
		return transfer.Plan{}, usagef("%d connections need more file descriptors than the limit of %d allows; raise it (ulimit -n) or use fewer connections (-c)", conns, lim)
	}
	return transfer.Plan{
		URL:            rawURL,
		Transfers:      f.n,
		Parallel:       f.parallel,
		Conns:          f.conns,
		Client:         opts,
		RequestTimeout: f.timeout,
		Header:         f.header.H,
		WriteSize:      int(f.writeSize),
		ServerStats:    !f.noStats,
	}, nil
}

func runGet(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "get", "URL [flags]")
	var f transferFlags
	f.register(fs, false)
	pos, err := fs.Parse(args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("want one URL, e.g. httpvs get http://127.0.0.1:8080/10g; got %d arguments", len(pos))
	}
	plan, err := f.plan(fs, pos[0])
	if err != nil {
		return err
	}
	return runTransfer(ctx, e, &f, plan)
}

func runPut(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "put", "URL SIZE [flags], or URL --body SIZE|@FILE [flags]")
	var f transferFlags
	f.register(fs, true)
	pos, err := fs.Parse(args)
	if err != nil {
		return err
	}
	bodyGiven := fs.Given()["body"]
	switch {
	case len(pos) == 2 && bodyGiven:
		return usagef("the size is given twice, as SIZE and as --body: give one")
	case len(pos) == 1 && bodyGiven:
	case len(pos) != 2:
		return usagef("want a URL and a size, e.g. httpvs put http://127.0.0.1:8080/sink 1g, or a URL and --body @FILE; got %d arguments", len(pos))
	default:
		if f.body.Size, err = flagset.ParseSize("SIZE", pos[1]); err != nil {
			return err
		}
	}
	plan, err := f.plan(fs, pos[0])
	if err != nil {
		return err
	}
	plan.Direction, plan.Size = transfer.Upload, f.body.Size
	if f.body.File != "" {
		file, size, err := f.body.Open()
		if err != nil {
			return err
		}
		defer file.Close()
		plan.Body, plan.Size = file, size
	}
	return runTransfer(ctx, e, &f, plan)
}

func runTransfer(ctx context.Context, e *env, f *transferFlags, plan transfer.Plan) error {
	if plan.Client.Protocol == transport.H3 {
		if w := udpbuf.Warning(); w != "" && !f.json {
			fmt.Fprintln(e.stderr, w)
		}
	}
	stopProfile := func() {}
	if f.profile != "" {
		prof, err := newProfiler(f.profile, profiling.ProfileServerURL(plan.URL), nil, e.stderr)
		if err != nil {
			return err
		}
		stop := prof.Start(plan.Direction.String())
		stopProfile = func() { stop() }
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
	fmt.Fprintf(e.stderr, "httpvs %s: %s\n", map[transfer.Direction]string{transfer.Download: "get", transfer.Upload: "put"}[plan.Direction], render.TransferFailure(res, plan))
	return errReported
}

package cli

import (
	"context"
	"io"
	"strings"

	"github.com/httpvs/httpvs/config"
	"github.com/httpvs/httpvs/internal/cli/flagset"
	"github.com/httpvs/httpvs/internal/defaults"
	"github.com/httpvs/httpvs/internal/procstat"
	"github.com/httpvs/httpvs/report"
	"github.com/httpvs/httpvs/transfer"
	"github.com/httpvs/httpvs/units"
)

// transferFlags are the flags get and put share.
type transferFlags struct {
	p         transfer.Plan // what the plan takes as the flags give it
	target    flagset.Target
	json      bool
	noStats   bool
	profile   string
	header    flagset.Header
	body      flagset.Body // put only
	writeSize units.Bytes  // put only
	cfg       config.Client
}

func (f *transferFlags) register(fs *flagset.Set, upload bool) {
	f.target.Register(fs)
	fs.IntVar(&f.p.Transfers, "n", 1, "transfers to run, each one request (default -P, or 1)")
	fs.Alias("n", "requests")
	fs.IntVar(&f.p.Parallel, "P", 0, "transfers at once, a new one starting when one ends: h1 opens a connection for each, h2c/h2/h3 a stream each on one connection, or on more when the server allows fewer streams per connection (default -n: all at once)")
	fs.Alias("P", "parallel")
	fs.IntVar(&f.p.Conns, "c", 0, "spread the transfers over this many connections, 1 to -P (default: one per transfer at once for h1, 1 for h2c/h2/h3)")
	fs.Alias("c", "conns")
	fs.BoolVar(&f.json, "json", false, "print exactly one JSON object")
	fs.DurationVar(&f.p.RequestTimeout, "timeout", defaults.TransferTimeout, "bound on each transfer (its request and whole body)")
	fs.BoolVar(&f.noStats, "no-server-stats", false, "do not read the server's /stats before and after")
	fs.StringVar(&f.profile, "profile", "", "write CPU and heap profiles of the client, and of the server if it is httpvs serve --profiling on http://, to `dir`")
	fs.HeaderVar(&f.header)
	if upload {
		fs.Var(&f.body, "body", "what each transfer uploads, `size|@file`: that many bytes of a pattern (as the SIZE argument), or @FILE, a file's contents (as curl) (default: the SIZE argument; one of the two is needed)")
		fs.Var(&f.writeSize, "write-size", "most bytes the client hands its connection at once, the upload's write chunk `size` (default: the client's own, up to 256Ki)")
	}
	fs.ClientKnobs(&f.cfg)
	fs.Fields(map[string]string{"Transfers": "n", "Parallel": "P", "Conns": "c", "WriteSize": "write-size"})
	fs.Group("what to transfer", "p", "k", "cacert", "sni", "H", "body")
	fs.Group("how many and how long", "n", "P", "c", "timeout")
	fs.Group(flagset.InstrumentKnobs, flagset.ClientKnobNames...)
	fs.Group("output", "json", "no-server-stats", "profile")
}

// plan checks the flags against rawURL and builds a transfer plan.
func (f *transferFlags) plan(fs *flagset.Set, rawURL string) (transfer.Plan, error) {
	opts, err := f.target.Options(rawURL, f.cfg)
	if err != nil {
		return transfer.Plan{}, err
	}
	p, set := f.p, fs.Given()
	switch {
	case !set["P"]:
		p.Parallel = p.Transfers
	case !set["n"]:
		p.Transfers = p.Parallel
	}
	p.URL, p.Client, p.Header, p.WriteSize, p.ServerStats = rawURL, opts, f.header.H, int(f.writeSize), !f.noStats
	if _, err := p.Validate(); err != nil {
		return p, usagef("%v", fs.Check(err)) // a bad URL is bad input too
	}
	conns := p.Conns
	if conns == 0 && opts.Protocol.Version() == 1 {
		conns = p.Parallel
	}
	// get and put are instruments: over h1 they read as curl does, with
	// blocking sockets (the result says so); run measures Go's own I/O.
	p.Client.BlockingSockets = flagset.BlockingSockets(opts.Protocol, max(conns, 1))
	if lim := procstat.FileLimit(); lim > 0 && conns+procstat.FileReserve > lim {
		return p, usagef("%d connections need more file descriptors than the limit of %d allows; raise it (ulimit -n) or use fewer connections (-c)", conns, lim)
	}
	return p, nil
}

func runGet(ctx context.Context, e *env, args []string) error {
	return runTransfer(ctx, e, args, false)
}

func runPut(ctx context.Context, e *env, args []string) error { return runTransfer(ctx, e, args, true) }

// runTransfer is get, or put when upload: the transfers the flags and
// arguments ask for, printed, and one line on stderr when any failed.
func runTransfer(ctx context.Context, e *env, args []string, upload bool) error {
	synopsis := "URL [flags]"
	if upload {
		synopsis = "URL SIZE [flags], or URL --body SIZE|@FILE [flags]"
	}
	fs := newFlagSet(e, synopsis)
	var f transferFlags
	f.register(fs, upload)
	pos, err := f.args(fs, args, upload)
	if err != nil {
		return err
	}
	plan, err := f.plan(fs, pos[0])
	if err != nil {
		return err
	}
	if upload {
		plan.Direction, plan.Size = transfer.Upload, f.body.Size
		if f.body.File != "" {
			file, size, err := f.body.Open()
			if err != nil {
				return err
			}
			defer file.Close()
			plan.Body, plan.Size = file, size
		}
	}
	if !f.json {
		e.warnUDP(plan.Client.Protocol)
	}
	stopProfile, err := e.startProfile(f.profile, plan.URL, plan.Direction.String())
	if err != nil {
		return err
	}
	res, err := transfer.Run(ctx, plan)
	stopProfile()
	if err != nil {
		return usagef("%v", err)
	}
	if err := e.print(f.json, res, func(w io.Writer) error { return report.Transfer(w, res) }); err != nil {
		return err
	}
	if res.Errors.Total == 0 && !res.Interrupted {
		return nil
	}
	msg := TransferFailure(res, plan) // what went wrong and what would work
	if hint := sniHint(res.FirstError, plan.URL, plan.Client); hint != "" {
		// Not a certificate to trust: the server sent the alert.
		msg, _, _ = strings.Cut(msg, "; for a self-signed certificate")
		msg += "; " + hint
	}
	return e.fail(msg)
}

// args parses the command line into the flags and the arguments: get's
// URL, or put's URL and SIZE (or --body instead of SIZE, into f.body).
func (f *transferFlags) args(fs *flagset.Set, args []string, upload bool) ([]string, error) {
	if !upload {
		return fs.ParseN(args, 1, "one URL, e.g. httpvs get http://127.0.0.1:8080/10g")
	}
	pos, err := fs.Parse(args)
	if err != nil {
		return nil, err
	}
	bodyGiven := fs.Given()["body"]
	switch {
	case len(pos) == 2 && bodyGiven:
		return nil, usagef("the size is given twice, as SIZE and as --body: give one")
	case len(pos) == 1 && bodyGiven:
	case len(pos) != 2:
		return nil, usagef("want a URL and a size, e.g. httpvs put http://127.0.0.1:8080/sink 1g, or a URL and --body @FILE; got %d arguments", len(pos))
	default:
		if f.body.Size, err = units.ParseBytes(pos[1]); err != nil {
			// Past units' "invalid size", which SIZE says.
			return nil, usagef("SIZE: %v", strings.TrimPrefix(err.Error(), units.ErrSize.Error()+" "))
		}
	}
	return pos, nil
}

package cli

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"time"

	"github.com/httpvs/httpvs/config"
	"github.com/httpvs/httpvs/internal/cli/flagset"
	"github.com/httpvs/httpvs/internal/defaults"
	"github.com/httpvs/httpvs/internal/procstat"
	"github.com/httpvs/httpvs/internal/serverctl"
	"github.com/httpvs/httpvs/load"
	"github.com/httpvs/httpvs/report"
	"github.com/httpvs/httpvs/units"
)

// loadFlags are load's flags: those the load configuration takes as
// they are in lc, the others to read.
type loadFlags struct {
	lc                     load.Config
	target                 flagset.Target
	client                 config.Client
	rate, headers, engine  string
	startAt, share         string
	body                   flagset.Body
	header                 flagset.Header
	asJSON                 bool
	cpuProfile, profileDir string
	maxFailed              float64 // percent
}

func (f *loadFlags) register(fs *flagset.Set) {
	f.target.Register(fs)
	fs.IntVar(&f.lc.Conns, "c", defaults.LoadConns, "connections")
	fs.Alias("c", "conns")
	fs.IntVar(&f.lc.Streams, "m", defaults.LoadStreams, "concurrent requests per connection (h2c, h2, h3 only)")
	fs.Alias("m", "streams")
	fs.Int64Var(&f.lc.Requests, "n", 0, "measured requests (default: as many as -d allows)")
	fs.Alias("n", "requests")
	fs.DurationVar(&f.lc.Duration, "d", defaults.LoadDuration, "measured duration, when -n is not given")
	fs.Alias("d", "duration")
	fs.DurationVar(&f.lc.Warmup, "warmup", 0, "unmeasured run-in before measuring (with --rate, longer by the intervals it takes to hand each connection its first request, so that none is set up in the measured window); 0 for none")
	fs.StringVar(&f.rate, "rate", "", "open loop at this many requests/s (1000, 2.5k); latency from intended send times; with -d, the requests due in it are waited for, at most --timeout more")
	fs.StringVar(&f.lc.Method, "method", "GET", "request method")
	fs.Var(&f.body, "body", "request body, `size|@file`: that many bytes of a pattern, or @FILE, a file's contents (as curl; use with --method POST and /echo or /sink) (default none)")
	fs.HeaderVar(&f.header)
	fs.StringVar(&f.headers, "headers", "", "add N generated headers of LEN characters, as `N:LEN` (the gin post's: 100:100)")
	fs.BoolVar(&f.asJSON, "json", false, "print exactly one JSON object")
	fs.DurationVar(&f.lc.RequestTimeout, "timeout", defaults.LoadRequestTimeout, "bound on each request")
	fs.Float64Var(&f.maxFailed, "max-failed", 100*DefaultMaxFailedShare, "the run fails (exit 1) when more than this `percent` of its requests fail; 100 to never fail on errors")
	fs.StringVar(&f.cpuProfile, "cpuprofile", "", "write a CPU profile of this process during the run to `file`")
	fs.StringVar(&f.profileDir, "profile", "", "write CPU and heap profiles of the client, and of the server if it is httpvs serve --profiling on http://, to `dir`")
	fs.StringVar(&f.startAt, "start-at", "", "wait until this wall-clock `time` (RFC 3339, e.g. 2026-11-23T10:00:00Z) to start, so generators on several machines start together")
	fs.StringVar(&f.share, "share", "", "run part `I/N` of --rate and -n, e.g. 0/3: N generators (a Kubernetes Indexed Job) share one load; merge their results with httpvs merge")
	fs.StringVar(&f.engine, "engine", "auto", "client: std (net/http, quic-go's http3), fast (httpvs's lean h1/h2/h3 client), or auto (fast)")
	fs.ClientKnobs(&f.client)
	fs.Lookup("read-size").Usage = "client body read buffer `size`, one per worker (default: std " + defaults.ReadSize.String() + " as Go as shipped reads; fast " + defaults.LoadReadSize.String() + ", httpvs's generator)"
	fs.Group("what to send", "p", "k", "cacert", "sni", "method", "body", "H", "headers")
	fs.Group("how much and how long", "c", "m", "n", "d", "rate", "warmup", "timeout", "max-failed")
	fs.Group("several generators (httpvs merge)", "share", "start-at")
	fs.Group(flagset.InstrumentKnobs, append([]string{"engine"}, flagset.ClientKnobNames...)...)
	fs.Group("output", "json", "profile", "cpuprofile")
	fs.AllowZero("warmup", "none")
	fs.Fields(map[string]string{"Conns": "c", "Streams": "m", "Requests": "n", "Duration": "d",
		"Warmup": "warmup", "RequestTimeout": "timeout", "Engine": "engine", "BodySize": "body", "Share": "share", "Rate": "rate", "Method": "method"})
}

// config turns the flags and the URL into a checked load configuration.
func (f *loadFlags) config(fs *flagset.Set, rawURL string) (load.Config, error) {
	opts, err := f.target.Options(rawURL, f.client)
	if err != nil {
		return load.Config{}, err
	}
	lc := f.lc
	lc.URL, lc.Client, lc.Header, lc.BodySize = rawURL, opts, f.header.H, f.body.Size
	if f.body.File != "" {
		if lc.Body, err = f.body.ReadAll(); err != nil {
			return load.Config{}, err
		}
		lc.BodySize = units.Bytes(len(lc.Body))
	}
	if lc.Engine, err = flagset.ParseEngine(f.engine); err != nil {
		return load.Config{}, fs.Check(err)
	}
	lc.Engine = lc.Engine.WithHoldP(true) // the server is always another process
	if f.rate != "" {
		if lc.Rate, err = flagset.ParseRate(f.rate); err != nil {
			return load.Config{}, usagef("--rate: %v", err)
		}
	}
	if f.headers != "" {
		if lc.Headers, err = flagset.ParseHeaders(f.headers); err != nil {
			return load.Config{}, usagef("--headers: %v", err)
		}
	}
	if err := f.split(&lc, time.Now()); err != nil {
		return load.Config{}, err
	}
	if f.profileDir != "" && f.cpuProfile != "" {
		return load.Config{}, usagef("--profile and --cpuprofile both profile the CPU: use one")
	}
	if err := lc.Validate(); err != nil {
		return lc, usagef("%v", fs.Check(err)) // a bad URL is bad input too
	}
	return lc, nil
}

// split reads --start-at and --share into lc; now is the time to check
// --start-at against.
func (f *loadFlags) split(lc *load.Config, now time.Time) error {
	if f.share != "" {
		sh, err := flagset.ParseShare(f.share)
		if err != nil {
			return usagef("--share %v", err)
		}
		lc.Share = sh
	}
	if f.startAt != "" {
		at, err := flagset.ParseStartAt(f.startAt, now)
		if err != nil {
			return usagef("--start-at %v", err)
		}
		lc.StartAt = at
	}
	return nil
}

func runLoad(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "URL [flags]")
	var f loadFlags
	f.register(fs)
	pos, err := fs.ParseN(args, 1, "one URL, e.g. httpvs load http://127.0.0.1:8080/small")
	if err != nil {
		return err
	}
	lc, err := f.config(fs, pos[0])
	if err != nil {
		return err
	}
	if f.maxFailed < 0 || f.maxFailed > 100 {
		return usagef("--max-failed %v: want a percentage from 0 to 100", f.maxFailed)
	}
	if msg := procstat.RaiseFileLimit(); msg != "" {
		fmt.Fprintln(e.stderr, msg)
	}
	if lim := procstat.FileLimit(); lim > 0 && lc.Conns+procstat.FileReserve > lim {
		return usagef("-c %d needs more file descriptors than the limit of %d allows; raise it (ulimit -n) or lower -c", lc.Conns, lim)
	}
	var prog *Progress
	if !f.asJSON {
		e.warnUDP(lc.Client.Protocol)
		if IsTerminal(e.stdout) {
			prog = NewProgress(e.stderr)
			lc.Progress = prog.Load
		}
	}
	stopProfile, err := f.startProfiles(e, lc.URL)
	if err != nil {
		return err
	}
	res, err := load.Run(ctx, lc)
	stopProfile()
	prog.Clear()
	if err != nil {
		return usagef("%v", fs.Check(err))
	}
	if err := e.print(f.asJSON, res, func(w io.Writer) error { return report.Load(w, res) }); err != nil {
		return err
	}
	// Why a run that printed its figures still failed, or failed more of
	// its requests than --max-failed allows.
	if msg := cmp.Or(LoadVerdict(res), LoadFailedOver(res, f.maxFailed/100)); msg != "" {
		if hint := sniHint(res.FirstError, lc.URL, lc.Client); hint != "" {
			msg += "; " + hint
		}
		return e.fail(msg)
	}
	return nil
}

// startProfiles starts --cpuprofile or --profile; stop ends them.
func (f *loadFlags) startProfiles(e *env, target string) (stop func(), err error) {
	if f.cpuProfile == "" {
		return e.startProfile(f.profileDir, target, "load")
	}
	stop, err = serverctl.StartCPUFile(f.cpuProfile)
	if err != nil {
		return nil, fmt.Errorf("--cpuprofile: %w", err)
	}
	return stop, nil
}

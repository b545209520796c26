package cli

import (
	"context"
	"fmt"
	"os"
	"runtime/pprof"
	"time"

	"github.com/httpvs/httpvs/internal/fdlimit"
	"github.com/httpvs/httpvs/load"
	"github.com/httpvs/httpvs/report"
	"github.com/httpvs/httpvs/transport"
	"github.com/httpvs/httpvs/units"
)

func runLoad(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "load", "URL [flags]")
	var target targetFlags
	target.register(fs)
	conns := fs.Int("c", 10, "connections")
	streams := fs.Int("m", 1, "concurrent requests per connection (h2c, h2, h3 only)")
	requests := fs.Int64("n", 0, "measured requests; 0 runs for -d instead")
	duration := fs.Duration("d", load.DefaultDuration, "measured duration, when -n is 0")
	warmup := fs.Duration("warmup", 0, "unmeasured run-in before measuring")
	rate := fs.String("rate", "", "open loop at this many requests/s (1000, 2.5k); latency from intended send times")
	method := fs.String("method", "GET", "request method")
	var body units.Bytes
	fs.Var(&body, "body", "request body `size` (use with --method POST and /echo or /sink)")
	headers := fs.String("headers", "", "add N headers of LEN characters, as `N:LEN` (seed 004: 100:100)")
	asJSON := fs.Bool("json", false, "print exactly one JSON object")
	timeout := fs.Duration("timeout", load.DefaultRequestTimeout, "bound on each request")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of this process during the run to `file`")
	profileDir := fs.String("profile", "", "write CPU and heap profiles of the client, and of the server if it is httpvs serve --profiling on http://, to `dir`")
	engine := fs.String("engine", "auto", "client: std (net/http, quic-go), fast (lean h1/h2 client), or auto (fast, std for h3)")
	var cfg transport.ClientConfig
	clientFlags(fs, &cfg)
	pos, err := fs.parse(args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("want one URL, e.g. httpvs load http://127.0.0.1:8080/small; got %d arguments", len(pos))
	}
	opts, err := target.options(pos[0], cfg)
	if err != nil {
		return err
	}
	p := opts.Protocol
	fs.field("Conns", "c")
	fs.field("Streams", "m")
	fs.field("Requests", "n")
	fs.field("Duration", "d")
	fs.field("Warmup", "warmup")
	fs.field("RequestTimeout", "timeout")
	fs.field("BodySize", "body")
	if *duration <= 0 {
		return usagef("-d %v: want a positive duration", *duration)
	}
	if *timeout <= 0 {
		return usagef("--timeout %v: want a positive duration", *timeout)
	}
	lc := load.Config{
		URL: pos[0], Conns: *conns, Streams: *streams, Requests: *requests, Duration: *duration,
		Warmup: *warmup, Method: *method, BodySize: body, RequestTimeout: *timeout, Client: opts,
	}
	switch *engine {
	case "auto":
		lc.Engine = load.Fast.For(p)
	default:
		if lc.Engine, err = load.ParseEngine(*engine); err != nil {
			return usagef("--engine %q: want std, fast or auto", *engine)
		}
	}
	lc.Engine = lc.Engine.WithHoldP(true) // the server is always another process
	if *rate != "" {
		if lc.Rate, err = load.ParseRate(*rate); err != nil {
			return usagef("--rate: %v", err)
		}
	}
	if *headers != "" {
		if lc.Headers, err = load.ParseHeaderSpec(*headers); err != nil {
			return usagef("--headers: %v", err)
		}
	}
	if err := fs.usage(lc.Validate()); err != nil {
		return err
	}
	if msg := fdlimit.Raise(); msg != "" {
		fmt.Fprintln(e.stderr, msg)
	}
	if lim := fdlimit.Limit(); lim > 0 && *conns+fdlimit.Reserve > lim {
		return usagef("-c %d needs more file descriptors than the limit of %d allows; raise it (ulimit -n) or lower -c", *conns, lim)
	}
	if p == transport.H3 && !*asJSON {
		if w := transport.UDPBufferWarning(); w != "" {
			fmt.Fprintln(e.stderr, w)
		}
	}
	if !*asJSON && isTerminal(e.stdout) {
		lc.Progress = func(pr load.Progress) {
			fmt.Fprintf(e.stderr, "\r  %6.1fs  %d done  %.0f req/s  %d errors   ", pr.Elapsed.Seconds(), pr.Done, pr.RequestsPerSecond, pr.Errors)
		}
	}
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			return fmt.Errorf("--cpuprofile: %w", err)
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return fmt.Errorf("--cpuprofile: %w", err)
		}
		defer pprof.StopCPUProfile()
	}
	stopProfile := func() {}
	if *profileDir != "" {
		if *cpuProfile != "" {
			return usagef("--profile and --cpuprofile both profile the CPU: use one")
		}
		prof, err := newProfiler(*profileDir, profileServerURL(lc.URL), e.stderr)
		if err != nil {
			return err
		}
		stopProfile = prof.start("load")
	}
	res, err := load.Run(ctx, lc)
	stopProfile()
	if lc.Progress != nil {
		fmt.Fprint(e.stderr, "\r\033[K")
	}
	if err != nil {
		return usagef("%v", err)
	}
	if *asJSON {
		err = report.JSON(e.stdout, res)
	} else {
		err = report.Load(e.stdout, res)
	}
	if err != nil {
		return err
	}
	switch {
	case res.Requests == 0 && res.Errors.Total == 0 && !res.Interrupted:
		fmt.Fprintf(e.stderr, "httpvs load: no request completed within %v\n", time.Duration(res.Seconds*float64(time.Second)))
		return errReported
	case res.Interrupted:
		fmt.Fprintln(e.stderr, "httpvs load: interrupted: the figures above are what was measured until then")
		return errReported
	case res.Stopped != "":
		fmt.Fprintf(e.stderr, "httpvs load: %s; %d of %d requests failed (%s); the figures above are what was measured until then\n", res.Stopped, res.Errors.Total, res.Requests, res.Errors)
		return errReported
	case res.Errors.Total > 0 && res.Errors.Total == res.Requests:
		fmt.Fprintf(e.stderr, "httpvs load: every request failed (%s): %s\n", res.Errors, res.FirstError)
		return errReported
	}
	return nil
}

// isTerminal reports whether w is a terminal (for live progress).
func isTerminal(w any) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

package cli

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/httpvs/httpvs/internal/childserver"
	"github.com/httpvs/httpvs/internal/cli/flagset"
	"github.com/httpvs/httpvs/internal/defaults"
	"github.com/httpvs/httpvs/internal/pin"
	"github.com/httpvs/httpvs/internal/procstat"
	"github.com/httpvs/httpvs/internal/serverctl"
	"github.com/httpvs/httpvs/transport"
)

func runServe(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "[flags]")
	var sp childserver.Spec
	fs.StringVar(&sp.Listen, "listen", "127.0.0.1:8080", "TCP `address` for h1 and h2c; empty for none")
	fs.StringVar(&sp.TLSListen, "tls-listen", "127.0.0.1:8443", "TCP `address` for h1-tls and h2, and UDP for h3 on the same port; empty for none")
	fs.BoolVar(&sp.NoH3, "no-h3", false, "do not serve h3")
	fs.StringVar(&sp.GRPCListen, "grpc-listen", "127.0.0.1:9090", "TCP `address` for the gRPC ServeHTTP post's gRPC service on grpc-go's own transport; empty for none (it is also served through net/http on the h2c and h2 ports)")
	certFile := fs.String("cert", "", "PEM certificate `file` (default: a self-signed one made at start-up)")
	keyFile := fs.String("key", "", "PEM key `file` for --cert")
	writeCert := fs.String("write-cert", "", "write the certificate as PEM to `file`, for curl --cacert or httpvs get --cacert")
	sp.MaxSize, sp.MaxEcho, sp.MaxBuffered = defaults.MaxSize, defaults.MaxEcho, defaults.MaxBuffered
	fs.Var(&sp.MaxSize, "max-size", "largest download or upload `size` served")
	fs.Var(&sp.MaxEcho, "max-echo", "largest /echo body `size`, held in memory; one declared larger is refused (413) before it is read")
	fs.Var(&sp.MaxBuffered, "max-buffered", "request bodies held in memory at once, over all requests (`size`); past it requests are answered 503")
	fs.StringVar(&sp.Token, "token", os.Getenv(serverctl.TokenEnv), "`token` that POST /stats/reset and /debug/profile/ require (Authorization: Bearer TOKEN); off loopback they are refused without one (default $"+serverctl.TokenEnv+"; prefer the variable: a flag shows in ps)")
	fs.DurationVar(&sp.ReadHeaderTimeout, "read-header-timeout", defaults.ReadHeaderTimeout, "bound on reading a request's headers (slow-loris guard)")
	fs.DurationVar(&sp.IdleTimeout, "idle-timeout", defaults.IdleTimeout, "close keep-alive connections idle this long")
	fs.IntVar(&sp.MaxHeaderBytes, "max-header-bytes", defaults.MaxHeaderBytes, "largest request header block, in bytes")
	fs.IntVar(&sp.MaxConns, "max-conns", childserver.DefaultMaxConns, "connections each TCP listener (cleartext, TLS) holds at once; more wait in the accept queue; 0 for no bound")
	fs.Int64Var(&sp.MinDataRate.BytesPerSecond, "min-rate", defaults.MinDataRate, "slowest a peer may send a request body or take a response, in `bytes` per second, before its connection is closed (Kestrel's MinRequestBodyDataRate and MinResponseDataRate); 0 for no floor")
	fs.DurationVar(&sp.MinDataRate.Grace, "min-rate-grace", defaults.MinDataRateGrace, "how long a peer may stay under --min-rate")
	verbose := fs.Bool("v", false, "log connection errors (TLS handshakes, resets) to stderr")
	fs.BoolVar(&sp.Profiling, "profiling", false, "serve this process's CPU and heap profiles under /debug/profile/ (for run, get and load --profile); they reveal its internals")
	pageFlag := fs.String("page", "", "serve this page at GET /page/ for a browser (run --browser) instead of page-load's: a `dir`ectory with an index.html, its files under /page/, or a HAR file's objects, each made up at its recorded size")
	cpus := fs.String("cpus", "", "run on these `CPUs` only, e.g. 1 or 2-3 (sched_setaffinity, GOMAXPROCS set to match)")
	fs.ServerKnobs("", &sp.Server)
	fs.Alias("v", "verbose")
	fs.Group("where it listens", "listen", "tls-listen", "no-h3", "grpc-listen")
	fs.Group("TLS", "cert", "key", "write-cert")
	fs.Group("limits", "cpus", "max-size", "max-echo", "max-buffered", "max-conns", "max-header-bytes", "read-header-timeout", "idle-timeout", "min-rate", "min-rate-grace")
	fs.Group("what it serves, and to whom", "page", "profiling", "token")
	fs.Group("server knobs (Go's and quic-go's defaults, with 256Ki body writes, unless set)", "write-size", "h2-max-frame", "h2-conn-window", "h2-stream-window", "h2-max-streams", "quic-conn-window", "quic-stream-window", "quic-trace")
	fs.Group("output", "v")
	fs.ZeroIsNone("max-conns", "no bound")
	fs.ZeroIsNone("min-rate", "no floor")
	fs.Fields(map[string]string{"MaxSize": "max-size", "MaxEcho": "max-echo", "MaxBuffered": "max-buffered",
		"ReadHeaderTimeout": "read-header-timeout", "IdleTimeout": "idle-timeout", "MaxHeaderBytes": "max-header-bytes",
		"MaxConns": "max-conns", "MinDataRate.Grace": "min-rate-grace", "Listen": "listen", "TLSListen": "tls-listen", "GRPCListen": "grpc-listen"})
	if _, err := fs.ParseN(args, 0, ""); err != nil {
		return err
	}
	if err := serveSpec(fs, &sp, *certFile, *keyFile, *cpus, *pageFlag); err != nil {
		return err
	}
	if *verbose { // else the server counts them, for the summary
		sp.ErrorLog = log.New(e.stderr, "httpvs serve: ", log.LstdFlags)
	}
	// Beside another httpvs serve on the default gRPC port, a second
	// server with its own --listen starts all the same, its gRPC port in
	// the banner.
	sp.GRPCAnyPortIfTaken = !fs.Given()["grpc-listen"]
	srv, limit, err := sp.Start()
	if limit != "" {
		fmt.Fprintln(e.stderr, limit)
	}
	if err != nil {
		return err
	}
	defer srv.Close()
	if srv.GRPCMoved {
		e.say("%s is taken; native gRPC listens on another port (see below)", sp.GRPCListen)
	}
	if lim, need, short := procstat.FileLimitShort(sp.Config().Transport.MaxConns); short {
		fmt.Fprintf(e.stderr, "warning: the open-file limit is %d, below what --max-conns %d needs (%d); connections past it will be refused: raise it (ulimit -n) or lower --max-conns\n", lim, sp.MaxConns, need)
	}
	if *writeCert != "" {
		if err := os.WriteFile(*writeCert, transport.CertPEM(srv.Transport.Cert()), 0o644); err != nil {
			return fmt.Errorf("write certificate: %w", err)
		}
	}
	ServeBanner(e.stdout, BannerOf(srv, *certFile == "", *writeCert))
	ServeWarnings(e.stderr, srv, sp.Token != "")
	select {
	case <-ctx.Done():
	case err := <-srv.Err():
		return fmt.Errorf("serving: %w", err)
	}
	ServeSummary(e.stdout, srv.Server.Stats(), srv.Transport.Counters().ConnErrors)
	return nil
}

// serveSpec completes sp from the flags that need reading (the
// certificate, --cpus, --page) and refuses, in one line,
// what the server would (named by flag) and what only the flags can get
// wrong.
func serveSpec(fs *flagset.Set, sp *childserver.Spec, certFile, keyFile, cpus, page string) error {
	if (certFile == "") != (keyFile == "") {
		return usagef("--cert and --key go together")
	}
	var err error
	if cpus != "" {
		if sp.CPUs, err = pin.Parse(cpus); err != nil {
			return usagef("--cpus: %v", err)
		}
	}
	if sp.Page, err = readPage(page); err != nil {
		return err
	}
	if err := fs.Check(sp.Validate()); err != nil {
		return err
	}
	if certFile != "" {
		sp.Cert, err = flagset.LoadKeyPair(certFile, keyFile)
	}
	return err
}

package cli

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"os"
	"time"

	"github.com/httpvs/httpvs/internal/certfile"

	"github.com/httpvs/httpvs/internal/render"

	"github.com/httpvs/httpvs/config"
	"github.com/httpvs/httpvs/experiment"
	"github.com/httpvs/httpvs/internal/cli/flagset"
	"github.com/httpvs/httpvs/internal/fdlimit"
	"github.com/httpvs/httpvs/internal/pin"
	"github.com/httpvs/httpvs/server"
	"github.com/httpvs/httpvs/transport"
)

// defaultMaxConns bounds each TCP listener's open connections: far above
// what the scenarios use (100), below common descriptor limits.
const defaultMaxConns = 10000

func runServe(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "serve", "[flags]")
	listen := fs.String("listen", "127.0.0.1:8080", "TCP `address` for h1 and h2c; empty for none")
	tlsListen := fs.String("tls-listen", "127.0.0.1:8443", "TCP `address` for h1-tls and h2, and UDP for h3 on the same port; empty for none")
	noH3 := fs.Bool("no-h3", false, "do not serve h3")
	grpcListen := fs.String("grpc-listen", "127.0.0.1:9090", "TCP `address` for the gRPC ServeHTTP post's gRPC service on grpc-go's own transport; empty for none (it is also served through net/http on the h2c and h2 ports)")
	certFile := fs.String("cert", "", "PEM certificate `file` (default: a self-signed one made at start-up)")
	keyFile := fs.String("key", "", "PEM key `file` for --cert")
	writeCert := fs.String("write-cert", "", "write the certificate as PEM to `file`, for curl --cacert or httpvs get --cacert")
	maxSize := server.DefaultMaxSize
	fs.Var(&maxSize, "max-size", "largest download or upload `size` served")
	maxEcho, maxBuffered := server.DefaultMaxEcho, server.DefaultMaxBuffered
	fs.Var(&maxEcho, "max-echo", "largest /echo body `size`, held in memory; one declared larger is refused (413) before it is read")
	fs.Var(&maxBuffered, "max-buffered", "request bodies held in memory at once, over all requests (`size`); past it requests are answered 503")
	token := fs.String("token", os.Getenv(experiment.TokenEnv), "`token` that POST /stats/reset and /debug/profile/ require (Authorization: Bearer TOKEN); off loopback they are refused without one (default $"+experiment.TokenEnv+"; prefer the variable: a flag shows in ps)")
	readHeaderTimeout := fs.Duration("read-header-timeout", transport.DefaultReadHeaderTimeout, "bound on reading a request's headers (slow-loris guard)")
	idleTimeout := fs.Duration("idle-timeout", transport.DefaultIdleTimeout, "close keep-alive connections idle this long")
	maxHeaderBytes := fs.Int("max-header-bytes", transport.DefaultMaxHeaderBytes, "largest request header block, in bytes")
	maxConns := fs.Int("max-conns", defaultMaxConns, "connections each TCP listener (cleartext, TLS) holds at once; more wait in the accept queue; 0 for no bound")
	minRate := fs.Int64("min-rate", transport.DefaultMinDataRate, "slowest a peer may send a request body or take a response, in `bytes` per second, before its connection is closed (Kestrel's MinRequestBodyDataRate and MinResponseDataRate); 0 for no floor")
	minRateGrace := fs.Duration("min-rate-grace", transport.DefaultMinDataRateGrace, "how long a peer may stay under --min-rate")
	verbose := fs.Bool("v", false, "log connection errors (TLS handshakes, resets) to stderr")
	profiling := fs.Bool("profiling", false, "serve this process's CPU and heap profiles under /debug/profile/ (for run, get and load --profile); they reveal its internals")
	pageFlag := fs.String("page", "", "serve this page at GET /page/ for a browser (run --browser) instead of page-load's: a `dir`ectory with an index.html, its files under /page/, or a HAR file's objects, each made up at its recorded size")
	cpus := fs.String("cpus", "", "run on these `CPUs` only, e.g. 1 or 2-3 (sched_setaffinity, GOMAXPROCS set to match): httpvs run pins its child server this way, apart from its own generator")
	child := fs.Bool("child", false, "run as httpvs run's server: print one JSON line with the URLs, certificate and knobs instead of the banner, and exit when stdin closes")
	var cfg config.Server
	fs.Func(experiment.ServerConfigFlag[2:], "the server's knobs as one JSON `object` (a config.Server), as httpvs run gives its child", func(v string) error { return json.Unmarshal([]byte(v), &cfg) })
	fs.Hide("child", experiment.ServerConfigFlag[2:])
	fs.ServerKnobs("", &cfg)
	fs.Alias("v", "verbose")
	fs.Group("where it listens", "listen", "tls-listen", "no-h3", "grpc-listen")
	fs.Group("TLS", "cert", "key", "write-cert")
	fs.Group("limits", "cpus", "max-size", "max-echo", "max-buffered", "max-conns", "max-header-bytes", "read-header-timeout", "idle-timeout", "min-rate", "min-rate-grace")
	fs.Group("what it serves, and to whom", "page", "profiling", "token")
	fs.Group("server knobs (Go's and quic-go's defaults, with 256Ki body writes, unless set)", "write-size", "h2-max-frame", "h2-conn-window", "h2-stream-window", "h2-max-streams", "quic-conn-window", "quic-stream-window", "quic-trace")
	fs.Group("output", "v")
	fs.AllowZero("max-conns", "min-rate")
	for field, flag := range map[string]string{"MaxSize": "max-size", "MaxEcho": "max-echo", "MaxBuffered": "max-buffered",
		"Transport.ReadHeaderTimeout": "read-header-timeout", "Transport.IdleTimeout": "idle-timeout", "Transport.MaxHeaderBytes": "max-header-bytes",
		"Transport.MaxConns": "max-conns", "Transport.MinDataRate.Grace": "min-rate-grace",
		"Transport.Listen": "listen", "Transport.TLSListen": "tls-listen", "GRPCListen": "grpc-listen"} {
		fs.Field(field, flag)
	}
	pos, err := fs.Parse(args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("serve takes no arguments, got %q", pos[0])
	}
	sc := server.Config{
		Options: server.Options{MaxSize: maxSize, MaxEcho: maxEcho, MaxBuffered: maxBuffered, WriteSize: cfg.EffectiveWriteSize(),
			Profiling: *profiling, Token: *token},
		Transport: transport.ServerOptions{
			Listen:    *listen,
			TLSListen: *tlsListen,
			NoH3:      *noH3,
			Config:    cfg,

			ReadHeaderTimeout: *readHeaderTimeout,
			IdleTimeout:       *idleTimeout,
			MaxHeaderBytes:    *maxHeaderBytes,
			MaxConns:          *maxConns,
			MinDataRate:       minDataRate(*minRate, *minRateGrace),
		},
		GRPCListen:       *grpcListen,
		SampleGoroutines: true,
	}
	if err := checkServe(fs, sc, *certFile, *keyFile, *minRate); err != nil {
		return err
	}
	if err := pinServe(*cpus); err != nil {
		return err
	}
	if sc.Page, err = readPage(*pageFlag); err != nil {
		return err
	}
	if sc.Transport.Cert, err = loadServeCert(*certFile, *keyFile); err != nil {
		return err
	}
	if msg := fdlimit.Raise(); msg != "" {
		fmt.Fprintln(e.stderr, msg)
	}
	if *verbose { // else the server counts them, for the summary
		sc.Transport.ErrorLog = log.New(e.stderr, "httpvs serve: ", log.LstdFlags)
	}
	// Beside another httpvs serve on the default gRPC port, a second
	// server with its own --listen starts all the same, its gRPC port in
	// the banner.
	sc.GRPCAnyPortIfTaken = !fs.Given()["grpc-listen"]
	srv, err := server.Start(sc)
	if err != nil {
		return err
	}
	if srv.GRPCMoved {
		fmt.Fprintf(e.stderr, "httpvs serve: %s is taken; native gRPC listens on another port (see below)\n", sc.GRPCListen)
	}
	if lim, need, short := sc.Transport.FDLimitShort(); short {
		fmt.Fprintf(e.stderr, "warning: the open-file limit is %d, below what --max-conns %d needs (%d); connections past it will be refused: raise it (ulimit -n) or lower --max-conns\n", lim, *maxConns, need)
	}
	defer srv.Close()
	ts, grpcAddr := srv.Transport, srv.GRPCAddr
	if *writeCert != "" {
		if err := os.WriteFile(*writeCert, transport.CertPEM(ts.Cert()), 0o644); err != nil {
			return fmt.Errorf("write certificate: %w", err)
		}
	}
	if *child {
		var cancel context.CancelFunc
		ctx, cancel = untilStdinCloses(ctx)
		defer cancel()
		if err := experiment.Announce(e.stdout, ts, grpcAddr, cfg); err != nil {
			return err
		}
	} else {
		render.ServeBanner(e.stdout, banner(ts, *certFile == "", *writeCert, grpcAddr))
	}
	serveWarnings(e, srv, *child, *token != "")
	select {
	case <-ctx.Done():
	case err := <-srv.Err():
		return fmt.Errorf("serving: %w", err)
	}
	if *child {
		return nil
	}
	render.ServeSummary(e.stdout, srv.Stats(), ts.ConnErrors())
	return nil
}

// loadServeCert loads --cert and --key; the zero certificate when
// --cert is not given, for which the server makes a self-signed one.
func loadServeCert(certFile, keyFile string) (tls.Certificate, error) {
	if certFile == "" {
		return tls.Certificate{}, nil
	}
	return certfile.LoadKeyPair(certFile, keyFile)
}

// untilStdinCloses returns a context cancelled when stdin reaches EOF:
// as httpvs run's child, the parent holds the other end, so EOF means it
// is gone and the server should stop.
func untilStdinCloses(ctx context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(ctx)
	go func() {
		io.Copy(io.Discard, os.Stdin)
		cancel()
	}()
	return ctx, cancel
}

// checkServe refuses, in one line, serve's flags out of range: what
// server.Config.Validate refuses, named by flag, and what only the flags
// can get wrong.
func checkServe(fs *flagset.Set, sc server.Config, certFile, keyFile string, minRate int64) error {
	switch {
	case (certFile == "") != (keyFile == ""):
		return usagef("--cert and --key go together")
	case minRate < 0: // the library's negative rate is off: the flag's is 0
		return usagef("--min-rate %d: want 0 (no floor) or more bytes per second", minRate)
	}
	if err := fs.Check(config.WithinField("Server", sc.Transport.Config.Validate())); err != nil {
		return err
	}
	return fs.Check(sc.Validate())
}

// minDataRate is --min-rate and --min-rate-grace as a transport floor;
// --min-rate 0 turns it off.
func minDataRate(rate int64, grace time.Duration) transport.MinDataRate {
	if rate == 0 {
		rate = -1
	}
	return transport.MinDataRate{BytesPerSecond: rate, Grace: grace}
}

// serveWarnings warns of listeners anyone may reach, and of UDP buffers too
// small for quic-go.
func serveWarnings(e *env, srv *server.Running, child, token bool) {
	exposed := srv.BeyondLoopback()
	for _, addr := range exposed {
		fmt.Fprintf(e.stderr, "warning: listening on %s, which is not a loopback address: anyone who can reach it can download and upload through this server\n", addr)
	}
	if len(exposed) > 0 && !token && !child {
		fmt.Fprintf(e.stderr, "httpvs serve: POST /stats/reset and /debug/profile/ are refused beyond loopback without a token: set %s (or --token) here and for the clients that need them\n", experiment.TokenEnv)
	}
	if srv.Transport.Has(transport.H3) && !child {
		if w := transport.UDPBufferWarning(); w != "" {
			fmt.Fprintln(e.stderr, w)
		}
	}
}

// banner is what render.ServeBanner says of ts.
func banner(ts *transport.Server, selfSigned bool, certPath, grpcAddr string) render.Banner {
	b := render.Banner{Version: version(), PID: os.Getpid(), Plain: ts.URL(transport.H1), TLS: ts.URL(transport.H2),
		H3: ts.URL(transport.H3), SelfSigned: selfSigned, CertPath: certPath, GRPC: grpcAddr}
	if ts.Has(transport.H2) {
		b.Fingerprint = certfile.Fingerprint(ts.Cert())
	}
	return b
}

// pinServe binds this process to the CPUs --cpus lists, for as long as it
// serves; "" leaves it where it is.
func pinServe(list string) error {
	if list == "" {
		return nil
	}
	cpus, err := pin.Parse(list)
	if err != nil {
		return usagef("--cpus: %v", err)
	}
	if _, err := pin.Self(cpus); err != nil {
		return fmt.Errorf("--cpus %s: %w", list, err)
	}
	return nil
}

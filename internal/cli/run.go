package cli

import (
	"context"
	"fmt"
	"time"

	"github.com/httpvs/httpvs/report"
	"github.com/httpvs/httpvs/server"
	"github.com/httpvs/httpvs/transfer"
	"github.com/httpvs/httpvs/transport"
	"github.com/httpvs/httpvs/units"
)

// runRun starts a payload server in this process on loopback ephemeral
// ports and downloads the same body once over every transport, printing
// each one's throughput and its ratio to h1.
func runRun(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "run", "[flags]")
	size := units.GB
	fs.Var(&size, "size", "body `size` downloaded over each transport")
	protoList := fs.String("protocols", "all", "comma-separated transports to compare (h1, h2c, h1-tls, h2, h3) or all")
	asJSON := fs.Bool("json", false, "print one JSON object instead of the table")
	timeout := fs.Duration("timeout", 2*time.Minute, "bound on each transport's download")
	var ccfg transport.ClientConfig
	var scfg transport.ServerConfig
	clientFlags(fs, &ccfg)
	serverFlags(fs, "server-", &scfg)
	pos, err := fs.parse(args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("run takes no arguments, got %q", pos[0])
	}
	protos, err := transport.ParseList(*protoList)
	if err != nil {
		return usagef("--protocols: %v", err)
	}
	if size <= 0 {
		return usagef("--size must be positive")
	}
	if *timeout <= 0 {
		return usagef("--timeout %v: want a positive duration", *timeout)
	}
	if err := ccfg.Validate(); err != nil {
		return usagef("%v", err)
	}
	if err := scfg.Validate(); err != nil {
		return usagef("%v", err)
	}

	payload := server.New(server.Options{WriteSize: scfg.EffectiveWriteSize()})
	ts, err := transport.NewServer(transport.ServerOptions{
		Handler:   payload.Handler(),
		Listen:    "127.0.0.1:0",
		TLSListen: "127.0.0.1:0",
		Config:    scfg,
	})
	if err != nil {
		return err
	}
	defer ts.Close()
	payload.Attach(ts)
	if w := transport.UDPBufferWarning(); w != "" && !*asJSON {
		fmt.Fprintln(e.stderr, w)
	}
	if !*asJSON {
		fmt.Fprintf(e.stdout, "httpvs run: one %s download per transport from an in-process server on loopback\n", size)
	}

	var (
		results []transfer.Result
		plans   []transfer.Plan
	)
	for _, p := range protos {
		if ctx.Err() != nil {
			break
		}
		plan := transfer.Plan{
			URL:         ts.URL(p) + "/bytes/" + size.String(),
			Transfers:   1,
			Client:      transport.ClientOptions{Protocol: p, Config: ccfg, RootCAs: transport.CertPool(ts.Cert())},
			Timeout:     *timeout,
			ServerStats: true,
		}
		res, err := transfer.Run(ctx, plan)
		if err != nil {
			return err
		}
		results, plans = append(results, res), append(plans, plan)
	}
	if *asJSON {
		err = report.JSON(e.stdout, map[string]any{"size": int64(size), "results": results})
	} else {
		err = report.Compare(e.stdout, results)
	}
	if err != nil {
		return err
	}
	for i, r := range results {
		if r.Errors.Total > 0 || r.Interrupted {
			fmt.Fprintf(e.stderr, "httpvs run: %s: %s\n", r.Requested, failureLine(r, plans[i]))
			return errReported
		}
	}
	if ctx.Err() != nil {
		fmt.Fprintln(e.stderr, "httpvs run: interrupted: the table above holds the transports measured until then")
		return errReported
	}
	return nil
}

package cli

import (
	"errors"
	"strings"

	"github.com/httpvs/httpvs/internal/matrix"
	"github.com/httpvs/httpvs/plan"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/transport"
)

// resolveTargets reconciles the hosts the requests name (a targets file's
// "GET http://host/path") with --target and --tls-target: without either,
// the one http and the one https server the requests name become them (as
// vegeta sends each request to its own URL); with them, a request naming
// another server is refused, since httpvs sends every request to the
// target. Requests written as paths go wherever the run goes.
func (f *runFlags) resolveTargets(reqs []results.Request) error {
	var (
		oe *matrix.OriginsError
		fe *matrix.ForeignOriginError
	)
	if f.external() {
		err := matrix.CheckRequestTarget(reqs, plan.Target{Plain: f.target, TLS: f.tlsTarget})
		if errors.As(err, &fe) {
			return usagef("%s names the server %s, not the target (%s): httpvs sends every request to the target; write the request as a path or name the same host and port",
				requestSource(f), fe.URL, strings.TrimSpace(f.target+" "+f.tlsTarget))
		}
		return err
	}
	plain, tls, err := matrix.RequestTarget(reqs)
	if errors.As(err, &oe) {
		return usagef("%s names %d servers (%s): httpvs measures one at a time; give --target, or one server's requests", requestSource(f), len(oe.Origins), strings.Join(oe.Origins, ", "))
	} else if err != nil {
		return err
	}
	f.target, f.tlsTarget = plain, tls
	return nil
}

// requestSource names the flag the requests came from.
func requestSource(f *runFlags) string {
	if f.requests.file != "" {
		return "--requests " + f.requests.file
	}
	return "--request"
}

// protocolList is --protocols: all is none named, which the experiment
// takes as every transport, or those --target and --tls-target serve.
func (f *runFlags) protocolList() ([]transport.Protocol, error) {
	if f.protocols == "all" {
		return nil, nil
	}
	protos, err := transport.ParseList(f.protocols)
	if err != nil {
		return nil, usagef("--protocols: %v", err)
	}
	return protos, nil
}

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
	if f.target != "" || f.tlsTarget != "" {
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

// protocolList is --protocols against the targets given: with --target
// or --tls-target, "all" means the transports those serve, and a
// transport named whose target is missing is refused.
func (f *runFlags) protocolList() ([]transport.Protocol, error) {
	protos, err := transport.ParseList(f.protocols)
	if err != nil {
		return nil, usagef("--protocols: %v", err)
	}
	if f.target == "" && f.tlsTarget == "" {
		return protos, nil
	}
	var kept []transport.Protocol
	for _, p := range protos {
		switch {
		case p.TLS() && f.tlsTarget != "", !p.TLS() && f.target != "":
			kept = append(kept, p)
		case f.protocols == "all":
		case p.TLS():
			return nil, usagef("--protocols %s: %s needs --tls-target https://host:port (--target is cleartext: h1, h2c)", f.protocols, p)
		default:
			return nil, usagef("--protocols %s: %s needs --target http://host:port (--tls-target serves h1-tls, h2, h3)", f.protocols, p)
		}
	}
	return kept, nil
}

// targetScenarios are the scenarios of a run against --target or
// --tls-target with the user's requests and no --scenarios: those
// requests alone, as the user asked about their server.
func (f *runFlags) targetScenarios(set map[string]bool, reqs []results.Request) ([]plan.Scenario, bool) {
	if set["scenarios"] || len(reqs) == 0 || (f.target == "" && f.tlsTarget == "") {
		return nil, false
	}
	return plan.RequestScenarios(reqs), true
}

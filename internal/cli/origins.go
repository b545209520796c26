package cli

import (
	"maps"
	"net"
	"net/url"
	"slices"
	"strings"

	"github.com/httpvs/httpvs/matrix"
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
	plain, tls := map[string]bool{}, map[string]bool{}
	for _, r := range reqs {
		if r.Origin == "" {
			continue
		}
		if f.target != "" || f.tlsTarget != "" {
			if !sameServer(r.Origin, f.target) && !sameServer(r.Origin, f.tlsTarget) {
				return usagef("%s names the server %s, not the target (%s): httpvs sends every request to the target; write the request as a path or name the same host and port",
					requestSource(f), r.Origin+r.Path, strings.TrimSpace(f.target+" "+f.tlsTarget))
			}
			continue
		}
		o := withPort(r.Origin)
		if strings.HasPrefix(o, "https://") {
			tls[o] = true
		} else {
			plain[o] = true
		}
	}
	for _, set := range []map[string]bool{plain, tls} {
		if len(set) > 1 {
			names := slices.Sorted(maps.Keys(set))
			return usagef("%s names %d servers (%s): httpvs measures one at a time; give --target, or one server's requests", requestSource(f), len(names), strings.Join(names, ", "))
		}
	}
	for o := range plain {
		f.target = o
	}
	for o := range tls {
		f.tlsTarget = o
	}
	return nil
}

// requestSource names where the requests came from, for messages.
func requestSource(f *runFlags) string {
	if f.requests.file != "" {
		return "--requests " + f.requests.file
	}
	return "--request"
}

// withPort is origin with its scheme's port made explicit, and an empty
// host (vegeta's "http://:6060") as loopback.
func withPort(origin string) string {
	u, err := url.Parse(origin)
	if err != nil {
		return origin
	}
	host, port := u.Hostname(), u.Port()
	if host == "" {
		host = "127.0.0.1"
	}
	if port == "" {
		port = "80"
		if u.Scheme == "https" {
			port = "443"
		}
	}
	return u.Scheme + "://" + net.JoinHostPort(host, port)
}

// sameServer says whether origin and base name the same host and port;
// loopback names (localhost, 127.0.0.1, ::1, none) are one.
func sameServer(origin, base string) bool {
	if base == "" {
		return false
	}
	a, errA := url.Parse(withPort(origin))
	b, errB := url.Parse(withPort(strings.TrimSuffix(base, "/")))
	if errA != nil || errB != nil {
		return false
	}
	return a.Port() == b.Port() && (strings.EqualFold(a.Hostname(), b.Hostname()) || (loopback(a.Hostname()) && loopback(b.Hostname())))
}

func loopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
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
func (f *runFlags) targetScenarios(set map[string]bool, reqs []results.Request) ([]matrix.Scenario, bool) {
	if set["scenarios"] || len(reqs) == 0 || (f.target == "" && f.tlsTarget == "") {
		return nil, false
	}
	return matrix.RequestScenarios(reqs), true
}

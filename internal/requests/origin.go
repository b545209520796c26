package requests

import (
	"fmt"
	"net"
	"net/url"
	"slices"
	"strings"

	"github.com/httpvs/httpvs/internal/dial"
	"github.com/httpvs/httpvs/plan"
	"github.com/httpvs/httpvs/results"
)

// OriginsError is requests naming more than one server of a kind
// (cleartext or TLS): a run measures one at a time.
type OriginsError struct {
	Origins []string // the servers named, scheme://host:port, sorted
}

func (e *OriginsError) Error() string {
	return fmt.Sprintf("the requests name %d servers (%s): one is measured at a time", len(e.Origins), strings.Join(e.Origins, ", "))
}

// ForeignOriginError is a request naming another server than the
// target it is sent to.
type ForeignOriginError struct {
	URL string // the request as written: origin and path
}

func (e *ForeignOriginError) Error() string {
	return fmt.Sprintf("%s names another server than the target", e.URL)
}

// RequestTarget returns the target that reqs name with their absolute
// URLs: the one cleartext origin (plain) and the one TLS origin (tls),
// each "scheme://host:port" with the scheme's port made explicit, or
// "" when no request names one. Requests written as paths name none;
// loopback names (localhost, 127.0.0.1, ::1) on one port are one server,
// the first spelling kept. More than one server of a kind is an
// *OriginsError.
func RequestTarget(reqs []results.Request) (plain, tls string, err error) {
	var origins [2][]string // cleartext, TLS: the first spelling of each server
	for _, r := range reqs {
		if r.Origin == "" {
			continue
		}
		o := withPort(r.Origin)
		i := 0
		if strings.HasPrefix(o, "https://") {
			i = 1
		}
		if !slices.ContainsFunc(origins[i], func(seen string) bool { return sameServer(o, seen) }) {
			origins[i] = append(origins[i], o)
		}
	}
	for _, named := range origins {
		if len(named) > 1 {
			return "", "", &OriginsError{Origins: slices.Sorted(slices.Values(named))}
		}
	}
	if len(origins[0]) == 1 {
		plain = origins[0][0]
	}
	if len(origins[1]) == 1 {
		tls = origins[1][0]
	}
	return plain, tls, nil
}

// ResolveTarget is the target that the requests reqs go to: t, when it
// names a server, against which a request naming another server is an
// error (CheckRequestTarget: httpvs sends every request to the target);
// else the servers the requests name (RequestTarget), as vegeta sends
// each request to its own URL. Requests written as paths go wherever
// the run goes.
func ResolveTarget(reqs []results.Request, t plan.Target) (plan.Target, error) {
	if t.Plain != "" || t.TLS != "" {
		return t, CheckRequestTarget(reqs, t)
	}
	var err error
	t.Plain, t.TLS, err = RequestTarget(reqs)
	return t, err
}

// CheckRequestTarget refuses, as a *ForeignOriginError, the first of
// reqs whose absolute URL names another server than the target t (its
// Plain or its TLS base URL). Loopback names (localhost, 127.0.0.1, ::1)
// are one host; a URL without a port has its scheme's.
func CheckRequestTarget(reqs []results.Request, t plan.Target) error {
	for _, r := range reqs {
		if r.Origin != "" && !sameServer(r.Origin, t.Plain) && !sameServer(r.Origin, t.TLS) {
			return &ForeignOriginError{URL: r.Origin + r.Path}
		}
	}
	return nil
}

// withPort returns origin with its scheme's port when it names none, and
// 127.0.0.1 for no host.
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

// sameServer says whether origin and the base URL base name the same
// server: the same port, and the same host or loopback for both.
func sameServer(origin, base string) bool {
	if base == "" {
		return false
	}
	a, errA := url.Parse(withPort(origin))
	b, errB := url.Parse(withPort(strings.TrimSuffix(base, "/")))
	if errA != nil || errB != nil {
		return false
	}
	return a.Port() == b.Port() && (strings.EqualFold(a.Hostname(), b.Hostname()) || (dial.LoopbackHost(a.Hostname()) && dial.LoopbackHost(b.Hostname())))
}

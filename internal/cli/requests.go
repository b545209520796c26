package cli

import (
	"bytes"
	"errors"
	"slices"
	"strings"

	"github.com/httpvs/httpvs/internal/cli/flagset"
	"github.com/httpvs/httpvs/internal/requests"
	"github.com/httpvs/httpvs/internal/runfiles"
	"github.com/httpvs/httpvs/plan"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/transport"
)

// requestFlags are run's flags for the user's own requests: --request
// (repeatable), --requests FILE and --body for the --request lines.
type requestFlags struct {
	lines []results.Request // --request's, each read as given
	file  string
	body  flagset.Body
}

func registerRequests(fs *flagset.Set, f *requestFlags) {
	fs.Func("request", "measure your own `request` too, e.g. 'GET /api/items?id=7' (repeatable), one at a time and 50 at a time over every transport, as the scenarios request-1, request-1-x50, ...; with --target, against your server", func(line string) error {
		req, err := requests.ParseRequest(line)
		if err != nil {
			return err
		}
		f.lines = append(f.lines, req)
		return nil
	})
	fs.StringVar(&f.file, "requests", "", "measure the requests in `file`, in vegeta's targets format (\"GET http://host/path\", header lines, \"@FILE\" for a body, read from the working directory as vegeta does; # comments); without --target, the server the file names is the target; with it, the file's hosts must be the target's")
	fs.Var(&f.body, "body", "with --request: each request's body, `size|@file`: that many bytes of a pattern, or @FILE, a file's contents (with -H for its Content-Type) (default none)")
}

// requests are the user's requests, from --request and --requests.
func (f *requestFlags) requests(given map[string]bool) ([]results.Request, error) {
	var out []results.Request
	body, err := f.bodyBytes(given["body"])
	if err != nil {
		return nil, err
	}
	if given["body"] && len(f.lines) == 0 {
		return nil, usagef("--body is the body of --request's requests: give --request 'POST /path' with it (a --requests file names its bodies with @FILE lines)")
	}
	for _, req := range f.lines {
		if body != nil {
			requests.SetBody(&req, body)
		}
		out = append(out, req)
	}
	if f.file != "" {
		reqs, err := requests.ReadTargetsFile(f.file)
		if err != nil {
			return nil, usagef("--requests %s: %v", f.file, runfiles.UnwrapPath(err))
		}
		out = append(out, reqs...)
	}
	return out, nil
}

// bodyBytes is --body's content: a file's (ReadAll: up to 1Gi), or SIZE
// bytes of a pattern.
func (f *requestFlags) bodyBytes(given bool) ([]byte, error) {
	switch {
	case !given:
		return nil, nil
	case f.body.File != "":
		return f.body.ReadAll()
	}
	return bytes.Repeat([]byte("httpvs"), int(f.body.Size)/6+1)[:f.body.Size], nil
}

// scenarioList is --scenarios with the user's requests reqs, whose
// scenarios come last; the group "requests" alone runs only them. Not
// given: the experiment's default, with the requests (Options.Requests).
func (f *runFlags) scenarioList(set map[string]bool, reqs []results.Request) ([]plan.Scenario, error) {
	if !set["scenarios"] {
		return nil, nil
	}
	names := strings.Split(f.scenarios, ",")
	if slices.Contains(names, requests.RequestGroup) && len(reqs) == 0 {
		return nil, usagef("--scenarios %s: no request given: add --request 'GET /path' or --requests FILE", requests.RequestGroup)
	}
	names = slices.DeleteFunc(names, func(n string) bool { return strings.TrimSpace(n) == requests.RequestGroup })
	mine := plan.RequestScenarios(reqs)
	if len(names) == 0 {
		return mine, nil
	}
	scenarios, err := plan.ParseScenarios(strings.Join(names, ","))
	if err != nil {
		return nil, usagef("--scenarios: %v", err)
	}
	return append(scenarios, mine...), nil
}

// resolveTargets settles the target the requests go to, as the
// experiment does (requests.ResolveTarget), before the flags that depend
// on it are checked; a request naming another server than --target, or
// requests naming several, are refused naming the flag they came from.
func (f *runFlags) resolveTargets(reqs []results.Request) (err error) {
	var (
		oe *requests.OriginsError
		fe *requests.ForeignOriginError
	)
	given := strings.TrimSpace(f.xo.Target.Plain + " " + f.xo.Target.TLS)
	f.xo.Target, err = requests.ResolveTarget(reqs, f.xo.Target)
	switch {
	case errors.As(err, &fe):
		return usagef("%s names the server %s, not the target (%s): httpvs sends every request to the target; write the request as a path or name the same host and port", requestSource(f), fe.URL, given)
	case errors.As(err, &oe):
		return usagef("%s names %d servers (%s): httpvs measures one at a time; give --target, or one server's requests", requestSource(f), len(oe.Origins), strings.Join(oe.Origins, ", "))
	}
	f.xo.Requests = reqs
	return err
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

// Package cli is httpvs's command line: it turns subcommands and flags into
// the library's config structs, runs them, and prints with the report
// package. It is the only package that writes to stdout and stderr or
// chooses exit codes.
package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/httpvs/httpvs/internal/buildinfo"
	"github.com/httpvs/httpvs/internal/cli/flagset"
)

// Exit codes.
const (
	exitOK      = 0 // success
	exitFailure = 1 // a runtime failure: unreachable server, failed transfers
	exitUsage   = 2 // bad flags, arguments or URLs
)

type command struct {
	name, summary string
	run           func(ctx context.Context, env *env, args []string) error
}

var commands = []command{
	{"serve", "serve the payload over h1, h2c (one TCP port), h1-tls, h2 (TLS port) and h3 (UDP, same port)", runServe},
	{"get", "download URL over one transport: -n transfers, -P at a time", runGet},
	{"put", "upload SIZE bytes (or --body @FILE) to URL over one transport: -n transfers, -P at a time", runPut},
	{"load", "send many requests over one transport: closed loop (-c x -m) or open loop (--rate)", runLoad},
	{"run", "run every scenario over every transport against a child server on loopback, and write a report", runRun},
	{"compare", "compare two runs' results.json cell by cell, with significance", runCompare},
	{"history", "follow cells' ratios to the baseline across several results.json: a table, and an SVG picture with intervals", runHistory},
	{"explain", "say where each slower cell's extra CPU went, from a run made with --profile", runExplain},
	{"merge", "merge load --json results from several generators: counts summed, histograms merged exactly", runMerge},
	{"tune", "search h2c, h2 and h3 download knobs for the configuration closest to h1, and print the Go to paste", runTune},
	{"version", "print the module version, VCS revision and time, and Go version (also httpvs --version)", runVersion},
}

// env is what a subcommand writes to, and its name, which its lines on
// stderr start with.
type env struct {
	stdout, stderr io.Writer
	name           string
}

// say writes one line on stderr: "httpvs NAME: " and what format makes.
func (e *env) say(format string, args ...any) {
	fmt.Fprintf(e.stderr, "httpvs %s: %s\n", e.name, fmt.Sprintf(format, args...))
}

// newFlagSet is the command's flag set, printing its -h to the command's
// stdout.
func newFlagSet(e *env, synopsis string) *flagset.Set {
	return flagset.New(e.name, synopsis, e.stdout)
}

// print writes v to stdout as exactly one JSON object when asJSON, else
// as text writes it.
func (e *env) print(asJSON bool, v any, text func(io.Writer) error) error {
	if asJSON {
		return writeJSON(e.stdout, v)
	}
	return text(e.stdout)
}

// fail says each line and returns errReported (exit 1); nil for none.
func (e *env) fail(lines ...string) error {
	for _, line := range lines {
		e.say("%s", line)
	}
	if len(lines) == 0 {
		return nil
	}
	return errReported
}

// Main runs the httpvs command line with args (without the program name)
// and returns the process exit code.
func Main(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	// httpvs prints its own one-line UDP buffer warning (udpbuf.Warning).
	os.Setenv("QUIC_GO_DISABLE_RECEIVE_BUFFER_WARNING", "true")
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" || args[0] == "-help" {
		if len(args) > 1 {
			return Main(ctx, []string{args[1], "-h"}, stdout, stderr)
		}
		usage(stdout)
		if len(args) == 0 {
			return exitUsage
		}
		return exitOK
	}
	if args[0] == "--version" || args[0] == "-version" || args[0] == "-V" {
		args = append([]string{"version"}, args[1:]...)
	}
	for _, c := range commands {
		if c.name == args[0] {
			e := &env{stdout: stdout, stderr: stderr, name: c.name}
			return signalExit(ctx, finish(e, c.run(ctx, e, args[1:])))
		}
	}
	if near := flagset.Nearest(args[0], commandList()); near != "" {
		fmt.Fprintf(stderr, "httpvs: unknown command %q: did you mean %s? (see httpvs help)\n", args[0], near)
		return exitUsage
	}
	fmt.Fprintf(stderr, "httpvs: unknown command %q: want one of %s (see httpvs help)\n", args[0], commandNames())
	return exitUsage
}

// commandList is the commands' names, in help's order.
func commandList() []string {
	names := make([]string, len(commands))
	for i, c := range commands {
		names[i] = c.name
	}
	return names
}

func commandNames() string { return strings.Join(commandList(), ", ") }

func usage(w io.Writer) {
	fmt.Fprintln(w, "httpvs: is HTTP/2 (or HTTP/3) faster or slower than HTTP/1.1 for your workload?")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "usage: httpvs <command> [flags] [arguments]")
	fmt.Fprintln(w)
	for _, c := range commands {
		fmt.Fprintf(w, "  %-8s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Transports: h1, h2c, h1-tls, h2, h3. Sizes: 10000000000, 10g, 100MB, 64Ki.")
	fmt.Fprintln(w, "Run 'httpvs <command> -h' for a command's flags.")
}

// usagef is bad input (a *flagset.UsageError): it exits with code 2.
func usagef(format string, args ...any) error {
	return flagset.Usagef(format, args...)
}

// errReported means the command already printed its failure; exit 1.
var errReported = errors.New("reported")

// exitCode is an exit code already explained on stderr, by a command
// this one ran in its place (inUserNS).
type exitCode int

func (c exitCode) Error() string { return fmt.Sprintf("exit status %d", int(c)) }

func finish(e *env, err error) int {
	var (
		ue   *flagset.UsageError
		code exitCode
	)
	switch {
	case err == nil, errors.Is(err, flagset.ErrHelp):
		return exitOK
	case errors.As(err, &code):
		return int(code)
	case errors.Is(err, errReported):
		return exitFailure
	case errors.As(err, &ue):
		e.say("%s (see httpvs %s -h)", ue.Msg, e.name)
		return exitUsage
	default:
		e.say("%v", err)
		return exitFailure
	}
}

func runVersion(_ context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "[flags]")
	asJSON := fs.Bool("json", false, "print exactly one JSON object")
	if _, err := fs.ParseN(args, 0, ""); err != nil {
		return err
	}
	build := buildinfo.ReadBuild()
	return e.print(*asJSON, build, func(w io.Writer) error {
		_, err := fmt.Fprintln(w, build)
		return err
	})
}

// signalExit is the exit code of a command that did not succeed because
// a signal ended ctx (signalExitCode); code otherwise.
func signalExit(ctx context.Context, code int) int {
	if c, ok := signalExitCode(ctx); ok && code != exitOK {
		return c
	}
	return code
}

// writeJSON writes v as indented JSON, a line at the end.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"strings"

	"github.com/httpvs/httpvs/config"
	"github.com/httpvs/httpvs/experiment"
	"github.com/httpvs/httpvs/load"
	"github.com/httpvs/httpvs/transport"
	"github.com/httpvs/httpvs/units"
)

// flagSet is a flag.FlagSet that reports errors to the caller instead of
// printing or exiting, and prints its usage to stdout only on -h.
type flagSet struct {
	*flag.FlagSet
	help func()
	// fields maps the Go field paths the libraries name in their
	// *config.FieldError ("Conns", "Client.ReadSize") to this command's
	// flags, so that an error names what the user typed.
	fields map[string]string
	// aliases maps a flag's other spellings to its primary name (-c and
	// --conns); zeroOK names the flags that may be given as 0; gone maps
	// a flag this command refuses to the line that names its successor.
	aliases map[string]string
	zeroOK  map[string]bool
	gone    map[string]string
	// hidden names the flags help leaves out: another command's, not a
	// user's (serve --child, which run gives its child).
	hidden map[string]bool
	// groups order help by purpose: each a title and its flags' primary
	// names; flags in none are listed last, under "other".
	groups []flagGroup
	// name and synopsis are the command's, as its usage line shows them.
	name, synopsis string
}

// flagGroup is a heading of help and the flags under it.
type flagGroup struct {
	title string
	names []string
}

// group puts the named flags under title in help, in the order given.
func (fs *flagSet) group(title string, names ...string) {
	fs.groups = append(fs.groups, flagGroup{title, names})
}

// hide leaves the named flags out of help; they still parse.
func (fs *flagSet) hide(names ...string) {
	if fs.hidden == nil {
		fs.hidden = map[string]bool{}
	}
	for _, n := range names {
		fs.hidden[n] = true
	}
}

// field records that flag sets the library field at path.
func (fs *flagSet) field(path, flag string) {
	if fs.fields == nil {
		fs.fields = map[string]string{}
	}
	fs.fields[path] = flag
}

// dash returns a flag's name as typed: -c, --read-size.
func dash(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// usage turns a library's validation error into a usage error naming this
// command's flags; other errors pass through unchanged.
func (fs *flagSet) usage(err error) error {
	var (
		fe *config.FieldError
		se *transport.SchemeError
		ue *load.UnsupportedError
	)
	switch {
	case err == nil:
		return nil
	case errors.As(err, &fe):
		name, ok := fs.fields[fe.Field]
		if !ok {
			return usagef("%v", fe)
		}
		return usagef("%s %v: want %s", dash(name), fe.Value, fe.Want)
	case errors.As(err, &se):
		return schemeUsage(se)
	case errors.As(err, &ue):
		// Only the fast engine can refuse a transport: std speaks them all.
		return usagef("--engine fast does not speak %s: use --engine std (or auto) for it", ue.Protocol)
	case errors.As(err, new(*experiment.CleartextTokenError)):
		return usagef("--profile: %v", err)
	}
	return err
}

// onHelp, when set (by tests), is given each command's flags as -h
// shows them: docs/cli.md is generated from them (TestCLIReference).
var onHelp func(*flagSet)

func newFlagSet(e *env, name, synopsis string) *flagSet {
	fs := &flagSet{FlagSet: flag.NewFlagSet("httpvs "+name, flag.ContinueOnError), name: name, synopsis: synopsis}
	fs.SetOutput(io.Discard)
	// flag calls Usage on every parse error too: keep it quiet, and print
	// the flags only when asked with -h.
	fs.Usage = func() {}
	fs.help = func() {
		if onHelp != nil {
			onHelp(fs)
		}
		fmt.Fprintf(e.stdout, "%s\n\nflags:\n", fs.usageLine())
		fs.printHelp(e.stdout)
	}
	return fs
}

// usageLine is the first line of -h: "usage: httpvs get URL [flags]".
func (fs *flagSet) usageLine() string {
	return "usage: httpvs " + fs.name + " " + fs.synopsis
}

// parse parses flags anywhere among args (curl-style: URL first, flags
// after) and returns the positional arguments.
func (fs *flagSet) parse(args []string) ([]string, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fs.help()
				return nil, errHelp
			}
			if name, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: -"); ok {
				if fs.gone[name] != "" {
					return nil, usagef("%s", fs.gone[name])
				}
				if near := fs.nearest(name); near != "" {
					return nil, usagef("unknown flag %s: did you mean %s?", dash(name), dash(near))
				}
				return nil, usagef("unknown flag %s", dash(name))
			}
			return nil, usagef("%v", err)
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return positional, fs.checkValues()
		}
		// flag stops at "--": everything after it is positional.
		if n := len(args) - len(rest); n > 0 && args[n-1] == "--" {
			return append(positional, rest...), fs.checkValues()
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
}

// clientKnobs are the client's tuning knobs, as help groups them.
var clientKnobs = []string{"read-size", "write-size", "dial-timeout", "h2-max-frame", "h2-conn-window", "h2-stream-window", "quic-conn-window", "quic-stream-window", "quic-trace"}

// instrumentKnobs titles the client knobs of get, put and load: their
// zero values are config.Client's, Go as shipped (run and tune start from
// a knob set, go-default unless told: knobDefaults).
const instrumentKnobs = "client knobs (Go as shipped unless set)"

// clientFlags registers the client's tuning knobs on fs.
func clientFlags(fs *flagSet, c *config.Client) {
	fs.Var(&c.ReadSize, "read-size", "client body read buffer `size` (default "+config.DefaultReadSize.String()+")")
	fs.DurationVar(&c.DialTimeout, "dial-timeout", config.DefaultDialTimeout, "bound on TCP+TLS or QUIC connection set-up")
	fs.field("Client.ReadSize", "read-size")
	fs.field("Client.DialTimeout", "dial-timeout")
	h2Flags(fs, "", &c.HTTP2, false)
	fs.Lookup("h2-max-frame").Usage = "HTTP/2 SETTINGS_MAX_FRAME_SIZE to advertise, `size` 16Ki..16Mi-1 (default Go's, 16Ki; tuned: 1Mi)"
	quicFlags(fs, "", &c.QUIC, false)
}

// serverFlags registers the server's tuning knobs on fs, each name
// prefixed with prefix.
func serverFlags(fs *flagSet, prefix string, c *config.Server) {
	fs.Var(&c.WriteSize, prefix+"write-size", "server body write chunk `size` (default "+config.DefaultWriteSize.String()+")")
	fs.field("Server.WriteSize", prefix+"write-size")
	h2Flags(fs, prefix, &c.HTTP2, true)
	quicFlags(fs, prefix, &c.QUIC, true)
}

func h2Flags(fs *flagSet, prefix string, h *config.HTTP2, server bool) {
	fs.Var(&h.MaxReadFrameSize, prefix+"h2-max-frame", "HTTP/2 SETTINGS_MAX_FRAME_SIZE to advertise, `size` 16Ki..16Mi-1 (default Go's, 1Mi)")
	connWindow, streamWindow := "Go's client's, 1Gi", "Go's client's, 4Mi"
	if server {
		connWindow, streamWindow = "Go's server's, 1Mi", "Go's server's, 1Mi"
	}
	fs.Var(&h.MaxReceiveBufferPerConnection, prefix+"h2-conn-window", "HTTP/2 connection receive window `size` (default "+connWindow+")")
	fs.Var(&h.MaxReceiveBufferPerStream, prefix+"h2-stream-window", "HTTP/2 stream receive window `size` (default "+streamWindow+")")
	end := endOf(server)
	fs.field(end+".HTTP2.MaxReadFrameSize", prefix+"h2-max-frame")
	fs.field(end+".HTTP2.MaxReceiveBufferPerConnection", prefix+"h2-conn-window")
	fs.field(end+".HTTP2.MaxReceiveBufferPerStream", prefix+"h2-stream-window")
	if server {
		fs.IntVar(&h.MaxConcurrentStreams, prefix+"h2-max-streams", 0, "HTTP/2 streams a client may open at once (default Go's, 250)")
		fs.field(end+".HTTP2.MaxConcurrentStreams", prefix+"h2-max-streams")
	}
}

// schemeUsage says which -p fits the URL's scheme.
func schemeUsage(se *transport.SchemeError) error {
	switch se.Scheme {
	case "https":
		return usagef("-p %s is cleartext but the URL is https://: use -p h1-tls, h2 or h3, or an http:// URL", se.Protocol)
	case "http":
		return usagef("-p %s needs TLS but the URL is http://: use -p h1 or h2c, or an https:// URL", se.Protocol)
	}
	return usagef("%v", se)
}

// endOf names the side a knob belongs to, as field paths start.
func endOf(server bool) string {
	if server {
		return "Server"
	}
	return "Client"
}

func quicFlags(fs *flagSet, prefix string, q *config.QUIC, server bool) {
	end := endOf(server)
	fs.field(end+".QUIC.MaxStreamReceiveWindow", prefix+"quic-stream-window")
	fs.field(end+".QUIC.MaxConnectionReceiveWindow", prefix+"quic-conn-window")
	fs.Var(&q.MaxStreamReceiveWindow, prefix+"quic-stream-window", "QUIC max stream receive window `size` (default quic-go's, 6Mi)")
	fs.Var(&q.MaxConnectionReceiveWindow, prefix+"quic-conn-window", "QUIC max connection receive window `size` (default quic-go's, 15Mi)")
	fs.BoolVar(&q.Trace, prefix+"quic-trace", false, "count quic-go's trace events: congestion window, flow-control blocked frames (costs CPU per packet)")
}

// targetFlags are the flags that say how to reach a URL: -p, -k, --cacert.
type targetFlags struct {
	fs       *flagSet
	proto    string
	insecure bool
	cacert   string
}

func (t *targetFlags) register(fs *flagSet) {
	t.fs = fs
	fs.StringVar(&t.proto, "p", "", "transport: h1, h2c, h1-tls, h2 or h3 (default h1 for http://, h2 for https://)")
	fs.alias("p", "protocol")
	fs.alias("p", "protocols") // run's and tune's spelling, for one grammar
	fs.BoolVar(&t.insecure, "k", false, "skip TLS certificate verification (as curl -k)")
	fs.alias("k", "insecure")
	fs.StringVar(&t.cacert, "cacert", "", "trust the PEM certificates in `file` (httpvs serve --write-cert writes one)")
}

// options checks rawURL against the flags and returns client options for
// it, with cfg as their tuning.
func (t *targetFlags) options(rawURL string, cfg config.Client) (transport.ClientOptions, error) {
	u, err := url.Parse(rawURL)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return transport.ClientOptions{}, usagef("bad URL %q: want http://host:port/path or https://host:port/path", rawURL)
	}
	p, err := parseProtocol(t.proto, u.Scheme)
	if err != nil {
		return transport.ClientOptions{}, err
	}
	if err := t.fs.usage(config.WithinField("Client", cfg.Validate())); err != nil {
		return transport.ClientOptions{}, err
	}
	opts := transport.ClientOptions{Protocol: p, Config: cfg, Insecure: t.insecure}
	if t.cacert != "" {
		if opts.RootCAs, err = transport.LoadCertPool(t.cacert); err != nil {
			return transport.ClientOptions{}, usagef("--cacert: %v", err)
		}
	}
	return opts, nil
}

// parseProtocol reads -p's value, or picks the default for scheme when empty.
func parseProtocol(name, scheme string) (transport.Protocol, error) {
	if name == "" {
		p, err := transport.Default(scheme)
		if err != nil {
			return 0, usagef("%v", err)
		}
		return p, nil
	}
	p, err := transport.Parse(name)
	if err != nil {
		return 0, usagef("-p: %v", err)
	}
	if err := p.CheckScheme(scheme); err != nil {
		var se *transport.SchemeError
		if errors.As(err, &se) {
			return 0, schemeUsage(se)
		}
		return 0, usagef("-p %s: %v", name, err)
	}
	return p, nil
}

// parseSizeArg reads a positional size argument.
func parseSizeArg(what, s string) (units.Bytes, error) {
	b, err := units.ParseBytes(s)
	if err != nil {
		return 0, usagef("%s: %v", what, strings.TrimPrefix(err.Error(), units.ErrSize.Error()+" "))
	}
	return b, nil
}

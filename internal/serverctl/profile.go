package serverctl

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strings"
	"time"

	"github.com/httpvs/httpvs/internal/dial"
	"github.com/httpvs/httpvs/transport"
)

// Profiler writes CPU and heap profiles of the client (this process) and,
// when serverURL is set, of an httpvs serve --profiling, into dir:
// NAME.client.cpu.pprof, NAME.client.heap.pprof, NAME.server.cpu.pprof,
// NAME.server.heap.pprof. Failures go to warn, never fatal.
type Profiler struct {
	dir       string
	serverURL string
	warn      func(error)
	hc        *http.Client
}

// NewProfiler profiles into dir, which it makes, reaching serverURL from
// network (nil: this process's own); warn (nil: dropped) hears of each
// profile that could not be taken or written, as a *ProfileError. The
// server's profiles need the token: a serverURL it cannot travel to
// safely (TokenTravelsSafely) is refused with a *CleartextTokenError.
func NewProfiler(dir, serverURL string, network transport.Network, warn func(error)) (*Profiler, error) {
	if serverURL != "" && !TokenTravelsSafely(serverURL, network) {
		return nil, &CleartextTokenError{URL: serverURL}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("profile directory: %w", err)
	}
	if warn == nil {
		warn = func(error) {}
	}
	inner := warn
	warn = func(err error) { inner(&ProfileError{err}) }
	var d net.Dialer
	tr := &http.Transport{Proxy: nil, DialContext: func(ctx context.Context, proto, addr string) (net.Conn, error) {
		return dial.TCP(ctx, network, &d, proto, addr)
	}}
	return &Profiler{dir: dir, serverURL: serverURL, warn: warn, hc: &http.Client{Timeout: 30 * time.Second, Transport: tr}}, nil
}

// Profiles are the CPU profiles in pprof's format Start took over one
// span: the client's (this process) and the server's; nil where none was
// taken. plan.Profiles is the same struct, converted by the caller, so
// that the clients of the control routes (transfer's among them) do not
// link the planning packages.
type Profiles struct {
	Client, Server []byte
}

// Start begins profiling the part called name, a name safe for file
// names (runfiles.SafeFileName makes one); the returned function ends it,
// writes the files and returns the CPU profiles it took.
func (p *Profiler) Start(name string) (stop func() Profiles) {
	var cpu bytes.Buffer
	clientOn := pprof.StartCPUProfile(&cpu) == nil
	serverOn := p.serverURL != "" && p.do(http.MethodPost, "/debug/profile/start", nil) == nil
	return func() Profiles {
		var got Profiles
		if clientOn {
			pprof.StopCPUProfile()
			got.Client = cpu.Bytes()
			p.write(name+".client.cpu.pprof", got.Client)
			var heap bytes.Buffer
			runtime.GC()
			pprof.Lookup("heap").WriteTo(&heap, 0)
			p.write(name+".client.heap.pprof", heap.Bytes())
		}
		if serverOn {
			var body bytes.Buffer
			if p.do(http.MethodPost, "/debug/profile/stop", &body) == nil {
				got.Server = body.Bytes()
				p.write(name+".server.cpu.pprof", got.Server)
			}
			var heap bytes.Buffer
			if p.do(http.MethodGet, "/debug/profile/heap", &heap) == nil {
				p.write(name+".server.heap.pprof", heap.Bytes())
			}
		}
		return got
	}
}

// do sends method path to the server, with the client's token, and copies
// a 2xx answer's body into into (nil: discarded).
func (p *Profiler) do(method, path string, into *bytes.Buffer) error {
	req, err := http.NewRequest(method, p.serverURL+path, nil)
	if err != nil {
		return err
	}
	resp, err := p.hc.Do(WithToken(req))
	if err != nil {
		// Name the server the user's URL points at, not the internal
		// endpoint that net/http's *url.Error repeats.
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		p.warn(fmt.Errorf("no server profiles from %s (the client's are still written): %w", p.serverURL, err))
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		err := fmt.Errorf("%s %s: %s: %s", method, path, resp.Status, strings.TrimSpace(string(msg)))
		switch resp.StatusCode {
		case http.StatusNotFound:
			err = fmt.Errorf("%s serves no profiles: start it with httpvs serve --profiling for server profiles", p.serverURL)
			p.serverURL = ""
		case http.StatusUnauthorized, http.StatusForbidden:
			err = fmt.Errorf("%s refused its profiles (%s): set %s to the token it was started with", p.serverURL, resp.Status, TokenEnv)
			p.serverURL = ""
		}
		p.warn(err)
		return err
	}
	if into != nil {
		_, err = io.Copy(into, resp.Body)
	}
	return err
}

func (p *Profiler) write(name string, b []byte) {
	if err := os.WriteFile(filepath.Join(p.dir, name), b, 0o644); err != nil {
		p.warn(err)
	}
}

// ProfileServerURL is where a target URL's server would serve profiles:
// its cleartext base URL, or "" for https (the profiler does not carry
// the target's TLS trust).
func ProfileServerURL(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil || u.Scheme != "http" {
		return ""
	}
	return "http://" + u.Host
}

// ProfileError is a profile that was not taken or written: the
// measurement goes on without it.
type ProfileError struct{ Err error }

func (e *ProfileError) Error() string { return "profile: " + e.Err.Error() }

// Unwrap returns Err.
func (e *ProfileError) Unwrap() error { return e.Err }

// StartCPUFile profiles this process's CPU into the file path until stop
// (load --cpuprofile: the whole process, not a measured span).
func StartCPUFile(path string) (stop func(), err error) {
	file, err := os.Create(path)
	if err == nil {
		if err = pprof.StartCPUProfile(file); err != nil {
			file.Close()
		}
	}
	if err != nil {
		return nil, err
	}
	return func() { pprof.StopCPUProfile(); file.Close() }, nil
}

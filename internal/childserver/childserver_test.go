package childserver

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/httpvs/httpvs/config"
	"github.com/httpvs/httpvs/internal/defaults"
	"github.com/httpvs/httpvs/units"
)

// TestSpecConfig: a zero Spec is the server's and the transport's
// defaults but for the connection cap, DefaultMaxConns; a negative cap is
// none; the knobs' write size is the payload's.
func TestSpecConfig(t *testing.T) {
	c := Spec{}.Config()
	if c.Transport.MaxConns != DefaultMaxConns || c.MaxSize != 0 || c.WriteSize != int(defaults.WriteSize) || !c.SampleGoroutines {
		t.Errorf("zero spec: max conns %d, max size %v, write size %d, sampling %v; want %d, 0, %d, true",
			c.Transport.MaxConns, c.MaxSize, c.WriteSize, c.SampleGoroutines, DefaultMaxConns, defaults.WriteSize)
	}
	c = Spec{MaxConns: -1, Server: config.Server{WriteSize: 64 * units.KiB}}.Config()
	if c.Transport.MaxConns != 0 || c.WriteSize != 64<<10 {
		t.Errorf("max conns %d, write size %d: want 0 (none) and 65536", c.Transport.MaxConns, c.WriteSize)
	}
	var fe *config.FieldError
	if err := (Spec{MaxEcho: -1}).Validate(); !errors.As(err, &fe) || fe.Field != "MaxEcho" {
		t.Errorf("negative MaxEcho: %v, want a field error naming it", err)
	}
}

// TestServe: the child reads its spec, serves it on loopback, says so in
// one line (its URLs, certificate and knobs) and stops when stdin closes.
func TestServe(t *testing.T) {
	stdinR, stdinW := io.Pipe()
	stdoutR, stdoutW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- serve(stdinR, stdoutW) }()
	spec, _ := json.Marshal(Spec{Listen: "127.0.0.1:0", TLSListen: "127.0.0.1:0", Server: config.Server{WriteSize: 32 * units.KiB}})
	go stdinW.Write(append(spec, '\n'))
	line, err := bufio.NewReader(stdoutR).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	var r Ready
	if err := json.Unmarshal([]byte(line), &r); err != nil || r.Error != "" || r.PID == 0 {
		t.Fatalf("ready line %q (%v): want URLs, no error", line, err)
	}
	if !strings.HasPrefix(r.Plain, "http://127.0.0.1:") || !strings.HasPrefix(r.TLS, "https://127.0.0.1:") || !r.H3 || r.CertPEM == "" || r.Server.WriteSize != 32*units.KiB {
		t.Errorf("ready %+v: want both URLs, h3, a certificate and 32Ki writes", r)
	}
	resp, err := http.Get(r.Plain + "/small")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("GET /small: %s", resp.Status)
	}
	stdinW.Close()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("serve: %v, want nil once stdin closed", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve still running 10 s after stdin closed")
	}
}

// TestServeRefuses: a spec the server cannot start is one ready line
// with its reason, and serve's error.
func TestServeRefuses(t *testing.T) {
	var out strings.Builder
	in := strings.NewReader(`{"listen":"127.0.0.1:0","max_echo":-1}` + "\n")
	err := serve(in, &out)
	var r Ready
	if jerr := json.Unmarshal([]byte(out.String()), &r); err == nil || jerr != nil || r.Error != err.Error() || !strings.Contains(r.Error, "MaxEcho") {
		t.Errorf("error %v, line %q: want one ready line carrying the error, naming MaxEcho", err, out.String())
	}
}

// TestRefuseOutsideChild: outside a child server, Refuse lets the
// experiment run.
func TestRefuseOutsideChild(t *testing.T) {
	t.Setenv(Env, "")
	if err := Refuse("no"); err != nil {
		t.Errorf("Refuse outside a child: %v", err)
	}
}

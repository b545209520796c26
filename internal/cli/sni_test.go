package cli

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/httpvs/httpvs/internal/peers"
)

// freePort is a loopback port free for both TCP and UDP when asked.
func freePort(t *testing.T) int {
	t.Helper()
	for range 20 {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		port := ln.Addr().(*net.TCPAddr).Port
		pc, err := net.ListenPacket("udp", "127.0.0.1:"+strconv.Itoa(port))
		ln.Close()
		if err == nil {
			pc.Close()
			return port
		}
	}
	t.Fatal("no port free for TCP and UDP")
	return 0
}

// startCaddyByName starts Caddy as a user would on loopback, with its
// TLS site named localhost and its own certificate for that name alone
// (tls internal): a handshake sent no server name, as TLS sends none to
// an IP address, gets no certificate over TCP or QUIC. It returns the
// base URLs by IP address, cleartext and TLS, and the directory served
// (www, holding small, 1000 bytes).
func startCaddyByName(t *testing.T) (plain, secure, www string) {
	t.Helper()
	if testing.Short() {
		t.Skip("a reference peer: not under -short")
	}
	p, err := peers.Lookup("caddy")
	if err != nil || !p.Installed() {
		if os.Getenv("CI") == "true" {
			t.Fatalf("caddy is not installed: %v", err)
		}
		t.Skip("caddy is not installed (apt-get install caddy)")
	}
	bin, err := p.Path()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	www = filepath.Join(dir, "www")
	if err := os.Mkdir(www, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(www, "small"), make([]byte, 1000), 0o644); err != nil {
		t.Fatal(err)
	}
	hp, tp := freePort(t), freePort(t)
	conf := fmt.Sprintf(`{
	admin off
	auto_https disable_redirects
	skip_install_trust
	local_certs
	storage file_system %[1]s/caddy
	servers {
		protocols h1 h2 h2c h3
	}
}
http://127.0.0.1:%[2]d {
	bind 127.0.0.1
	root * %[4]s
	file_server
}
https://localhost:%[3]d {
	bind 127.0.0.1
	tls internal
	root * %[4]s
	file_server
}
`, dir, hp, tp, www)
	path := filepath.Join(dir, "Caddyfile")
	if err := os.WriteFile(path, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "run", "--config", path, "--adapter", "caddyfile")
	cmd.Env = append(os.Environ(), "HOME="+dir, "XDG_DATA_HOME="+dir, "XDG_CONFIG_HOME="+dir)
	var log strings.Builder
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	addr := "127.0.0.1:" + strconv.Itoa(tp)
	for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		d := tls.Dialer{Config: &tls.Config{ServerName: "localhost", InsecureSkipVerify: true}}
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		c, err := d.DialContext(ctx, "tcp", addr)
		cancel()
		if err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("caddy did not serve TLS for localhost at %s: %v\n%s", addr, err, log.String())
		}
	}
	return "http://127.0.0.1:" + strconv.Itoa(hp), "https://" + addr, www
}

// TestRunTargetCaddyByIP: Caddy's TLS site named localhost, reached by
// IP address, refuses handshakes without a name over TCP and QUIC. With
// no name given the run sends localhost (SNI and Host), says so in a line
// naming --sni, records it, and measures /small over all five
// transports; with the IP address as
// the name (no SNI sent, as before), h1-tls, h2 and h3 are each left out
// in a line giving the likely cause and --sni.
func TestRunTargetCaddyByIP(t *testing.T) {
	t.Parallel() // see TestMain
	plain, secure, _ := startCaddyByName(t)
	out := t.TempDir()
	args := []string{"run", "--quick", "--out", out, "--no-server-stats", "--target", plain, "--tls-target", secure, "-k", "--request", "GET /small"}
	code, _, stderr := runMain(t, args...)
	if code != 0 {
		t.Fatalf("exit %d, want 0: %s", code, stderr)
	}
	res, _ := readResults(t, out)
	onlyCells(t, res, requestScenarios, []string{"h1", "h2c", "h1-tls", "h2", "h3"})
	for _, c := range res.Cells {
		// Caddy answers a Host it has no site for with an empty 200:
		// the name goes in the Host too.
		if c.ResponseBytes != 1000 {
			t.Errorf("%s/%s: a response of %d bytes, want /small's 1000", c.Scenario, c.Protocol, c.ResponseBytes)
		}
	}
	want := "--tls-target " + secure + " is an IP address, for which TLS sends no server name (SNI): sending its certificate's name, localhost, over h1-tls, h2 and h3 (--sni NAME sends another)"
	if res.Settings.ServerName != "localhost" || len(res.NotRun) != 0 || strings.Count(stderr, want) != 1 {
		t.Errorf("server name %q, not run %v, stderr:\n%s", res.Settings.ServerName, res.NotRun, stderr)
	}

	out = t.TempDir()
	code, stdout, stderr := runMain(t, append(args[:3:3], append(args[3:], "--sni", "127.0.0.1", "--out", out)...)...)
	if code != 0 {
		t.Fatalf("exit %d, want 0: %s", code, stderr)
	}
	res, _ = readResults(t, out)
	onlyCells(t, res, requestScenarios, []string{"h1", "h2c"})
	nr := notRun(res)
	for _, p := range []string{"h1-tls", "h2", "h3"} {
		if !strings.Contains(nr[p], "likely because 127.0.0.1 is an IP address, for which TLS sends no server name (SNI)") {
			t.Errorf("%s not run: %q", p, nr[p])
		}
		if !strings.Contains(stdout, "\n  "+p+": the server refused the TLS handshake (") || !strings.Contains(stdout, "send the name its certificate is for (--sni NAME)\n") {
			t.Errorf("report lacks %s's line naming --sni:\n%s", p, stdout)
		}
	}
	if len(nr) != 3 || !strings.Contains(nr["h3"], "CRYPTO_ERROR") || !strings.Contains(nr["h2"], "remote error: tls") {
		t.Errorf("not run: %v", nr)
	}
}

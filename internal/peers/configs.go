package peers

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/httpvs/httpvs/transport"
)

// launch is how to run one server peer on a layout: the processes (each
// in a process group of its own), their environment, and the base URL of
// each transport.
type launch struct {
	argvs [][]string
	env   []string // added to the environment
	urls  map[transport.Protocol]string
}

// builder writes a peer's configuration into l.dir and says how to run it.
type builder struct {
	ports int // loopback TCP ports it needs
	udp   int // index in ports of one that must also be free for UDP; -1 for none
	build func(bin string, l layout) (launch, error)
}

var builders = map[string]builder{
	"h2o":     {ports: 2, udp: -1, build: buildH2O},
	"nginx":   {ports: 3, udp: -1, build: buildNginx},
	"caddy":   {ports: 2, udp: 1, build: buildCaddy},
	"nghttpd": {ports: 2, udp: -1, build: buildNghttpd},
}

func hostPort(port int) string { return "127.0.0.1:" + strconv.Itoa(port) }

// tcpURLs maps h1 and h2c to plain's base URL and h1-tls and h2 to tls's.
func tcpURLs(plain, tls int) map[transport.Protocol]string {
	return map[transport.Protocol]string{
		transport.H1: "http://" + hostPort(plain), transport.H2C: "http://" + hostPort(plain),
		transport.H1TLS: "https://" + hostPort(tls), transport.H2: "https://" + hostPort(tls),
	}
}

func writeConfig(l layout, name, text string) (string, error) {
	path := filepath.Join(l.dir, name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		return "", fmt.Errorf("write %s: %w", name, err)
	}
	return path, nil
}

// userLine returns text when running as root (the peers would otherwise
// drop to a user that cannot read the temporary directory), else "".
func userLine(text string) string {
	if os.Geteuid() == 0 {
		return text
	}
	return ""
}

// buildH2O: one thread; h1 and h2c (prior knowledge) on one port, h1-tls
// and h2 (ALPN) on the other; /sink is an mruby handler that answers 204
// (h2o 2.2 has read the whole body by the time a handler runs).
func buildH2O(bin string, l layout) (launch, error) {
	conf := fmt.Sprintf(`%snum-threads: 1
pid-file: %[2]s/h2o.pid
error-log: %[2]s/h2o-error.log
temp-buffer-path: %[2]s
max-connections: 100000
limit-request-body: 1099511627776
listen:
  host: 127.0.0.1
  port: %[3]d
listen:
  host: 127.0.0.1
  port: %[4]d
  ssl:
    certificate-file: %[5]s
    key-file: %[6]s
    ocsp-update-interval: 0
hosts:
  default:
    paths:
      %[7]s:
        mruby.handler: |
          proc {|env| [204, {}, []] }
      /:
        file.dir: %[8]s
`, userLine("user: root\n"), l.dir, l.ports[0], l.ports[1], l.certFile, l.keyFile, SinkPath, l.www)
	path, err := writeConfig(l, "h2o.conf", conf)
	if err != nil {
		return launch{}, err
	}
	return launch{argvs: [][]string{{bin, "-c", path}}, urls: tcpURLs(l.ports[0], l.ports[1])}, nil
}

// buildNginx: one worker; h1 on one port, h2c on another (nginx before
// 1.25 speaks only HTTP/2 on a cleartext "http2" listener), h1-tls and h2
// on a third; keepalive_requests raised so that load is not cut every
// 1000 requests (it also bounds HTTP/2 connections since 1.19.7). The h2c
// port has sendfile off: nginx 1.22's HTTP/2 over sendfile writes a
// frame's header and its body apart, so a small response waited out the
// client's delayed ACK (44 ms a request, 23 req/s with h2load -c1 -m1)
// and a 256 MiB download ran at 0.72-0.81 GB/s against 1.98-2.56 without
// sendfile; TLS ports never use sendfile, and h1 keeps it.
func buildNginx(bin string, l layout) (launch, error) {
	conf := fmt.Sprintf(`%sworker_processes 1;
daemon off;
master_process on;
pid %[2]s/nginx.pid;
error_log %[2]s/nginx-error.log;
worker_rlimit_nofile 100000;
events { worker_connections 50000; }
http {
  access_log off;
  client_body_temp_path %[2]s/body;
  proxy_temp_path %[2]s/proxy;
  fastcgi_temp_path %[2]s/fastcgi;
  uwsgi_temp_path %[2]s/uwsgi;
  scgi_temp_path %[2]s/scgi;
  keepalive_requests 1000000000;
  keepalive_timeout 300s;
  sendfile on;
  tcp_nopush on;
  server {
    listen 127.0.0.1:%[3]d;
    listen 127.0.0.1:%[5]d ssl http2;
    ssl_certificate %[6]s;
    ssl_certificate_key %[7]s;
    root %[8]s;
    location = %[9]s { client_max_body_size 0; return 204; }
  }
  server {
    listen 127.0.0.1:%[4]d http2;
    sendfile off;
    root %[8]s;
    location = %[9]s { client_max_body_size 0; return 204; }
  }
}
`, userLine("user root;\n"), l.dir, l.ports[0], l.ports[1], l.ports[2], l.certFile, l.keyFile, l.www, SinkPath)
	path, err := writeConfig(l, "nginx.conf", conf)
	if err != nil {
		return launch{}, err
	}
	urls := tcpURLs(l.ports[0], l.ports[2])
	urls[transport.H2C] = "http://" + hostPort(l.ports[1])
	argv := []string{bin, "-p", l.dir, "-c", path, "-e", filepath.Join(l.dir, "nginx-error.log")}
	return launch{argvs: [][]string{argv}, urls: urls}, nil
}

// buildCaddy: every transport; h3 on UDP at the TLS port's number; our
// certificate, no admin endpoint, nothing written outside l.dir.
func buildCaddy(bin string, l layout) (launch, error) {
	conf := fmt.Sprintf(`{
	admin off
	auto_https disable_redirects
	skip_install_trust
	storage file_system %[1]s/caddy
	servers {
		protocols h1 h2 h2c h3
	}
}
http://%[2]s {
	bind 127.0.0.1
	root * %[4]s
	file_server
}
https://%[3]s {
	bind 127.0.0.1
	tls %[5]s %[6]s
	root * %[4]s
	file_server
}
`, l.dir, hostPort(l.ports[0]), hostPort(l.ports[1]), l.www, l.certFile, l.keyFile)
	path, err := writeConfig(l, "Caddyfile", conf)
	if err != nil {
		return launch{}, err
	}
	urls := tcpURLs(l.ports[0], l.ports[1])
	urls[transport.H3] = "https://" + hostPort(l.ports[1])
	env := []string{"HOME=" + l.dir, "XDG_DATA_HOME=" + l.dir, "XDG_CONFIG_HOME=" + l.dir}
	argv := []string{bin, "run", "--config", path, "--adapter", "caddyfile"}
	return launch{argvs: [][]string{argv}, env: env, urls: urls}, nil
}

// buildNghttpd: nghttpd speaks TLS or not per process, so two: h2c with
// --no-tls and h2. It answers a request once its whole body is in, with
// the file at the path: an empty file makes /sink.
func buildNghttpd(bin string, l layout) (launch, error) {
	common := []string{bin, "--address=127.0.0.1", "--htdocs=" + l.www}
	h2c := append(append([]string(nil), common...), "--no-tls", strconv.Itoa(l.ports[0]))
	h2 := append(append([]string(nil), common...), strconv.Itoa(l.ports[1]), l.keyFile, l.certFile)
	urls := map[transport.Protocol]string{
		transport.H2C: "http://" + hostPort(l.ports[0]),
		transport.H2:  "https://" + hostPort(l.ports[1]),
	}
	return launch{argvs: [][]string{h2c, h2}, urls: urls}, nil
}

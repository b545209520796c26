package peers

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/httpvs/httpvs/transport"
)

// pickPorts is freePorts; tests replace it to lose a race for a port.
var pickPorts = freePorts

// freePorts returns n distinct loopback TCP ports that were free a moment
// ago (a server may still lose one to another process: Start retries);
// ports[udp] was free for UDP as well, unless udp is -1.
func freePorts(n, udp int) ([]int, error) {
	var held []io.Closer
	defer func() {
		for _, c := range held {
			c.Close()
		}
	}()
	ports := make([]int, 0, n)
	for tries := 0; len(ports) < n; tries++ {
		if tries > 10*n {
			return nil, fmt.Errorf("no free loopback ports after %d tries", tries)
		}
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("pick a loopback port: %w", err)
		}
		held = append(held, ln)
		port := ln.Addr().(*net.TCPAddr).Port
		if len(ports) == udp {
			pc, err := net.ListenPacket("udp", hostPort(port))
			if err != nil {
				continue // taken for UDP: pick another
			}
			held = append(held, pc)
		}
		ports = append(ports, port)
	}
	return ports, nil
}

// readyPoll is how often waitReady tries again.
const readyPoll = 50 * time.Millisecond

// waitReady returns once GET SmallPath has answered "ok" over every
// transport the server has a URL for, or an error if a process exits or
// ctx ends first (errPortTaken when the log says a bind failed).
func (s *Server) waitReady(ctx context.Context) error {
	pending := map[transport.Protocol]bool{}
	for p := range s.urls {
		pending[p] = true
	}
	var last error
	for len(pending) > 0 {
		for _, c := range s.procs {
			select {
			case <-c.done:
				return s.exitError(c)
			default:
			}
		}
		for p := range pending {
			if last = probe(ctx, s.SmallURL(p), p, s); last == nil {
				delete(pending, p)
			}
		}
		if len(pending) == 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("not ready: %w (last try: %v)", ctx.Err(), last)
		case <-time.After(readyPoll):
		}
	}
	return nil
}

// exitError describes a child that exited during start, with its log.
func (s *Server) exitError(c *child) error {
	b, _ := os.ReadFile(c.log)
	text := strings.TrimSpace(string(b))
	if len(text) > 2000 {
		text = "..." + text[len(text)-2000:]
	}
	err := fmt.Errorf("%s exited (%v) before it was ready: %s", c.cmd.Path, c.cmd.ProcessState, text)
	if strings.Contains(strings.ToLower(text), "address already in use") {
		return fmt.Errorf("%w: %w", errPortTaken, err)
	}
	return err
}

// probe GETs url over transport p, trusting s's certificate, and checks
// the answer is SmallPath's.
func probe(ctx context.Context, url string, p transport.Protocol, s *Server) error {
	c, err := transport.NewClient(transport.ClientOptions{Protocol: p, RootCAs: transport.CertPool(s.cert)})
	if err != nil {
		return err
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 64))
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK || string(body) != smallBody {
		return fmt.Errorf("GET %s over %s: %s %q, want 200 %q", url, p, resp.Status, body, smallBody)
	}
	return nil
}

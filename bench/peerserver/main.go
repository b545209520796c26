// Command peerserver runs one reference server peer (h2o, nginx, caddy,
// nghttpd) for the bench/ scripts: it starts it with package peers on
// loopback, prints one JSON line of its URLs per transport, its
// certificate file and its pid, and stops it (nothing left behind) when
// its standard input closes or it gets SIGINT or SIGTERM. On exit it
// prints the server's CPU seconds as a second JSON line.
//
//	go build -o /tmp/peerserver ./bench/peerserver
//	/tmp/peerserver h2o [SIZE...] </dev/tty
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/httpvs/httpvs/internal/peers"
	"github.com/httpvs/httpvs/units"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "peerserver:", err)
		os.Exit(1)
	}
}

func run() error {
	if len(os.Args) < 2 {
		return fmt.Errorf("usage: peerserver NAME [SIZE...] (NAME: one of %s)", peers.Names())
	}
	var sizes []units.Bytes
	for _, a := range os.Args[2:] {
		b, err := units.ParseBytes(a)
		if err != nil {
			return err
		}
		sizes = append(sizes, b)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	s, err := peers.Start(ctx, os.Args[1], peers.ServerOptions{Sizes: sizes})
	if err != nil {
		return err
	}
	defer s.Stop()
	urls := map[string]string{}
	for _, p := range s.Peer.Transports {
		urls[p.String()] = s.URL(p)
	}
	line, _ := json.Marshal(map[string]any{"peer": s.Peer.Name, "urls": urls, "cert": s.CertFile(), "pids": s.PIDs()})
	fmt.Println(string(line))
	stdin := make(chan struct{})
	go func() { _, _ = io.Copy(io.Discard, os.Stdin); close(stdin) }()
	select {
	case <-ctx.Done():
	case <-stdin:
	}
	cpu, err := s.CPU()
	if err != nil {
		return err
	}
	line, _ = json.Marshal(map[string]float64{"cpu_user_seconds": cpu.User, "cpu_system_seconds": cpu.System})
	fmt.Println(string(line))
	return s.Stop()
}

package cli

import (
	"context"
	"fmt"

	"github.com/httpvs/httpvs/matrix"
	"github.com/httpvs/httpvs/peers"
	"github.com/httpvs/httpvs/reference"
)

// maxReferenceRounds bounds the peers' rounds: each is a process start
// per transport, and the figures they give are steadier than Go's.
const maxReferenceRounds = 5

// checkPeers reads --peers: the installed peers to measure and, once
// each, the ones asked for that are not installed with how to install them.
func (f *runFlags) checkPeers() error {
	if f.peers == "" {
		return nil
	}
	if len(f.net) > 0 {
		return usagef("--peers runs the reference peers on loopback; it does not go with --net")
	}
	list, err := peers.ParseList(f.peers)
	if err != nil {
		return usagef("--peers: %v", err)
	}
	for _, p := range list {
		if p.Installed() {
			f.peerList = append(f.peerList, p)
		} else {
			f.peersMissing = append(f.peersMissing, fmt.Sprintf("%s (%s)", p.Name, p.Install))
		}
	}
	if f.peers == "auto" {
		_, missing := peers.Discover()
		for _, p := range missing {
			f.peersMissing = append(f.peersMissing, fmt.Sprintf("%s (%s)", p.Name, p.Install))
		}
	}
	return nil
}

// references measures the scenarios the peers play, with the server
// peers and with the run's own server.
func (f *runFlags) references(ctx context.Context, e *env, opts matrix.Options) ([]matrix.ReferenceCell, error) {
	var servers, clients []peers.Peer
	for _, p := range f.peerList {
		if p.Role == peers.RoleServer {
			servers = append(servers, p)
		} else {
			clients = append(clients, p)
		}
	}
	ro := reference.Options{
		Servers:   servers,
		Clients:   clients,
		Go:        reference.Target{Plain: opts.Target.Plain, TLS: opts.Target.TLS},
		Protocols: opts.Protocols,
		Rounds:    min(opts.Repeat, maxReferenceRounds),
		Size:      opts.Size,
		Duration:  opts.Duration,
	}
	for _, sc := range opts.Scenarios {
		ro.Scenarios = append(ro.Scenarios, sc.Name)
	}
	var prog *progressLine
	if isTerminal(e.stderr) {
		prog = &progressLine{w: e.stderr}
		ro.Progress = func(what string) { prog.text("reference peers: " + what) }
	}
	refs, err := reference.Run(ctx, ro)
	prog.clear()
	return refs, err
}

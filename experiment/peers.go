package experiment

import (
	"context"
	"fmt"
	"strings"

	"github.com/httpvs/httpvs/internal/fielderr"
	"github.com/httpvs/httpvs/internal/peers"
	"github.com/httpvs/httpvs/internal/reference"
	"github.com/httpvs/httpvs/results"
)

// references measures the scenarios the peers play, with the server
// peers and with the experiment's own server.
// pinned, when set, holds the CPUs the run's own server has: the server
// peers get the same, and the client peers inherit the generator's.
func (o *Options) references(ctx context.Context, pinned *pinning) ([]results.ReferenceCell, error) {
	var servers, clients []peers.Peer
	for _, name := range o.Peers {
		p, err := peers.Lookup(name)
		if err != nil {
			return nil, err
		}
		if p.Role == peers.RoleServer {
			servers = append(servers, p)
		} else {
			clients = append(clients, p)
		}
	}
	m := o.engine()
	ro := reference.Options{
		Servers:   servers,
		Clients:   clients,
		Go:        reference.Target{Plain: m.Target.Plain, TLS: m.Target.TLS},
		Protocols: m.Protocols,
		Rounds:    o.ReferenceRounds,
		Size:      m.Size,
		Duration:  m.Duration,
		Progress:  o.ReferenceProgress,
	}
	if pinned.result() != nil {
		ro.ServerCPUs = pinned.server
	}
	for _, sc := range m.Scenarios {
		ro.Scenarios = append(ro.Scenarios, sc.Name)
	}
	return reference.Run(ctx, ro)
}

// resolvePeers reads Peers (names, or "auto": every peer installed) into
// the installed peers to measure, in the catalogue's order, and keeps the
// ones asked for that are not installed (with auto, all of them), each
// with how to install it, for the results' PeersMissing. A name the
// catalogue does not hold is refused.
func (o *Options) resolvePeers() error {
	if len(o.Peers) == 0 {
		return nil
	}
	auto := len(o.Peers) == 1 && strings.EqualFold(strings.TrimSpace(o.Peers[0]), "auto")
	for _, name := range o.Peers {
		if _, err := peers.Lookup(name); err != nil && !auto {
			return fielderr.New("Peers", fmt.Sprintf("%q", strings.TrimSpace(name)), "one of %s, or auto", peers.Names())
		}
	}
	installed, missing, err := peers.Resolve(strings.Join(o.Peers, ","))
	if err != nil {
		return err
	}
	o.Peers = nil
	for _, p := range installed {
		o.Peers = append(o.Peers, p.Name)
	}
	for _, p := range missing {
		o.peersMissing = append(o.peersMissing, fmt.Sprintf("%s (%s)", p.Name, p.Install))
	}
	return nil
}

package experiment

import (
	"context"
	"fmt"

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
	m := o.Matrix
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

// checkPeers refuses a peer name the catalogue does not hold.
func (o *Options) checkPeers() error {
	for i, name := range o.Peers {
		if _, err := peers.Lookup(name); err != nil {
			return fielderr.New(fmt.Sprintf("Peers[%d]", i), fmt.Sprintf("%q", name), "one of %s", peers.Names())
		}
	}
	return nil
}

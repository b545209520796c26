package cli

import (
	"fmt"

	"github.com/httpvs/httpvs/internal/peers"
)

// checkPeers reads --peers: the installed peers to measure and, once
// each, the ones asked for that are not installed with how to install them.
func (f *runFlags) checkPeers() error {
	if f.peers == "" {
		return nil
	}
	if len(f.net.Values) > 0 {
		return usagef("--peers runs the reference peers on loopback; it does not go with --net")
	}
	installed, missing, err := peers.Resolve(f.peers)
	if err != nil {
		return usagef("--peers: %v", err)
	}
	for _, p := range installed {
		f.xo.Peers = append(f.xo.Peers, p.Name)
	}
	for _, p := range missing {
		f.peersMissing = append(f.peersMissing, fmt.Sprintf("%s (%s)", p.Name, p.Install))
	}
	return nil
}

package peers

import (
	"os"
	"strings"
	"testing"
)

// requirePeer skips the test when the peer is not installed, unless CI=true
// and the peer has a Debian package: .ci/run apt-installs those, and a
// missing one is a failure. oha is left out on purpose: it has no package,
// and building it (cargo, several minutes on two cores) would lengthen
// every CI run; its tests skip when it is absent, CI or not.
func requirePeer(t *testing.T, name string) Peer {
	t.Helper()
	if testing.Short() {
		t.Skip("a reference peer: not under -short")
	}
	p, err := Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Path(); err != nil {
		if os.Getenv("CI") == "true" && ciInstalls(p) {
			t.Fatalf("CI=true and %v", err)
		}
		t.Skip(err)
	}
	return p
}

// ciInstalls reports whether .ci/run installs p: every peer with a Debian
// package.
func ciInstalls(p Peer) bool { return strings.HasPrefix(p.Install, "apt-get install ") }

package experiment

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/httpvs/httpvs/config"
	"github.com/httpvs/httpvs/internal/peers"
)

// TestResolvePeers: auto is every peer of the catalogue, each either
// measured (installed) or named missing with how to install it, never
// both; a name the catalogue lacks is refused naming Peers.
func TestResolvePeers(t *testing.T) {
	o := Options{}
	o.Peers = []string{"auto"}
	if err := o.resolvePeers(); err != nil {
		t.Fatal(err)
	}
	var seen []string
	for _, name := range o.Peers {
		if p, _ := peers.Lookup(name); !p.Installed() {
			t.Errorf("%s measured but not installed", name)
		}
		seen = append(seen, name)
	}
	for _, m := range o.peersMissing {
		name, install, ok := strings.Cut(m, " (")
		if p, _ := peers.Lookup(name); !ok || p.Installed() || install != p.Install+")" {
			t.Errorf("missing %q: want a peer not installed, with how to install it", m)
		}
		seen = append(seen, name)
	}
	slices.Sort(seen)
	want := strings.Split(peers.Names(), ", ")
	slices.Sort(want)
	if !slices.Equal(seen, want) {
		t.Errorf("auto resolved to %v, want each of %v once", seen, want)
	}

	o = Options{}
	o.Peers = []string{"h2o", "apache"}
	var fe *config.FieldError
	if err := o.resolvePeers(); !errors.As(err, &fe) || fe.Field != "Peers" || fe.Value != `"apache"` {
		t.Errorf("apache: got %v, want a *config.FieldError for Peers naming it", err)
	}
}

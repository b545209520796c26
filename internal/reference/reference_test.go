package reference

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/httpvs/httpvs/internal/peers"
	"github.com/httpvs/httpvs/internal/vocab"
	"github.com/httpvs/httpvs/server"
	"github.com/httpvs/httpvs/transport"
	"github.com/httpvs/httpvs/units"
)

// requirePeers returns the named peers, skipping the test when one is
// not installed unless CI=true (CI installs them).
func requirePeers(t *testing.T, names ...string) []peers.Peer {
	t.Helper()
	if testing.Short() {
		t.Skip("a reference peer: not under -short")
	}
	var out []peers.Peer
	for _, n := range names {
		p, err := peers.Lookup(n)
		if err != nil {
			t.Fatal(err)
		}
		if !p.Installed() {
			// .ci/run apt-installs the peers with a package; oha (cargo,
			// minutes to build) it does not, to keep CI short.
			if os.Getenv("CI") == "true" && strings.HasPrefix(p.Install, "apt-get ") {
				t.Fatalf("CI=true and %s is not installed (%s)", n, p.Install)
			}
			t.Skipf("%s is not installed (%s)", n, p.Install)
		}
		out = append(out, p)
	}
	return out
}

// TestRunMeasuresEveryPair runs curl and h2load against an in-process Go
// server and h2o over h1 and h2c: every cell has its two rounds, each a
// clean transfer of exactly Size or a run with no failed request, and
// the h2c cells' ratios pair both rounds with h1's.
func TestRunMeasuresEveryPair(t *testing.T) {
	ps := requirePeers(t, "h2o", "curl", "h2load")
	srv, err := server.Start(server.Config{Transport: server.Loopback()})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	cells, err := Run(context.Background(), Options{
		Servers:   ps[:1],
		Clients:   ps[1:],
		Go:        Target{Plain: srv.Transport.URL(transport.H1)},
		Protocols: []transport.Protocol{transport.H1, transport.H2C},
		Scenarios: []string{"download", "small-sequential", "headers-body"},
		Rounds:    2,
		Size:      8 * units.MiB,
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(cells) != 8 { // {go, h2o} x {download, small-sequential} x {h1, h2c}
		t.Fatalf("%d cells, want 8: %+v", len(cells), cells)
	}
	for _, c := range cells {
		name := c.Scenario + "/" + c.Server + "+" + c.Client + "/" + c.Protocol
		if c.Skipped != "" || len(c.Errors) != 0 || len(c.Rounds) != 2 || c.Rounds[0] <= 0 || c.Rounds[1] <= 0 || c.Median <= 0 {
			t.Errorf("%s: skipped %q, errors %v, rounds %v", name, c.Skipped, c.Errors, c.Rounds)
		}
		if want := map[string]string{"download": "curl", "small-sequential": "h2load"}[c.Scenario]; c.Client != want {
			t.Errorf("%s: played by %s, want %s", name, c.Client, want)
		}
		if want := map[string]string{"go": "Go", "h2o": "C"}[c.Server]; c.Language != want {
			t.Errorf("%s: server in %q, want %q", name, c.Language, want)
		}
		if (c.ServerCPUPerUnit != nil) != (c.Server == "h2o") {
			t.Errorf("%s: server CPU %v: want it for h2o only (the matrix counts Go's)", name, c.ServerCPUPerUnit)
		}
		switch {
		case c.Protocol == "h1" && c.VsH1 != nil:
			t.Errorf("%s: h1 has a ratio to itself", name)
		case c.Protocol == "h2c" && (c.VsH1 == nil || c.VsH1.Pairs != 2):
			t.Errorf("%s: ratio %+v, want two rounds paired", name, c.VsH1)
		}
	}
}

// TestFailedRoundsAreNotThroughput: a refused connection makes curl fail;
// the rounds are 0 with their errors, and there is no median.
func TestFailedRoundsAreNotThroughput(t *testing.T) {
	ps := requirePeers(t, "curl")
	cells, err := Run(context.Background(), Options{
		Clients:   ps,
		Go:        Target{Plain: "http://127.0.0.1:1"},
		Protocols: []transport.Protocol{transport.H1},
		Scenarios: []string{"download"},
		Rounds:    2,
		Size:      units.MiB,
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(cells) != 1 || cells[0].Median != 0 || len(cells[0].Errors) != 2 || cells[0].Rounds[0] != 0 {
		t.Fatalf("%+v: want two failed rounds and no median", cells)
	}
	if cells[0].Server != vocab.ReferenceGo || cells[0].Language != "Go" {
		t.Fatalf("server %q in %q, want go in Go", cells[0].Server, cells[0].Language)
	}
}

func TestRunNeedsH1(t *testing.T) {
	if _, err := Run(context.Background(), Options{Protocols: []transport.Protocol{transport.H2C}}); err == nil {
		t.Fatal("no error without h1")
	}
}

// TestRequestClients: small-sequential against the Go server with h2load
// and wrk over h1 and h1-tls, and, when it is installed, oha over h1 and
// h3 (oha has no Debian package; CI does not build it). Each client's
// cells are over the transports it plays, with two clean rounds and a
// ratio to its own h1; oha's two h3 rounds overlap its 30 s tail, so the
// whole run stays well under two tails.
func TestRequestClients(t *testing.T) {
	clients := requirePeers(t, "h2load", "wrk")
	if oha, _ := peers.Lookup("oha"); oha.Installed() {
		clients = append(clients, oha)
	} else {
		t.Logf("oha is not installed (%s): h3 not measured", oha.Install)
	}
	srv, err := server.Start(server.Config{Transport: server.Loopback()})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	start := time.Now()
	cells, err := Run(context.Background(), Options{
		Clients:   clients,
		Go:        Target{Plain: srv.Transport.URL(transport.H1), TLS: srv.Transport.URL(transport.H1TLS)},
		Protocols: []transport.Protocol{transport.H1, transport.H1TLS, transport.H3},
		Scenarios: []string{"small-sequential"},
		Rounds:    2,
		Duration:  200 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"h2load/h1": true, "h2load/h1-tls": true, "wrk/h1": true, "wrk/h1-tls": true}
	if len(clients) == 3 {
		want["oha/h1"], want["oha/h3"] = true, true
	}
	got := map[string]bool{}
	for _, c := range cells {
		name := c.Client + "/" + c.Protocol
		got[name] = true
		if c.Skipped != "" || len(c.Errors) != 0 || len(c.Rounds) != 2 || c.Rounds[0] <= 0 || c.Rounds[1] <= 0 {
			t.Errorf("%s: skipped %q, errors %v, rounds %v", name, c.Skipped, c.Errors, c.Rounds)
		}
		if c.Protocol != "h1" && (c.VsH1 == nil || c.VsH1.Pairs != 2) {
			t.Errorf("%s: ratio %+v, want two rounds paired with %s's own h1", name, c.VsH1, c.Client)
		}
	}
	if len(got) != len(want) || len(cells) != len(want) {
		t.Fatalf("cells %v, want %v", got, want)
	}
	for k := range want {
		if !got[k] {
			t.Fatalf("no %s cell: %v", k, got)
		}
	}
	if el := time.Since(start); el > 55*time.Second { // two tails: over 60 s
		t.Errorf("run took %v: oha's h3 tails did not overlap", el)
	}
}

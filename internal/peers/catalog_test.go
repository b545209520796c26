package peers

import (
	"strings"
	"testing"

	"github.com/httpvs/httpvs/transport"
)

func TestParseList(t *testing.T) {
	tests := []struct {
		in      string
		want    string // names joined by ","
		wantErr string
	}{
		{in: "h2o,curl", want: "h2o,curl"},
		{in: " curl , H2O ,curl", want: "h2o,curl"},
		{in: "wrk,nghttpd,nginx", want: "nginx,nghttpd,wrk"},
		{in: "apache", wantErr: "unknown peer \"apache\": want one of h2o, nginx, caddy, nghttpd, curl, h2load, wrk, oha, or auto"},
		{in: "h2o,,curl", wantErr: "unknown peer"},
		{in: "", wantErr: "empty peer list"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseList(tt.in)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("ParseList(%q) error %v, want one containing %q", tt.in, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, p := range got {
				names = append(names, p.Name)
			}
			if strings.Join(names, ",") != tt.want {
				t.Fatalf("ParseList(%q) = %v, want %s", tt.in, names, tt.want)
			}
		})
	}
}

// TestAuto: "auto" is exactly the installed peers, and Discover splits the
// whole catalog.
func TestAuto(t *testing.T) {
	auto, err := ParseList("auto")
	if err != nil {
		t.Fatal(err)
	}
	installed, missing := Discover()
	if len(auto) != len(installed) || len(installed)+len(missing) != len(peerCatalog()) {
		t.Fatalf("auto %d, installed %d, missing %d, catalog %d", len(auto), len(installed), len(missing), len(peerCatalog()))
	}
	for _, p := range missing {
		if _, err := p.Path(); err == nil || !strings.Contains(err.Error(), "("+p.Install+")") {
			t.Errorf("%s: Path error %v does not say how to install it", p.Name, err)
		}
	}
}

func TestCatalogConsistent(t *testing.T) {
	for _, p := range peerCatalog() {
		if p.Name == "" || p.Binary == "" || p.Install == "" || p.Language == "" || len(p.Transports) == 0 {
			t.Errorf("incomplete catalog entry %+v", p)
		}
		for _, s := range p.Sink {
			if !p.Speaks(s) {
				t.Errorf("%s sinks over %s, which it does not speak", p.Name, s)
			}
		}
	}
	if p, _ := Lookup("caddy"); !p.Speaks(transport.H3) || p.Role != RoleServer {
		t.Errorf("caddy: %+v", p)
	}
}

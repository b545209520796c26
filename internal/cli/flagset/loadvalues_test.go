package flagset

import (
	"errors"
	"testing"

	"github.com/httpvs/httpvs/config"
	"github.com/httpvs/httpvs/load"
	"github.com/httpvs/httpvs/transport"
)

func TestParseHeadersAndRate(t *testing.T) {
	if h, err := ParseHeaders("100:100"); err != nil || h != (load.HeaderSpec{Count: 100, Len: 100}) || h.String() != "100:100" {
		t.Fatalf("%v %v", h, err)
	}
	for _, s := range []string{"", "100", "100:", ":5", "-1:5", "5:0", "a:b", "10001:1", "1:65537"} {
		if _, err := ParseHeaders(s); err == nil {
			t.Errorf("ParseHeaders(%q) accepted", s)
		}
	}
	for in, want := range map[string]float64{"1000": 1000, "2.5k": 2500, "500/s": 500, "0.5": 0.5} {
		if got, err := ParseRate(in); err != nil || got != want {
			t.Errorf("ParseRate(%q) = %v, %v", in, got, err)
		}
	}
	for _, s := range []string{"", "0", "-5", "fast", "NaN", "inf", "1e9"} {
		if _, err := ParseRate(s); err == nil {
			t.Errorf("ParseRate(%q) accepted", s)
		}
	}
}

func FuzzParseHeaders(f *testing.F) {
	for _, s := range []string{"100:100", "0:1", "1:65536", "x", "1:"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		h, err := ParseHeaders(s)
		if err == nil && (h.Count < 0 || h.Count > 10000 || h.Len < 1 || h.Len > 65536) {
			t.Fatalf("ParseHeaders(%q) = %+v", s, h)
		}
	})
}

func FuzzParseRate(f *testing.F) {
	for _, s := range []string{"1000", "2.5k", "500/s", "NaN", "-1", "1e300"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseRate(s)
		if err == nil && !(r > 0 && r <= 1e8) {
			t.Fatalf("ParseRate(%q) = %v", s, r)
		}
	})
}

// TestParseEngine: auto is the fast engine, which speaks all five
// transports; std and fast are themselves; any other name is a field
// error naming Engine.
func TestParseEngine(t *testing.T) {
	for _, tc := range []struct {
		name string
		want load.Engine
	}{
		{"auto", load.Fast},
		{"std", load.Std},
		{"fast", load.Fast},
	} {
		got, err := ParseEngine(tc.name)
		if err != nil || got != tc.want {
			t.Errorf("%s: %v, %v; want %v", tc.name, got, err, tc.want)
		}
	}
	var fe *config.FieldError
	if _, err := ParseEngine("turbo"); !errors.As(err, &fe) || fe.Field != "Engine" || fe.Want != "std, fast or auto" {
		t.Errorf("turbo: %v, want a field error on Engine", err)
	}
}

func TestBlockingSockets(t *testing.T) {
	tests := []struct {
		p     transport.Protocol
		conns int
		want  bool
	}{
		{transport.H1, 1, true},
		{transport.H1, maxBlockingConns, true},
		{transport.H1, maxBlockingConns + 1, false},
		{transport.H2C, 1, false},
		{transport.H1TLS, 1, false},
		{transport.H2, 1, false},
		{transport.H3, 1, false},
	}
	for _, tt := range tests {
		if got := BlockingSockets(tt.p, tt.conns); got != tt.want {
			t.Errorf("BlockingSockets(%s, %d) = %v, want %v", tt.p, tt.conns, got, tt.want)
		}
	}
}

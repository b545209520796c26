package load

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/httpvs/httpvs/config"
	"github.com/httpvs/httpvs/transport"
	"github.com/httpvs/httpvs/units"
)

// TestConfigRejects: every field out of range is refused before anything
// runs, as a typed error naming the Go field, never a CLI flag.
func TestConfigRejects(t *testing.T) {
	good := Config{URL: "http://127.0.0.1:1/small", Conns: 1, Streams: 1}
	for _, tc := range []struct {
		field  string // the FieldError's field; "" for the other typed errors
		mutate func(*Config)
	}{
		{"Streams", func(c *Config) { c.Streams = 2 }},
		{"Conns", func(c *Config) { c.Conns = 0 }},
		{"Rate", func(c *Config) { c.Rate = -1 }},
		{"Requests", func(c *Config) { c.Requests = -1 }},
		{"BodySize", func(c *Config) { c.BodySize = 2 * units.GiB }},
		{"Warmup", func(c *Config) { c.Warmup = -time.Second }},
		{"Client.HTTP2.MaxReadFrameSize", func(c *Config) { c.Client.Config.HTTP2.MaxReadFrameSize = 1 }},
		{"", func(c *Config) { c.URL = "https://127.0.0.1:1/" }},
		// Request smuggling through the method, on either engine.
		{"Method", func(c *Config) { c.Method, c.Engine = "GET /x HTTP/1.1\r\nX-Injected: 1\r\n\r\nGET", Fast }},
		{"Method", func(c *Config) { c.Method, c.Engine = "GET /x HTTP/1.1\r\nX-Injected: 1\r\n\r\nGET", Std }},
		{"Method", func(c *Config) { c.Method = "GE T" }},
	} {
		c := good
		tc.mutate(&c)
		err := c.Validate()
		if _, rerr := Run(context.Background(), c); rerr == nil || err == nil || rerr.Error() != err.Error() {
			t.Errorf("%s: Validate %v, Run %v", tc.field, err, rerr)
			continue
		}
		if strings.Contains(err.Error(), "--") {
			t.Errorf("%s: a library error names a flag: %v", tc.field, err)
		}
		var fe *config.FieldError
		var se *transport.SchemeError
		var ue *UnsupportedError
		switch {
		case tc.field != "" && (!errors.As(err, &fe) || fe.Field != tc.field):
			t.Errorf("want a FieldError for %s, got %T %v", tc.field, err, err)
		case tc.field == "" && !errors.As(err, &se) && !errors.As(err, &ue):
			t.Errorf("want a SchemeError or an UnsupportedError, got %T %v", err, err)
		}
	}
	if _, err := ParseEngine("turbo"); err == nil {
		t.Error("engine turbo accepted")
	}
}

func TestParseHeaderSpecAndRate(t *testing.T) {
	if h, err := ParseHeaderSpec("100:100"); err != nil || h != (HeaderSpec{100, 100}) || h.String() != "100:100" {
		t.Fatalf("%v %v", h, err)
	}
	for _, s := range []string{"", "100", "100:", ":5", "-1:5", "5:0", "a:b", "10001:1", "1:65537"} {
		if _, err := ParseHeaderSpec(s); err == nil {
			t.Errorf("ParseHeaderSpec(%q) accepted", s)
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

func FuzzParseHeaderSpec(f *testing.F) {
	for _, s := range []string{"100:100", "0:1", "1:65536", "x", "1:"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		h, err := ParseHeaderSpec(s)
		if err == nil && (h.Count < 0 || h.Count > 10000 || h.Len < 1 || h.Len > 65536) {
			t.Fatalf("ParseHeaderSpec(%q) = %+v", s, h)
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

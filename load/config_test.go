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
		{"Client.Protocol", func(c *Config) { c.Client.Protocol = transport.Protocol(len(transport.All)) }},
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
		switch {
		case tc.field != "" && (!errors.As(err, &fe) || fe.Field != tc.field):
			t.Errorf("want a FieldError for %s, got %T %v", tc.field, err, err)
		case tc.field == "" && !errors.As(err, &se):
			t.Errorf("want a SchemeError, got %T %v", err, err)
		}
	}
	if _, err := parseEngine("turbo"); err == nil {
		t.Error("engine turbo accepted")
	}
}

package server

import (
	"errors"
	"testing"
	"time"

	"github.com/httpvs/httpvs/config"
	"github.com/httpvs/httpvs/internal/defaults"
	"github.com/httpvs/httpvs/units"
)

// TestConfigValidate: Validate and Start refuse each out-of-range field
// with a *config.FieldError naming it (the CLI maps the name to its flag;
// Start leaves Transport's fields to transport.NewServer), and
// starts a server whose fields are zero (the defaults) or in range.
func TestConfigValidate(t *testing.T) {
	for _, tc := range []struct {
		field string
		edit  func(*Config)
	}{
		{"MaxSize", func(c *Config) { c.MaxSize = -1 }},
		{"MaxEcho", func(c *Config) { c.MaxEcho = -1 }},
		{"MaxBuffered", func(c *Config) { c.MaxEcho, c.MaxBuffered = 2*units.MiB, units.MiB }},
		{"MaxBuffered", func(c *Config) { c.MaxBuffered = defaults.MaxEcho - 1 }}, // against the default echo
		{"GRPCListen", func(c *Config) { c.GRPCListen = "127.0.0.1" }},
		{"Transport.MaxConns", func(c *Config) { c.Transport.MaxConns = -1 }},
		{"Transport.MaxHeaderBytes", func(c *Config) { c.Transport.MaxHeaderBytes = 100 }},
		{"Transport.IdleTimeout", func(c *Config) { c.Transport.IdleTimeout = -time.Second }},
		{"Transport.MinDataRate.Grace", func(c *Config) { c.Transport.MinDataRate.Grace = -time.Second }},
		{"Transport.Listen", func(c *Config) { c.Transport.Listen = "127.0.0.1:70000" }},
		{"Transport.TLSListen", func(c *Config) { c.Transport.TLSListen = "localhost" }},
		{"Transport.Config.HTTP2.MaxReadFrameSize", func(c *Config) { c.Transport.Config.HTTP2.MaxReadFrameSize = 100 }},
	} {
		c := Config{Transport: Loopback()}
		c.Transport.NoH3 = true
		tc.edit(&c)
		var fe *config.FieldError
		if err := c.Validate(); !errors.As(err, &fe) || fe.Field != tc.field {
			t.Errorf("%s: Validate says %v, want a field error naming it", tc.field, err)
		}
		r, err := Start(c)
		if err == nil {
			r.Close()
			t.Errorf("%s: started", tc.field)
			continue
		}
		if !errors.As(err, &fe) || fe.Field != tc.field {
			t.Errorf("%s: %v, want a field error naming it", tc.field, err)
		}
	}
	c := Config{Options: Options{MaxEcho: 4 * units.MiB, MaxBuffered: 4 * units.MiB}, Transport: Loopback(), GRPCListen: "127.0.0.1:0"}
	c.Transport.NoH3, c.Transport.MaxHeaderBytes = true, 4096
	r, err := Start(c)
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
}

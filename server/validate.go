package server

import (
	"cmp"

	"github.com/httpvs/httpvs/internal/defaults"
	"github.com/httpvs/httpvs/internal/fielderr"
)

// Validate reports the first field of o out of range as a
// *config.FieldError; zero values, which mean the defaults, are valid.
// New takes o as it is (negative sizes as the defaults); Start refuses
// what Validate refuses.
func (o Options) Validate() error {
	switch {
	case o.MaxSize < 0:
		return fielderr.New("MaxSize", o.MaxSize, "a positive size")
	case o.WriteSize < 0:
		return fielderr.New("WriteSize", o.WriteSize, "a positive number of bytes")
	case o.MaxEcho < 0:
		return fielderr.New("MaxEcho", o.MaxEcho, "a positive size, e.g. 1MiB")
	case o.MaxBuffered < 0:
		return fielderr.New("MaxBuffered", o.MaxBuffered, "a positive size")
	}
	if echo := cmp.Or(o.MaxEcho, defaults.MaxEcho); cmp.Or(o.MaxBuffered, defaults.MaxBuffered) < echo {
		return fielderr.New("MaxBuffered", o.MaxBuffered, "at least the largest echo body (%v), or no echo fits", echo)
	}
	return nil
}

// Validate reports the first field of c out of range as a
// *config.FieldError: its Options' ("MaxEcho"), its Transport's
// ("Transport.MaxConns", "Transport.Config.HTTP2.MaxReadFrameSize") or
// GRPCListen. Start refuses what it refuses.
func (c Config) Validate() error {
	if err := c.validateOwn(); err != nil {
		return err
	}
	return fielderr.Within("Transport", c.Transport.Validate())
}

// validateOwn is Validate less Transport's fields, which
// transport.NewServer validates (for Start, once).
func (c Config) validateOwn() error {
	if err := c.Options.Validate(); err != nil {
		return err
	}
	return fielderr.Listen("GRPCListen", c.GRPCListen)
}

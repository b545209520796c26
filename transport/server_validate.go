package transport

import (
	"net"
	"strconv"

	"github.com/httpvs/httpvs/internal/fielderr"
)

// minMaxHeaderBytes is the smallest MaxHeaderBytes allowed: below it
// ordinary browsers' requests would be refused.
const minMaxHeaderBytes = 4096

// Validate reports the first field of o out of range as a
// *config.FieldError (Field "MaxConns", "Config.HTTP2.MaxReadFrameSize"
// and so on); zero values, which mean the defaults, are valid. NewServer
// calls it.
func (o ServerOptions) Validate() error {
	switch {
	case o.ReadHeaderTimeout < 0:
		return fielderr.New("ReadHeaderTimeout", o.ReadHeaderTimeout, "a positive duration, e.g. 10s")
	case o.IdleTimeout < 0:
		return fielderr.New("IdleTimeout", o.IdleTimeout, "a positive duration, e.g. 2m")
	case o.MaxHeaderBytes < 0 || (o.MaxHeaderBytes > 0 && o.MaxHeaderBytes < minMaxHeaderBytes):
		return fielderr.New("MaxHeaderBytes", o.MaxHeaderBytes, "at least %d", minMaxHeaderBytes)
	case o.MaxConns < 0:
		return fielderr.New("MaxConns", o.MaxConns, "0 (no bound) or more")
	case o.MinDataRate.Grace < 0:
		return fielderr.New("MinDataRate.Grace", o.MinDataRate.Grace, "a positive duration, e.g. 5s")
	}
	if err := ValidateListen("Listen", o.Listen); err != nil {
		return err
	}
	if err := ValidateListen("TLSListen", o.TLSListen); err != nil {
		return err
	}
	return fielderr.Within("Config", o.Config.Validate())
}

// ValidateListen reports addr, the listen address of field, as a
// *config.FieldError unless it is host:port with a port in 0-65535 (0:
// any free port) or empty (no listener).
func ValidateListen(field, addr string) error {
	if addr == "" {
		return nil
	}
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fielderr.New(field, addr, "host:port, e.g. 127.0.0.1:8080")
	}
	if port == "" {
		return nil // net.Listen's any free port, as 0
	}
	n, err := strconv.Atoi(port)
	switch {
	case err != nil:
		return fielderr.New(field, addr, "a numeric port, e.g. 127.0.0.1:8080")
	case n < 0 || n > 65535:
		return fielderr.New(field, addr, "a port in 0-65535 (%d is out of range), e.g. 127.0.0.1:8080", n)
	}
	return nil
}

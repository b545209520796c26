package transport

import "github.com/httpvs/httpvs/internal/fielderr"

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
	if err := fielderr.Listen("Listen", o.Listen); err != nil {
		return err
	}
	if err := fielderr.Listen("TLSListen", o.TLSListen); err != nil {
		return err
	}
	return fielderr.Within("Config", o.Config.Validate())
}

package transport

import (
	"errors"
	"testing"

	"github.com/httpvs/httpvs/config"
)

// TestNewServerValidates: NewServer refuses options out of range with a
// *config.FieldError naming the field, before it asks for a handler or a
// listen address (server.Start leaves these checks to it).
func TestNewServerValidates(t *testing.T) {
	for _, tc := range []struct {
		field string
		opts  ServerOptions
	}{
		{"MaxConns", ServerOptions{Handler: okHandler, Listen: "127.0.0.1:0", MaxConns: -1}},
		{"TLSListen", ServerOptions{Handler: okHandler, TLSListen: "localhost"}},
		{"Config.HTTP2.MaxReadFrameSize", ServerOptions{Handler: okHandler, Listen: "127.0.0.1:0", Config: config.Server{HTTP2: config.HTTP2{MaxReadFrameSize: 100}}}},
		{"MaxHeaderBytes", ServerOptions{MaxHeaderBytes: 100}}, // no handler, no listener
	} {
		s, err := NewServer(tc.opts)
		if err == nil {
			s.Close()
			t.Errorf("%s: started", tc.field)
			continue
		}
		var fe *config.FieldError
		if !errors.As(err, &fe) || fe.Field != tc.field {
			t.Errorf("%s: %v, want a field error naming it", tc.field, err)
		}
	}
}

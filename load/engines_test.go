package load

import (
	"errors"
	"testing"

	"github.com/httpvs/httpvs/config"
	"github.com/httpvs/httpvs/transport"
)

// TestParseEngineFor: auto is the fast engine for every transport it
// speaks (all five); std and fast are themselves; any other name is a
// field error naming Engine.
func TestParseEngineFor(t *testing.T) {
	for _, tc := range []struct {
		name string
		p    transport.Protocol
		want Engine
	}{
		{"auto", transport.H1, Fast},
		{"auto", transport.H3, Fast},
		{"std", transport.H2, Std},
		{"fast", transport.H2C, Fast},
	} {
		got, err := ParseEngineFor(tc.name, tc.p)
		if err != nil || got != tc.want {
			t.Errorf("%s for %s: %v, %v; want %v", tc.name, tc.p, got, err, tc.want)
		}
	}
	var fe *config.FieldError
	if _, err := ParseEngineFor("turbo", transport.H1); !errors.As(err, &fe) || fe.Field != "Engine" || fe.Want != "std, fast or auto" {
		t.Errorf("turbo: %v, want a field error on Engine", err)
	}
}

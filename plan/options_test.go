package plan

import (
	"errors"
	"testing"

	"github.com/httpvs/httpvs/config"
	"github.com/httpvs/httpvs/transport"
)

// TestValidateRounds: the fields that decide the rounds are refused out
// of range as a *config.FieldError naming the field; in range they pass.
func TestValidateRounds(t *testing.T) {
	base := Options{Protocols: []transport.Protocol{transport.H1}, Scenarios: Scenarios[:1]}
	for _, tc := range []struct {
		set   func(*Options)
		field string // "" when valid
	}{
		{func(o *Options) { o.Precision = 0.10 }, ""},
		{func(o *Options) { o.Precision = 0.005 }, "Precision"},
		{func(o *Options) { o.Precision = 0.6 }, "Precision"},
		{func(o *Options) { o.LossEvents = 100000 }, ""},
		{func(o *Options) { o.LossEvents = 100001 }, "LossEvents"},
		{func(o *Options) { o.LossEvents = -1 }, ""},
		{func(o *Options) { o.AA = []string{AAEachKind, Scenarios[0].Name} }, ""},
		{func(o *Options) { o.AA = []string{"frob"} }, "AA"},
	} {
		o := base
		tc.set(&o)
		err := o.Validate()
		var fe *config.FieldError
		switch {
		case tc.field == "" && err != nil:
			t.Errorf("%+v: %v, want valid", o, err)
		case tc.field != "" && (!errors.As(err, &fe) || fe.Field != tc.field):
			t.Errorf("%+v: %v, want a field error on %s", o, err, tc.field)
		}
	}
}

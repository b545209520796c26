package experiment

import (
	"slices"
	"testing"

	"github.com/httpvs/httpvs/internal/runfiles"
	"github.com/httpvs/httpvs/plan"
	"github.com/httpvs/httpvs/transport"
)

// TestFillQuickIsTheDefaultMatrix: Quick with no scenarios or transports
// named measures every scenario over every transport the child serves,
// Go as shipped with the tuned client's rows beside it; against a
// cleartext target, the transports it serves.
func TestFillQuickIsTheDefaultMatrix(t *testing.T) {
	o := Quick()
	if err := o.fill(); err != nil {
		t.Fatal(err)
	}
	m := o.Matrix
	if !slices.Equal(m.Protocols, transport.All) || !slices.EqualFunc(m.Scenarios, plan.Scenarios, func(a, b plan.Scenario) bool { return a.Name == b.Name }) {
		t.Errorf("protocols %v, %d scenarios: want every transport and all %d scenarios", m.Protocols, len(m.Scenarios), len(plan.Scenarios))
	}
	if m.Knobs.Name != runfiles.GoDefault.Name || m.Alongside == nil || m.Alongside.Name != runfiles.Tuned.Name {
		t.Errorf("knobs %q, alongside %+v: want Go as shipped, the tuned rows beside it", m.Knobs.Name, m.Alongside)
	}
	o = Quick()
	o.Target = plan.Target{Plain: "http://127.0.0.1:1"}
	if err := o.fill(); err != nil {
		t.Fatal(err)
	}
	if want := []transport.Protocol{transport.H1, transport.H2C}; !slices.Equal(o.Matrix.Protocols, want) {
		t.Errorf("a cleartext target: protocols %v, want %v", o.Matrix.Protocols, want)
	}
}

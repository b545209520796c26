package experiment

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/httpvs/httpvs/internal/knobs"

	"github.com/httpvs/httpvs/internal/defaults"
	"github.com/httpvs/httpvs/internal/requests"
	"github.com/httpvs/httpvs/plan"
	"github.com/httpvs/httpvs/results"
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
	if m.Knobs.Name != knobs.GoDefault.Name || m.Alongside == nil || m.Alongside.Name != knobs.Tuned.Name {
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

// TestFillRequests: the user's requests name the target when none is
// given and come after the default scenarios; against a target they run
// alone, across a link after its default matrix, and beside the browser
// page-load runs alone; a request naming another server than the target
// is refused, and so is a link to the server the requests name.
func TestFillRequests(t *testing.T) {
	reqs := []results.Request{{Method: "GET", Path: "/a"}}
	named := []results.Request{{Method: "GET", Origin: "http://127.0.0.1:7", Path: "/b"}}
	names := func(scs []plan.Scenario) []string {
		var out []string
		for _, sc := range scs {
			out = append(out, sc.Name)
		}
		return out
	}
	mine := names(plan.RequestScenarios(reqs))
	link := &LinkSpec{Name: "lan"}
	for _, tt := range []struct {
		name   string
		o      Options
		want   []string
		target string
	}{
		{"loopback", Options{Base: Base{Requests: reqs}}, append(names(plan.Scenarios), mine...), ""},
		{"target", Options{Base: Base{Requests: reqs}, Target: plan.Target{Plain: "http://127.0.0.1:7"}}, mine, "http://127.0.0.1:7"},
		{"named", Options{Base: Base{Requests: named}}, names(plan.RequestScenarios(named)), "http://127.0.0.1:7"},
		{"link", Options{Base: Base{Requests: reqs}, Link: link}, append(names(plan.NetDefault()), mine...), ""},
		{"browser", Options{Base: Base{Requests: reqs, Matrix: plan.Options{Browser: &plan.BrowserOptions{}}}}, []string{"page-load"}, ""},
		{"given", Options{Base: Base{Requests: reqs, Matrix: plan.Options{Scenarios: plan.Scenarios[:1]}}}, names(plan.Scenarios[:1]), ""},
	} {
		o := tt.o
		if err := o.fill(); err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if got := names(o.Matrix.Scenarios); !slices.Equal(got, tt.want) || o.Target.Plain != tt.target {
			t.Errorf("%s: scenarios %q, target %q; want %q, %q", tt.name, got, o.Target.Plain, tt.want, tt.target)
		}
	}
	other := Options{Base: Base{Requests: named}, Target: plan.Target{Plain: "http://127.0.0.1:8"}}
	if err := other.fill(); !errors.As(err, new(*requests.ForeignOriginError)) {
		t.Errorf("a request naming another server than the target: %v, want a *requests.ForeignOriginError", err)
	}
	across := Options{Base: Base{Requests: named}, Link: link}
	if err := across.fill(); err == nil {
		t.Error("a link to the server the requests name: accepted")
	}
}

// TestCapacityFillFromOptions: a zero search field takes the
// experiment's own (its one request, Matrix.Duration, a positive
// Budget), and the search's default where the experiment has none.
func TestCapacityFillFromOptions(t *testing.T) {
	var o Options
	o.Requests = []results.Request{{Method: "POST", Path: "/echo"}}
	o.Matrix.Duration, o.Budget = 2*time.Second, 30*time.Second
	var c CapacityOptions
	c.fill(o)
	if c.Request.Path != "/echo" || c.Step != 2*time.Second || c.Budget != 30*time.Second {
		t.Errorf("request %v, step %v, budget %v: want the experiment's POST /echo, 2s, 30s", c.Request, c.Step, c.Budget)
	}
	o.Budget = -1 // none: the search's own bound
	c = CapacityOptions{}
	c.fill(o)
	if c.Budget != defaults.CapacityBudget {
		t.Errorf("budget %v with Options.Budget none, want the search's %v", c.Budget, defaults.CapacityBudget)
	}
}

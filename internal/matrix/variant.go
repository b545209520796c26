package matrix

import (
	"strings"

	"github.com/httpvs/httpvs/internal/knobs"

	"github.com/httpvs/httpvs/config"
	"github.com/httpvs/httpvs/internal/fielderr"
	"github.com/httpvs/httpvs/internal/scenariospec"
	"github.com/httpvs/httpvs/plan"
	"github.com/httpvs/httpvs/results"
)

// Variant scenarios answer "and with the best known settings?" in the
// same run: a single-stream transfer measured again, every transport,
// with the client knobs of Options.Alongside instead of Options.Client's,
// so the verdict shows Go as shipped next to what tuning reaches. Only the
// client's knobs change (the server is one process for the whole run); a
// variant's cells carry the set's name in Cell.Knobs and get no findings
// (the rules read the run's settings, which are not theirs). A variant is
// measured in the same rounds as the scenario it varies (firstRounds,
// withPartner), so that its gain over the shipped cell of each transport
// is a paired comparison of its own (Cell.TunedGain).

// repeat is the rounds sc gets before rounds are added: Repeat, or half
// of it (at least minStage) for a variant, which answers "how far do
// settings go" rather than "is it slower", so that the default run keeps
// its minute; a variant still wide after them gets the rounds their
// spread plans, like any other scenario.
// minStage is the fewest first-stage rounds a variant gets: its spread
// plans the rest, and three rounds' spread (Student's t 4.3 on two
// degrees of freedom) planned the most rounds for nearly every variant
// cell in a default run, and read them ±50% when the budget could not.
const minStage = 5

func (o Options) repeat(sc Scenario) int {
	if spec(&sc).Rounds > 0 { // a slow request, for the budget (SizeRequests)
		return min(o.Repeat, spec(&sc).Rounds)
	}
	if scenariospec.Of(&sc).Knobs == "" {
		return o.Repeat
	}
	return min(o.Repeat, max(minStage, o.Repeat/2))
}

// variantOf reports whether sc gets a variant (plan.Variant).
func variantOf(sc Scenario) bool {
	_, ok := plan.Variant(sc, "")
	return ok
}

// expand returns o.Scenarios with, after each scenario variantOf accepts,
// its variant under o.Alongside; o.Scenarios alone when Alongside is nil.
func (o Options) expand() ([]Scenario, error) {
	if o.Alongside == nil {
		return o.Scenarios, nil
	}
	cfg := o.Client
	var client []results.Knob
	for _, k := range o.Alongside.Knobs {
		if strings.HasPrefix(k.Field, "Client.") {
			client = append(client, k)
		}
	}
	if err := (knobs.Setup{Client: &cfg}).Apply(client...); err != nil {
		return nil, fielderr.Within("Alongside", err)
	}
	var out []Scenario
	for _, sc := range o.Scenarios {
		out = append(out, sc)
		if variantOf(sc) {
			out = append(out, variant(sc, o.Alongside.Name, &cfg))
		}
	}
	return out, nil
}

// variant is sc measured with client (nil in results read back, where
// only the name matters) under the knob set called set.
func variant(sc Scenario, set string, client *config.Client) Scenario {
	v, _ := plan.Variant(sc, set)
	spec(&v).Client = client
	return v
}

// ScenarioByName returns the scenario called name, a variant's too
// ("download:tuned", without its client configuration).
func ScenarioByName(name string) (Scenario, bool) { return plan.ScenarioOf(nil, name) }

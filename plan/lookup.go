package plan

import (
	"strings"

	"github.com/httpvs/httpvs/internal/scenariospec"
	"github.com/httpvs/httpvs/internal/vocab"
	"github.com/httpvs/httpvs/results"
)

// ScenarioOf returns the scenario of a run with settings s (nil: none)
// called name: one of the user's requests (Settings.Requests), one of
// the matrix, or a variant of one ("download:tuned", without its
// client's knobs).
func ScenarioOf(s *results.Settings, name string) (Scenario, bool) {
	if s != nil && len(s.Requests) > 0 {
		for _, sc := range RequestScenarios(s.Requests) {
			if sc.Name == name {
				return sc, true
			}
		}
	}
	if sc, ok := scenarioByName(name); ok {
		return sc, true
	}
	base, set, ok := strings.Cut(name, vocab.VariantSep)
	if !ok || set == "" {
		return Scenario{}, false
	}
	if sc, ok := scenarioByName(base); ok {
		return Variant(sc, set)
	}
	return Scenario{}, false
}

// Variant returns sc measured again under the knob set called set, and
// whether sc has such a variant: one big body on one stream, received by
// the client, where buffer and frame sizes decide (golang/go#47840). Only
// the client's knobs change, and the tuned ones act on what it receives:
// an upload's receiving side is the server, so it has none. The variant's
// client knobs are the caller's to set.
func Variant(sc Scenario, set string) (Scenario, bool) {
	x := scenariospec.Of(&sc)
	if !x.Engine() || !scenariospec.Transfer(sc.Metric) || x.Streams != 1 || x.Upload || x.Knobs != "" {
		return Scenario{}, false
	}
	v := sc
	v.Name += vocab.VariantSep + set
	v.Description += ", client knobs " + set
	scenariospec.Of(&v).Knobs = set
	return v, true
}

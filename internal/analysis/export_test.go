package analysis

import (
	"github.com/httpvs/httpvs/plan"
	"github.com/httpvs/httpvs/results"
)

// GeneratorBound is generator-bound's rule on cell c of scenario sc
// measured as m, for the measured fix check (package analysis_test,
// which measures with internal/matrix, an importer of this package).
func GeneratorBound(c *results.Cell, m results.Repetition, sc plan.Scenario, set *results.Settings) *results.Finding {
	return generatorBound(&subject{c: c, m: m, sc: sc, set: set})
}

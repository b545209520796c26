package analysis

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"
	"sync"

	"github.com/httpvs/httpvs/results"
)

// The gate's default margin: BetweenRuns estimated from runs of one build
// of `httpvs run --ci` on the machine that measured the gate
// (bench/gate.sh with MARGIN_RUNS, written by
// `go run ./bench/betweenruns`).
//
//go:embed betweenruns.json
var betweenRunsJSON []byte

var defaultMargin = sync.OnceValue(func() *results.BetweenRuns {
	m, err := ParseBetweenRuns(betweenRunsJSON)
	if err != nil {
		return nil
	}
	return m
})

// DefaultBetweenRuns is the margin compare allows for unless told
// otherwise: the between-run spread of run --ci measured on the machine
// that measured the gate; nil if none is built in.
func DefaultBetweenRuns() *results.BetweenRuns { return defaultMargin() }

// ParseBetweenRuns reads a margin written by EstimateBetweenRuns as
// JSON; an estimate from fewer than two runs is an error.
func ParseBetweenRuns(data []byte) (*results.BetweenRuns, error) {
	var m results.BetweenRuns
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, err
	}
	if m.Runs < 2 || len(m.Kinds) == 0 {
		return nil, fmt.Errorf("a between-run margin needs an estimate from two runs or more (this one is from %d)", m.Runs)
	}
	for _, k := range m.Kinds {
		if k.SD < 0 || k.DF <= 0 || math.IsNaN(k.SD) {
			return nil, fmt.Errorf("kind %q: sd %v with %v degrees of freedom", k.Kind, k.SD, k.DF)
		}
	}
	return &m, nil
}

// EstimateBetweenRuns estimates the between-run spread of every cell's
// ratio to its baseline from runs of one build, kind of work by kind
// (KindOf): per cell, the variance of its runs' mean log-ratios less the
// mean of their rounds' variances of the mean (what the rounds alone
// would make the runs differ by), pooled over the kind's cells weighted
// by their runs less one, and floored at zero: a one-way random-effects
// estimate by moments. Cells measured in fewer than two runs (with two
// rounds or more) add nothing. Source is left for the caller.
func EstimateBetweenRuns(runs []*results.Results) results.BetweenRuns {
	type acc struct {
		sum, df float64
		cells   int
	}
	kinds := map[string]*acc{}
	for _, cell := range ratioCells(runs) {
		var means, within []float64
		for _, r := range runs {
			c, b := r.Cell(cell[0], cell[1]), baselineCell(r, cell[0])
			if c == nil || b == nil || c.Skipped != "" || b.Protocol == c.Protocol {
				continue
			}
			l := pairedLogRatios(c, b)
			if len(l) < minCompare {
				continue
			}
			m := Mean(l)
			means, within = append(means, m), append(within, Variance(l, m)/float64(len(l)))
		}
		if len(means) < 2 {
			continue
		}
		k := KindOf(cell[0], cell[2])
		a := kinds[k]
		if a == nil {
			a = &acc{}
			kinds[k] = a
		}
		df := float64(len(means) - 1)
		a.sum += df * (Variance(means, Mean(means)) - Mean(within))
		a.df += df
		a.cells++
	}
	out := results.BetweenRuns{Runs: len(runs), Kinds: []results.BetweenRunsKind{}}
	for k, a := range kinds {
		out.Kinds = append(out.Kinds, results.BetweenRunsKind{Kind: k, SD: math.Sqrt(math.Max(0, a.sum/a.df)), DF: a.df, Cells: a.cells})
	}
	sort.Slice(out.Kinds, func(i, j int) bool { return out.Kinds[i].Kind < out.Kinds[j].Kind })
	return out
}

// ratioCells are the scenario, protocol and metric of every cell of runs
// other than its run's baseline, each once, in the runs' order.
func ratioCells(runs []*results.Results) [][3]string {
	var out [][3]string
	seen := map[[2]string]bool{}
	for _, r := range runs {
		for _, c := range r.Cells {
			k := [2]string{c.Scenario, c.Protocol}
			if !seen[k] && c.Protocol != r.Settings.BaselineProtocol() {
				seen[k] = true
				out = append(out, [3]string{c.Scenario, c.Protocol, c.Metric})
			}
		}
	}
	return out
}

// BetweenRunsSource describes runs in words for BetweenRuns.Source: how
// many, their rounds and the machine, from the runs' own settings.
func BetweenRunsSource(runs []*results.Results) string {
	if len(runs) == 0 {
		return ""
	}
	r := runs[0]
	return fmt.Sprintf("%d runs of one build, %d rounds of %v a cell, %d cores (%s, %s), started %s", len(runs), r.Settings.Repeat,
		msText(r.Settings.DurationSeconds), r.Env.Cores, r.Env.CPUModel, r.Env.GoVersion, r.Started.UTC().Format("2006-01-02"))
}

func msText(s float64) string {
	return fmt.Sprintf("%.0f ms", s*1000)
}

// kindSD is m's spread for the kind of work of scenario with metric and
// its degrees of freedom; zero without a margin or an estimate for that
// kind.
func kindSD(m *results.BetweenRuns, scenario, metric string) (sd, df float64) {
	if m == nil {
		return 0, 0
	}
	k := KindOf(scenario, metric)
	for _, x := range m.Kinds {
		if x.Kind == k {
			return x.SD, x.DF
		}
	}
	return 0, 0
}

// MarginLine says in one line what between-run spread compare's test
// allowed for and where it comes from; "" for none.
func MarginLine(m *results.BetweenRuns) string {
	if m == nil {
		return "margin: none; each cell's test allows only for its rounds' spread, not for two runs of one build differing by more"
	}
	parts := make([]string, len(m.Kinds))
	for i, k := range m.Kinds {
		parts[i] = fmt.Sprintf("%s ±%.0f%%", k.Kind, 100*(math.Exp(k.SD)-1))
		if k.SD == 0 {
			parts[i] = k.Kind + " none (its rounds explain its runs' spread)"
		}
	}
	return fmt.Sprintf("margin: each cell's test allows for two runs of one build differing by more than their rounds say, a run's ratio moving by a spread of %s (one standard deviation), estimated from %s", strings.Join(parts, ", "), m.Source)
}

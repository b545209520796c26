package matrix

import (
	"context"
	"slices"
	"time"

	"github.com/httpvs/httpvs/internal/scenariospec"
)

// tunedOf reports whether v is the tuned variant of base (expand puts it
// right after).
func tunedOf(v, base Scenario) bool {
	return scenariospec.Of(&v).Knobs != "" && scenariospec.Of(&base).Knobs == "" && variantOf(base) &&
		v.Name == variant(base, scenariospec.Of(&v).Knobs, nil).Name
}

// roundPart is what a round measures of one scenario: the columns in
// which, all when nil.
type roundPart struct {
	sr    *scenarioRun
	which []bool
}

// firstRounds measures group's warm-up and first rounds: one scenario, or
// a scenario and its tuned variant in the same rounds. rest is the
// scenarios from group's first on, for the pace (firstStage).
func (r *runner) firstRounds(ctx context.Context, group []*scenarioRun, rest []Scenario) {
	all := make([]roundPart, len(group))
	for i, sr := range group {
		all[i] = roundPart{sr: sr}
	}
	for range r.opts.warmupRounds() {
		r.measureRound(ctx, all, true)
	}
	ks := make([]int, len(group))
	for i, sr := range group {
		r.estDone += r.opts.prepCost(sr.sc)
		ks[i] = r.firstStage(sr.sc, rest[i:])
		r.setFirstStage(sr, ks[i])
	}
	for j := range slices.Max(ks) {
		var parts []roundPart
		for i, sr := range group {
			if j < ks[i] {
				parts = append(parts, roundPart{sr: sr})
			}
		}
		r.measureRound(ctx, parts, false)
	}
	for i, sr := range group {
		r.estDone += time.Duration(ks[i]) * r.opts.stageCost(sr.sc)
	}
}

// withPartner is a round of sr's columns in which and, when sr has a
// partner, of the partner's columns of the same names that are measured
// and have fewer than maxRounds rounds (its baseline whatever it has):
// an added round keeps a tuned cell and its shipped one in the same
// rounds.
func (sr *scenarioRun) withPartner(which []bool, maxRounds int, baseline string) []roundPart {
	parts := []roundPart{{sr, which}}
	p := sr.partner
	if p == nil {
		return parts
	}
	pw := make([]bool, len(p.cols))
	base := p.baseline(baseline)
	var any bool
	for i, col := range sr.cols {
		if !which[i] {
			continue
		}
		for j, pc := range p.cols {
			c := &p.cells[j]
			if pc.name == col.name && c.Skipped == "" && (len(c.Repetitions) < maxRounds || j == base) {
				pw[j], any = true, true
			}
		}
	}
	if any {
		parts = append(parts, roundPart{p, pw})
	}
	return parts
}

// measureRound measures one round of parts together: every column each
// part names, measured, one after another in a fresh random order over
// all of them (randomized interleaving: what one column leaves behind
// lands on each alike). Every part's scenario takes the same round
// number, past the largest of theirs, so that their cells pair by round.
// A warm-up round is measured and discarded.
func (r *runner) measureRound(ctx context.Context, parts []roundPart, warm bool) {
	type unit struct {
		sr *scenarioRun
		i  int
	}
	var units []unit
	round := 0
	for _, p := range parts {
		round = max(round, p.sr.rounds+1)
		for i := range p.sr.cols {
			if p.sr.cells[i].Skipped == "" && (p.which == nil || p.which[i]) {
				units = append(units, unit{p.sr, i})
			}
		}
	}
	if !warm {
		for _, p := range parts {
			p.sr.rounds = round
		}
	}
	for _, k := range r.rng.Perm(len(units)) {
		r.measureOne(ctx, units[k].sr, units[k].i, warm)
	}
}

// measureOne measures sr's column i for the round sr is in.
func (r *runner) measureOne(ctx context.Context, sr *scenarioRun, i int, warm bool) {
	if ctx.Err() != nil {
		if !warm {
			sr.cutShort(i)
		}
		return
	}
	r.report(sr.sc, sr.cols[i].name, sr.rounds, warm)
	if r.opts.LinkCounters != nil {
		r.opts.LinkCounters() // what came before is not this repetition's
	}
	began := time.Now()
	m := r.measure(ctx, sr, i, warm)
	if warm {
		return
	}
	sr.spent[i] += time.Since(began)
	if ctx.Err() != nil {
		// Cut short (interrupted, or the server died under it): its
		// figures are not a repetition's, and give no verdict.
		sr.cutShort(i)
		return
	}
	if r.opts.LinkCounters != nil {
		m.Link = newRepetitionLink(r.opts.LinkCounters())
	}
	m.Round = sr.rounds
	sr.cells[i].Repetitions = append(sr.cells[i].Repetitions, m)
	r.done++
}

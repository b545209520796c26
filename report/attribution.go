package report

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"time"

	"github.com/httpvs/httpvs/internal/runfiles"
	"github.com/httpvs/httpvs/internal/vocab"
	"github.com/httpvs/httpvs/results"
)

// defaultProfileSpan is the profiling round of runs that did not record
// theirs (results.Settings.ProfileSpanSeconds).
const defaultProfileSpan = 2 * time.Second

// Attribution writes, for each cell of res the verdict calls slower and
// whose extra CPU was attributed (Cell.Attribution), where it went: per
// side, the areas and the few functions that grew over the baseline's,
// per the cell's CPU unit. When a side's profiles held too few samples to
// trust its shares, it says which flag gets enough and what that costs;
// it ends with the next step. It writes nothing, and returns false, when
// no such cell was attributed.
func Attribution(w io.Writer, res *results.Results) bool {
	base := res.Settings.BaselineProtocol()
	var cells []*results.Cell
	left := 0
	for i := range res.Cells {
		c := &res.Cells[i]
		switch {
		case len(c.Attribution) == 0:
		case c.VsBaseline == nil || c.VsBaseline.Verdict != results.VerdictSlower:
			left++ // attributed by an earlier httpvs, which profiled more
		default:
			cells = append(cells, c)
		}
	}
	if len(cells) == 0 {
		return false
	}
	fmt.Fprintf(w, "where the extra CPU went in the cells the verdict calls slower (profiles in rounds of their own, per unit of work, over %s's):\n", base)
	fewest, rough := vocab.AttributionRoughSamples, 0
	for _, c := range cells {
		fmt.Fprintf(w, "  %s/%s (%s):\n", c.Scenario, c.Protocol, estimateText(c))
		for _, s := range c.Attribution {
			fmt.Fprintf(w, "    %s\n", s.Summary)
			if n := min(s.Samples, s.BaseSamples); s.Error == "" && n < vocab.AttributionRoughSamples {
				rough++
				fewest = min(fewest, n)
			}
		}
	}
	if left > 0 {
		fmt.Fprintf(w, "left out: %d attributed cell(s) the verdict does not call slower\n", left)
	}
	if rough > 0 {
		fmt.Fprintln(w, roughLine(res, cells, rough, fewest))
	}
	fmt.Fprintln(w, attributionNext(res, cells[0], base))
	return true
}

// roughLine says how many sides were rough, and the --profile-span that
// would give the fewest of them vocab.AttributionRoughSamples, with what the
// longer rounds would add to the run: one round per slower cell and one
// per scenario for its baseline.
func roughLine(res *results.Results, cells []*results.Cell, rough, fewest int) string {
	span := defaultProfileSpan
	if s := res.Settings.ProfileSpanSeconds; s > 0 {
		span = time.Duration(s * float64(time.Second))
	}
	rounds := len(cells)
	scenarios := map[string]bool{}
	for _, c := range cells {
		if !scenarios[c.Scenario] {
			scenarios[c.Scenario] = true
			rounds++
		}
	}
	head := fmt.Sprintf("rough: %d side(s) held fewer than %d CPU samples in a round of %v (the fewest %d; 100 a second of a busy core), too few to trust their shares", rough, vocab.AttributionRoughSamples, span, fewest)
	if fewest == 0 {
		return head + ": those sides did almost no work in the round; a longer one will not change that"
	}
	need := time.Duration(math.Ceil(span.Seconds()*float64(vocab.AttributionRoughSamples)/float64(fewest))) * time.Second
	more := time.Duration(rounds) * (need - span)
	return fmt.Sprintf("%s; to reach about %d (samples grow with the round, roughly in proportion), run again with --profile %s --profile-span %v: %d profiling rounds of %v, adding about %v to the run",
		head, vocab.AttributionRoughSamples, cmp.Or(dirOf(res), "DIR"), need, rounds, need, more)
}

// attributionNext is the next step after reading the attribution: the
// profiles in full of c's side that spent the most extra, against its
// baseline's (in the directory res records), then the settings to try.
func attributionNext(res *results.Results, c *results.Cell, base string) string {
	side, most := "client", math.Inf(-1)
	for _, s := range c.Attribution {
		if s.Error == "" && s.ExtraSecondsPerUnit > most {
			side, most = s.Side, s.ExtraSecondsPerUnit
		}
	}
	dir, where := dirOf(res), ""
	if dir == "" {
		dir, where = "PROFILES", " (PROFILES: the directory the run's profiles went to)"
	}
	return fmt.Sprintf("next: the %s's profiles in full, %s/%s against %s: go tool pprof -top -diff_base %s %s%s; where the growth is a setting's (a cause whose footnote names a flag), try it with httpvs tune --write mine.json, then httpvs run --knobs mine.json and httpvs compare",
		side, c.Scenario, c.Protocol, base,
		filepath.Join(dir, runfiles.ProfileFile(c.Scenario, base, side, "cpu")), filepath.Join(dir, runfiles.ProfileFile(c.Scenario, c.Protocol, side, "cpu")), where)
}

// dirOf is where res's profiles are: the directory the run recorded.
func dirOf(res *results.Results) string { return res.Settings.ProfileDir }

package analysis

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/httpvs/httpvs/results"
)

// DiffSettings lists the groups of settings old and new differ in, in a
// fixed order; none means they were run alike.
func diffSettings(old, new *results.Results) []results.SettingDiff {
	o, n := &old.Settings, &new.Settings
	groups := []struct {
		name     string
		old, new string
	}{
		{"knobs", knobsText(o), knobsText(n)},
		{"duration", durationText(o), durationText(n)},
		{"repeat", repeatText(o), repeatText(n)},
		{"net", netText(o.Net), netText(n.Net)},
		{"go", old.Env.GoVersion, new.Env.GoVersion},
		{"cpus", cpusText(old.Env, new.Env), cpusText(new.Env, old.Env)},
		{"protocols", strings.Join(o.Protocols, ","), strings.Join(n.Protocols, ",")},
		{"scenarios", strings.Join(o.Scenarios, ","), strings.Join(n.Scenarios, ",")},
		{"engine", o.Engine, n.Engine},
		{"size", fmt.Sprint(o.SizeBytes), fmt.Sprint(n.SizeBytes)},
		{"target", targetText(o), targetText(n)},
	}
	var out []results.SettingDiff
	for _, g := range groups {
		if g.old == g.new {
			continue
		}
		d := results.SettingDiff{Group: g.name, Old: strings.TrimSpace(g.old), New: strings.TrimSpace(g.new)}
		if g.name == "knobs" {
			// The names, not every value: "tuned vs go-default".
			d.Old, d.New = o.Knobs.Name, n.Knobs.Name
			if d.Old == d.New {
				d.Old, d.New = d.Old+" (its values then)", d.New+" (other values now)"
			}
		}
		out = append(out, d)
	}
	return out
}

// knobsText is the knob set's name and every effective client and server
// knob: two runs of "go-default" on different versions may still differ.
func knobsText(s *results.Settings) string {
	b, _ := json.Marshal(struct {
		Client, Server any
	}{s.Client, s.Server})
	return s.Knobs.Name + " " + string(b)
}

func durationText(s *results.Settings) string {
	d := func(sec float64) time.Duration {
		return time.Duration(sec * float64(time.Second)).Round(time.Millisecond)
	}
	return fmt.Sprintf("%v (warmup %v)", d(s.DurationSeconds), d(s.WarmupSeconds))
}

func repeatText(s *results.Settings) string {
	if s.MaxRepeat > s.Repeat {
		return fmt.Sprintf("%d to %d", s.Repeat, s.MaxRepeat)
	}
	return fmt.Sprint(s.Repeat)
}

// targetText is the server measured: "child" for run's own, whatever
// its ports, or the external URLs.
func targetText(s *results.Settings) string {
	if s.Target == "child" {
		return s.Target
	}
	return s.Target + " " + s.TLSTarget
}

// cpusText is the CPUs e's run had, "" when e or other does not record
// them (a results.json older than the field): a run with fewer cores, or
// a lower GOMAXPROCS, than its baseline measured another machine, whose
// ratios may differ as well as its figures.
func cpusText(e, other results.Env) string {
	if e.Cores == 0 || other.Cores == 0 {
		return ""
	}
	return fmt.Sprintf("cores %d, GOMAXPROCS %d", e.Cores, e.GOMAXPROCS)
}

func netText(n *results.Net) string {
	if n == nil {
		return "none"
	}
	return n.Configured
}

// untestedCount returns how many cells u covers.
func untestedCount(u results.Untested) int { return u.OnlyOld + u.OnlyNew + u.Neither + u.TooFew }

// CountUntested summarises, over ds, the cells Compare could not test.
func countUntested(ds []results.Delta) results.Untested {
	var u results.Untested
	for _, d := range ds {
		switch {
		case d.OldN == 0 && d.NewN == 0:
			u.Neither++
		case d.NewN == 0:
			u.OnlyOld++
		case d.OldN == 0:
			u.OnlyNew++
		case d.Note == tooFewNote:
			if u.TooFew == 0 || min(d.OldN, d.NewN) < u.MinReps {
				u.MinReps = min(d.OldN, d.NewN)
			}
			u.TooFew++
		}
	}
	return u
}

// UntestedReason says in one line which cells of ds could not be tested
// for a difference, and why (what httpvs compare prints below its
// table); "" when every cell could.
func UntestedReason(ds []results.Delta) string {
	u := countUntested(ds)
	if untestedCount(u) == 0 {
		return ""
	}
	var parts []string
	for _, p := range []struct {
		n    int
		what string
	}{{u.OnlyOld, "only in old"}, {u.OnlyNew, "only in new"}, {u.Neither, "measured in neither"}} {
		if p.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", p.n, p.what))
		}
	}
	if u.TooFew > 0 {
		parts = append(parts, fmt.Sprintf("%d with too few repetitions (fewest %d, the test needs %d: run both with more)", u.TooFew, u.MinReps, minCompare))
	}
	return fmt.Sprintf("not tested: %d of %d cells: %s", untestedCount(u), len(ds), strings.Join(parts, ", "))
}

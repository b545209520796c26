package merge

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/httpvs/httpvs/load/loadresult"
)

// windows returns the length of the union of the parts' measured windows,
// how far apart their starts are, and a warning for each part that began
// after every earlier one had ended (a gap in the load).
func windows(parts []Part) (union, skew time.Duration, warns []Warning) {
	order := make([]Part, len(parts))
	copy(order, parts)
	slices.SortStableFunc(order, func(a, b Part) int { return a.Result.Started.Compare(b.Result.Started) })
	first := order[0].Result
	start, end := first.Started, first.Finished
	for _, p := range order[1:] {
		r := p.Result
		if r.Started.After(end) {
			warns = append(warns, Warning{Kind: WarnNoOverlap, Text: fmt.Sprintf(
				"%s started %v after every earlier part had ended: the merged rates are over the union of the windows, not over simultaneous load",
				p.Name, r.Started.Sub(end).Round(time.Millisecond))})
			union += end.Sub(start)
			start, end = r.Started, r.Finished
			continue
		}
		if r.Finished.After(end) {
			end = r.Finished
		}
	}
	union += end.Sub(start)
	skew = order[len(order)-1].Result.Started.Sub(first.Started)
	return union, skew, warns
}

// setRates sets the merged result's Seconds and rates over the union of
// the windows: every generator's successes in the time any of them was
// measuring.
func setRates(m *loadresult.Result, union time.Duration) {
	m.Seconds = union.Seconds()
	if m.Seconds > 0 {
		m.RequestsPerSecond = float64(m.Succeeded) / m.Seconds
		m.BytesPerSecond = float64(m.BytesReceived+m.BytesSent) / m.Seconds
	}
}

// duplicate returns a *DuplicateError for the first two parts that hold
// one run (the same host, window, counts and share), whether given as
// itself or inside a merged result.
func duplicate(parts []Part) error {
	for i, a := range parts {
		ra := runsIn(a.Result)
		for j, x := range ra {
			for _, y := range ra[j+1:] {
				if same(x, y) {
					return &DuplicateError{A: a.Name, B: a.Name}
				}
			}
		}
		for _, b := range parts[i+1:] {
			for _, x := range ra {
				for _, y := range runsIn(b.Result) {
					if same(x, y) {
						return &DuplicateError{A: a.Name, B: b.Name}
					}
				}
			}
		}
	}
	return nil
}

// incomplete warns of parts that did not run their whole count or
// duration.
func incomplete(parts []Part) []Warning {
	var warns []Warning
	for _, p := range parts {
		switch {
		case p.Result.Interrupted:
			warns = append(warns, Warning{Kind: WarnIncomplete, Text: p.Name + " was interrupted: its counts cover the part it measured"})
		case p.Result.Stopped != "":
			warns = append(warns, Warning{Kind: WarnIncomplete, Text: p.Name + " " + p.Result.Stopped})
		}
	}
	return warns
}

// shares warns when parts that ran shares of a split load (load.Share) do
// not make up the whole: a share given twice, of different splits, or
// missing (a generator that never reported).
func shares(parts []Part) []Warning {
	seen := map[string]string{}
	var of string
	var warns []Warning
	for _, p := range parts {
		for _, run := range runsIn(p.Result) {
			warns = shareOf(p.Name, run.Share, seen, &of, warns)
		}
	}
	if n, err := strconv.Atoi(of); err == nil && len(seen) < n {
		var missing []string
		for i := range n {
			if s := fmt.Sprintf("%d/%d", i, n); seen[s] == "" {
				missing = append(missing, s)
			}
		}
		warns = append(warns, Warning{Kind: WarnShares, Text: fmt.Sprintf(
			"shares %s missing: the merge is %d of %d generators' load", strings.Join(missing, ", "), len(seen), n)})
	}
	return warns
}

// shareOf notes share s of the part named name in seen (share to part)
// and of (the split's size), and warns when it is of another split or
// given twice.
func shareOf(name, s string, seen map[string]string, of *string, warns []Warning) []Warning {
	if s == "" {
		return warns
	}
	_, n, _ := strings.Cut(s, "/")
	switch {
	case *of != "" && n != *of:
		warns = append(warns, Warning{Kind: WarnShares, Text: fmt.Sprintf("%s ran share %s, another part a share of %s", name, s, *of)})
	case seen[s] != "":
		warns = append(warns, Warning{Kind: WarnShares, Text: fmt.Sprintf("%s and %s both ran share %s", seen[s], name, s)})
	}
	*of, seen[s] = n, name
	return warns
}

// runsIn returns the runs r sums: its Runs for a merge, itself for one
// run.
func runsIn(r loadresult.Result) []loadresult.Run {
	if len(r.Runs) > 0 {
		return r.Runs
	}
	return []loadresult.Run{{Host: r.Host, Started: r.Started, Finished: r.Finished, Requests: r.Requests, Succeeded: r.Succeeded, Share: r.Share}}
}

// same reports whether a and b are one run.
func same(a, b loadresult.Run) bool {
	return a.Host == b.Host && a.Started.Equal(b.Started) && a.Finished.Equal(b.Finished) &&
		a.Requests == b.Requests && a.Succeeded == b.Succeeded && a.Share == b.Share
}

package flagset

import (
	"fmt"
	"time"
)

// maxStartAhead bounds a start time: one further ahead is a mistake (a
// date off by one) rather than a plan.
const maxStartAhead = 24 * time.Hour

// ParseStartAt reads the wall-clock time several generators start at
// together (load.Config.StartAt): RFC 3339, after now and at most a day
// ahead. Its errors begin with the value.
func ParseStartAt(s string, now time.Time) (time.Time, error) {
	soon := now.Add(time.Minute).UTC().Format(time.RFC3339)
	at, err := time.Parse(time.RFC3339, s)
	switch {
	case err != nil:
		return at, fmt.Errorf("%q: want an RFC 3339 time such as %s", s, soon)
	case !at.After(now):
		return at, fmt.Errorf("%s is past (now %s): give a time ahead, e.g. %s", s, now.UTC().Format(time.RFC3339), soon)
	case at.Sub(now) > maxStartAhead:
		return at, fmt.Errorf("%s is %v ahead, more than %v: a typo in the date?", s, at.Sub(now).Round(time.Minute), maxStartAhead)
	}
	return at, nil
}

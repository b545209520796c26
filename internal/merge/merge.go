// Package merge combines load results from several generators (machines,
// pods, processes) into one, exactly: counts are summed, HDR histograms of
// the same bucket configuration are merged bucket by bucket (so the merged
// percentiles are those of one histogram fed every request), errors are
// summed by kind, and rates are taken over the union of the measured
// windows. Averaging the parts' percentiles, which is wrong, never happens.
//
// It is pure: Merge takes decoded results and returns the merged result
// with warnings, or a typed error; Read decodes what httpvs load --json
// (or httpvs merge --json) writes. It never prints.
package merge

import (
	"errors"
	"fmt"
	"time"

	"github.com/httpvs/httpvs/internal/histogram"
	"github.com/httpvs/httpvs/load/loadresult"
)

// Part is one result to merge and the name it is reported under, such as
// the file it came from (with its position when a file holds several).
type Part struct {
	Name   string
	Result loadresult.Result
}

// Merged is what Merge returns.
type Merged struct {
	// Result is the parts' sum, in loadresult's schema (kind "load"), so that it
	// can be merged again. Its Parts counts the load runs it sums.
	Result loadresult.Result
	// StartSkew is the latest part's start minus the earliest one's (wall
	// clock): how far apart the generators began measuring.
	StartSkew time.Duration
	// Warnings say what the caller should tell the user: windows that do
	// not overlap, interrupted parts, shares of a split load missing.
	Warnings []Warning
}

// WarningKind says what a Warning is about.
type WarningKind int

// The warning kinds.
const (
	// WarnNoOverlap: a part started after every part before it had ended;
	// the merged rates are over the union of the windows, not over one
	// stretch of simultaneous load.
	WarnNoOverlap WarningKind = iota
	// WarnIncomplete: a part was interrupted or stopped early.
	WarnIncomplete
	// WarnShares: the parts' shares (load.Share) of a split load do not
	// make it up: one is missing, given twice, or of another split.
	WarnShares
)

// Warning is something a merge did that its caller should tell the user.
type Warning struct {
	Kind WarningKind
	Text string // one line, naming the parts
}

// String returns the warning's text.
func (w Warning) String() string { return w.Text }

// ErrNoInput is Merge's error for no parts.
var ErrNoInput = errors.New("nothing to merge: no load result")

// Errors that PartError wraps.
var (
	ErrNotLoad      = errors.New("not a load result (httpvs load --json)")
	ErrSchema       = errors.New("another schema version")
	ErrNoHistograms = errors.New("no histograms: written by an older httpvs, or edited")
	ErrNoWindow     = errors.New("no measured window (started, finished)")
)

// PartError is a part that cannot be merged at all.
type PartError struct {
	Name string // the part's name
	// Err says why: it wraps ErrNotLoad, ErrSchema, ErrNoHistograms,
	// ErrNoWindow, a histogram's decoding error, or a JSON error.
	Err error
}

func (e *PartError) Error() string { return fmt.Sprintf("%s: %v", e.Name, e.Err) }

// Unwrap returns Err.
func (e *PartError) Unwrap() error { return e.Err }

// MismatchError is two parts that measured different things: another URL,
// transport, method, engine, loop mode, request shape or client setting.
type MismatchError struct {
	A, B   string // the parts' names
	Field  string // the JSON field that differs, e.g. "requested" or "settings.http2.max_read_frame_size"
	ValueA string // A's value
	ValueB string // B's value
}

func (e *MismatchError) Error() string {
	return fmt.Sprintf("%s and %s measured different things: %s is %s in one, %s in the other", e.A, e.B, e.Field, e.ValueA, e.ValueB)
}

// DuplicateError is one run given twice: two parts with the same host,
// measured window (to the nanosecond, on the wall clock) and counts, as when
// one file is named twice. No two generators' runs share all of these, and
// merging a run with itself would double its counts.
type DuplicateError struct {
	A, B string // the parts' names; equal when one file was given twice
}

func (e *DuplicateError) Error() string {
	if e.A == e.B {
		return fmt.Sprintf("%s is given twice: merging a run with itself would double its counts", e.A)
	}
	return fmt.Sprintf("%s and %s are the same run (same host, measured window and counts): merging it with itself would double its counts", e.A, e.B)
}

// hists is one part's decoded histograms; late is nil for a closed loop.
type hists struct {
	latency, connect, tls, ttfb, late *histogram.Histogram
}

// Merge combines parts into one result. It refuses with *PartError a part
// that is not a load result of this schema version or lacks its histograms
// or window, with *DuplicateError one run given twice, with *MismatchError
// parts that measured different things, and with ErrNoInput no parts at
// all.
func Merge(parts []Part) (Merged, error) {
	if len(parts) == 0 {
		return Merged{}, ErrNoInput
	}
	decoded := make([]hists, len(parts))
	for i, p := range parts {
		h, err := check(p.Result)
		if err != nil {
			return Merged{}, &PartError{Name: p.Name, Err: err}
		}
		decoded[i] = h
	}
	if err := duplicate(parts); err != nil {
		return Merged{}, err
	}
	for _, p := range parts[1:] {
		if err := sameMeasurement(parts[0], p); err != nil {
			return Merged{}, err
		}
	}
	m := Merged{Result: sum(parts, decoded)}
	var union time.Duration
	union, m.StartSkew, m.Warnings = windows(parts)
	setRates(&m.Result, union)
	m.Warnings = append(m.Warnings, incomplete(parts)...)
	m.Warnings = append(m.Warnings, shares(parts)...)
	return m, nil
}

// check refuses a result that cannot be merged and decodes its histograms.
func check(r loadresult.Result) (hists, error) {
	switch {
	case r.Kind != loadresult.Kind:
		return hists{}, fmt.Errorf("%w: kind %q", ErrNotLoad, r.Kind)
	case r.SchemaVersion != loadresult.SchemaVersion:
		return hists{}, fmt.Errorf("%w: schema_version %d; this httpvs reads %d", ErrSchema, r.SchemaVersion, loadresult.SchemaVersion)
	case r.Histograms == nil:
		return hists{}, ErrNoHistograms
	case r.Started.IsZero() || r.Finished.IsZero() || r.Finished.Before(r.Started):
		return hists{}, ErrNoWindow
	}
	var h hists
	for _, e := range []struct {
		dst  **histogram.Histogram
		src  string
		name string
	}{
		{&h.latency, r.Histograms.Latency, "latency"}, {&h.connect, r.Histograms.Connect, "connect"},
		{&h.tls, r.Histograms.TLS, "tls"}, {&h.ttfb, r.Histograms.TTFB, "ttfb"}, {&h.late, r.Histograms.LateBy, "late_by"},
	} {
		if e.src == "" {
			if e.name == "late_by" && r.Mode != "open" {
				continue
			}
			return hists{}, fmt.Errorf("%w: histograms.%s is empty", ErrNoHistograms, e.name)
		}
		d, err := histogram.Decode(e.src)
		if err != nil {
			return hists{}, fmt.Errorf("histograms.%s: %w", e.name, err)
		}
		*e.dst = d
	}
	// The summaries and counts must be those of the histograms: a merge
	// of figures that disagree would be exact about the wrong thing.
	if n := h.latency.Count(); n != r.Succeeded {
		return hists{}, fmt.Errorf("histograms.latency holds %d values for %d successful requests: edited?", n, r.Succeeded)
	}
	if r.Requests != r.Succeeded+r.Errors.Total {
		return hists{}, fmt.Errorf("requests %d is not succeeded %d + errors.total %d: edited?", r.Requests, r.Succeeded, r.Errors.Total)
	}
	return h, nil
}

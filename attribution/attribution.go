// Package attribution says where a transport's extra CPU goes. From CPU
// profiles of a cell and of its baseline cell (the same scenario over
// HTTP/1.1), each taken over a span whose work is known and normalised per
// unit of that work (per GB, per 1,000 requests), it finds the areas of
// code (net/http's HTTP/2, crypto/tls, quic-go, the runtime, syscalls) and
// the few functions that account for most of the difference, with their
// shares. It is how "h2c is 0.19x h1" becomes "the h2c server spends
// +1.9 s/GB, 41% of it writing HTTP/2 frames".
package attribution

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"github.com/google/pprof/profile"
)

// Sample is one side's CPU profile over a span and the work done in it.
type Sample struct {
	// Profile is a CPU profile in pprof's format (runtime/pprof's output,
	// or /debug/pprof/profile's).
	Profile []byte
	// Units is the work done while it was taken, in the unit the figures
	// are per (GB of body bytes, or thousands of requests); above zero.
	Units float64
}

// Share is a function's or an area's part of the extra CPU.
type Share struct {
	// Name is the function (package-qualified, module paths shortened)
	// or the area.
	Name string `json:"name"`
	// Area is a function's area (Area); "" for an area itself.
	Area string `json:"area,omitempty"`
	// GrowthSecondsPerUnit is how much this function's own time (pprof's
	// flat) or this area's grew from the baseline, CPU seconds per unit.
	GrowthSecondsPerUnit float64 `json:"growth_seconds_per_unit"`
	// Share is GrowthSecondsPerUnit over the growth of everything that
	// grew, 0 to 1: a side's shares sum to at most 1.
	Share float64 `json:"share"`
	// ExtraSecondsPerUnit is Share of the side's ExtraSecondsPerUnit: the
	// net extra (what grew less what shrank) divided in proportion to
	// growth, so that a side's named parts never sum to more than its
	// extra.
	ExtraSecondsPerUnit float64 `json:"extra_seconds_per_unit"`
}

// Side is the attribution of one process's extra CPU: the client's or the
// server's.
type Side struct {
	// Side is "client" or "server".
	Side string `json:"side"`
	// Error says why the side could not be attributed (a profile that
	// did not parse); "" when it was.
	Error string `json:"error,omitempty"`
	// Samples and BaseSamples are the CPU samples in the cell's profile
	// and in the baseline's (100 a second of CPU by default): with fewer
	// than RoughSamples, shares are rough.
	Samples     int `json:"samples"`
	BaseSamples int `json:"base_samples"`
	// SecondsPerUnit and BaseSecondsPerUnit are the CPU seconds per unit
	// the profiles hold for the cell and for its baseline.
	SecondsPerUnit     float64 `json:"seconds_per_unit"`
	BaseSecondsPerUnit float64 `json:"base_seconds_per_unit"`
	// ExtraSecondsPerUnit is SecondsPerUnit less BaseSecondsPerUnit; at
	// or below zero the cell spent no more than its baseline and Areas
	// and Functions are empty.
	ExtraSecondsPerUnit float64 `json:"extra_seconds_per_unit"`
	// Areas are the areas whose time grew, largest first (their shares
	// sum to at most 1).
	Areas []Share `json:"areas,omitempty"`
	// Functions are the few functions whose own time grew most, largest
	// first: at most MaxFunctions.
	Functions []Share `json:"functions,omitempty"`
}

// RoughSamples is the fewest samples in a profile whose shares Summary
// states without calling them rough.
const RoughSamples = 100

// MaxFunctions is the most functions a Side names.
const MaxFunctions = 6

// minShare is the smallest share of the growth a function or area is
// named for: below it a profile's sampling (100 Hz) says little.
const minShare = 0.03

// Compare attributes the difference in CPU per unit between cell and base,
// both profiles of the process called side.
func Compare(side string, cell, base Sample) (*Side, error) {
	c, cn, err := flatPerUnit(cell)
	if err != nil {
		return nil, fmt.Errorf("%s profile: %w", side, err)
	}
	b, bn, err := flatPerUnit(base)
	if err != nil {
		return nil, fmt.Errorf("%s baseline profile: %w", side, err)
	}
	s := &Side{Side: side, Samples: cn, BaseSamples: bn, SecondsPerUnit: sum(c), BaseSecondsPerUnit: sum(b)}
	s.ExtraSecondsPerUnit = s.SecondsPerUnit - s.BaseSecondsPerUnit
	if s.ExtraSecondsPerUnit <= 0 {
		return s, nil
	}
	s.Functions = top(grown(c, b), s.ExtraSecondsPerUnit, MaxFunctions)
	for i := range s.Functions {
		s.Functions[i].Area = Area(s.Functions[i].Name)
	}
	s.Areas = top(grown(byArea(c), byArea(b)), s.ExtraSecondsPerUnit, len(areas)+1)
	for i := range s.Functions {
		s.Functions[i].Name = shorten(s.Functions[i].Name)
	}
	return s, nil
}

// flatPerUnit reads a CPU profile's own (flat) seconds per function,
// divided by the sample's units, and counts its samples.
func flatPerUnit(s Sample) (map[string]float64, int, error) {
	if s.Units <= 0 {
		return nil, 0, fmt.Errorf("no work over the profile (%g units)", s.Units)
	}
	p, err := profile.Parse(bytes.NewReader(s.Profile))
	if err != nil {
		return nil, 0, err
	}
	idx := cpuIndex(p)
	if idx < 0 {
		return nil, 0, fmt.Errorf("not a CPU profile (sample types %v)", p.SampleType)
	}
	n := 0
	scale := 1e-9 // nanoseconds
	if u := p.SampleType[idx].Unit; u == "microseconds" {
		scale = 1e-6
	} else if u == "milliseconds" {
		scale = 1e-3
	}
	out := map[string]float64{}
	for _, smp := range p.Sample {
		out[leaf(smp)] += float64(smp.Value[idx]) * scale / s.Units
		if p.Period > 0 {
			n += int(smp.Value[idx] / p.Period)
		}
	}
	return out, n, nil
}

// leaf names the function whose own time smp is: its innermost frame,
// inlined ones included, past the race detector's (whose time is the
// instrumented function's). Where that function is plumbing every stack
// shares (a syscall, a copy, the allocator), the name says which
// protocol stack's code it ran for: "syscall.Syscall6 via
// net/http.(*http2serverConn).writeFrameAsync".
func leaf(smp *profile.Sample) string {
	name := "(unknown)"
	for _, loc := range smp.Location {
		for _, ln := range loc.Line {
			if ln.Function == nil || raceFrame(ln.Function.Name) {
				continue
			}
			if name == "(unknown)" {
				name = ln.Function.Name
				if !plumbing[Area(name)] {
					return name
				}
				continue
			}
			if via := ln.Function.Name; stacks[Area(via)] {
				return name + viaSep + via
			}
		}
	}
	return name
}

// viaSep joins plumbing to the stack's function it ran for.
const viaSep = " via "

func raceFrame(fn string) bool {
	return strings.HasPrefix(fn, "__tsan_") || strings.HasPrefix(fn, "racecall") || strings.HasPrefix(fn, "runtime.race")
}

// cpuIndex is the index of p's CPU time sample type, or -1.
func cpuIndex(p *profile.Profile) int {
	for i, st := range p.SampleType {
		if st.Type == "cpu" {
			return i
		}
	}
	return -1
}

func sum(m map[string]float64) float64 {
	var t float64
	for _, v := range m {
		t += v
	}
	return t
}

// grown returns what grew from b to c, by name.
func grown(c, b map[string]float64) []Share {
	var out []Share
	for name, v := range c {
		if d := v - b[name]; d > 0 {
			out = append(out, Share{Name: name, GrowthSecondsPerUnit: d})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].GrowthSecondsPerUnit != out[j].GrowthSecondsPerUnit {
			return out[i].GrowthSecondsPerUnit > out[j].GrowthSecondsPerUnit
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// top keeps the largest of g, at most n, each at least minShare of all
// that grew, with its share of that growth and of extra.
func top(g []Share, extra float64, n int) []Share {
	var growth float64
	for _, s := range g {
		growth += s.GrowthSecondsPerUnit
	}
	var out []Share
	for _, s := range g {
		if len(out) == n || s.GrowthSecondsPerUnit < minShare*growth {
			break
		}
		s.Share = s.GrowthSecondsPerUnit / growth
		s.ExtraSecondsPerUnit = s.Share * extra
		out = append(out, s)
	}
	return out
}

func byArea(m map[string]float64) map[string]float64 {
	out := map[string]float64{}
	for name, v := range m {
		out[Area(name)] += v
	}
	return out
}

// Package attribution says where a transport's extra CPU goes. From CPU
// profiles of a cell and of its baseline cell (the same scenario over
// HTTP/1.1), each taken over a span whose work is known and normalised per
// unit of that work (per GB, per 1,000 requests), it finds the areas of
// code (net/http's HTTP/2, crypto/tls, quic-go, the runtime, syscalls) and
// the few functions whose time grew and those whose time shrank, each with
// its seconds per unit as measured: the net extra is what grew less what
// shrank. It is how "h2c is slower than h1" becomes "the h2c server
// spends so many seconds per GB more, this much of the growth in HTTP/2".
package attribution

import (
	"bytes"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/google/pprof/profile"

	"github.com/httpvs/httpvs/results"
)

// Sample is one side's CPU profile over a span and the work done in it.
type Sample struct {
	// Profile is a CPU profile in pprof's format (runtime/pprof's output,
	// or /debug/pprof/profile's).
	Profile []byte
	// Units is the work done while it was taken, in the unit the figures
	// are per (GB of body bytes, or thousands of requests); above zero.
	Units float64
	// ExcludeLabel, if not "", is a pprof label key (runtime/pprof.Labels)
	// whose samples are not the side's work: the link emulator's ferry
	// goroutines in the client's process carry one (EmulatorLabel).
	// Their time is left out of every figure and reported apart
	// (Side.ExcludedSecondsPerUnit).
	ExcludeLabel string
}

// EmulatorLabel is the runtime/pprof label key the goroutines of netem's
// link emulator (its ferries) carry, with the value "ferry": a profile of
// the process that runs a link leaves their work out of the client's
// (Sample.ExcludeLabel).
const EmulatorLabel = "httpvs-emulator"

// MaxFunctions is the most functions a results.AttributionSide names on each hand (grew,
// shrank).
const MaxFunctions = 6

// minShare is the smallest part of its side's growth (or shrinkage) a
// function or area is named for: below it a profile's sampling (100 Hz)
// says little.
const minShare = 0.03

// Compare attributes the difference in CPU per unit between cell and base,
// both profiles of the process called side: what grew and what shrank, by
// area and by function, each as measured.
func Compare(side string, cell, base Sample) (*results.AttributionSide, error) {
	c, err := flatPerUnit(cell)
	if err != nil {
		return nil, fmt.Errorf("%s profile: %w", side, err)
	}
	b, err := flatPerUnit(base)
	if err != nil {
		return nil, fmt.Errorf("%s baseline profile: %w", side, err)
	}
	s := &results.AttributionSide{Side: side, Samples: c.samples, BaseSamples: b.samples,
		SecondsPerUnit: sum(c.flat), BaseSecondsPerUnit: sum(b.flat),
		ExcludedSecondsPerUnit: c.excluded, BaseExcludedSecondsPerUnit: b.excluded}
	s.ExtraSecondsPerUnit = s.SecondsPerUnit - s.BaseSecondsPerUnit
	grew, shrank := changes(c.flat, b.flat)
	s.FunctionGrowthSecondsPerUnit, s.FunctionShrinkageSecondsPerUnit = total(grew), math.Abs(total(shrank))
	s.Functions = top(grew, s.FunctionGrowthSecondsPerUnit, MaxFunctions)
	s.ShrunkFunctions = top(shrank, s.FunctionShrinkageSecondsPerUnit, MaxFunctions)
	for _, fs := range [][]results.AttributionShare{s.Functions, s.ShrunkFunctions} {
		for i := range fs {
			fs[i].Area = Area(fs[i].Name)
			fs[i].Name = shorten(fs[i].Name)
		}
	}
	grew, shrank = changes(byArea(c.flat), byArea(b.flat))
	s.GrowthSecondsPerUnit, s.ShrinkageSecondsPerUnit = total(grew), math.Abs(total(shrank))
	s.Areas = top(grew, s.GrowthSecondsPerUnit, len(areas)+1)
	s.ShrunkAreas = top(shrank, s.ShrinkageSecondsPerUnit, len(areas)+1)
	return s, nil
}

// perUnit is one profile read: each function's own seconds per unit, the
// samples counted, and the seconds per unit left out.
type perUnit struct {
	flat     map[string]float64
	samples  int
	excluded float64
}

// flatPerUnit reads a CPU profile's own (flat) seconds per function,
// divided by the sample's units, and counts its samples, leaving out
// those labelled s.ExcludeLabel.
func flatPerUnit(s Sample) (perUnit, error) {
	if s.Units <= 0 {
		return perUnit{}, fmt.Errorf("no work over the profile (%g units)", s.Units)
	}
	p, err := profile.Parse(bytes.NewReader(s.Profile))
	if err != nil {
		return perUnit{}, err
	}
	idx := cpuIndex(p)
	if idx < 0 {
		return perUnit{}, fmt.Errorf("not a CPU profile (sample types %v)", p.SampleType)
	}
	scale := 1e-9 // nanoseconds
	if u := p.SampleType[idx].Unit; u == "microseconds" {
		scale = 1e-6
	} else if u == "milliseconds" {
		scale = 1e-3
	}
	out := perUnit{flat: map[string]float64{}}
	for _, smp := range p.Sample {
		v := float64(smp.Value[idx]) * scale / s.Units
		if s.ExcludeLabel != "" && len(smp.Label[s.ExcludeLabel]) > 0 {
			out.excluded += v
			continue
		}
		out.flat[leaf(smp)] += v
		if p.Period > 0 {
			out.samples += int(smp.Value[idx] / p.Period)
		}
	}
	return out, nil
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

// changes returns what grew from b to c, largest growth first, and what
// shrank, largest fall first, by name, with each one's figures.
func changes(c, b map[string]float64) (grew, shrank []results.AttributionShare) {
	seen := map[string]bool{}
	for _, m := range []map[string]float64{c, b} {
		for name := range m {
			if seen[name] {
				continue
			}
			seen[name] = true
			s := results.AttributionShare{Name: name, SecondsPerUnit: c[name], BaseSecondsPerUnit: b[name], ChangeSecondsPerUnit: c[name] - b[name]}
			switch {
			case s.ChangeSecondsPerUnit > 0:
				grew = append(grew, s)
			case s.ChangeSecondsPerUnit < 0:
				shrank = append(shrank, s)
			}
		}
	}
	for _, l := range [][]results.AttributionShare{grew, shrank} {
		sort.Slice(l, func(i, j int) bool {
			a, b := math.Abs(l[i].ChangeSecondsPerUnit), math.Abs(l[j].ChangeSecondsPerUnit)
			if a != b {
				return a > b
			}
			return l[i].Name < l[j].Name
		})
	}
	return grew, shrank
}

// total sums the changes of l.
func total(l []results.AttributionShare) float64 {
	var t float64
	for _, s := range l {
		t += s.ChangeSecondsPerUnit
	}
	return t
}

// top keeps the largest changes of l, at most n, each at least minShare
// of whole (the growth or the shrinkage they are part of, positive), with
// its share of whole.
func top(l []results.AttributionShare, whole float64, n int) []results.AttributionShare {
	var out []results.AttributionShare
	for _, s := range l {
		c := math.Abs(s.ChangeSecondsPerUnit)
		if len(out) == n || whole <= 0 || c < minShare*whole {
			break
		}
		s.Share = c / whole
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

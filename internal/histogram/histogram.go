// Package histogram keeps durations in HDR histograms that merge exactly
// (per worker, then once at the end) and encode in the portable V2
// compressed form results.json and load results carry.
package histogram

import (
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/httpvs/httpvs/stats"
)

// Histogram range: durations are recorded in microseconds from 1 µs to
// 10 minutes with 3 significant figures (about 150 KiB each). Longer
// values are recorded as the maximum and counted in Clamped.
const (
	histLowestMicros  = 1
	histHighestMicros = int64(10 * time.Minute / time.Microsecond)
	histSigFigs       = 3
)

// Histogram is an HDR histogram of durations. It is not safe for
// concurrent use: keep one per worker (or shard) and Merge at the end.
type Histogram struct {
	h       *hdr.Histogram
	Clamped int64 // values above 10 minutes, recorded as 10 minutes
}

// New returns an empty histogram.
func New() *Histogram {
	return &Histogram{h: hdr.New(histLowestMicros, histHighestMicros, histSigFigs)}
}

// Record adds one duration; values below 1 µs count as 1 µs.
func (h *Histogram) Record(d time.Duration) {
	us := int64(d / time.Microsecond)
	if us < histLowestMicros {
		us = histLowestMicros
	}
	if us > histHighestMicros {
		us = histHighestMicros
		h.Clamped++
	}
	_ = h.h.RecordValue(us) // in range by construction
}

// Merge adds every value of o to h.
func (h *Histogram) Merge(o *Histogram) {
	h.h.Merge(o.h)
	h.Clamped += o.Clamped
}

// Count returns how many values were recorded.
func (h *Histogram) Count() int64 { return h.h.TotalCount() }

// Summary returns the percentiles of h, in seconds.
func (h *Histogram) Summary() stats.LatencySummary {
	if h.h.TotalCount() == 0 {
		return stats.LatencySummary{}
	}
	sec := func(us int64) float64 { return float64(us) / 1e6 }
	return stats.LatencySummary{
		Count: h.h.TotalCount(),
		Min:   sec(h.h.Min()),
		P50:   sec(h.h.ValueAtQuantile(50)),
		P90:   sec(h.h.ValueAtQuantile(90)),
		P99:   sec(h.h.ValueAtQuantile(99)),
		P999:  sec(h.h.ValueAtQuantile(99.9)),
		Max:   sec(h.h.Max()),
		Mean:  h.h.Mean() / 1e6,
	}
}

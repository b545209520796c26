package stats

import (
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
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

// NewHistogram returns an empty histogram.
func NewHistogram() *Histogram {
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
func (h *Histogram) Summary() LatencySummary {
	if h.h.TotalCount() == 0 {
		return LatencySummary{}
	}
	sec := func(us int64) float64 { return float64(us) / 1e6 }
	return LatencySummary{
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

// LatencySummary is a distribution of durations, in seconds.
type LatencySummary struct {
	Count int64   `json:"count"`
	Min   float64 `json:"min"`
	P50   float64 `json:"p50"`
	P90   float64 `json:"p90"`
	P99   float64 `json:"p99"`
	P999  float64 `json:"p999"`
	Max   float64 `json:"max"`
	Mean  float64 `json:"mean"`
}

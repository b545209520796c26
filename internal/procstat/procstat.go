// Package procstat samples the figures of the current process that httpvs
// reports at both ends: CPU time, GC cycles, heap in use and goroutines;
// and it raises and reports the process's open-file limit, the resource
// its connections run out of first.
package procstat

import (
	"runtime"
	"runtime/metrics"

	"github.com/httpvs/httpvs/stats"
)

var metricNames = []string{
	"/gc/cycles/total:gc-cycles",
	"/memory/classes/heap/objects:bytes",
	"/sched/goroutines:goroutines",
}

// Sample returns the process's figures now. CPU times come from the
// operating system (getrusage on Unix; zero where unavailable).
func Sample() stats.ProcessStats {
	samples := make([]metrics.Sample, len(metricNames))
	for i, n := range metricNames {
		samples[i].Name = n
	}
	metrics.Read(samples)
	user, sys := cpuSeconds()
	return stats.ProcessStats{
		CPUUserSeconds:   user,
		CPUSystemSeconds: sys,
		GCCycles:         int64(uint64Of(samples[0])),
		HeapInUseBytes:   int64(uint64Of(samples[1])),
		Goroutines:       int64(uint64Of(samples[2])),
	}
}

func uint64Of(s metrics.Sample) uint64 {
	if s.Value.Kind() == metrics.KindUint64 {
		return s.Value.Uint64()
	}
	return 0
}

// Allocated returns the heap bytes and objects the process has allocated
// since it started, exactly, from runtime.ReadMemStats (a brief
// stop-the-world): runtime/metrics' counters lag by the per-P caches, enough
// to read zero for a short run.
func Allocated() (bytes, objects uint64) {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.TotalAlloc, ms.Mallocs
}

package load

import (
	"github.com/httpvs/httpvs/internal/procstat"
	"github.com/httpvs/httpvs/stats"
)

// sample is what is read at the start and end of the measured phase.
type sample struct {
	proc                     stats.ProcessStats
	allocBytes, allocObjects uint64
	goroutinesPeak           int64
}

// takeSample reads CPU time and exact allocation totals, twice a run.
func takeSample() sample {
	s := sample{proc: procstat.Sample()}
	s.allocBytes, s.allocObjects = procstat.Allocated()
	return s
}

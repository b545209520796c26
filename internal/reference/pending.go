package reference

import (
	"context"
	"fmt"
	"time"

	"github.com/httpvs/httpvs/internal/analysis"
	"github.com/httpvs/httpvs/transport"
)

// ohaTailGrace is how long after an oha HTTP/3 run's Duration the next
// measurement starts while oha is still running: oha 1.16 ends its
// requests at its deadline, then waits for the QUIC connection to close,
// which neither quic-go server (caddy's, Go's) does before its 30 s idle
// timeout. The wait sends nothing, so the run goes on beside it and
// collects oha's reports at its end: a run costs one tail, not one per
// round.
const ohaTailGrace = time.Second

// outcome is one round of one cell: the value in the cell's metric, the
// units server CPU is counted per, and the server's CPU seconds over the
// round (cpuOK when both readings were taken).
type outcome struct {
	value, per, cpu float64
	cpuOK           bool
	err             error
}

// rounds measures r.o.Rounds rounds of sc over protocols into r.cells
// from base on: each round every transport in turn, so drift hits them
// alike. Cells with an outcome still to come are filled in by r.finish.
func (r *runner) rounds(ctx context.Context, sc play, srv endpoint, protocols []transport.Protocol, base int) {
	waits := make([][]func() outcome, len(protocols))
	late := false
	for round := 0; round < r.o.Rounds && ctx.Err() == nil; round++ {
		for i, p := range protocols {
			if r.cells[base+i].Skipped != "" || ctx.Err() != nil {
				continue
			}
			if r.o.Progress != nil {
				r.o.Progress(fmt.Sprintf("%s %s+%s %s round %d", sc.name, srv.name(), r.cells[base+i].Client, p, round+1))
			}
			wait, now := r.start(ctx, sc, srv, p)
			waits[i] = append(waits[i], wait)
			late = late || !now
		}
	}
	fill := func() { r.fill(base, waits) }
	if late {
		r.finish = append(r.finish, fill)
	} else {
		fill()
	}
}

// fill sets the rounds, median and server CPU of r.cells[base+i] from
// waits[i].
func (r *runner) fill(base int, waits [][]func() outcome) {
	cells := r.cells[base : base+len(waits)]
	for i := range cells {
		var cpu []float64
		for round, wait := range waits[i] {
			o := wait()
			if o.err != nil {
				o.value = 0
				cells[i].Errors = append(cells[i].Errors, fmt.Sprintf("round %d: %v", round+1, o.err))
			} else if o.cpuOK && o.per > 0 {
				cpu = append(cpu, o.cpu/o.per)
			}
			cells[i].Rounds = append(cells[i].Rounds, o.value)
		}
		var counted []float64
		for _, r := range analysis.ReferenceValues(cells[i]).Repetitions {
			if analysis.Counts(r) { // a failed round reads 0, with its error
				counted = append(counted, r.Value)
			}
		}
		cells[i].Median = analysis.Median(counted)
		if len(cpu) > 0 {
			// Zero is a reading: less than a clock tick (10 ms).
			m := analysis.Median(cpu)
			cells[i].ServerCPUPerUnit = &m
		}
	}
}

// start measures one round and returns what waits for its outcome, and
// whether it is in already. Every client but oha over HTTP/3 has finished
// when start returns; oha's run is over once its Duration and
// ohaTailGrace have passed, and its process ends (and wait returns) up to
// 30 s later.
func (r *runner) start(ctx context.Context, sc play, srv endpoint, p transport.Protocol) (wait func() outcome, now bool) {
	before, berr := srv.cpu()
	if sc.client != "oha" || p != transport.H3 {
		var o outcome
		o.value, o.per, o.err = r.measure(ctx, sc, srv, p)
		after, aerr := srv.cpu()
		o.cpu, o.cpuOK = after-before, berr == nil && aerr == nil
		return func() outcome { return o }, true
	}
	done := make(chan outcome, 1)
	go func() {
		var o outcome
		o.value, o.per, o.err = r.measure(ctx, sc, srv, p)
		done <- o
	}()
	select {
	case <-time.After(r.duration(sc) + ohaTailGrace):
	case o := <-done: // failed early
		done <- o
	case <-ctx.Done():
	}
	after, aerr := srv.cpu()
	return func() outcome {
		o := <-done
		o.cpu, o.cpuOK = after-before, berr == nil && aerr == nil
		return o
	}, false
}

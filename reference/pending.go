package reference

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/httpvs/httpvs/matrix"
	"github.com/httpvs/httpvs/transport"
)

// ohaTailGrace is how long after an oha HTTP/3 run's Duration the next
// measurement starts while oha is still running: oha 1.16 ends its
// requests at its deadline, then waits for the QUIC connection to close,
// which neither quic-go server (caddy's, Go's) does before its 30 s idle
// timeout. The wait sends nothing, so the rounds go on beside it.
const ohaTailGrace = time.Second

// outcome is one round of one cell: the value in the cell's metric, the
// units server CPU is counted per, and the server's CPU seconds over the
// round (cpuOK when both readings were taken).
type outcome struct {
	value, per, cpu float64
	cpuOK           bool
	err             error
}

// rounds measures r.o.Rounds rounds of sc over protocols into cells: each
// round every transport in turn, so drift hits them alike.
func (r *runner) rounds(ctx context.Context, sc play, srv endpoint, protocols []transport.Protocol, cells []matrix.ReferenceCell) {
	waits := make([][]func() outcome, len(cells))
	for round := 0; round < r.o.Rounds && ctx.Err() == nil; round++ {
		for i, p := range protocols {
			if cells[i].Skipped != "" || ctx.Err() != nil {
				continue
			}
			if r.o.Progress != nil {
				r.o.Progress(fmt.Sprintf("%s %s+%s %s round %d", sc.name, srv.name(), cells[i].Client, p, round+1))
			}
			waits[i] = append(waits[i], r.start(ctx, sc, srv, p))
		}
	}
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
		cells[i].Median = median(cells[i].Rounds)
		if len(cpu) > 0 {
			// Zero is a reading: less than a clock tick (10 ms).
			slices.Sort(cpu)
			m := cpu[(len(cpu)-1)/2]
			cells[i].ServerCPUPerUnit = &m
		}
	}
}

// start measures one round and returns what waits for its outcome. Every
// client but oha over HTTP/3 has finished when start returns; oha's run
// is over once its Duration and ohaTailGrace have passed, and its
// process ends (and wait returns) up to 30 s later.
func (r *runner) start(ctx context.Context, sc play, srv endpoint, p transport.Protocol) func() outcome {
	before, berr := srv.cpu()
	if sc.client != "oha" || p != transport.H3 {
		var o outcome
		o.value, o.per, o.err = r.measure(ctx, sc, srv, p)
		after, aerr := srv.cpu()
		o.cpu, o.cpuOK = after-before, berr == nil && aerr == nil
		return func() outcome { return o }
	}
	done := make(chan outcome, 1)
	go func() {
		var o outcome
		o.value, o.per, o.err = r.measure(ctx, sc, srv, p)
		done <- o
	}()
	select {
	case <-time.After(r.o.Duration + ohaTailGrace):
	case o := <-done: // failed early
		done <- o
	case <-ctx.Done():
	}
	after, aerr := srv.cpu()
	return func() outcome {
		o := <-done
		o.cpu, o.cpuOK = after-before, berr == nil && aerr == nil
		return o
	}
}

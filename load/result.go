package load

import (
	"fmt"
	"os"
	"time"

	"github.com/httpvs/httpvs/internal/histogram"
	"github.com/httpvs/httpvs/internal/redact"
	"github.com/httpvs/httpvs/load/loadresult"
)

// engineName is what results record as their engine.
func (r *run) engineName() string {
	if r.cfg.NewCaller != nil {
		return r.cfg.CallerName
	}
	return r.cfg.Engine.String()
}

// result merges the shards.
func (r *run) result(clients []connClient, interrupted bool) loadresult.Result {
	res := loadresult.Result{
		Engine:           r.engineName(),
		URL:              r.cfg.URL,
		Method:           r.cfg.Method,
		Requested:        r.cfg.Client.Protocol.String(),
		Mode:             "closed",
		Concurrency:      r.cfg.Conns * r.cfg.Streams,
		Asked:            r.cfg.Conns * r.askedStreams,
		ServerMaxStreams: r.serverMaxStreams,
		Lowered:          r.lowered,
		Interrupted:      interrupted,
		Settings:         r.cfg.Client.Config.Effective(),
	}
	lat, ttfb, conn, tls, late := histogram.New(), histogram.New(), histogram.New(), histogram.New(), histogram.New()
	var lateCount int64
	for _, s := range r.shards {
		// net/http may still be finishing a dial for the pool and fire a
		// trace hook into the shard: read it under its lock.
		s.mu.Lock()
		lat.Merge(s.latency)
		ttfb.Merge(s.ttfb)
		conn.Merge(s.connect)
		tls.Merge(s.tls)
		late.Merge(s.late)
		lateCount += s.lateCount
		res.Requests += s.requests
		res.Succeeded += s.succeeded
		res.BytesReceived += s.bytesIn
		res.BytesSent += s.bytesOut
		res.Errors.Add(s.errors)
		if res.FirstError == "" {
			res.FirstError = s.firstErr
		}
		if s.negotiated {
			res.Protocol = res.Requested
		}
		s.mu.Unlock()
	}
	res.Latency = lat.Summary()
	res.Phases = loadresult.Phases{Connect: conn.Summary(), TLS: tls.Summary(), TTFB: ttfb.Summary()}
	if r.open {
		res.Mode = "open"
		res.Schedule = &loadresult.Schedule{TargetRate: r.cfg.Rate, Late: lateCount, LateBy: late.Summary()}
	} else {
		late = nil
	}
	res.Kind, res.SchemaVersion = loadresult.Kind, loadresult.SchemaVersion
	res.BodySize, res.Headers = int64(r.cfg.BodySize), r.cfg.Headers.String()
	res.HeaderNames = redact.HeaderNames(r.cfg.Header)
	res.Share = r.cfg.Share.String()
	res.Histograms, _ = histogram.EncodeLoad(lat, conn, tls, ttfb, late) // writes to memory: cannot fail
	for _, c := range clients {
		res.Connections += c.Connections()
	}
	r.fewerConnections(&res, interrupted)
	return res
}

// fewerConnections says so when a closed loop bounded by a request count
// opened fewer connections than asked with no error to explain it: the
// count ran out before the other workers dialed, so fewer requests were
// in flight than Concurrency claimed, and it is lowered to what ran.
func (r *run) fewerConnections(res *loadresult.Result, interrupted bool) {
	conns := int64(r.cfg.Conns)
	if r.open || interrupted || r.cfg.Requests == 0 || res.Connections == 0 || res.Connections >= conns || res.Errors.Total > 0 {
		return
	}
	done := fmt.Sprintf("the %d requests asked were", r.cfg.Requests)
	if r.cfg.Requests == 1 {
		done = "the one request asked was"
	}
	why := fmt.Sprintf("%d of the %d connections asked opened: %s done before the others dialed", res.Connections, conns, done)
	if res.Lowered != "" {
		why = res.Lowered + "; " + why
	}
	res.Lowered = why
	res.Concurrency = int(res.Connections) * r.cfg.Streams
}

// finish completes res once the workers are done at finished: the measured
// window on the wall clock (with an open loop's wait for its due requests;
// up to the server's last answer, when it stopped answering: sl), the host, the rates over the window and the
// process figures between the samples bracketing it.
func (r *run) finish(res *loadresult.Result, sl silence, finished time.Time, before, after sample) {
	// A closed loop measures from when its measured phase began; an open
	// one from measureAt, by its requests' intended times.
	from := r.measuredFrom
	if r.open {
		from = r.measureAt
	}
	end := finished
	switch {
	case r.drains():
		// The window and the wait for the requests due in it (drain.go);
		// the whole window even when its last request ended early, unless
		// the run was stopped.
		if end.Before(r.endTime()) && !res.Interrupted && !r.gone.Load() {
			end = r.endTime()
		}
	case !r.byCount && end.After(r.endTime()):
		end = r.endTime()
	}
	window := max(end.Sub(from), 0)
	if res.FirstError == "" {
		res.FirstError = sl.drainErr
	}
	window = r.stoppedAnswering(res, sl, from, window)
	res.Seconds = window.Seconds()
	res.Started = from.UTC()
	res.Finished = res.Started.Add(window)
	res.Host, _ = os.Hostname()
	if res.Seconds > 0 {
		res.RequestsPerSecond = float64(res.Succeeded) / res.Seconds
		res.BytesPerSecond = float64(res.BytesReceived+res.BytesSent) / res.Seconds
	}
	res.ClientCPUSeconds = after.proc.Sub(before.proc).CPUSeconds()
	res.ClientGCCycles = after.proc.GCCycles - before.proc.GCCycles
	res.ClientGoroutinesPeak = after.goroutinesPeak
	if made := res.Requests - r.neverSent; made > 0 {
		res.BytesPerRequest = float64(after.allocBytes-before.allocBytes) / float64(made)
		res.AllocsPerRequest = float64(after.allocObjects-before.allocObjects) / float64(made)
	}
}

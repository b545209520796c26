package server

import (
	"bytes"
	"net/http"
	"runtime"
	"runtime/pprof"
	"sync"
	"time"
)

// profiler serves the process's CPU and heap profiles on request, for
// httpvs run --profile (Options.Profiling): POST /debug/profile/start
// starts a CPU profile, POST /debug/profile/stop ends it and returns it,
// GET /debug/profile/heap returns a heap profile. Both are pprof's
// protobuf format.
type profiler struct {
	mu     sync.Mutex
	buf    *bytes.Buffer // the running CPU profile, nil when none
	lastGC time.Time     // when GET /debug/profile/heap last collected garbage
	gcs    int           // how many times it did
}

func (p *profiler) routes(mux *http.ServeMux, guard func(http.HandlerFunc) http.HandlerFunc) {
	mux.HandleFunc("POST /debug/profile/start", guard(p.start))
	mux.HandleFunc("POST /debug/profile/stop", guard(p.stop))
	mux.HandleFunc("GET /debug/profile/heap", guard(p.heap))
}

func (p *profiler) start(w http.ResponseWriter, _ *http.Request) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.buf != nil {
		http.Error(w, "a CPU profile is already running", http.StatusConflict)
		return
	}
	buf := new(bytes.Buffer)
	if err := pprof.StartCPUProfile(buf); err != nil {
		http.Error(w, err.Error(), http.StatusConflict)
		return
	}
	p.buf = buf
	w.WriteHeader(http.StatusNoContent)
}

func (p *profiler) stop(w http.ResponseWriter, _ *http.Request) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.buf == nil {
		http.Error(w, "no CPU profile is running", http.StatusConflict)
		return
	}
	pprof.StopCPUProfile()
	w.Header().Set("Content-Type", "application/octet-stream")
	w.Write(p.buf.Bytes())
	p.buf = nil
}

// heapGCEvery bounds how often GET /debug/profile/heap collects garbage
// first: a fetch within it of the last collection serves the profile as
// of that one (300 fetches took 1.5 s of the server's CPU unbounded).
const heapGCEvery = time.Second

func (p *profiler) heap(w http.ResponseWriter, _ *http.Request) {
	p.mu.Lock()
	if time.Since(p.lastGC) >= heapGCEvery {
		runtime.GC() // up-to-date figures, as go test -memprofile does
		p.lastGC = time.Now()
		p.gcs++
	}
	p.mu.Unlock()
	w.Header().Set("Content-Type", "application/octet-stream")
	pprof.Lookup("heap").WriteTo(w, 0)
}

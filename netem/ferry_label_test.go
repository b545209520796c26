package netem

import (
	"bytes"
	"io"
	"os"
	"runtime/pprof"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/pprof/profile"

	"github.com/httpvs/httpvs/internal/attribution"
)

// TestFerryProfileLabel: every CPU sample taken in the ferry's code
// carries attribution.EmulatorLabel, so a profile of the process running the link can
// leave the emulator's work out of the client's.
func TestFerryProfileLabel(t *testing.T) {
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	f := newFerry(inR, outW, Direction{}, 1, time.Now(), done)
	var cpu bytes.Buffer
	if err := pprof.StartCPUProfile(&cpu); err != nil {
		t.Skipf("CPU profiling unavailable: %v", err)
	}
	var wg sync.WaitGroup
	f.start(&wg)
	drained := make(chan struct{})
	go func() { _, _ = io.Copy(io.Discard, outR); close(drained) }()
	pkt := make([]byte, 1400)
	for began := time.Now(); time.Since(began) < time.Second; {
		if _, err := inW.Write(pkt); err != nil {
			t.Fatal(err)
		}
	}
	pprof.StopCPUProfile()
	close(done)
	for _, c := range []io.Closer{inW, inR, outW} {
		if err := c.Close(); err != nil {
			t.Error(err)
		}
	}
	wg.Wait()
	<-drained
	if err := outR.Close(); err != nil {
		t.Error(err)
	}
	p, err := profile.Parse(&cpu)
	if err != nil {
		t.Fatal(err)
	}
	var labelled, unlabelled int
	for _, s := range p.Sample {
		if !inFerry(s) {
			continue
		}
		if len(s.Label[attribution.EmulatorLabel]) > 0 {
			labelled++
		} else {
			unlabelled++
		}
	}
	t.Logf("ferry samples: %d labelled, %d not", labelled, unlabelled)
	if labelled == 0 || unlabelled > 0 {
		t.Errorf("ferry samples: %d labelled, %d not: want all labelled, at least one", labelled, unlabelled)
	}
}

func inFerry(s *profile.Sample) bool {
	for _, loc := range s.Location {
		for _, ln := range loc.Line {
			if ln.Function != nil && strings.Contains(ln.Function.Name, "netem.(*ferry)") {
				return true
			}
		}
	}
	return false
}

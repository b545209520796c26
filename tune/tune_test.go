package tune

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/httpvs/httpvs/transfer/transferresult"
	"github.com/httpvs/httpvs/transport"
	"github.com/httpvs/httpvs/tune/tuneresult"
	"github.com/httpvs/httpvs/units"
)

// TestShortTune runs a 4-second search over h2c and h3: it measures h1,
// Go's defaults and a best configuration, explains the default's gap and
// prints Go code for the best. That the budget holds is Run's deadline:
// a measurement it cuts off is an error, so a search that returns none
// measured within it (how long the machine took is not asserted).
func TestShortTune(t *testing.T) {
	rep, err := Run(context.Background(), Options{Protocols: []transport.Protocol{transport.H2C, transport.H3}, Budget: 4 * time.Second, Trial: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Results) != 2 {
		t.Fatalf("%d results", len(rep.Results))
	}
	for _, r := range rep.Results {
		checkTuneResult(t, r)
	}
	h2c := rep.Results[0]
	checkReadDiagnosis(t, h2c)
	if (!h2c.DefaultsBest && !strings.Contains(h2c.GoCode, "http.HTTP2Config")) || (!rep.Results[1].DefaultsBest && !strings.Contains(rep.Results[1].GoCode, "quic.Config")) {
		t.Errorf("Go code:\n%s\n%s", h2c.GoCode, rep.Results[1].GoCode)
	}
}

// checkTuneResult checks that one transport's result has figures, the
// defaults as its starting point, and Go code exactly when the defaults
// were not best.
func checkTuneResult(t *testing.T, r tuneresult.Result) {
	t.Helper()
	if r.H1BytesPerSecond <= 0 || r.DefaultRatioToH1 <= 0 || r.RatioToH1 <= 0 || r.Trials < 2 {
		t.Errorf("%s: h1 %v B/s, default %.2fx, best %.2fx, %d trials", r.Protocol, r.H1BytesPerSecond, r.DefaultRatioToH1, r.RatioToH1, r.Trials)
	}
	if r.Default != goDefaults(transport.H2C) && r.Protocol == "h2c" {
		t.Errorf("h2c default settings %+v", r.Default)
	}
	// On a starved machine the final measurements can find no
	// configuration faster than the defaults; then there is no code.
	if r.DefaultsBest != (r.GoCode == "") || (!r.DefaultsBest && !strings.Contains(r.GoCode, "io.CopyBuffer")) {
		t.Errorf("%s: defaults best %v, Go code %q", r.Protocol, r.DefaultsBest, r.GoCode)
	}
}

// checkReadDiagnosis checks h2c's diagnosis names the defaults' small
// reads exactly when they measured slower than h1.
func checkReadDiagnosis(t *testing.T, h2c tuneresult.Result) {
	t.Helper()
	// Go's defaults read 8 KiB at a time: when they measured slower than
	// h1 (matrix explains gaps below 0.90x) the diagnosis must say so. On
	// a starved machine both can be held to the same rate by the CPU, and
	// then there is no gap to explain.
	// The average is measured: reads of an 8 KiB buffer average at most
	// 8.0 KiB, and less when some return what has arrived so far (7.9 KiB
	// on a loaded machine).
	found := false
	for _, d := range h2c.Diagnosis {
		var avg float64
		if _, after, ok := strings.Cut(d, "client body reads average "); ok {
			_, err := fmt.Sscanf(after, "%g KiB", &avg)
			found = found || (err == nil && avg > 0 && avg <= 8)
		}
	}
	if gap := h2c.DefaultRatioToH1 < 0.90; gap != found {
		t.Errorf("h2c defaults at %.2fx h1: diagnosis %q (want reads of at most 8 KiB named: %v)", h2c.DefaultRatioToH1, h2c.Diagnosis, gap)
	}
}

// TestBudgetTooShortIsAnError: when the budget ends before the final
// measurements, tune says so instead of reporting 0 B/s as a ratio of 0.
// (A 1 s budget with 1 s trials: h1's trial runs into the deadline with
// what it moved; the next one starts after it and moves nothing.)
func TestBudgetTooShortIsAnError(t *testing.T) {
	rep, err := Run(context.Background(), Options{Protocols: []transport.Protocol{transport.H2C}, Budget: time.Second, Trial: time.Second})
	if !errors.Is(err, errCutOff) || !strings.Contains(err.Error(), "raise the budget") {
		t.Fatalf("report %+v, error %v: want the budget named as the cause", rep, err)
	}
}

func TestRunRefuses(t *testing.T) {
	for _, o := range []Options{
		{Protocols: []transport.Protocol{transport.H1}},
		{Budget: time.Millisecond},
		{Trial: time.Hour},
	} {
		if _, err := Run(context.Background(), o); err == nil {
			t.Errorf("%+v accepted", o)
		}
	}
}

func TestGoCode(t *testing.T) {
	got := goCode(transport.H2, tuneresult.Settings{ReadSize: 256 * units.KiB, MaxReadFrameSize: units.MiB, StreamWindow: 16 * units.MiB, WriteSize: 256 * units.KiB})
	for _, want := range []string{"MaxReadFrameSize: 1 << 20", "MaxReceiveBufferPerStream: 16 << 20", "make([]byte, 256 << 10)", "chunk[:256 << 10]"} {
		if !strings.Contains(got, want) {
			t.Errorf("Go code lacks %q:\n%s", want, got)
		}
	}
}

// readSizes records the largest Read a copy asked for.
type readSizes struct {
	r   io.Reader
	max int
}

func (s *readSizes) Read(p []byte) (int, error) {
	s.max = max(s.max, len(p))
	return s.r.Read(p)
}

// TestPastedCopyUsesItsBuffer: the copy tune pastes reads with its buffer
// even into io.Discard, as its comment says; a plain io.CopyBuffer would
// read 8 KiB at a time through io.Discard's ReadFrom.
func TestPastedCopyUsesItsBuffer(t *testing.T) {
	const pasted = "io.CopyBuffer(struct{ io.Writer }{dst}, struct{ io.Reader }{resp.Body}, buf)"
	if code := goCode(transport.H2C, tuneresult.Settings{ReadSize: 256 * units.KiB}); !strings.Contains(code, pasted) {
		t.Fatalf("pasted code lacks %q:\n%s", pasted, code)
	}
	buf := make([]byte, 256<<10)
	wrapped := &readSizes{r: bytes.NewReader(make([]byte, 1<<20))}
	if _, err := io.CopyBuffer(struct{ io.Writer }{io.Discard}, struct{ io.Reader }{wrapped}, buf); err != nil {
		t.Fatal(err)
	}
	plain := &readSizes{r: bytes.NewReader(make([]byte, 1<<20))}
	if _, err := io.CopyBuffer(io.Discard, plain, buf); err != nil {
		t.Fatal(err)
	}
	if wrapped.max != len(buf) || plain.max >= len(buf) {
		t.Errorf("largest read: pasted copy %d, plain io.CopyBuffer %d; want %d and less", wrapped.max, plain.max, len(buf))
	}
	if code := goCode(transport.H2C, tuneresult.Settings{}); strings.Contains(code, "CopyBuffer") || strings.Contains(code, "chunk[:") {
		t.Errorf("defaults need no read or write code:\n%s", code)
	}
}

// TestDefaultsNeverPasted: a search whose best is Go's defaults pastes
// nothing, even when the final round measured "best" a hair above
// "default" (the same settings measured twice).
func TestDefaultsNeverPasted(t *testing.T) {
	res := tuneresult.Result{Protocol: "h2c", Default: goDefaults(transport.H2C), Best: goDefaults(transport.H2C),
		H1BytesPerSecond: 8e6, DefaultBytesPerSecond: 7.77e6, BestBytesPerSecond: 7.79e6}
	conclude(&res, transport.H2C, transferresult.Result{}, nil)
	if !res.DefaultsBest || res.GoCode != "" || res.RatioToH1 != res.DefaultRatioToH1 {
		t.Errorf("defaults best %v, ratios %.4f/%.4f, code %q: want the defaults kept and nothing to paste", res.DefaultsBest, res.DefaultRatioToH1, res.RatioToH1, res.GoCode)
	}
}

// TestNoisyGainNotPasted: a best that measured faster on average but whose
// gain's interval reaches 1 is not pasted (h3's "0.07x against 0.06x");
// one whose interval lies above 1 is.
func TestNoisyGainNotPasted(t *testing.T) {
	noisy := tuneresult.Result{Protocol: "h3", Default: goDefaults(transport.H3), Best: tuneresult.Settings{ReadSize: 64 * units.KiB},
		H1BytesPerSecond: 100, DefaultBytesPerSecond: 6, BestBytesPerSecond: 7}
	noisy.Gain, noisy.GainLow, noisy.GainHigh, noisy.Pairs = pairedGain([]float64{6, 6.5, 5.5, 6}, []float64{7.5, 6, 7, 6.5})
	if noisy.Pairs != 4 || noisy.GainLow > 1 {
		t.Fatalf("gain %.2f [%.2f, %.2f] over %d pairs: want an interval reaching 1", noisy.Gain, noisy.GainLow, noisy.GainHigh, noisy.Pairs)
	}
	conclude(&noisy, transport.H3, transferresult.Result{}, nil)
	if !noisy.DefaultsBest || noisy.GoCode != "" {
		t.Errorf("noisy gain: defaults best %v, code %q: want nothing pasted", noisy.DefaultsBest, noisy.GoCode)
	}
	clear := tuneresult.Result{Protocol: "h2c", Default: goDefaults(transport.H2C), Best: tuneresult.Settings{ReadSize: 256 * units.KiB, WriteSize: 256 * units.KiB},
		H1BytesPerSecond: 100, DefaultBytesPerSecond: 20, BestBytesPerSecond: 60}
	clear.Gain, clear.GainLow, clear.GainHigh, clear.Pairs = pairedGain([]float64{20, 21, 19, 20}, []float64{60, 62, 58, 61})
	conclude(&clear, transport.H2C, transferresult.Result{}, nil)
	if clear.DefaultsBest || clear.GoCode == "" || math.Abs(clear.Gain-3) > 0.05 || clear.GainLow <= 2.8 {
		t.Errorf("clear gain %.2f [%.2f, %.2f]: defaults best %v: want it pasted", clear.Gain, clear.GainLow, clear.GainHigh, clear.DefaultsBest)
	}
}

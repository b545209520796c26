package report

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/httpvs/httpvs/internal/knobs"

	"github.com/httpvs/httpvs/internal/analysis"
	"github.com/httpvs/httpvs/results"
)

// fiveTransports is a default run's shape on loopback: every scenario,
// five transports beside h1 (grpc-native where gRPC runs), intervals of
// every verdict, a machine warning and fixes with long texts: what the
// first screen must fit in a terminal of textWidth columns.
func fiveTransports() *results.Results {
	res := &results.Results{
		SchemaVersion: results.SchemaVersion,
		Env: results.Env{GoVersion: "go1.26.8", OS: "linux", Arch: "amd64", CPUModel: "Intel(R) Xeon(R) Processor", Cores: 2, GOMAXPROCS: 2,
			Version: "v0.1.0"},
		Settings: results.Settings{Protocols: []string{"h1", "h2c", "h1-tls", "h2", "h3"}, Repeat: 6, MaxRepeat: 6,
			DurationSeconds: 0.1, Engine: "std", Target: "child", Knobs: knobs.GoDefault, Seed: 1795768929726109545, WarmupRounds: 1,
			UDPBuffers: "warning: UDP buffers at 4096 KiB, below quic-go's 7 MiB: sysctl -w net.core.rmem_max=7500000 net.core.wmem_max=7500000"},
	}
	scenarios := []string{"download", "download-parallel-10", "download-parallel-100", "upload", "small-sequential", "small-concurrent", "headers-body", "grpc-1", "grpc-50"}
	for i, sc := range scenarios {
		protos := []string{"h1", "h2c", "h1-tls", "h2", "h3"}
		if strings.HasPrefix(sc, "grpc") {
			protos = append(protos, "grpc-native")
		}
		for j, p := range protos {
			c := results.Cell{Scenario: sc, Protocol: p, Metric: results.MetricBytesPerSecond, Baseline: "h1",
				Repetitions: []results.Repetition{{Round: 1, Value: 1}, {Round: 2, Value: 1}}}
			if p != "h1" {
				ratio := 0.05 + 0.31*float64((i+j)%7)
				f := 1.05 + 0.3*float64((i*j)%7) // intervals up to ±125%, as a loaded machine's
				c.VsBaseline = &results.Interval{Ratio: ratio, Low: ratio / f, High: ratio * f, Pairs: 6}
				c.VsBaseline.Verdict = verdictOf(*c.VsBaseline)
				c.RatioToBaseline = ratio
			}
			if p == "h3" && strings.HasPrefix(sc, "grpc") {
				c = results.Cell{Scenario: sc, Protocol: p, Skipped: "no gRPC binding over HTTP/3 (grpc-go speaks HTTP/2)"}
			}
			if p == "h2c" || p == "h2" {
				c.Findings = []results.Finding{{Rule: "h2-small-reads", Fix: "read response bodies with buffers of 256 KiB or more (io.CopyBuffer(dst, resp.Body, make([]byte, 256<<10))): each small read returns window credit in its own frames",
					Knobs: []results.Knob{{Field: "Client.ReadSize", Value: "256Ki"}}}}
			}
			res.Cells = append(res.Cells, c)
		}
	}
	return res
}

// TestFirstScreenFitsTextWidth: a default run's first screen (down to
// "detail:"), with five transports beside h1, has no line over textWidth
// columns and reads as the golden file.
func TestFirstScreenFitsTextWidth(t *testing.T) {
	var b bytes.Buffer
	res := fiveTransports()
	analysis.Conclude(res)
	if err := Matrix(&b, res); err != nil {
		t.Fatal(err)
	}
	first, _, ok := strings.Cut(b.String(), "\ndetail:")
	if !ok {
		t.Fatalf("no detail: line:\n%s", b.String())
	}
	for i, line := range strings.Split(first, "\n") {
		if n := utf8.RuneCountInString(line); n > textWidth {
			t.Errorf("line %d is %d columns, over %d:\n%s", i+1, n, textWidth, line)
		}
	}
	for _, want := range []string{"grpc-native", " ≈", " ?", "0.36x [0.34, 0.38]¹", "try Client.ReadSize=256Ki"} {
		if !strings.Contains(first, want) {
			t.Errorf("the verdict lacks %q:\n%s", want, first)
		}
	}
	golden(t, "first-screen-120.txt", []byte(first+"\n"))
}

// verdictOf is the verdict's rule (results' judged) on iv.
func verdictOf(iv results.Interval) string {
	switch {
	case iv.High < 1:
		return results.VerdictSlower
	case iv.Low > 1:
		return results.VerdictFaster
	case iv.Low < 1/(1+analysis.Matters) || iv.High > 1+analysis.Matters:
		return results.VerdictUndetermined
	}
	return results.VerdictSimilar
}

package analysis

import (
	"fmt"
	"net/url"

	"github.com/httpvs/httpvs/internal/dial"
	"github.com/httpvs/httpvs/internal/protoname"
	"github.com/httpvs/httpvs/internal/scenariospec"
	"github.com/httpvs/httpvs/plan"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/transport"
)

// Thresholds of the rules.
const (
	slowRatio     = 0.90      // below this ratio to h1 a cell's gap is explained
	smallRead     = 32 << 10  // body reads averaging below this are small
	smallFrame    = 32 << 10  // DATA frames averaging below this are small
	manyUpdates   = 16        // WINDOW_UPDATE frames per MiB above this are many (one per 64 KiB)
	blockedShare  = 0.10      // a sender waiting for window this share of the time is held back
	busyCores     = 0.85      // a side using this many cores is busy: CPU, not a window, limits it
	cpuHungry     = 1.5       // CPU per unit this many times h1's is hungry
	allocsHungry  = 1.2       // allocations per request this many times h1's
	mib           = 1 << 20   // bytes
	goodReadSize  = 256 << 10 // what the fixes recommend
	goodFrameSize = 256 << 10
)

// subject is what a rule looks at: a cell, its scenario's h1 cell (nil
// when there is none or it is the cell), the median repetition of each,
// the scenario and the run's settings.
type subject struct {
	c   *results.Cell
	m   results.Repetition
	h1  *results.Cell
	h1m results.Repetition
	sc  plan.Scenario // zero for a scenario this build does not know
	set *results.Settings
	env *results.Env // the machine; nil or zero Cores when unknown
}

// rule is one diagnosis: a finding or nil.
type rule struct {
	name  string
	check func(s *subject) *results.Finding
}

// rules, in the order findings are listed.
var rules = []rule{
	{"concurrency-lowered", concurrencyLowered},
	{"machine-bound", machineBound},
	{"generator-bound", generatorBound},
	{"window-limited", windowLimited},
	{"emulator-bound", emulatorBound},
	{"h2-small-reads", h2SmallReads},
	{"h2-small-frames", h2SmallFrames},
	{"h2-window-updates", h2WindowUpdates},
	{"h2-flow-blocked", h2FlowBlocked},
	{"cpu-per-byte", cpuPerByte},
	{"allocations", allocations},
	{"sender-unmeasured", senderUnmeasured},
	{"congestion-control", congestionControl},
	{"quic-losses", quicLosses},
	{"quic-flow-blocked", quicFlowBlocked},
	{"errors", errorsRule},
}

// Diagnose sets every measured cell's Findings from its counters, its
// scenario's h1 cell and the run's settings, and what the reference peers
// show (References). The rules explain throughput and request rates:
// cells timed in seconds (the network scenarios, where round trips
// decide) get none, nor do a variant scenario's cells (the settings the
// rules read are not theirs).
func Diagnose(res *results.Results) {
	defer References(res)
	for i := range res.Cells {
		c := &res.Cells[i]
		c.Findings = nil
		if c.Skipped != "" || len(c.Repetitions) == 0 || LowerIsBetter(c.Metric) || c.Knobs != "" {
			continue
		}
		s := &subject{c: c, m: MedianRepetition(c), set: &res.Settings, env: &res.Env}
		s.sc, _ = plan.ScenarioOf(&res.Settings, c.Scenario)
		if h1 := res.Cell(c.Scenario, res.Settings.BaselineProtocol()); h1 != nil && h1 != c && h1.Skipped == "" {
			s.h1, s.h1m = h1, MedianRepetition(h1)
		}
		for _, r := range rules {
			if f := r.check(s); f != nil {
				f.Rule = r.name
				c.Findings = append(c.Findings, *f)
			}
		}
	}
}

// transfer, download and upload say what the cell moves.
func (s *subject) transfer() bool { return s.c.Metric == results.MetricBytesPerSecond }
func (s *subject) download() bool { return s.transfer() && !scenariospec.Of(&s.sc).Upload }
func (s *subject) upload() bool   { return s.transfer() && scenariospec.Of(&s.sc).Upload }

// slow says the cell is behind h1 by enough to explain.
func (s *subject) slow() bool { return slow(s.c) }

// ownServer says the server is httpvs's child, whose knobs the run sets.
func (s *subject) ownServer() bool { return s.set.Server != nil }

// loopback says the run's target is on this machine's loopback: the
// child server ("child") or URLs of loopback hosts.
func (s *subject) loopback() bool {
	for _, raw := range []string{s.set.Target, s.set.TLSTarget} {
		if raw == "" || raw == "child" {
			continue
		}
		u, err := url.Parse(raw)
		if err != nil {
			return false
		}
		if !dial.LoopbackHost(u.Hostname()) {
			return false
		}
	}
	return s.set.Target != "" || s.set.TLSTarget != ""
}

// protocol is the cell's transport; ok is false for the native gRPC column.
func (s *subject) protocol() (transport.Protocol, bool) {
	p, err := transport.Parse(s.c.Protocol)
	return p, err == nil
}

// receiver names the side that receives the body and its config path.
func (s *subject) receiver() (side, end string) {
	if s.upload() {
		return "server", "Server"
	}
	return "client", "Client"
}

// cores returns a side's CPU cores over the repetition and whether it is
// known (a foreign server's is not; nor an unreliable one's).
func (s *subject) cores(side string) (float64, bool) {
	if side == "client" {
		return s.m.ClientCores, true
	}
	return ServerFigure(s.m, s.m.ServerCores)
}

// isHTTP2 reports whether the cell's transport is h2c or h2.
func isHTTP2(c *results.Cell) bool { return protoname.HTTP2(c.Protocol) }

// gap says how far behind h1 the cell is, for evidence.
func gap(c *results.Cell) string {
	if c.RatioToBaseline == 0 || c.Protocol == c.Baseline {
		return c.Protocol
	}
	return fmt.Sprintf("%s at %.2fx %s", c.Protocol, Ratio(c), c.Baseline)
}

// figures are a finding's figures: the cell's ratio to its baseline
// where gap states one, then more.
func figures(c *results.Cell, more ...results.Figure) []results.Figure {
	if c.RatioToBaseline == 0 || c.Protocol == c.Baseline {
		return more
	}
	return append([]results.Figure{{Name: "ratio to " + c.Baseline, Value: Ratio(c), Unit: "x"}}, more...)
}

// serverCoresFigure is the server's cores as a figure, none where they
// are unknown.
func serverCoresFigure(s *subject) []results.Figure {
	if cores, ok := s.cores("server"); ok {
		return []results.Figure{{Name: "server cores", Value: cores}}
	}
	return nil
}

func slow(c *results.Cell) bool { return c.RatioToBaseline > 0 && c.RatioToBaseline < slowRatio }

package diagnosis

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/httpvs/httpvs/config"
	"github.com/httpvs/httpvs/internal/matrix"
	"github.com/httpvs/httpvs/load"
	"github.com/httpvs/httpvs/plan"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/server"
	"github.com/httpvs/httpvs/transport"
	"github.com/httpvs/httpvs/units"
)

// Every rule whose fix is a setting is held to it: a short real cell is
// measured with a setting that makes the rule fire, the finding's knobs
// are applied (Setup.Apply), and the figure must move the way the fix
// promises, with power: over fixPairs rounds, each measuring the broken
// setup, the fixed one and a control (the broken setup with a knob that
// has no effect on the cell) in a random order, the fix's gain (its ratio
// to h1 over the broken setup's, round by round) must have a 95% interval
// above 1 and a mean of at least minGain (fixMoves), and the control's
// must not. A rule that cannot pass this must be reworded or lose its
// knobs.

// setup is one side of a fix test: what the client, server and engine are.
type setup struct {
	client config.Client
	server config.Server
	engine load.Engine
}

// measure runs scenario over h1 and p with su, against a server of its
// own, and returns p's cell.
func (su setup) measure(t *testing.T, scenario string, p transport.Protocol, size units.Bytes) results.Cell {
	t.Helper()
	srv := su.start(t)
	defer srv.Close()
	return su.run(t, srv, scenario, size, transport.H1, p)
}

// start starts a loopback server with su's server settings.
func (su setup) start(t *testing.T) *server.Running {
	t.Helper()
	opts := server.Loopback()
	opts.Config = su.server
	srv, err := server.Start(server.Config{Transport: opts})
	if err != nil {
		t.Fatal(err)
	}
	return srv
}

// run measures scenario over protocols against srv with su's client and
// engine, diagnoses the cells, and returns the last protocol's.
func (su setup) run(t *testing.T, srv *server.Running, scenario string, size units.Bytes, protocols ...transport.Protocol) results.Cell {
	t.Helper()
	ts := srv.Transport
	res, err := matrix.Run(context.Background(), plan.Options{
		Target:    plan.Target{Plain: ts.URL(transport.H1), TLS: ts.URL(transport.H2), RootCAs: transport.CertPool(ts.Cert())},
		Protocols: protocols,
		Scenarios: parseScenarios(t, scenario),
		Repeat:    3,
		Size:      size,
		Duration:  150 * time.Millisecond,
		Client:    su.client,
		Engine:    su.engine,
	})
	if err != nil {
		t.Fatal(err)
	}
	res.Settings.Server = &su.server
	Diagnose(res)
	p := protocols[len(protocols)-1]
	c := res.Cell(scenario, p.String())
	if c == nil || c.Skipped != "" || c.Errors.Total != 0 {
		t.Fatalf("%s/%s not measured cleanly: %+v", scenario, p, c)
	}
	return *c
}

func finding(c results.Cell, rule string) *results.Finding {
	for i := range c.Findings {
		if c.Findings[i].Rule == rule {
			return &c.Findings[i]
		}
	}
	return nil
}

// fixed applies f's knobs to a copy of su.
func (su setup) fixed(t *testing.T, f *results.Finding) setup {
	t.Helper()
	if len(f.Knobs) == 0 {
		t.Fatalf("%s: no knobs to apply: %s", f.Rule, f)
	}
	out := su
	if err := (matrix.Setup{Client: &out.client, Server: &out.server, Engine: &out.engine}).Apply(f.Knobs...); err != nil {
		t.Fatalf("%s: applying %v: %v", f.Rule, f.Knobs, err)
	}
	return out
}

// fixCase is one rule's fix test: the broken client that makes it fire,
// a control knob with no effect on the cell, and the figure the fix
// promises to move.
type fixCase struct {
	sc string // the scenario measured; "" for download
	// rules are the rules the broken client makes fire, each fix held on
	// its own against the same broken and control cells of each round.
	rules   []string
	p       transport.Protocol
	broken  config.Client
	size    units.Bytes
	control results.Knob
	// figure is what the fix promises to move.
	figure figure
	// pairs is the rounds measured, fixPairs when fewer.
	pairs int
}

// figure is what a fix test measures each setup by.
type figure int

const (
	// rate is the transfer's rate.
	rate figure = iota
	// cpuPerGB is the process's CPU seconds per GB, client and server
	// (both run in this test's process): bigger reads, bigger frames and
	// fewer window updates promise less work per byte, which is what
	// bounds a loopback transfer. It is what a busy machine disturbs
	// least: a transfer's rate there moved 3x between neighbouring runs.
	cpuPerGB
	// blocked is the share of the transfer its sender spent with no
	// flow-control window (HTTP/2), or the blocked frames per GB (QUIC):
	// a bigger window promises less waiting. On loopback, where a round
	// trip is tens of microseconds, the rate these fixes buy did not
	// have power here (h2-flow-blocked 0.52x [0.35, 0.79],
	// quic-flow-blocked 0.93x [0.50, 1.73] over five rounds on a busy
	// 2-core machine): a window binds where the round trip is long.
	blocked
)

// gain is how much better after's figure is than before's: the rate's
// ratio, or the inverse ratio of CPU per GB or of the waiting.
func (tc fixCase) gain(before, after results.Cell) float64 {
	b, a := results.MedianRepetition(&before), results.MedianRepetition(&after)
	switch tc.figure {
	case cpuPerGB:
		if a.ClientCPUPerUnit <= 0 {
			return 0
		}
		return b.ClientCPUPerUnit / a.ClientCPUPerUnit
	case blocked:
		return (waited(b) + 0.01) / (waited(a) + 0.01) // 1% of a transfer, or a frame per GB: the floor of "no waiting"
	case rate:
		return after.Median / before.Median
	}
	return 0
}

// waited is how much m's data sender waited for window: the share of the
// repetition an HTTP/2 sender was flow-blocked (the larger of the two
// ends' views), or QUIC's blocked frames per 100 GB, each way.
func waited(m results.Repetition) float64 {
	if q := m.ClientQUIC; q.PacketsSent+q.PacketsReceived > 0 {
		frames := float64(q.BlockedFramesSent + q.BlockedFramesReceived)
		if m.Server != nil {
			frames = max(frames, float64(m.Server.QUIC.BlockedFramesSent+m.Server.QUIC.BlockedFramesReceived))
		}
		return frames / max(float64(m.Bytes)/1e9, 1e-9) / 100
	}
	s := m.ClientH2.Received.FlowBlockedSeconds
	if m.Server != nil {
		s = max(s, m.Server.H2C.Sent.FlowBlockedSeconds)
	}
	return s / max(m.Seconds, 1e-9)
}

func TestTransferFixesMoveTheFigure(t *testing.T) {
	if testing.Short() {
		t.Skip("measures 5 rounds of three real transfer cells per rule")
	}
	// Each broken client is the tuned one (256 KiB reads, 1 MiB frames)
	// with one knob broken, so that the rule under test is the one cause.
	tuned := func(edit func(*config.Client)) config.Client {
		c := config.Client{ReadSize: 256 * units.KiB, HTTP2: config.HTTP2{MaxReadFrameSize: units.MiB}}
		edit(&c)
		return c
	}
	quicTrace := tuned(func(c *config.Client) {
		c.QUIC.Trace = true
		c.QUIC.MaxStreamReceiveWindow = 64 * units.KiB
		c.QUIC.InitialStreamReceiveWindow = 64 * units.KiB
	})
	smallReads := tuned(func(c *config.Client) { c.ReadSize = 4 * units.KiB })
	// The controls are settings of the other stack: real knobs, applied
	// the same way, that the cell's transport never reads.
	quicKnob := results.Knob{Field: "Client.QUIC.MaxStreamReceiveWindow", Value: "64Mi"}
	h2Knob := results.Knob{Field: "Client.HTTP2.MaxReadFrameSize", Value: "16Ki"}
	for _, tc := range []fixCase{
		// Sizes: 64 MiB where the gain is small (small frames: 1.22-1.48x
		// over five rounds); less where it is large (small reads 2.8-3.2x
		// [2.6, 3.5] at 64 MiB; h2's windows 27x at 64 MiB, QUIC's 31-72x at
		// 16 MiB and 10x [6.1, 16.3] at 8), each transfer still a hundred
		// or more of its windows and reads.
		// Small reads make both rules fire: one broken client, its two
		// fixes measured in the same rounds.
		{"", []string{"h2-small-reads", "h2-window-updates"}, transport.H2C, smallReads, 32 * units.MiB, quicKnob, cpuPerGB, fixPairs},
		// Small frames' gain is the smallest here, and five rounds beside
		// other packages' tests can leave its interval's edge at 1 from
		// one disturbed round: smallFramePairs.
		{"", []string{"h2-small-frames"}, transport.H2C, tuned(func(c *config.Client) { c.HTTP2.MaxReadFrameSize = 16 * units.KiB }), 64 * units.MiB, quicKnob, cpuPerGB, smallFramePairs},
		{"", []string{"h2-flow-blocked"}, transport.H2C, tuned(func(c *config.Client) { c.HTTP2.MaxReceiveBufferPerStream = 64 * units.KiB }), 16 * units.MiB, quicKnob, blocked, fixPairs},
		{"", []string{"quic-flow-blocked"}, transport.H3, quicTrace, 8 * units.MiB, h2Knob, blocked, fixPairs},
	} {
		t.Run(strings.Join(tc.rules, "+"), func(t *testing.T) { tc.run(t) })
	}
}

// run measures tc's broken setup, its control and each rule's fix in
// tc.pairs rounds (fixPairs at least) and holds each fix and the control
// to fixMoves. They share one server (their knobs are the client's), and each round
// measures them one after another in an order drawn afresh, so each gain
// (a fixed cell's figure over the broken one's, in the same round) is
// paired in time: drift on a shared machine moves both. Rules that share a
// broken client share its cells and the control's: one probe, and per
// round one broken and one control cell for all their fixes.
func (tc fixCase) run(t *testing.T) {
	broken := setup{client: tc.broken}
	probe := broken.measure(t, "download", tc.p, tc.size)
	control := broken.fixed(t, &results.Finding{Rule: "control", Knobs: []results.Knob{tc.control}})
	setups := []setup{broken, control} // then each rule's fix
	var fixes []*results.Finding
	for _, rule := range tc.rules {
		f := finding(probe, rule)
		if f == nil {
			t.Fatalf("%s did not fire at %.2fx h1; findings %v", rule, probe.Ratio(), probe.Findings)
		}
		fixed := broken.fixed(t, f)
		if !reflect.DeepEqual(fixed.server, broken.server) {
			t.Fatalf("%s: the fix %v sets the server's knobs: this test shares one server", rule, f.Knobs)
		}
		fixes, setups = append(fixes, f), append(setups, fixed)
	}
	srv := broken.start(t)
	defer srv.Close()
	judgeReplicated(t, fixes, tc.control, func() ([][]float64, []float64) {
		gains := make([][]float64, len(setups)) // gains[k]: setups[k] over broken, round by round
		for range max(tc.pairs, fixPairs) {
			cells := make([]results.Cell, len(setups))
			for _, k := range rand.Perm(len(setups)) {
				cells[k] = setups[k].run(t, srv, tc.scenario(), tc.size, tc.p)
			}
			for k := 1; k < len(setups); k++ {
				gains[k] = append(gains[k], tc.gain(cells[0], cells[k]))
			}
		}
		return gains[2:], gains[1]
	})
}

// smallFramePairs is h2-small-frames' rounds: its gain, 1.22-1.48x
// over five rounds (1.34x [1.17, 1.53] to 1.45x [1.35, 1.55] beside two
// busy loops), is the least of the fix tests, so one round a neighbour
// disturbs weighs most on its interval; eight rounds narrow it (the t
// quantile 2.36 for 2.78, over sqrt(8/5) the rounds), as generatorPairs
// did for the generator's 1.34x.
const smallFramePairs = 8

// scenario is what tc measures: its scenario, or one big download.
func (tc fixCase) scenario() string {
	if tc.sc == "" {
		return "download"
	}
	return tc.sc
}

// holdFix measures pairs rounds (at least fixPairs) with round (each the fix's gain and the
// control's, paired in time) and holds the fix and the control to
// fixMoves: the fix must move its figure, the control must not.
func holdFix(t *testing.T, rule string, fix []results.Knob, control results.Knob, pairs int, round func() (gain, control float64)) {
	t.Helper()
	judgeReplicated(t, []*results.Finding{{Rule: rule, Knobs: fix}}, control, func() ([][]float64, []float64) {
		var gains, controls []float64
		for range max(pairs, fixPairs) {
			g, c := round()
			gains, controls = append(gains, g), append(controls, c)
		}
		return [][]float64{gains}, controls
	})
}

// judgeReplicated measures the rounds (measure: each fix's gains and the
// control's, paired round by round) and holds each fix to judgeFix. A
// control that passes as a fix has its rounds measured once more, fix and
// control afresh, and that replication decides. A suite run in CI makes
// twelve control checks (six per toolchain), and beside other packages'
// -race tests a round's noise is heavier-tailed and more drifting than the
// t interval assumes: once a no-effect control there read 1.17x [1.08,
// 1.27] at 99% over twelve rounds (h3's, an HTTP/2 knob h3 never reads),
// and 0.94-0.99x in every run here, -race or not. A setup measured
// unequally (the defect the control is there to catch) repeats in the
// replication; chance passes twice about 0.5% of 0.5% of the time.
func judgeReplicated(t *testing.T, fixes []*results.Finding, control results.Knob, measure func() (fixGains [][]float64, controls []float64)) {
	t.Helper()
	for _, e := range replicatedVerdict(t.Logf, fixes, control, measure) {
		t.Error(e)
	}
}

// replicatedVerdict is judgeReplicated's judgement: what it logs goes to
// logf, and each failure is returned.
func replicatedVerdict(logf func(string, ...any), fixes []*results.Finding, control results.Knob, measure func() ([][]float64, []float64)) []string {
	gains, controls := measure()
	first := ""
	if civ, moved := controlMoves(controls); moved {
		first = fmt.Sprintf("%.2fx [%.2f, %.2f] (%s)", civ.Ratio, civ.Low, civ.High, gainList(controls))
		logf("the control %v passed as a fix, %s: measuring the rounds again, which decide", control, first)
		gains, controls = measure()
	}
	var failed []string
	for i, f := range fixes {
		failed = append(failed, judgeFix(logf, f.Rule, f.Knobs, control, gains[i], controls, first)...)
	}
	return failed
}

// judgeFix holds a fix's gains and its control's, paired round by round,
// to fixMoves and controlMoves: the fix must move its figure, the
// control must not. first is what the control read in rounds measured
// before these, when it passed there too; "" when these are the first.
func judgeFix(logf func(string, ...any), rule string, fix []results.Knob, control results.Knob, gains, controls []float64, first string) []string {
	iv, moved := fixMoves(gains)
	civ, controlMoved := controlMoves(controls)
	logf("%s: %v gains %.2fx [%.2f, %.2f]; control %v %.2fx [%.2f, %.2f] (99%%)", rule, fix, iv.Ratio, iv.Low, iv.High, control, civ.Ratio, civ.Low, civ.High)
	var failed []string
	if !moved {
		failed = append(failed, fmt.Sprintf("%s: the fix %v did not move the figure: gain %.2fx [%.2f, %.2f] over %d rounds (%s); want the interval above 1 and at least %.2fx",
			rule, fix, iv.Ratio, iv.Low, iv.High, iv.Pairs, gainList(gains), minGain))
	}
	if controlMoved {
		again := ""
		if first != "" {
			again = ", and " + first + " in the rounds before"
		}
		failed = append(failed, fmt.Sprintf("%s: the control %v, a knob with no effect, passed the same test: gain %.2fx [%.2f, %.2f] at 99%% (%s)%s: the test cannot tell a fix from noise",
			rule, control, civ.Ratio, civ.Low, civ.High, gainList(controls), again))
	}
	return failed
}

func gainList(gains []float64) string {
	var b strings.Builder
	for i, g := range gains {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%.2f", g)
	}
	return b.String()
}

// TestConcurrencyFixRaisesConcurrency: the fix of concurrency-lowered
// promises the scenario's concurrency, not speed.
func TestConcurrencyFixRaisesConcurrency(t *testing.T) {
	broken := setup{server: config.Server{HTTP2: config.HTTP2{MaxConcurrentStreams: 10}}}
	before := broken.measure(t, "small-concurrent", transport.H2C, 0)
	f := finding(before, "concurrency-lowered")
	if f == nil || results.MedianRepetition(&before).Streams != 10 {
		t.Fatalf("rule did not fire or streams %d, want 10; findings %v", results.MedianRepetition(&before).Streams, before.Findings)
	}
	after := broken.fixed(t, f).measure(t, "small-concurrent", transport.H2C, 0)
	if m := results.MedianRepetition(&after); m.Streams != 50 || m.Lowered != "" || finding(after, "concurrency-lowered") != nil {
		t.Errorf("after %v: %d streams, lowered %q, want the scenario's 50", f.Knobs, m.Streams, m.Lowered)
	}
}

func parseScenarios(t *testing.T, list string) []plan.Scenario {
	t.Helper()
	s, err := plan.ParseScenarios(list)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

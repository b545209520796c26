package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/httpvs/httpvs/internal/analysis"
	"github.com/httpvs/httpvs/internal/matrix"
	"github.com/httpvs/httpvs/results"
)

// linkRun is a run across a 50 ms, 96 Mbit/s link: downloads at the link
// for h1 and h2c, small-concurrent at its bound for h1 and far below it
// for h2c (rounds too short), and cold starts at their round trips.
func linkRun() *results.Results {
	n := &results.Net{Spec: "rtt=50ms,rate=100mbit", Backend: results.NetBackendTUN}
	n.Up.DelaySeconds, n.Down.DelaySeconds = 0.025, 0.025
	n.Calibration.TCPConnectSeconds, n.Calibration.UDPRTTSeconds = 0.051, 0.051
	n.Calibration.UpGoodputBitsPerSecond, n.Calibration.DownGoodputBitsPerSecond = 96e6, 96e6
	res := &results.Results{SchemaVersion: results.SchemaVersion, Settings: results.Settings{Protocols: []string{"h1", "h2c", "h3"}, Net: n, Baseline: "h1"}}
	add := func(scenario, protocol string, values ...float64) {
		sc, _ := matrix.ScenarioByName(scenario)
		c := results.Cell{Scenario: scenario, Protocol: protocol, Metric: sc.Metric}
		for i, v := range values {
			c.Repetitions = append(c.Repetitions, results.Repetition{Round: i + 1, Value: v, Seconds: 1})
		}
		res.Cells = append(res.Cells, c)
	}
	add("download", "h1", 12e6, 12e6, 11.9e6)
	add("download", "h2c", 11.9e6, 12e6, 12e6)
	add("download", "h3", 11.8e6, 11.9e6, 12e6)
	add("small-concurrent", "h1", 960, 958, 962)
	add("small-concurrent", "h2c", 520, 640, 580)
	add("small-concurrent", "h3", 955, 960, 957)
	add("cold-start", "h1", 0.101, 0.102, 0.101)
	add("cold-start", "h2c", 0.102, 0.101, 0.101)
	add("cold-start", "h3", 0.102, 0.103, 0.104)
	analysis.Summarise(res)
	return res
}

func TestLinkVerdict(t *testing.T) {
	var b bytes.Buffer
	if err := Matrix(&b, linkRun()); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"against the link (round trip 50.0 ms as set",
		"download: h1 100%, h2c 100%, h3 99% of the link's calibrated TCP goodput down",
		"unexplained: small-concurrent/h2c (58%, below it)",
		"cold-start: h1 1.01x of 2.0 round trips, h2c 1.01x of 2.0 round trips, h3 1.03x of 2.0 round trips",
		"h2c against h1: ties on download (both at the link's bound), cold-start (both at the link's bound); is unexplained on small-concurrent",
		"of link bound",
	} {
		if !strings.Contains(unwrapped(out), want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}
	// The verdict cell itself says so, rather than a confident "slower".
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "  small-concurrent ") && !strings.Contains(line, "unexplained") {
			t.Errorf("verdict row %q: want h2c's cell marked unexplained", line)
		}
	}
}

// machineRun is linkRun with h3's download at 87% of the link and 0.88x
// h1, its server's CPU saturated, and h3 on loopback (the crossover) at
// h3loop bytes per second.
func machineRun(h3loop float64) *results.Results {
	res := linkRun()
	for i := range res.Cells {
		c := &res.Cells[i]
		if c.Scenario == "download" && c.Protocol == "h3" {
			for j := range c.Repetitions {
				c.Repetitions[j].Value *= 0.88 // 87% of the link: within the bound's tolerance
				c.Repetitions[j].Bottleneck = results.BottleneckServer
			}
		}
	}
	res.Crossover = []results.Crossover{{Protocol: "h1", BytesPerSecond: 1e9}, {Protocol: "h3", BytesPerSecond: h3loop}}
	analysis.Summarise(res)
	return res
}

// TestLinkVerdictAboveCrossover: the same h3 on a link faster than h3
// moves on this machine's loopback is held by its own cost, not the
// machine's: it loses, and the table says slower.
func TestLinkVerdictAboveCrossover(t *testing.T) {
	res := machineRun(10e6) // h3 moves 10 MB/s on loopback, the link 12 MB/s
	var b bytes.Buffer
	if err := Matrix(&b, res); err != nil {
		t.Fatal(err)
	}
	if out := b.String(); !strings.Contains(out, "h3 against h1: loses on download") || strings.Contains(out, "machine-bound") {
		t.Errorf("want h3's download lost to its own cost:\n%s", out)
	}
}

// TestLinkVerdictMachineBound: a transport the paired rounds call slower
// on a link that binds every transport, where this machine's CPU was
// saturated over the cell, is machine-bound in the report's words, not
// "loses on".
func TestLinkVerdictMachineBound(t *testing.T) {
	res := machineRun(200e6) // h3 moves 200 MB/s on loopback: the link binds it
	c := res.Cell("download", "h3")
	if c.VsBaseline == nil || c.VsBaseline.Verdict != results.VerdictSlower || c.Bound.Departs {
		t.Fatalf("h3 %+v, bound %+v: want slower than h1 and at the link's bound", c.VsBaseline, c.Bound)
	}
	var b bytes.Buffer
	if err := Matrix(&b, res); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if !strings.Contains(unwrapped(out), "h3 against h1: is machine-bound on download (0.88x: this machine, not the link, held h3 (the server's CPU saturated))") || strings.Contains(out, "loses on download") {
		t.Errorf("want h3's download machine-bound, not lost:\n%s", out)
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "download ") && strings.Contains(line, "0.88x") && (!strings.Contains(line, "0.88x [0.85, 0.90]"+markMachine) || strings.Contains(line, "slower")) {
			t.Errorf("verdict row %q: want h3's cell machine-bound, not slower", line)
		}
	}
}

// TestLinkVerdictEmulatorBehind: the same slower h3 with no CPU
// saturated but the emulator behind over it (its packets left late: a
// slower link than the one set) is machine-bound too, not "loses on".
func TestLinkVerdictEmulatorBehind(t *testing.T) {
	res := machineRun(200e6)
	for i := range res.Cells {
		c := &res.Cells[i]
		if c.Scenario == "download" && c.Protocol == "h3" {
			for j := range c.Repetitions {
				c.Repetitions[j].Bottleneck = results.BottleneckNone
				c.Repetitions[j].Link = &results.RepetitionLink{Down: results.NetCounters{Packets: 1000, Late: 100, MaxLateSeconds: 0.012}}
			}
		}
	}
	analysis.Summarise(res)
	var b bytes.Buffer
	if err := Matrix(&b, res); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if !strings.Contains(unwrapped(out), "h3 against h1: is machine-bound on download (0.88x: this machine, not the link, held h3 (the emulator fell behind") || strings.Contains(out, "loses on download") {
		t.Errorf("want h3's download machine-bound by the emulator, not lost:\n%s", out)
	}
}

// TestLinkVerdictUndetermined: a download whose two rounds spread so far
// that its interval reaches the link though its median sits at a tenth
// of it (a clean link: no loss model places it) is said to be
// undetermined against the link, not shown as a bare share.
func TestLinkVerdictUndetermined(t *testing.T) {
	res := linkRun()
	for i := range res.Cells {
		if c := &res.Cells[i]; c.Scenario == "download" && c.Protocol == "h2c" {
			c.Repetitions = c.Repetitions[:2]
			c.Repetitions[0].Value, c.Repetitions[1].Value = 0.3e6, 6e6
		}
	}
	analysis.Summarise(res)
	if b := res.Cell("download", "h2c").Bound; b == nil || !b.Undetermined || b.Departs {
		t.Fatalf("bound %+v: want undetermined, not departing", b)
	}
	var b bytes.Buffer
	if err := Matrix(&b, res); err != nil {
		t.Fatal(err)
	}
	if want := "h2c 26% (" + analysis.ClassUndecided + ")"; !strings.Contains(b.String(), want) {
		t.Errorf("the report lacks %q:\n%s", want, b.String())
	}
}

// TestLinkWordsOnlyFromPlacedCells: h2c decided slower (0.45x in every
// round) while its own interval reaches the link (its rounds moved with
// h1's): the words keep the verdict and give no reason from the link.
func TestLinkWordsOnlyFromPlacedCells(t *testing.T) {
	res := linkRun()
	for i := range res.Cells {
		c := &res.Cells[i]
		if c.Scenario != "download" || c.Protocol == "h3" {
			continue
		}
		for j, v := range []float64{4e6, 12e6, 12e6} {
			if c.Protocol == "h2c" {
				v *= 0.45
			}
			c.Repetitions[j].Value = v
		}
	}
	analysis.Summarise(res)
	c := res.Cell("download", "h2c")
	if c.VsBaseline == nil || c.VsBaseline.Verdict != results.VerdictSlower || c.Bound == nil || !c.Bound.Undetermined {
		t.Fatalf("planted cell: verdict %+v, bound %+v: want slower and undetermined", c.VsBaseline, c.Bound)
	}
	class, why := wordOf(c, res.Cell("download", "h1"), res)
	if class != "loses on" || !strings.HasPrefix(why, "0.45x; h2c is "+analysis.ClassUndecided) || !strings.Contains(why, "the link says nothing of why") {
		t.Errorf("words %q %q: want the verdict kept, no reason from the link", class, why)
	}
}

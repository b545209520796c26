package main

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/httpvs/httpvs/experiment"
	"github.com/httpvs/httpvs/internal/analysis"
	"github.com/httpvs/httpvs/internal/linkmodel"
	"github.com/httpvs/httpvs/plan"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/transport"
)

// sweepLink is one link's h2 and h3 download cells, read.
type sweepLink struct {
	spec, rtt string
	rateBits  float64 // the link's configured rate down
	gap       results.Interval
	h2, h3    float64 // medians, bits per second
	recv      results.Interval
	recvCPU   float64 // h3 client (receiver) CPU s/GB, median repetition
	sendCPU   float64 // h3 server (sender) CPU s/GB
	acks      float64 // h3: QUIC packets the receiver sent per packet it received
	upDown2   float64 // link packets up per packet down, h2 (TCP ACKs)
	upDown3   float64 // and h3
	behind    string  // the emulator fell behind (EmulatorBehind), h2's or h3's
	cross     float64 // httpvs's printed crossover for h3, bits per second
	cc        string  // the TCP controller the link's run recorded
	ok        bool
}

// linkOptions are the sweep's experiment: download only, h2 against h3
// (Zhang et al.'s TCP+TLS+HTTP/2 against UDP+QUIC+HTTP/3), rounds
// bounded so the sweep's time is known before it starts.
func linkOptions(p sizes, texts []string) (experiment.SweepOptions, error) {
	var links []experiment.LinkSpec
	for _, t := range texts {
		ls, err := experiment.ParseLinks(t)
		if err != nil {
			return experiment.SweepOptions{}, err
		}
		links = append(links, ls...)
	}
	scen, err := plan.ParseScenarios("download")
	if err != nil {
		return experiment.SweepOptions{}, err
	}
	var o experiment.SweepOptions // zero: httpvs run --net's rounds
	o.Links = links
	o.Executable = p.exe
	o.Matrix.Scenarios = scen
	o.Matrix.Protocols = []transport.Protocol{transport.H2, transport.H3}
	o.Matrix.Repeat = pick3(p.quick, 2, 3)
	o.Matrix.MaxRepeat = o.Matrix.Repeat
	o.Budget = -1
	return o, nil
}

func pick3(c bool, a, b int) int {
	if c {
		return a
	}
	return b
}

// readLink reads one link's results.
func readLink(res *results.Results) sweepLink {
	n := res.Settings.Net
	l := sweepLink{spec: n.Spec, rtt: fmt.Sprintf("%.0f ms", 2*n.Down.DelaySeconds*1e3), rateBits: n.Down.RateBitsPerSecond, cc: n.TCPCongestion}
	c2, c3 := res.Cell("download", "h2"), res.Cell("download", "h3")
	if c2 == nil || c3 == nil || c3.VsBaseline == nil || len(c3.Repetitions) == 0 || len(c2.Repetitions) == 0 {
		return l
	}
	l.ok, l.gap, l.h2, l.h3 = true, *c3.VsBaseline, c2.Median*8, c3.Median*8
	m := analysis.MedianRepetition(c3)
	l.recvCPU = m.ClientCPUPerUnit
	if m.ServerCPUPerUnit != nil {
		l.sendCPU = *m.ServerCPUPerUnit
	}
	l.recv = cpuRatio(c3)
	if m.ClientQUIC.PacketsReceived > 0 {
		l.acks = float64(m.ClientQUIC.PacketsSent) / float64(m.ClientQUIC.PacketsReceived)
	}
	l.upDown2, l.upDown3 = upDown(c2), upDown(c3)
	l.behind = strings.TrimSpace(analysis.EmulatorBehind(c2, n) + " " + analysis.EmulatorBehind(c3, n))
	for _, x := range res.Crossover {
		if x.Protocol == transport.H3.String() {
			l.cross = float64(linkmodel.CrossoverRate(x))
		}
	}
	return l
}

// cpuRatio is the receiver's CPU per byte over the sender's, repetition
// by repetition, with its interval.
func cpuRatio(c *results.Cell) results.Interval {
	var logs []float64
	for _, r := range c.Repetitions {
		if r.Interrupted || r.ServerCPUPerUnit == nil || *r.ServerCPUPerUnit <= 0 || r.ClientCPUPerUnit <= 0 {
			continue
		}
		logs = append(logs, math.Log(r.ClientCPUPerUnit / *r.ServerCPUPerUnit))
	}
	return analysis.LogInterval(logs)
}

// upDown is the link's packets up (client to server: a download's
// acknowledgements) per packet down, over the cell's repetitions.
func upDown(c *results.Cell) float64 {
	var up, down int64
	for _, r := range c.Repetitions {
		if r.Link != nil {
			up, down = up+r.Link.Up.Packets, down+r.Link.Down.Packets
		}
	}
	if down == 0 {
		return 0
	}
	return float64(up) / float64(down)
}

// zhangSection sweeps h2 against h3 downloads across link rates and
// round trips.
func zhangSection(ctx context.Context, p sizes) ([]Row, string, error) {
	o, err := linkOptions(p, p.sweepLinks)
	if err != nil {
		return nil, "", err
	}
	runs, err := experiment.Sweep(ctx, o)
	if err != nil {
		return nil, "", err
	}
	var links []sweepLink
	for _, r := range runs {
		links = append(links, readLink(r))
	}
	ct, err := receiverTest(ctx, p.causeRounds, p.causeBytes)
	if err != nil {
		return nil, "", fmt.Errorf("the receiver's cost varied: %w", err)
	}
	return zhangRows(links, &ct), sweepTable(links), nil
}

func sweepTable(links []sweepLink) string {
	var b strings.Builder
	b.WriteString("| link | h2 | h3 | h3/h2 (95%) | h3 receiver / sender CPU s/GB | receiver/sender CPU (95%) | h3 QUIC packets sent per received, receiver | link packets up per down h2 / h3 | emulator |\n|---|---|---|---|---|---|---|---|---|\n")
	for _, l := range links {
		if !l.ok {
			fmt.Fprintf(&b, "| %s | not measured | | | | | | | |\n", l.spec)
			continue
		}
		fmt.Fprintf(&b, "| %s | %.0f Mbit/s | %.0f Mbit/s | %s | %.2f / %.2f | %s | %.2f | %.3f / %.3f | %s |\n", l.spec, l.h2/1e6, l.h3/1e6, ivText(l.gap),
			l.recvCPU, l.sendCPU, ivText(l.recv), l.acks, l.upDown2, l.upDown3, pick(l.behind == "", "kept up", l.behind))
	}
	kept := "none"
	for _, l := range links {
		if l.ok && l.behind == "" && strings.HasPrefix(l.spec, "rtt=0ms") {
			kept = fmt.Sprintf("%.0f Mbit/s", l.rateBits/1e6)
		}
	}
	b.WriteString("\nThe highest rate at rtt 0 where the emulator kept up for both transports (its counters: packets left more than 1 ms late): " + kept + ". Where it fell behind, the cell was measured on a slower link than the one set, and the emulator's ceiling, not the transports, decides that rate's figures.\n")
	cc := ""
	if len(links) > 0 {
		cc = links[0].cc
	}
	return fmt.Sprintf("Zhang et al.'s sweep: one download per transport per round, h2 (TCP under %s, as the runs recorded it, TLS) against h3 (quic-go %s's Cubic), transfers sized by the link and their slow start left out.\n\n", or(cc), or(facts.quicGo)) + b.String()
}

package main

import (
	"context"
	"fmt"
	"math"
	"os"
	"sort"
	"strings"

	"github.com/httpvs/httpvs/experiment"
	"github.com/httpvs/httpvs/results"
)

// zhangSetupOf is the sweep's setup: the TCP controller the link's run
// recorded and the quic-go version built in, as measured.
func zhangSetupOf(cc string) string {
	return fmt.Sprintf("download, h2 (TCP under %s as the run recorded it, TLS) against h3 (quic-go %s, Cubic, GSO %s), httpvs's child server in a namespace behind the userspace TUN link; the paper: Chrome and others against production servers and a testbed up to 1 Gbit/s",
		or(cc), or(facts.quicGo), pick(os.Getenv("QUIC_GO_DISABLE_GSO") == "", "on (QUIC_GO_DISABLE_GSO unset)", "off (QUIC_GO_DISABLE_GSO set)"))
}

// zhangRows holds the sweep to Zhang et al.'s claims, read on the rtt 0
// series (the rates alone varying).
func zhangRows(links []sweepLink, ct *causeTest) []Row {
	var series, all []sweepLink
	for _, l := range links {
		if l.ok && strings.HasPrefix(l.spec, "rtt=0ms") {
			all = append(all, l)
			if l.behind == "" {
				series = append(series, l)
			}
		}
	}
	sort.Slice(all, func(i, j int) bool { return all[i].rateBits < all[j].rateBits })
	sort.Slice(series, func(i, j int) bool { return series[i].rateBits < series[j].rateBits })
	if len(all) < 2 {
		return []Row{{Source: srcZhang, Claim: "HTTP/3 up to 45.2% below HTTP/2 on fast links", Verdict: notComparable, Note: "fewer than two links measured at rtt 0"}}
	}
	rows := zhangRates(series, all)
	if rows[0].Verdict == disagrees {
		rows[0].Note = takeApart(rows[0].published, rows[0].iv, linkVariations(links, rows[0].iv, ct)) + "; links where the emulator fell behind are left out (not comparable)"
	}
	top := topLink(all)
	setup := zhangSetupOf(top.cc)
	cause := Row{Source: srcZhang, Claim: "the cause is the receiver's processing (many packets, user-space ACKs)", Setup: setup + "; h3's client (receiver) CPU per byte over its server's (sender), repetition by repetition, at " + top.spec, Rule: "R4",
		Verdict: notTested, Figure: fmt.Sprintf("receiver %.2f s/GB, sender %.2f s/GB: %s", top.recvCPU, top.sendCPU, ivText(top.recv)),
		Note: "no setting that changes the receiver's cost was varied; the CPU split reads a cost, not a cause. Links where the emulator kept up: " + keptUp(links)}
	if ct != nil {
		cause = causeRow(*ct, setup)
		cause.Note = joinNote(cause.Note, fmt.Sprintf("beside it, the CPU split at %s: receiver %.2f s/GB, sender %.2f s/GB: %s (a cost, not a test)", top.spec, top.recvCPU, top.sendCPU, ivText(top.recv)))
		if cause.Verdict == disagrees {
			cause.Note += fmt.Sprintf("; open: varied the receiver's read size (to %s) and, as a control, the sender's GSO; no receiver setting raised h3's rate as the claim predicts", ct.bigRead.Human())
		}
	}
	return append(rows, cause,
		Row{Source: srcZhang, Claim: "QUIC's receiver acknowledges far more often than TCP's (fewer ACKs recommended)", Setup: setup + "; the emulator's packets up (acknowledgements) per packet down, at " + top.spec, Rule: "R2",
			Verdict: pick(top.upDown3 > top.upDown2 && top.upDown2 > 0, agrees, disagrees),
			Figure:  fmt.Sprintf("up per down: h3 %.3f, h2 %.3f; h3's receiver sent %.2f QUIC packets per packet received", top.upDown3, top.upDown2, top.acks),
			Note:    pick(top.upDown3 > top.upDown2, "", fmt.Sprintf("quic-go %s's receiver sent fewer packets up per packet down than TCP's; %s; open: varied the link's rate and round trip (the sweep's table); the ACK frequency was not varied", or(facts.quicGo), ackSpread(links)))},
		zhangCrossover(series, all))
}

// linkVariations are the sweep's other links where the emulator kept
// up (the rate and the round trip varied), and, when the cause test ran,
// no link at all (loopback, where h3's own speed sets its rate), each
// with its h3/h2 interval: a disagreement with the paper's gap taken
// apart by the link. base is the row's own interval, left out.
func linkVariations(links []sweepLink, base results.Interval, ct *causeTest) []variation {
	var vs []variation
	for _, l := range links {
		if l.ok && l.behind == "" && l.gap != base {
			vs = append(vs, variation{"the link " + l.spec, l.gap})
		}
	}
	if ct != nil {
		vs = append(vs, variation{"no link (loopback, h3's own speed sets its rate; the receiver test's rounds)", ct.gap})
	}
	return vs
}

// crossoverNote ends a disagreeing crossover row: the rates varied at
// rtt 0 with their h3/h2 intervals, none of which put the gap's
// opening within a factor 1.5 of the printed crossover.
func crossoverNote(series []sweepLink) string {
	var s []string
	for _, l := range series {
		s = append(s, fmt.Sprintf("%s: %s", l.spec, ivText(l.gap)))
	}
	return "open: varied the link's rate at rtt 0 where the emulator kept up (" + strings.Join(s, "; ") + "); none put the gap's opening within a factor of 1.5 of the printed crossover"
}

// keptUp lists the links measured where the emulator kept up, with
// their h3/h2 interval, or says there were none.
func keptUp(links []sweepLink) string {
	var s []string
	for _, l := range links {
		if l.ok && l.behind == "" {
			s = append(s, fmt.Sprintf("%s (h3/h2 %s)", l.spec, ivText(l.gap)))
		}
	}
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}

// ackSpread says where, across the sweep, h3's packets up per packet
// down were highest and lowest.
func ackSpread(links []sweepLink) string {
	var hi, lo *sweepLink
	for i := range links {
		l := &links[i]
		if !l.ok {
			continue
		}
		if hi == nil || l.upDown3 > hi.upDown3 {
			hi = l
		}
		if lo == nil || l.upDown3 < lo.upDown3 {
			lo = l
		}
	}
	if hi == nil {
		return "no link measured"
	}
	return fmt.Sprintf("across the sweep h3's packets up per packet down were highest at %s (%.3f) and lowest at %s (%.3f)", hi.spec, hi.upDown3, lo.spec, lo.upDown3)
}

// topLink is the fastest link at or below 1 Gbit/s: Zhang et al.'s
// fastest.
func topLink(series []sweepLink) sweepLink {
	top := series[0]
	for _, l := range series {
		if l.rateBits <= 1e9 {
			top = l
		}
	}
	return top
}

// zhangRates holds the rates where the emulator kept up (its counters)
// to the size of the gap and its growth; links where it fell behind ran
// slower than set and are not comparable.
func zhangRates(series, all []sweepLink) []Row {
	nf := 0.0
	if loopback != nil {
		nf = aaNoise(loopback, "download")
	}
	claim1, claim2 := "UDP+QUIC+HTTP/3 up to 45.2% below TCP+TLS+HTTP/2 on fast links (0.55x)", "the gap grows with the bandwidth"
	if len(series) < 2 {
		t := topLink(all)
		note := fmt.Sprintf("the emulator kept up at %d of %d rates at rtt 0 at this load (at %s: %s): that link ran slower than set; h3/h2 there read %s", len(series), len(all), t.spec, t.behind, ivText(t.gap))
		return []Row{{Source: srcZhang, Claim: claim1, Setup: zhangSetupOf(t.cc), Rule: "R1", Verdict: notComparable, Note: note, Figure: "h3/h2 " + ivText(t.gap) + " at " + t.spec},
			{Source: srcZhang, Claim: claim2, Setup: zhangSetupOf(t.cc), Rule: "R2", Verdict: notComparable, Note: "fewer than two rates where the emulator kept up"}}
	}
	top := topLink(series)
	v, fig, noise := ratioRule(1-0.452, top.gap, nf)
	return []Row{{Source: srcZhang, Claim: claim1, Setup: zhangSetupOf(top.cc) + "; read at " + top.spec + ", the fastest rate up to 1 Gbit/s where the emulator kept up (noise floor: loopback download's A/A)", Rule: "R1", Verdict: v, Noise: noise, published: 1 - 0.452, col: "h3", iv: top.gap,
		Figure: "h3/h2 " + fig}, zhangGrows(series[0], top)}
}

// zhangGrows is "the gap grows with the bandwidth": h3/h2 at the top
// rate wholly below its interval at the lowest agrees, wholly above
// disagrees, overlapping is not comparable.
func zhangGrows(lo, top sweepLink) Row {
	r := Row{Source: srcZhang, Claim: "the gap grows with the bandwidth", Setup: zhangSetupOf(top.cc) + "; h3/h2 at " + lo.spec + " against " + top.spec, Rule: "R2",
		Figure: fmt.Sprintf("%s at %.0f Mbit/s, %s at %.0f Mbit/s", ivText(lo.gap), lo.rateBits/1e6, ivText(top.gap), top.rateBits/1e6)}
	switch {
	case top.gap.High < lo.gap.Low:
		r.Verdict = agrees
	case top.gap.Low > lo.gap.High:
		r.Verdict = disagrees
	default:
		r.Verdict, r.Note = notComparable, "the two intervals overlap"
	}
	return r
}

// zhangCrossover holds httpvs's printed crossover (h3's loopback rate in
// the same run: the link rate above which its CPU, not the link, sets
// the figure) to where the gap opens: the first rate whose h3/h2
// interval lies wholly below 1. It predicts when it lies within a factor
// 1.5 of the span between the last closed rate and the first open one.
func zhangCrossover(series, all []sweepLink) Row {
	var cross []float64
	for _, l := range all {
		if l.cross > 0 {
			cross = append(cross, l.cross)
		}
	}
	r := Row{Source: srcZhang + " / httpvs", Claim: "the gap opens where the link outruns h3's own speed on this machine (httpvs's printed crossover)", Rule: "R2",
		Setup: "the crossover httpvs printed in each link's run (h3's loopback download, the same run) against the first rate, rtt 0, whose h3/h2 interval lies below 1"}
	if len(cross) == 0 || len(series) < 2 {
		r.Verdict, r.Note = notComparable, pick(len(cross) == 0, "no crossover printed", "fewer than two rates where the emulator kept up")
		if len(cross) > 0 {
			sort.Float64s(cross)
			r.Figure = fmt.Sprintf("crossover printed %.0f Mbit/s (median of %d runs)", cross[len(cross)/2]/1e6, len(cross))
		}
		return r
	}
	sort.Float64s(cross)
	pred := cross[len(cross)/2]
	closed, open := 0.0, 0.0
	for _, l := range series {
		if l.gap.High < 1 {
			open = l.rateBits
			break
		}
		closed = l.rateBits
	}
	r.Figure = fmt.Sprintf("crossover printed %.0f Mbit/s (median of %d runs, from %.0f to %.0f); gap %s", pred/1e6, len(cross), cross[0]/1e6, cross[len(cross)-1]/1e6,
		pick(open == 0, "not open at any rate measured", fmt.Sprintf("open at %.0f Mbit/s, closed at %.0f Mbit/s", open/1e6, closed/1e6)))
	switch {
	case open == 0:
		r.Verdict = pick(pred >= series[len(series)-1].rateBits/1.5, agrees, disagrees)
	case pred >= closed/1.5 && pred <= open*1.5:
		r.Verdict = agrees
	default:
		r.Verdict = disagrees
	}
	if r.Verdict == disagrees {
		r.Note = crossoverNote(series)
	}
	return r
}

// yuSection measures one lossy link under each TCP controller it names
// (quic-go's own controller): the share of h3's gap to h2 that goes when
// both run the same controller.
func yuSection(ctx context.Context, p sizes) ([]Row, string, error) {
	o, err := linkOptions(p, []string{p.yuLink})
	if err != nil {
		return nil, "", err
	}
	o.Matrix.LossEvents = p.lossEvents
	runs, err := experiment.Sweep(ctx, o)
	if err != nil {
		return nil, "", err
	}
	var ls []sweepLink
	var ctl []string
	for _, r := range runs {
		ls = append(ls, readLink(r))
		ctl = append(ctl, r.Settings.Net.TCPCongestion)
	}
	row := Row{Source: srcYu, Claim: "QUIC's performance is decided by the server's congestion controller more than by the protocol", Rule: "R2",
		Setup: fmt.Sprintf("%s, transfers sized for %d loss events, h2 and h3 downloads under TCP %s; quic-go runs Cubic throughout; the paper: production QUIC (Google, Facebook, Cloudflare) servers", p.yuLink, p.lossEvents, strings.Join(ctl, " then "))}
	if len(ls) != 2 || !ls[0].ok || !ls[1].ok {
		row.Verdict, row.Note = notComparable, "a link was not measured"
		return []Row{row}, "", nil
	}
	g0, g1 := ls[0].gap, ls[1].gap
	share := 0.0
	if g0.Ratio < 1 {
		share = 1 - math.Log(g1.Ratio)/math.Log(g0.Ratio)
	}
	row.Figure = fmt.Sprintf("h3/h2 under TCP %s %s, under TCP %s %s: %.0f%% of the log-gap follows the controller", ctl[0], ivText(g0), ctl[1], ivText(g1), share*100)
	switch {
	case g0.High < 1 && g1.Low <= 1 && share >= 0.5:
		row.Verdict = agrees
	case g1.High < 1 && share < 0.5:
		row.Verdict = disagrees
	default:
		row.Verdict, row.Note = notComparable, "the intervals do not decide it"
	}
	detail := fmt.Sprintf("Yu and Benson: the same lossy link under each TCP controller. Under %s h2 %.1f Mbit/s, h3 %.1f Mbit/s; under %s h2 %.1f Mbit/s, h3 %.1f Mbit/s. The share is 1 - ln(gap like-for-like) / ln(gap under %s).",
		ctl[0], ls[0].h2/1e6, ls[0].h3/1e6, ctl[1], ls[1].h2/1e6, ls[1].h3/1e6, ctl[0])
	return []Row{row}, detail, nil
}

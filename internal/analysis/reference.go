package analysis

import (
	"fmt"

	"github.com/httpvs/httpvs/internal/protoname"
	"github.com/httpvs/httpvs/internal/vocab"
	"github.com/httpvs/httpvs/results"
)

// References sets res.ReferenceConclusions: for each scenario, transport
// and client the reference peers played, what they show about the gap of
// Go's cell (results.Cell.VsH1) against the peers' own (ReferenceCell.VsH1),
// in the order of res.References.
func References(res *results.Results) {
	res.ReferenceConclusions = nil
	servers, rows := ReferenceRows(res)
	for _, row := range rows {
		if row.Protocol == protoname.H1 {
			continue
		}
		// h2's ratio to h1 carries TLS's cost too: the same client's
		// h1-tls cells split it off.
		var tlsBase map[string]*results.ReferenceCell
		if tls := ReferenceRowOf(rows, row.Scenario, protoname.H1TLS, row.Client); row.Protocol == protoname.H2 && tls != nil {
			tlsBase = tls.ByServer
		}
		if s := refConclusion(row.Scenario, row.Protocol, res.Cell(row.Scenario, row.Protocol), row.ByServer, tlsBase, servers); s != "" {
			res.ReferenceConclusions = append(res.ReferenceConclusions, s)
		}
	}
}

// refConclusion says what the peers show about one cell's gap: whether a
// server and client not written in Go close it (Go's implementation) or
// not (the protocol). Servers in Go (caddy) are no evidence either way.
// tlsBase, for h2, holds the same client's h1-tls cells by server: h2's
// ratio to h1 carries TLS's cost too, and the best server's h1-tls ratio
// splits it off.
func refConclusion(scenario, protocol string, goCell *results.Cell, byServer, tlsBase map[string]*results.ReferenceCell, servers []string) string {
	if goCell == nil || goCell.VsBaseline == nil {
		return ""
	}
	best, goServer := pickReferences(byServer, servers)
	if best == nil {
		return ""
	}
	gi, bi := *goCell.VsBaseline, *best.VsH1
	if gi.Pairs < 2 || bi.Pairs < 2 {
		return "" // no interval on a side: nothing to conclude
	}
	g, b := gi.Ratio, bi.Ratio
	s := fmt.Sprintf("%s %s: with %s serving and %s as client, %s reaches %s h1; Go at both ends %s", scenario, protocol, best.Server, best.Client, protocol, ivText(bi), ivText(gi))
	if goServer != nil {
		s += fmt.Sprintf(", Go's server with %s %s", goServer.Client, ivText(*goServer.VsH1))
	}
	who := whoseGap(goServer, g, b)
	// The conclusions are held to the intervals (95%, paired by round):
	// Go's is below the best peer's only where the two do not overlap;
	// the peer is at h1 only where its whole interval lies within
	// StableHalfWidth of 1 or above, and below h1 where it lies below 1.
	// Between the two, the rounds cannot say whose the gap is.
	below := gi.High < bi.Low
	atH1, belowH1 := bi.Low >= 1-StableHalfWidth, bi.High < 1
	switch {
	case atH1 && below:
		s += fmt.Sprintf(": the gap is %s, not %s", who, protocolName(protocol))
	case belowH1 && below:
		s += fmt.Sprintf(": %s costs %.0f%% here even without Go, %s the rest", protocolName(protocol), (1-b)*100, who)
	case belowH1:
		s += fmt.Sprintf(": without Go it does no measurably better: the cost is %s's", protocolName(protocol))
	default:
		return ""
	}
	return s + tlsShare(best, tlsBase)
}

// pickReferences finds, among servers' cells with a ratio to h1, the best
// one with no Go at either end, and Go's server's (with another client).
// The best is the one whose interval's low end is highest: the peer known
// to do best, not the one whose point estimate happened to.
func pickReferences(byServer map[string]*results.ReferenceCell, servers []string) (best, goServer *results.ReferenceCell) {
	for _, srv := range servers {
		c := byServer[srv]
		if c == nil || c.VsH1 == nil || c.Median == 0 {
			continue
		}
		if srv == vocab.ReferenceGo {
			goServer = c
			continue
		}
		if WithoutGo(c) && (best == nil || c.VsH1.Low > best.VsH1.Low) {
			best = c
		}
	}
	return best, goServer
}

// ivText is an interval as "0.39x [0.37, 0.41]".
func ivText(iv results.Interval) string {
	if iv.Pairs < 2 {
		return fmt.Sprintf("%.2fx", iv.Ratio)
	}
	return fmt.Sprintf("%.2fx [%.2f, %.2f]", iv.Ratio, iv.Low, iv.High)
}

// whoseGap says whose code a gap is, from Go's server's ratio beside g,
// Go's at both ends, and b, the best without Go: Go's server when Go's
// server with another client does at most a quarter better than Go at both
// ends, Go's client when it does as well as the best, else Go's code.
func whoseGap(goServer *results.ReferenceCell, g, b float64) string {
	who := "Go's code"
	if goServer != nil {
		switch gs := goServer.VsH1.Ratio; {
		case gs <= g*1.25:
			who = "Go's server"
		case gs >= b*(1-StableHalfWidth):
			who = "Go's client"
		}
	}
	return who
}

// tlsShare splits TLS's part off an h2 conclusion: the best server's
// h1-tls ratio with the same client, and h2's ratio to it (HTTP/2's own
// cost over TLS). "" when that server has no h1-tls figure.
func tlsShare(best *results.ReferenceCell, tlsBase map[string]*results.ReferenceCell) string {
	t := tlsBase[best.Server]
	if t == nil || t.VsH1 == nil || t.Median == 0 || t.VsH1.Ratio <= 0 {
		return ""
	}
	return fmt.Sprintf(" (with %s, h1-tls alone reaches %.2fx h1, so HTTP/2 over TLS is %.2fx h1-tls)", best.Server, t.VsH1.Ratio, best.VsH1.Ratio/t.VsH1.Ratio)
}

// protocolName is what a transport speaks, for sentences.
func protocolName(protocol string) string {
	switch protocol {
	case protoname.H2C:
		return "HTTP/2"
	case protoname.H2:
		return "TLS with HTTP/2"
	case protoname.H3:
		return "HTTP/3"
	case protoname.H1TLS:
		return "TLS"
	}
	return protocol
}

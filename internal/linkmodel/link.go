package linkmodel

import (
	"github.com/httpvs/httpvs/internal/buildinfo"
	"github.com/httpvs/httpvs/internal/protoname"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/webpage"
)

// LinkGoodput is what the link carries one way for TCP's payload, bytes
// per second: LinkBound of h1, which sizes transfers and request bounds.
func LinkGoodput(n *results.Net, upload bool) float64 {
	return LinkBound(n, upload, protoname.H1)
}

// LinkBound is the most protocol's payload can move one way across n,
// bytes per second, whatever congestion control sends it: the configured
// rate less the protocol's framing (PayloadShare; the link's losses
// come before its rate limit and cost it nothing). On a link with no rate
// set, the calibration's TCP goodput stands in (the emulator's or the
// machine's ceiling), except where that transfer ran a controller that
// backs off on the link's loss: its goodput was its own loss response,
// not the link's, and no bound is known (0). 0 too when nothing is known.
func LinkBound(n *results.Net, upload bool, protocol string) float64 {
	if n == nil {
		return 0
	}
	rate, goodput := LinkDirection(n, upload)
	if rate > 0 {
		return rate / 8 * PayloadShare(protocol == protoname.H3, protoname.TLS(protocol))
	}
	loss := n.Down.Loss
	if upload {
		loss = n.Up.Loss
	}
	if lb, _ := LossBased(n.TCPCongestion); lb && loss > 0 {
		return 0
	}
	return goodput / 8
}

// QUICController names quic-go's Cubic with the version this binary was
// built with (QUICControllerOf).
func QUICController() string {
	return QUICControllerOf(buildinfo.ReadBuild().Modules[QUICModule])
}

// Controller is the congestion control that sends protocol's data across
// n: quic-go's for h3 (Net.QUICCongestion, else QUICController),
// the link's TCP one otherwise ("" when not recorded).
func Controller(protocol string, n *results.Net) string {
	if protocol == protoname.H3 {
		if n.QUICCongestion != "" {
			return n.QUICCongestion
		}
		return QUICController()
	}
	return n.TCPCongestion
}

// LinkLoss is the link's mean loss in one direction (client to server
// when upload is true), a fraction; 0 with no link.
func LinkLoss(n *results.Net, upload bool) float64 {
	switch {
	case n == nil:
		return 0
	case upload:
		return n.Up.Loss
	}
	return n.Down.Loss
}

// ExpectedRate is what protocol's transfers are expected to move one way
// across n, bytes per second: its controller's loss model
// (PredictLoss) where one applies, else the link's bound
// (LinkBound); 0 when neither is known.
func ExpectedRate(n *results.Net, upload bool, protocol string) float64 {
	link := LinkBound(n, upload, protocol)
	if link <= 0 {
		return 0
	}
	quic := protocol == protoname.H3
	if m, ok := PredictLoss(Controller(protocol, n), link, PacketPayload(quic), RTTSeconds(n), LinkLoss(n, upload)); ok {
		return m.Rate
	}
	return link
}

// PageObject is one object of page-load's page.
type PageObject = webpage.Object

// Page is page-load's page, webpage.Median's: 50 objects, 704,512 body
// bytes (688 KiB), the HTTP Archive's median page's mix at about a third of
// its size. The document comes first, alone (its response is what a
// browser parses to find the rest), then the other 49 at once.
var Page = webpage.Median().Objects

// PageConns is how many HTTP/1.1 connections page-load opens at most per
// page, as browsers do per host (HTTP/2 and HTTP/3 use one).
const PageConns = 6

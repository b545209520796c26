package linkmodel

import (
	"fmt"
	"math"

	"github.com/httpvs/httpvs/internal/protoname"
	"github.com/httpvs/httpvs/results"
)

// PageBound is page-load's bound on link n over protocol: the page's
// critical path with every window in slow start from its initial size and
// every object's bytes at the link's goodput, as a lower bound on the load
// time. The document comes first on a cold connection (coldRTTs, then its
// flights); the other objects follow at once: over h2c, h2 and h3 on that
// connection, their bytes in flights that double each round trip; over h1
// and h1-tls on up to PageConns connections (the first one warm, the
// others after their own handshakes), one object at a time each, every
// object taking its own flights. The page never loads faster than its
// bytes cross the link after the document's request.
func PageBound(protocol string, n *results.Net) *results.Bound {
	rtt := RTTSeconds(n)
	rate := LinkGoodput(n, false)
	k, _ := ColdRTTs(protocol, false)
	if k == 0 || rate <= 0 {
		return nil
	}
	bdp := rate * rtt
	iw := InitialWindowBytes(protocol == protoname.H3)
	docFlights, cwnd := flights(float64(Page[0].Bytes), iw, bdp)
	doc := float64(k-1+docFlights) * rtt // the request's round trip is in k
	var rest, all float64
	for _, o := range Page[1:] {
		all += float64(o.Bytes)
	}
	if protoname.HTTP1(protocol) {
		rest = h1Objects(Page[1:], k-1, cwnd, iw, bdp) * rtt
	} else {
		f, _ := flights(all, cwnd, bdp)
		rest = float64(f) * rtt
	}
	t := math.Max(doc+rest, doc+all/rate)
	return &results.Bound{Value: t, Basis: fmt.Sprintf("the page's critical path: %.1f round trips of %.1f ms in slow start from the initial window, its bytes at the link's goodput", t/rtt, rtt*1e3)}
}

// flights is how many round trips a sender whose window is cwnd bytes,
// doubling each round trip up to bdp bytes a round trip, takes to deliver
// bytes, and its window after them.
func flights(bytes, cwnd, bdp float64) (int, float64) {
	n := 0
	for sent := 0.0; sent < bytes; n++ {
		sent += math.Min(cwnd, bdp)
		cwnd *= 2
	}
	return max(n, 1), cwnd
}

// h1Objects is the round trips HTTP/1.1 takes to fetch objects over
// PageConns connections: the document's (warm, window cwnd) and others
// that each need hs round trips of handshake first (window iw); each
// object goes to the connection free first and takes a round trip per
// flight of its own.
func h1Objects(objects []PageObject, hs int, cwnd, iw, bdp float64) float64 {
	free := make([]float64, PageConns) // when each connection is free, in round trips
	wins := make([]float64, PageConns)
	wins[0] = cwnd
	for i := 1; i < PageConns; i++ {
		free[i], wins[i] = float64(hs), iw
	}
	var end float64
	for _, o := range objects {
		i := 0
		for j := range free {
			if free[j] < free[i] {
				i = j
			}
		}
		f, w := flights(float64(o.Bytes), wins[i], bdp)
		free[i] += float64(f)
		wins[i] = w
		end = math.Max(end, free[i])
	}
	return end
}

// ColdRTTs is how many round trips a cold request over protocol needs to
// its response: TCP's handshake and the request (2), TLS 1.3 adds one (3),
// QUIC's handshake carries TLS (2), and QUIC's 0-RTT sends the request
// with the resumed handshake (1). TLS 1.3 resumption over TCP saves no
// round trip (Go sends no early data). 0 for a column it does not know.
func ColdRTTs(protocol string, resumed bool) (int, string) {
	switch protocol {
	case protoname.H1, protoname.H2C:
		return 2, "TCP, request"
	case protoname.H1TLS, protoname.H2:
		if resumed {
			return 3, "TCP, resumed TLS 1.3, request"
		}
		return 3, "TCP, TLS 1.3, request"
	case protoname.H3:
		if resumed {
			return 1, "QUIC 0-RTT with the request"
		}
		return 2, "QUIC with TLS 1.3, request"
	}
	return 0, ""
}

// LinkDirection is the configured rate (0: unlimited) and the calibrated
// TCP goodput, both in bit/s, of a transfer's direction.
func LinkDirection(n *results.Net, upload bool) (rate, goodput float64) {
	if upload {
		return n.Up.RateBitsPerSecond, n.Calibration.UpGoodputBitsPerSecond
	}
	return n.Down.RateBitsPerSecond, n.Calibration.DownGoodputBitsPerSecond
}

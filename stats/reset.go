package stats

import "errors"

// errCountersReset says the server's counters were reset (POST
// /stats/reset) between two snapshots: the difference between them is
// not the server's work over the run, and no figure is drawn from it.
var errCountersReset = errors.New("the server's counters were reset (POST /stats/reset) during the run: its figures are left out")

// Delta returns s - before, the server's work between the two snapshots,
// or an error saying so when the counters were reset in between: their
// reset generations differ, or (from a server that does not report one)
// a count went backwards.
//
// Body bytes sent are the exception. The payload server counts a body
// before writing it, so that a client that has every byte and then reads
// /stats finds it counted, and takes back what a failed write (a client
// gone) did not send: a snapshot between the two holds bytes the next
// one does not. Fewer bytes than before, while every count kept rising,
// is that correction, not a reset, and counts as none sent in between.
// (Read as a reset, a cut-off request of an earlier cell, its handler
// still writing, cost a later cell its server figures.)
func (s ServerStats) Delta(before ServerStats) (ServerStats, error) {
	if s.Resets != before.Resets {
		return ServerStats{}, errCountersReset
	}
	d := s.Sub(before)
	for name, c := range d.Protocols {
		if c.Requests < 0 || c.Connections < 0 || c.BodyBytesReceived < 0 || c.BodyWrites < 0 || c.BodyReads < 0 || c.Aborted < 0 {
			return ServerStats{}, errCountersReset
		}
		if c.BodyBytesSent < 0 {
			c.BodyBytesSent = 0
			d.Protocols[name] = c
		}
	}
	return d, nil
}

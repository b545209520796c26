package matrix

import (
	"fmt"

	"github.com/httpvs/httpvs/results"
)

// crossCheckTolerance is how far apart (a share of the client's count) the
// server's count of requests or body bytes over its window and the client's
// over its own may be before the server's figures are called unreliable.
const crossCheckTolerance = 0.10

// crossCheck compares the server's counts for transport key with m's and
// returns why they disagree, or "" when they agree. Requests are compared
// with an allowance of m.Streams on top of the tolerance: the server's
// window is bounded by two /stats reads, so up to one request per stream
// may fall on either side of an edge. Body bytes are compared for every
// cell without failures (a failed request's partial bytes are not in
// m.Bytes): a transfer's exactly, a load cell's with the same allowance of
// one request's bodies per stream.
func crossCheck(m *results.Repetition, key string) string {
	pc, ok := m.Server.Protocols[key]
	if !ok {
		return fmt.Sprintf("the server kept no counts for %s", key)
	}
	off := func(server, client, allowance int64) bool {
		d := server - client
		if d < 0 {
			d = -d
		}
		return d > allowance && float64(d) > crossCheckTolerance*float64(client)
	}
	if off(pc.Requests, m.Requests, int64(m.Streams)) {
		return fmt.Sprintf("the server counted %d requests in its window, the client %d: server figures not used", pc.Requests, m.Requests)
	}
	var edge int64
	if m.SizeBytes == 0 && m.Requests > 0 {
		edge = int64(m.Streams) * m.Bytes / m.Requests
	}
	if moved := pc.BodyBytesSent + pc.BodyBytesReceived; m.Errors.Total == 0 && m.Bytes > 0 && off(moved, m.Bytes, edge) {
		return fmt.Sprintf("the server moved %d body bytes in its window, the client %d: server figures not used", moved, m.Bytes)
	}
	return ""
}

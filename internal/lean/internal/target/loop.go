package target

import "time"

// Loop is a closed loop of requests run by one goroutine, as h2load's
// and wrk's event loops run theirs: when a response ends, the next request
// is queued at once, and writes are flushed only when everything already
// received has been handled, so no goroutine is woken per request.
//
// On Linux it drives non-blocking sockets from one epoll set: Conns
// HTTP/2 connections (each connection's HEADERS leave in one system call
// per turn), or Streams HTTP/1.1 connections. Elsewhere, on HTTP/2, the
// goroutine is the one reading its one connection.
type Loop struct {
	// Streams is the requests in flight at once: HTTP/2 streams on one
	// connection (at most the server's SETTINGS_MAX_CONCURRENT_STREAMS),
	// or HTTP/1.1 connections with one request each.
	Streams int
	// Conns is how many HTTP/2 connections the loop drives, Streams
	// streams each (0 means 1). More than one needs Linux: the loop then
	// waits for all of them in one epoll set, as each of h2load's threads
	// does (see CanShareLoop). HTTP/1.1 loops ignore it.
	Conns   int
	Timeout time.Duration // a request unanswered for this long fails; checked every Timeout/8

	// Next is called before each request, on the connection's goroutine.
	// ok false starts no more requests; mark is handed back to Done.
	Next func() (mark, ok bool)
	// Done is called once per request Next allowed, on the connection's
	// goroutine, with the times the request was queued and ended. resp
	// holds what arrived before err, if any.
	Done func(mark bool, start, end time.Time, resp Response, err error)

	// HoldP lets an HTTP/1.1 event loop wait for its sockets without giving
	// its P back to the scheduler, for up to a millisecond at a time. Set
	// it only when the server runs in another process: the loop answers
	// each response sooner, so the server's read for the next request
	// finds it there (as under wrk), but a server in this process would
	// wait for the Ps the loops hold. Figures: docs/measurements/.
	HoldP bool
}

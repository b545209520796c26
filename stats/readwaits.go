package stats

import "github.com/httpvs/httpvs/internal/vocab"

// ReadWaits is how a client's blocking sockets waited for data: a Read
// that finds its socket empty either polls it (non-blocking recv calls,
// no clock) until data arrives, or sleeps in a blocking recv. Each
// connection decides from what its polls found whether polling pays
// (transport.ClientOptions.BlockingSockets).
type ReadWaits struct {
	Reads int64 `json:"reads"` // Read calls on blocking sockets
	// Polled counts the waits that polls ended with data, Polls the
	// non-blocking recv calls that found the socket empty.
	Polled int64 `json:"polled"`
	Polls  int64 `json:"polls"`
	// Blocked counts the blocking recv calls: a Read's first call while
	// polling does not pay, or the sleep after polls that found nothing.
	// One sleeps only when its socket is empty.
	Blocked int64 `json:"blocked"`
	// Batched counts the blocking recv calls of large Reads that waited
	// for a batch of bytes (SO_RCVLOWAT) while data came faster than it
	// was read; Stalled those of them that found nothing in their bound
	// and so waited again unbatched (then counted in Blocked or Polled).
	Batched int64 `json:"batched,omitempty"`
	Stalled int64 `json:"stalled,omitempty"`
}

// Mode says how most waits ended: "polling" or "sleeping"; "" when
// no Read used a blocking socket.
func (w ReadWaits) Mode() string {
	switch {
	case w.Reads == 0:
		return ""
	case w.Polled > w.Blocked:
		return vocab.WaitPolling
	}
	return vocab.WaitSleeping
}

// Add adds o to w.
func (w *ReadWaits) Add(o ReadWaits) {
	w.Reads += o.Reads
	w.Polled += o.Polled
	w.Polls += o.Polls
	w.Blocked += o.Blocked
	w.Batched += o.Batched
	w.Stalled += o.Stalled
}

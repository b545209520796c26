// Package report renders httpvs results for people (text) and programs
// (JSON). Renderers are plain functions of an io.Writer and a result; they
// do no measuring and hold no state.
package report

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/httpvs/httpvs/internal/protoname"
	"github.com/httpvs/httpvs/internal/vocab"
	"github.com/httpvs/httpvs/stats"
	"github.com/httpvs/httpvs/transfer/transferresult"
	"github.com/httpvs/httpvs/units"
)

// maxStreamLines bounds the per-stream lines Transfer prints; failed
// streams are always printed.
const maxStreamLines = 10

// Transfer writes a get or put result in the spirit of the seeds' output:
// bytes, seconds and Gbit/s for the client, then the server's side.
func Transfer(w io.Writer, r transferresult.Result) error {
	p := &printer{w: w}
	method, moved, serverMoved := "GET", "received", "sent"
	if r.Direction == vocab.Upload {
		method, moved, serverMoved = "PUT", "sent", "received"
	}
	negotiated := r.Protocol
	if negotiated == "" {
		negotiated = "nothing (no response)"
	}
	p.f("%s %s over %s (negotiated %s): %s on %s\n", method, r.URL, r.Requested, negotiated,
		plural(r.Streams, "stream"), plural(int(r.Connections), "connection"))
	switch {
	case r.Errors.Total == int64(r.Streams):
		p.f("client %s nothing: every transfer failed, %s\n", moved, r.Errors)
	default:
		p.f("client %s %d bytes in %.3f s = %s, %s\n", moved, r.Bytes, r.Seconds, units.BitsPerSecond(r.BitsPerSecond).Human(), r.Errors)
	}
	transferNotes(p, r)

	c := r.Client
	var parts []string
	if c.BodyReads > 0 {
		parts = append(parts, fmt.Sprintf("%d body reads (avg %s, buffer %s)", c.BodyReads, avg(r.Bytes, c.BodyReads), units.Bytes(c.ReadSize).Human()))
	}
	parts = append(parts, wireIO(c.TCP, c.QUIC)...)
	if c.BlockingSockets {
		parts = append(parts, "blocking sockets, outside Go's poller"+readWaits(c.ReadWaits))
	}
	parts = append(parts, cpu(c.Process, r.Bytes))
	p.f("  client  %s\n", strings.Join(parts, "; "))

	if s := r.Server; s != nil {
		pc := s.Protocols[r.Requested]
		bytes, calls, verb := pc.BodyBytesSent, pc.BodyWrites, "writes"
		if r.Direction == vocab.Upload {
			bytes, calls, verb = pc.BodyBytesReceived, pc.BodyReads, "reads"
		}
		parts = []string{fmt.Sprintf("%s %d bytes in %.3f s handler time, %d %s (avg %s)",
			serverMoved, bytes, pc.TransferSeconds, calls, verb, avg(bytes, calls))}
		parts = append(parts, serverWire(s, r.Requested)...)
		parts = append(parts, cpu(s.Process, bytes), fmt.Sprintf("%d GC", s.Process.GCCycles))
		p.f("  server  %s\n", strings.Join(parts, "; "))
	} else if r.ServerNote != "" {
		p.f("  server  %s\n", r.ServerNote)
	}

	if len(r.PerStream) > 1 {
		rates := make([]float64, 0, len(r.PerStream))
		for _, s := range r.PerStream {
			if s.Error == "" {
				rates = append(rates, s.BitsPerSecond)
			}
		}
		if len(rates) > 0 {
			slices.Sort(rates)
			p.f("  streams min %s, median %s, max %s\n", units.BitsPerSecond(rates[0]).Human(),
				units.BitsPerSecond(sortedMedian(rates)).Human(), units.BitsPerSecond(rates[len(rates)-1]).Human())
		}
		shown := 0
		for i, s := range r.PerStream {
			if s.Error == "" && shown >= maxStreamLines {
				continue
			}
			shown++
			line := fmt.Sprintf("%d bytes in %.3f s = %s", s.Bytes, s.Seconds, units.BitsPerSecond(s.BitsPerSecond).Human())
			if s.Error != "" {
				line += fmt.Sprintf(", %s error: %s", s.ErrorKind, s.Error)
			}
			p.f("  stream %d: %s\n", i+1, line)
		}
		if hidden := len(r.PerStream) - shown; hidden > 0 {
			p.f("  (%d more streams without errors; the JSON output lists them all)\n", hidden)
		}
	}
	return p.err
}

// serverWire describes the server's I/O on the listener the transport
// named name uses: QUIC for h3, TLS for h1-tls and h2, cleartext TCP for h1
// and h2c. The transport is matched by name, as results carries it, so
// that this package links no protocol stack; a test holds the names to
// package transport's.
func serverWire(s *stats.ServerStats, name string) []string {
	switch name {
	case protoname.H3:
		return wireIO(stats.IOStats{}, s.QUIC)
	case protoname.H1TLS, protoname.H2:
		return wireIO(s.TLS, stats.QUICStats{})
	case protoname.H1, protoname.H2C:
		return wireIO(s.TCP, stats.QUICStats{})
	}
	return nil
}

func wireIO(tcp stats.IOStats, q stats.QUICStats) []string {
	var out []string
	if tcp.Reads+tcp.Writes > 0 {
		out = append(out, fmt.Sprintf("TCP %d reads (avg %s), %d writes (avg %s)",
			tcp.Reads, avg(tcp.ReadBytes, tcp.Reads), tcp.Writes, avg(tcp.WriteBytes, tcp.Writes)))
	}
	if q.PacketsReceived+q.PacketsSent > 0 {
		out = append(out, fmt.Sprintf("QUIC %d packets in (avg %s), %d out (avg %s), %d lost",
			q.PacketsReceived, avg(q.BytesReceived, q.PacketsReceived), q.PacketsSent, avg(q.BytesSent, q.PacketsSent), q.PacketsLost))
	}
	return out
}

func cpu(p stats.ProcessStats, bytes int64) string {
	s := fmt.Sprintf("CPU %.2f s (%.2f user, %.2f sys)", p.CPUSeconds(), p.CPUUserSeconds, p.CPUSystemSeconds)
	if bytes > 0 {
		s += fmt.Sprintf(" = %.3f s/GB", p.CPUSeconds()/(float64(bytes)/1e9))
	}
	return s
}

func avg(bytes, calls int64) string {
	if calls == 0 {
		return "-"
	}
	return units.Bytes(bytes / calls).Human()
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// printer keeps the first write error so renderers can print freely.
type printer struct {
	w   io.Writer
	err error
}

// Write lets a printer stand under fmt.Fprintf and tabwriter; after the
// first error it writes nothing more.
func (p *printer) Write(b []byte) (int, error) {
	if p.err != nil {
		return 0, p.err
	}
	n, err := p.w.Write(b)
	p.err = err
	return n, err
}

func (p *printer) f(format string, args ...any) {
	if p.err == nil {
		_, p.err = fmt.Fprintf(p.w, format, args...)
	}
}

// transferNotes prints what qualifies the client's figures: connections
// opened past those asked for, failed transfers' bytes, an interrupt.
func transferNotes(p *printer, r transferresult.Result) {
	if r.ConnectionsRaised != "" {
		p.f("  %s\n", r.ConnectionsRaised)
	}
	if r.FailedBytes > 0 {
		p.f("  failed transfers moved %d bytes before failing; not counted above\n", r.FailedBytes)
	}
	if r.Interrupted {
		p.f("  interrupted: these are the figures measured until then\n")
	}
}

// readWaits says how blocking sockets waited for data: the mode that
// ended most waits, and the counts.
func readWaits(w *stats.ReadWaits) string {
	if w == nil || w.Reads == 0 {
		return ""
	}
	text := fmt.Sprintf(", waits %s: of %d reads %d ended by polls (%d empty polls), %d in a blocking recv",
		w.Mode(), w.Reads, w.Polled, w.Polls, w.Blocked)
	if w.Batched > 0 {
		text += fmt.Sprintf(", %d waited for a batch of bytes (%d found none in time)", w.Batched, w.Stalled)
	}
	return text
}

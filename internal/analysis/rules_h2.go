package analysis

import (
	"fmt"

	"github.com/httpvs/httpvs/internal/protoname"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/stats"
)

// The HTTP/2 rules. Each knows the transfer's direction: the receiver of
// the body holds the windows and advertises the frame size, and the side
// that reads the body in small pieces returns window credit in small
// frames. Frames are counted on h2c only (frame parsers need cleartext).

// h2SmallReads: a download's client read its body in small pieces.
func h2SmallReads(s *subject) *results.Finding {
	c, m := s.c, s.m
	if !isHTTP2(c) || !s.download() || m.ClientBodyReads == 0 || !s.slow() {
		return nil
	}
	avg := float64(m.Bytes) / float64(m.ClientBodyReads)
	if avg >= smallRead {
		return nil
	}
	ev := fmt.Sprintf("%s: client body reads average %.1f KiB", gap(c), avg/1024)
	if wu := m.ClientH2.Sent.Frames["window_update"]; wu > 0 && m.Bytes > 0 {
		ev += fmt.Sprintf(", %.0f WINDOW_UPDATE frames per MiB", float64(wu)/(float64(m.Bytes)/mib))
	}
	return &results.Finding{
		Evidence: ev,
		Figures:  figures(c, []results.Figure{{Name: "client body read", Value: avg, Unit: "bytes"}}...),
		Fix:      fmt.Sprintf("read response bodies with buffers of %d KiB or more (io.CopyBuffer(dst, resp.Body, make([]byte, %d<<10))): each small read returns window credit in its own frames", goodReadSize>>10, goodReadSize>>10),
		Knobs:    []results.Knob{{Field: "Client.ReadSize", Value: fmt.Sprintf("%dKi", goodReadSize>>10)}},
	}
}

// h2SmallFrames: a download's DATA frames were small because the client
// advertised a small SETTINGS_MAX_FRAME_SIZE (Go's client: 16 KiB).
func h2SmallFrames(s *subject) *results.Finding {
	c, m := s.c, s.m
	if c.Protocol != protoname.H2C || !s.download() || !s.slow() {
		return nil
	}
	avg := averageData(m.ClientH2.Received)
	if avg == 0 || avg >= smallFrame {
		return nil
	}
	return &results.Finding{
		Evidence: fmt.Sprintf("%s: the DATA frames the client received average %.1f KiB (%d frames)", gap(c), avg/1024, m.ClientH2.Received.Frames["data"]),
		Figures:  figures(c, []results.Figure{{Name: "DATA frame received", Value: avg, Unit: "bytes"}, {Name: "DATA frames", Value: float64(m.ClientH2.Received.Frames["data"])}}...),
		Fix:      fmt.Sprintf("let the server send bigger frames: http.Transport{HTTP2: &http.HTTP2Config{MaxReadFrameSize: %d}}; Go's client advertises 16 KiB unless told", goodFrameSize),
		Knobs:    []results.Knob{{Field: "Client.HTTP2.MaxReadFrameSize", Value: fmt.Sprintf("%dKi", goodFrameSize>>10)}},
	}
}

// h2WindowUpdates: the receiver returned window credit in many small
// WINDOW_UPDATE frames (counted for the client on downloads, the server
// on uploads).
func h2WindowUpdates(s *subject) *results.Finding {
	c, m := s.c, s.m
	if c.Protocol != protoname.H2C || !s.transfer() || m.Bytes == 0 || !s.slow() {
		return nil
	}
	side, end := s.receiver()
	wu := m.ClientH2.Sent.Frames["window_update"]
	if s.upload() {
		if m.Server == nil || m.ServerUnreliable != "" {
			return nil
		}
		wu = m.Server.H2C.Sent.Frames["window_update"]
	}
	perMiB := float64(wu) / (float64(m.Bytes) / mib)
	if perMiB <= manyUpdates {
		return nil
	}
	f := &results.Finding{
		Evidence: fmt.Sprintf("%s: the %s sent %d WINDOW_UPDATE frames, %.0f per MiB (one per %.0f KiB)", gap(c), side, wu, perMiB, 1024/perMiB),
		Figures:  figures(c, []results.Figure{{Name: side + " WINDOW_UPDATE frames", Value: float64(wu)}, {Name: "WINDOW_UPDATE frames per MiB", Value: perMiB}}...),
		Fix:      fmt.Sprintf("each update costs the sender a frame read and the %s a flush: give streams bigger windows on the %s (http.HTTP2Config{MaxReceiveBufferPerStream: 16 << 20})", side, side),
		Knobs:    []results.Knob{{Field: end + ".HTTP2.MaxReceiveBufferPerStream", Value: "16Mi"}},
	}
	if s.download() {
		f.Fix += fmt.Sprintf(" and read in buffers of %d KiB or more", goodReadSize>>10)
		f.Knobs = append(f.Knobs, results.Knob{Field: "Client.ReadSize", Value: fmt.Sprintf("%dKi", goodReadSize>>10)})
	}
	if end == "Server" && !s.ownServer() {
		f.Knobs = nil // the target's server: not a setting of this run
	}
	return f
}

// h2FlowBlocked: a DATA sender spent a good share of the repetition with
// no flow-control window (the larger of the client's and the server's
// view of each direction).
func h2FlowBlocked(s *subject) *results.Finding {
	c, m := s.c, s.m
	if c.Protocol != protoname.H2C || m.Seconds <= 0 || !s.slow() {
		return nil
	}
	down, up := m.ClientH2.Received.FlowBlockedSeconds, m.ClientH2.Sent.FlowBlockedSeconds
	if m.Server != nil && m.ServerUnreliable == "" {
		down, up = max(down, m.Server.H2C.Sent.FlowBlockedSeconds), max(up, m.Server.H2C.Received.FlowBlockedSeconds)
	}
	sender, receiver, end, blocked := "server", "client", "Client", down
	if up > down {
		sender, receiver, end, blocked = "client", "server", "Server", up
	}
	if blocked < blockedShare*m.Seconds {
		return nil
	}
	f := &results.Finding{
		Evidence: fmt.Sprintf("%s: the %s's DATA waited for flow-control window %.2f s of %.2f s (%.0f%%)",
			gap(c), sender, blocked, m.Seconds, 100*min(blocked/m.Seconds, 1)),
		Figures: figures(c, []results.Figure{{Name: sender + " flow-blocked", Value: blocked, Unit: "s"}, {Name: "repetition", Value: m.Seconds, Unit: "s"}}...),
		Fix:     fmt.Sprintf("the %s's receive windows hold the sender back: raise them on the %s (http.HTTP2Config{MaxReceiveBufferPerStream: 16 << 20, MaxReceiveBufferPerConnection: 64 << 20})", receiver, receiver),
		Knobs:   []results.Knob{{Field: end + ".HTTP2.MaxReceiveBufferPerStream", Value: "16Mi"}, {Field: end + ".HTTP2.MaxReceiveBufferPerConnection", Value: "64Mi"}},
	}
	// Go's client already allows 1 GiB a connection: only its stream
	// window is below what the fix asks, and a fix never lowers a default.
	if end == "Client" {
		f.Fix = "the client's stream receive window holds the sender back: raise it (http.HTTP2Config{MaxReceiveBufferPerStream: 16 << 20})"
		f.Knobs = f.Knobs[:1]
	}
	// A receiver that looks busy is no reason to withhold the windows: a
	// 64 KiB window kept the client at 1.08 cores (returning credit in
	// frames) and raising it tripled the rate.
	if end == "Server" && !s.ownServer() {
		f.Knobs = nil
	}
	return f
}

// averageData returns d's mean DATA frame payload, in bytes; 0 without any.
func averageData(d stats.H2Direction) float64 {
	if n := d.Frames["data"]; n > 0 {
		return float64(d.DataBytes) / float64(n)
	}
	return 0
}

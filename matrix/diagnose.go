package matrix

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/httpvs/httpvs/transport"
)

// Finding is one explanation of a cell's figures: what rule fired, the
// evidence (numbers from the cell), and the fix to try.
type Finding struct {
	Rule     string `json:"rule"`
	Evidence string `json:"evidence"`
	Fix      string `json:"fix"`
}

// String is the finding in one line.
func (f Finding) String() string { return f.Evidence + "; " + f.Fix }

// Thresholds of the rules.
const (
	slowRatio     = 0.90      // below this ratio to h1 a cell's gap is explained
	smallRead     = 32 << 10  // body reads averaging below this are small
	smallFrame    = 32 << 10  // DATA frames averaging below this are small
	manyUpdates   = 16        // WINDOW_UPDATE frames per MiB above this are many (one per 64 KiB)
	blockedShare  = 0.10      // a sender waiting for window this share of the time is held back
	busyCores     = 0.85      // a receiver using this many cores is busy: its window is not the cause
	cpuHungry     = 1.5       // CPU per unit this many times h1's is hungry
	allocsHungry  = 1.2       // allocations per request this many times h1's
	mib           = 1 << 20   // bytes
	goodReadSize  = 256 << 10 // what the fixes recommend
	goodFrameSize = 256 << 10
)

// rule is one diagnosis: it looks at a cell and its scenario's h1 cell
// (nil when there is none) and the median repetition of each, and returns
// a finding or nil.
type rule struct {
	name  string
	check func(c *Cell, m Repetition, h1 *Cell, h1m Repetition) *Finding
}

// rules, in the order findings are listed.
var rules = []rule{
	{"concurrency-lowered", concurrencyLowered},
	{"generator-bound", generatorBound},
	{"h2-small-reads", h2SmallReads},
	{"h2-small-frames", h2SmallFrames},
	{"h2-window-updates", h2WindowUpdates},
	{"h2-flow-blocked", h2FlowBlocked},
	{"cpu-per-byte", cpuPerByte},
	{"allocations", allocations},
	{"quic-losses", quicLosses},
	{"quic-flow-blocked", quicFlowBlocked},
	{"errors", errorsRule},
}

// Diagnose sets every measured cell's Findings from its counters and its
// scenario's h1 cell.
func Diagnose(res *Results) {
	for i := range res.Cells {
		c := &res.Cells[i]
		c.Findings = nil
		if c.Skipped != "" || len(c.Repetitions) == 0 {
			continue
		}
		h1 := res.Cell(c.Scenario, "h1")
		var h1m Repetition
		if h1 != nil && h1 != c && h1.Skipped == "" {
			h1m = MedianRepetition(h1)
		} else {
			h1 = nil
		}
		m := MedianRepetition(c)
		for _, r := range rules {
			if f := r.check(c, m, h1, h1m); f != nil {
				f.Rule = r.name
				c.Findings = append(c.Findings, *f)
			}
		}
	}
}

// MedianRepetition returns the completed repetition whose value is the
// cell's median (the lower middle one for an even count): the one whose
// other figures a report shows beside the median.
func MedianRepetition(c *Cell) Repetition {
	var done []Repetition
	for _, r := range c.Repetitions {
		if !r.Interrupted {
			done = append(done, r)
		}
	}
	if len(done) == 0 {
		return Repetition{}
	}
	slices.SortStableFunc(done, func(a, b Repetition) int { return cmp.Compare(a.Value, b.Value) })
	return done[(len(done)-1)/2]
}

// isHTTP2 reports whether the cell's transport is h2c or h2.
func isHTTP2(c *Cell) bool { return c.Protocol == "h2c" || c.Protocol == "h2" }

// gap says how far behind h1 the cell is, for evidence.
func gap(c *Cell) string {
	if c.RatioToH1 == 0 || c.Protocol == "h1" {
		return c.Protocol
	}
	return fmt.Sprintf("%s at %.2fx h1", c.Protocol, c.RatioToH1)
}

func slow(c *Cell) bool { return c.RatioToH1 > 0 && c.RatioToH1 < slowRatio }

// concurrencyLowered: the cell ran fewer requests at once than the
// scenario asks, because the server allows fewer HTTP/2 streams per
// connection; its figure is for that concurrency, not the scenario's.
func concurrencyLowered(c *Cell, m Repetition, _ *Cell, _ Repetition) *Finding {
	if m.Lowered == "" {
		return nil
	}
	return &Finding{
		Evidence: fmt.Sprintf("%s: %s", gap(c), m.Lowered),
		Fix:      "to measure the scenario's concurrency, let the server take more streams: http.Server{HTTP2: &http.HTTP2Config{MaxConcurrentStreams: N}}",
	}
}

func generatorBound(c *Cell, m Repetition, _ *Cell, _ Repetition) *Finding {
	if c.Bottleneck != BottleneckClient {
		return nil
	}
	return &Finding{
		Evidence: fmt.Sprintf("%s: the client used %.2f cores, the server %.2f", gap(c), m.ClientCores, m.ServerCores),
		Fix:      "the generator probably limited this cell: try --engine fast for request scenarios, or a machine with more cores",
	}
}

func h2SmallReads(c *Cell, m Repetition, _ *Cell, _ Repetition) *Finding {
	if !isHTTP2(c) || c.Metric != MetricBytesPerSecond || m.ClientBodyReads == 0 || !slow(c) {
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
	return &Finding{
		Evidence: ev,
		Fix:      fmt.Sprintf("read response bodies with buffers of %d KiB or more (io.CopyBuffer, --read-size 256Ki): each small read returns window credit in its own frames", goodReadSize>>10),
	}
}

func h2SmallFrames(c *Cell, m Repetition, _ *Cell, _ Repetition) *Finding {
	if c.Protocol != "h2c" || c.Metric != MetricBytesPerSecond || !slow(c) {
		return nil
	}
	avg := m.ClientH2.Received.AverageData()
	if avg == 0 || avg >= smallFrame {
		return nil
	}
	return &Finding{
		Evidence: fmt.Sprintf("%s: DATA frames average %.1f KiB (%d frames)", gap(c), avg/1024, m.ClientH2.Received.Frames["data"]),
		Fix:      fmt.Sprintf("advertise bigger frames: http.Transport{HTTP2: &http.HTTP2Config{MaxReadFrameSize: %d}} (--h2-max-frame 256Ki); Go's client asks for 16 KiB unless told", goodFrameSize),
	}
}

func h2WindowUpdates(c *Cell, m Repetition, _ *Cell, _ Repetition) *Finding {
	if c.Protocol != "h2c" || c.Metric != MetricBytesPerSecond || m.Bytes == 0 || !slow(c) {
		return nil
	}
	wu := m.ClientH2.Sent.Frames["window_update"]
	perMiB := float64(wu) / (float64(m.Bytes) / mib)
	if perMiB <= manyUpdates {
		return nil
	}
	return &Finding{
		Evidence: fmt.Sprintf("%s: the client sent %d WINDOW_UPDATE frames, %.0f per MiB (one per %.0f KiB)", gap(c), wu, perMiB, 1024/perMiB),
		Fix:      "each update costs the server a frame read and the client a flush: read in bigger buffers, and give streams bigger windows (http.HTTP2Config.MaxReceiveBufferPerStream, --h2-stream-window 16Mi)",
	}
}

// h2FlowBlocked fires when a DATA sender spent a good share of the
// repetition with no flow-control window (h2c, where the frame parsers see
// the windows; the larger of the client's and the server's view).
func h2FlowBlocked(c *Cell, m Repetition, _ *Cell, _ Repetition) *Finding {
	if c.Protocol != "h2c" || m.Seconds <= 0 || !slow(c) {
		return nil
	}
	down, up := m.ClientH2.Received.FlowBlockedSeconds, m.ClientH2.Sent.FlowBlockedSeconds
	if m.Server != nil {
		down, up = max(down, m.Server.H2C.Sent.FlowBlockedSeconds), max(up, m.Server.H2C.Received.FlowBlockedSeconds)
	}
	sender, receiver, blocked, receiverCores := "server", "client", down, m.ClientCores
	if up > down {
		sender, receiver, blocked, receiverCores = "client", "server", up, m.ServerCores
	}
	if blocked < blockedShare*m.Seconds {
		return nil
	}
	fix := fmt.Sprintf("the %s's receive windows hold the sender back: raise http.HTTP2Config.MaxReceiveBufferPerStream and MaxReceiveBufferPerConnection on the %s (--h2-stream-window 16Mi, --h2-conn-window 64Mi)", receiver, receiver)
	if receiverCores >= busyCores {
		// One stream is read by one goroutine: about a core is all it gets.
		fix = fmt.Sprintf("the %s was busy (%.2f cores), so its window only passes its slowness on: make it cheaper per byte (bigger reads and frames) before giving it bigger windows", receiver, receiverCores)
	}
	return &Finding{
		Evidence: fmt.Sprintf("%s: the %s's DATA waited for flow-control window %.2f s of %.2f s (%.0f%%)",
			gap(c), sender, blocked, m.Seconds, 100*min(blocked/m.Seconds, 1)),
		Fix: fix,
	}
}

// quicFlowBlocked fires when a traced h3 cell's senders said they had
// data and no flow-control window (DATA_BLOCKED, STREAM_DATA_BLOCKED).
func quicFlowBlocked(c *Cell, m Repetition, _ *Cell, _ Repetition) *Finding {
	if c.Protocol != "h3" || !slow(c) {
		return nil
	}
	byClient, byServer := m.ClientQUIC.BlockedFramesSent, int64(0)
	if m.Server != nil {
		byServer = max(m.Server.QUIC.BlockedFramesSent, m.ClientQUIC.BlockedFramesReceived)
	}
	if byClient == 0 && byServer == 0 {
		return nil
	}
	sender, receiver, n := "server", "client", byServer
	if byClient > byServer {
		sender, receiver, n = "client", "server", byClient
	}
	return &Finding{
		Evidence: fmt.Sprintf("%s: the %s sent %d DATA_BLOCKED/STREAM_DATA_BLOCKED frames (it had data and no flow-control window)", gap(c), sender, n),
		Fix:      fmt.Sprintf("give the %s bigger QUIC receive windows: quic.Config{MaxStreamReceiveWindow, MaxConnectionReceiveWindow} (--quic-stream-window 64Mi, --quic-conn-window 128Mi on the %s)", receiver, receiver),
	}
}

func cpuPerByte(c *Cell, m Repetition, h1 *Cell, h1m Repetition) *Finding {
	if h1 == nil || !slow(c) || h1m.ClientCPUPerUnit == 0 || h1m.ServerCPUPerUnit == 0 {
		return nil
	}
	cr, sr := m.ClientCPUPerUnit/h1m.ClientCPUPerUnit, m.ServerCPUPerUnit/h1m.ServerCPUPerUnit
	if cr < cpuHungry && sr < cpuHungry {
		return nil
	}
	unit := c.CPUUnit
	fix := "this is the stack's own work per byte (framing, copies through stream buffers, encryption), not a knob: compare with --engine fast, or profile with go test -bench ... -cpuprofile"
	if p, err := transport.Parse(c.Protocol); err == nil && p == transport.H3 {
		fix = "quic-go does per-packet work in user space (1,500-byte packets, encryption, acknowledgements): expect several times h1's CPU per byte; GSO and bigger UDP buffers help"
	}
	return &Finding{
		Evidence: fmt.Sprintf("%s: CPU per %s is %.2fx h1's on the client (%.3f vs %.3f s) and %.2fx on the server (%.3f vs %.3f s)",
			gap(c), unit, cr, m.ClientCPUPerUnit, h1m.ClientCPUPerUnit, sr, m.ServerCPUPerUnit, h1m.ServerCPUPerUnit),
		Fix: fix,
	}
}

func allocations(c *Cell, m Repetition, h1 *Cell, h1m Repetition) *Finding {
	if h1 == nil || c.Metric != MetricRequestsPerSecond || !slow(c) || h1m.AllocsPerRequest == 0 || m.AllocsPerRequest < allocsHungry*h1m.AllocsPerRequest {
		return nil
	}
	return &Finding{
		Evidence: fmt.Sprintf("%s: the client allocates %.0f objects (%.0f bytes) per request, h1 %.0f (%.0f bytes)",
			gap(c), m.AllocsPerRequest, m.AllocBytesPerRequest, h1m.AllocsPerRequest, h1m.AllocBytesPerRequest),
		Fix: "per-request overhead of the client stack (streams, header encoding, goroutines); it does not shrink with knobs - reuse connections and batch small requests",
	}
}

func quicLosses(c *Cell, m Repetition, _ *Cell, _ Repetition) *Finding {
	q := m.ClientQUIC
	if c.Protocol != "h3" || q.PacketsSent+q.PacketsReceived == 0 {
		return nil
	}
	lost := q.PacketsLost
	if m.Server != nil {
		lost += m.Server.QUIC.PacketsLost
	}
	if lost == 0 {
		return nil
	}
	return &Finding{
		Evidence: fmt.Sprintf("%s: %d QUIC packets declared lost on loopback", gap(c), lost),
		Fix:      "losses on loopback mean full socket buffers: raise them (sysctl -w net.core.rmem_max=7500000 net.core.wmem_max=7500000)",
	}
}

func errorsRule(c *Cell, _ Repetition, _ *Cell, _ Repetition) *Finding {
	if c.Errors.Total == 0 {
		return nil
	}
	first := ""
	for _, r := range c.Repetitions {
		if r.FirstError != "" {
			first = r.FirstError
			break
		}
	}
	fix := "figures of a cell with failures are not comparable: find the cause in the first error"
	if strings.Contains(c.Errors.String(), "refused") || strings.Contains(first, "too many open files") {
		fix = "the server refused connections: raise its file-descriptor limit (ulimit -n) or --max-conns, or use fewer connections"
	}
	return &Finding{
		Evidence: fmt.Sprintf("%s: %s; first: %s", c.Protocol, c.Errors, first),
		Fix:      fix,
	}
}

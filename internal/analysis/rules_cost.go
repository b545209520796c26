package analysis

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/httpvs/httpvs/internal/protoname"
	"github.com/httpvs/httpvs/internal/scenariospec"
	"github.com/httpvs/httpvs/load"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/transport"
)

// The rules about limits and costs: concurrency, the generator, CPU,
// allocations, QUIC, errors.

// concurrencyLowered: the cell ran fewer requests at once than the
// scenario asks, because the server allows fewer HTTP/2 streams per
// connection; its figure is for that concurrency, not the scenario's.
func concurrencyLowered(s *subject) *results.Finding {
	if s.m.Lowered == "" {
		return nil
	}
	f := &results.Finding{
		Evidence: fmt.Sprintf("%s: %s", gap(s.c), s.m.Lowered),
		Figures:  figures(s.c, []results.Figure{{Name: "streams asked", Value: float64(scenariospec.Of(&s.sc).Streams)}}...),
		Fix:      fmt.Sprintf("to measure the scenario's concurrency, let the server take more streams: http.Server{HTTP2: &http.HTTP2Config{MaxConcurrentStreams: %d}}", scenariospec.Of(&s.sc).Streams),
	}
	if s.ownServer() && scenariospec.Of(&s.sc).Streams > 0 {
		f.Knobs = []results.Knob{{Field: "Server.HTTP2.MaxConcurrentStreams", Value: fmt.Sprint(scenariospec.Of(&s.sc).Streams)}}
	}
	return f
}

// generatorBound: the client's CPU limited the cell. The fast engine is
// offered only where it applies: a request scenario the std engine ran
// over a transport the fast engine speaks.
func generatorBound(s *subject) *results.Finding {
	if _, _, _, full := s.machineFull(); full || s.c.Bottleneck != results.BottleneckClient {
		return nil
	}
	server := "unknown"
	if cores, ok := s.cores("server"); ok {
		server = fmt.Sprintf("%.2f", cores)
	}
	f := &results.Finding{
		Evidence: fmt.Sprintf("%s: the client used %.2f cores, the server %s", gap(s.c), s.m.ClientCores, server),
		Figures:  append(figures(s.c, []results.Figure{{Name: "client cores", Value: s.m.ClientCores}}...), serverCoresFigure(s)...),
		Fix:      "the generator probably limited this cell: its figure is a floor of what the transport does; give the client more cores",
	}
	if s.set != nil && s.set.Pin != nil {
		f.Fix = fmt.Sprintf("the generator probably limited this cell: the run pinned it to %d core(s) apart from the server; its figure is a floor of what the transport does with more (--pin=false shares every core)", len(s.set.Pin.ClientCPUs))
	}
	_, ok := s.protocol()
	// The fast engine's saving is checked with requests in flight
	// (small-concurrent); one at a time, both engines' CPU per request is
	// mostly the same system calls.
	if ok && !s.transfer() && !scenariospec.Of(&s.sc).RPC && scenariospec.Of(&s.sc).Streams > 1 && s.m.Engine == load.Std.String() {
		f.Fix = "the generator probably limited this cell: the fast engine spends less client CPU per request"
		f.Knobs = []results.Knob{{Field: "Engine", Value: load.Fast.String()}}
	}
	return f
}

// machineShare is the share of the machine's cores above which a client
// and a server on it together leave no headroom: 1.6 of 2 cores.
const machineShare = 0.8

// machineFull reports whether the client and the server shared this
// machine (loopback, not pinned apart) and together used more than
// machineShare of its cores while the client alone did not have all it
// may use, in a cell held to be client-bound: each side's cores and the
// machine's.
func (s *subject) machineFull() (client, server float64, cores int, full bool) {
	if s.env == nil || s.env.Cores <= 0 || s.set.Pin != nil || !s.loopback() || s.c.Bottleneck != results.BottleneckClient {
		return 0, 0, 0, false
	}
	server, known := s.cores("server")
	client, cores = s.m.ClientCores, s.env.Cores
	alone := BottleneckOf(client, 0, false, cores, s.env.GOMAXPROCS) == results.BottleneckClient
	return client, server, cores, known && !alone && client+server > machineShare*float64(cores)
}

// machineBound: the client and the server on this machine together used
// nearly all its cores, neither alone all it may use: the cell measured
// the CPU per unit of both sides together, not the generator's limit, and
// a cheaper generator would hand its cores to the server, not free it.
func machineBound(s *subject) *results.Finding {
	client, server, cores, full := s.machineFull()
	if !full {
		return nil
	}
	unit := s.c.CPUUnit
	if unit == "" {
		unit = "unit"
	}
	return &results.Finding{
		Evidence: fmt.Sprintf("%s: the client used %.2f cores and the server %.2f, %.2f of this machine's %d together (above the %.1f that leaves no headroom)",
			gap(s.c), client, server, client+server, cores, machineShare*float64(cores)),
		Figures: figures(s.c, []results.Figure{{Name: "client cores", Value: client}, {Name: "server cores", Value: server}, {Name: "machine cores", Value: float64(cores)}}...),
		Fix:     fmt.Sprintf("client and server share this machine's %d cores and used nearly all of them: the ratio measures the CPU per %s of both sides together, not the generator's limit; what would help: the server on another machine as the target, each side pinned to cores of its own, or more cores", cores, unit),
	}
}

// cpuPerByte: a side spent much more CPU per unit than h1's and was busy,
// so its CPU is what limited the cell.
func cpuPerByte(s *subject) *results.Finding {
	c, m, h1m := s.c, s.m, s.h1m
	if s.h1 == nil || !s.slow() || h1m.ClientCPUPerUnit == 0 {
		return nil
	}
	var hungry []string
	parts := []string{}
	cr := m.ClientCPUPerUnit / h1m.ClientCPUPerUnit
	unit := "s per " + c.CPUUnit
	figs := figures(c, []results.Figure{{Name: "client CPU", Value: m.ClientCPUPerUnit, Unit: unit}, {Name: s.h1.Protocol + " client CPU", Value: h1m.ClientCPUPerUnit, Unit: unit}, {Name: "client cores", Value: m.ClientCores}}...)
	parts = append(parts, fmt.Sprintf("%.2fx %s's on the client (%.3f vs %.3f s, %.2f cores)", cr, s.h1.Protocol, m.ClientCPUPerUnit, h1m.ClientCPUPerUnit, m.ClientCores))
	if cr >= cpuHungry && m.ClientCores >= busyCores {
		hungry = append(hungry, "client")
	}
	sv, sok := ServerFigure(m, m.ServerCPUPerUnit)
	hv, hok := ServerFigure(h1m, h1m.ServerCPUPerUnit)
	if sok && hok && hv > 0 {
		sr := sv / hv
		cores, _ := s.cores("server")
		parts = append(parts, fmt.Sprintf("%.2fx on the server (%.3f vs %.3f s, %.2f cores)", sr, sv, hv, cores))
		figs = append(figs, results.Figure{Name: "server CPU", Value: sv, Unit: unit}, results.Figure{Name: s.h1.Protocol + " server CPU", Value: hv, Unit: unit}, results.Figure{Name: "server cores", Value: cores})
		if sr >= cpuHungry && cores >= busyCores {
			hungry = append(hungry, "server")
		}
	}
	if len(hungry) == 0 {
		return nil
	}
	p, _ := s.protocol()
	work := "framing, copies through stream buffers, flow control"
	if p.TLS() {
		work += ", encryption"
	}
	fix := fmt.Sprintf("the %s %s busy doing the stack's own work per unit (%s): not a setting", strings.Join(hungry, " and the "), wasWere(len(hungry)), work)
	if p == transport.H3 {
		fix = fmt.Sprintf("the %s %s busy: quic-go does per-packet work in user space (1,500-byte packets, encryption, acknowledgements), several times h1's CPU per byte", strings.Join(hungry, " and the "), wasWere(len(hungry)))
	}
	fix += whereItWent(c, hungry)
	return &results.Finding{
		Evidence: fmt.Sprintf("%s: CPU per %s is %s", gap(c), c.CPUUnit, strings.Join(parts, " and ")),
		Figures:  figs,
		Fix:      fix,
	}
}

// idleCores is the client's cores below which a download's client was
// waiting for data rather than working through it.
const idleCores = 0.5

// senderUnmeasured: a download from a target on this machine whose
// server's CPU the run cannot read, behind h1, while the client sat
// mostly idle: the client waited for data, so the sending side set the
// rate. The rule names the side, not its cost: that needs the server's
// CPU or a profile of it.
func senderUnmeasured(s *subject) *results.Finding {
	c, m := s.c, s.m
	if !s.download() || !s.slow() || !s.loopback() || s.ownServer() || s.set.Target == "child" || m.ClientCores <= 0 || m.ClientCores >= idleCores {
		return nil
	}
	if _, known := s.cores("server"); known {
		return nil
	}
	figs := figures(c, results.Figure{Name: "client cores", Value: m.ClientCores})
	ev := fmt.Sprintf("%s: the client used %.2f cores", gap(c), m.ClientCores)
	if s.h1 != nil && s.h1m.ClientCPUPerUnit > 0 && m.ClientCPUPerUnit > 0 {
		unit := "s per " + c.CPUUnit
		ev += fmt.Sprintf(" (%.3f s of CPU per %s, %s's %.3f)", m.ClientCPUPerUnit, c.CPUUnit, s.h1.Protocol, s.h1m.ClientCPUPerUnit)
		figs = append(figs, results.Figure{Name: "client CPU", Value: m.ClientCPUPerUnit, Unit: unit}, results.Figure{Name: s.h1.Protocol + " client CPU", Value: s.h1m.ClientCPUPerUnit, Unit: unit})
	}
	return &results.Finding{
		Evidence: ev + " and waited for data; the target's server runs on this machine, but not as this run's child, so its CPU is not measured",
		Fix:      "not a setting of this client: the server sent no faster; look at its CPU per byte over this transport (a profile of the server, or the same transfer from a server whose CPU the run reads)",
		Figures:  figs,
	}
}

// allocations: the client allocated more objects and more bytes per
// request than h1's.
func allocations(s *subject) *results.Finding {
	m, h1m := s.m, s.h1m
	// Allocations cost CPU: they explain a rate only where the client was
	// busy (across a link, round trips decide instead).
	if s.h1 == nil || s.transfer() || !s.slow() || h1m.AllocsPerRequest == 0 || m.ClientCores < busyCores ||
		m.AllocsPerRequest < allocsHungry*h1m.AllocsPerRequest || m.AllocBytesPerRequest < allocsHungry*h1m.AllocBytesPerRequest {
		return nil
	}
	return &results.Finding{
		Evidence: fmt.Sprintf("%s: the client allocates %.0f objects (%.0f bytes) per request, h1 %.0f (%.0f bytes)",
			gap(s.c), m.AllocsPerRequest, m.AllocBytesPerRequest, h1m.AllocsPerRequest, h1m.AllocBytesPerRequest),
		Figures: figures(s.c, []results.Figure{{Name: "client allocations", Value: m.AllocsPerRequest, Unit: "per request"}, {Name: "client allocated", Value: m.AllocBytesPerRequest, Unit: "bytes per request"},
			{Name: s.h1.Protocol + " client allocations", Value: h1m.AllocsPerRequest, Unit: "per request"}, {Name: s.h1.Protocol + " client allocated", Value: h1m.AllocBytesPerRequest, Unit: "bytes per request"}}...),
		Fix: "per-request overhead of the client stack (streams, header encoding, goroutines); it does not shrink with settings: reuse connections and batch small requests",
	}
}

// quicLosses: QUIC packets were declared lost.
// quicLossShare is the share of QUIC packets lost from which quic-losses
// is a cause: at one in a thousand the retransmissions are 0.1% of the
// data, and a single lost packet in a transfer of millions is none.
const quicLossShare = 0.001

func quicLosses(s *subject) *results.Finding {
	m := s.m
	q := m.ClientQUIC
	if s.c.Protocol != protoname.H3 || q.PacketsSent+q.PacketsReceived == 0 {
		return nil
	}
	lost, sent := q.PacketsLost, q.PacketsSent
	if m.Server != nil && m.ServerUnreliable == "" {
		lost += m.Server.QUIC.PacketsLost
		sent += m.Server.QUIC.PacketsSent
	}
	if lost == 0 || float64(lost) < quicLossShare*float64(sent) || linkDrops(s.set.Net, lost, sent) {
		return nil // none, too few to be a cause, or the link's own
	}
	lossFigs := figures(s.c, []results.Figure{{Name: "QUIC packets lost", Value: float64(lost)}, {Name: "QUIC packets sent", Value: float64(sent)}}...)
	if s.loopback() {
		// Raising the kernel's caps was the advice; measured, it did not
		// move the figure (bench/udpbuffers.sh, docs/measurements.md):
		// h3's download 263 -> 241 MB/s, with three times the losses.
		return &results.Finding{
			Evidence: fmt.Sprintf("%s: %d QUIC packets declared lost on loopback, %.2f%% of %d (a cause from %.1f%%)", gap(s.c), lost, 100*float64(lost)/float64(sent), sent, 100*quicLossShare),
			Figures:  lossFigs,
			Fix:      "the receiver fell behind the sender (on loopback a datagram is lost only to a full socket buffer, one its reader did not empty in time): not a setting; raising the kernel's UDP buffer caps to what quic-go asks did not raise h3's rate on loopback where measured",
		}
	}
	return &results.Finding{
		Evidence: fmt.Sprintf("%s: %d QUIC packets declared lost on the path, %.2f%% of %d (a cause from %.1f%%)", gap(s.c), lost, 100*float64(lost)/float64(sent), sent, 100*quicLossShare),
		Figures:  lossFigs,
		Fix:      "losses on the path or in full socket buffers (net.core.rmem_max, wmem_max): compare with the link's measured loss",
	}
}

// quicFlowBlocked: a traced h3 cell's sender said it had data and no
// flow-control window (DATA_BLOCKED, STREAM_DATA_BLOCKED).
func quicFlowBlocked(s *subject) *results.Finding {
	m := s.m
	if s.c.Protocol != protoname.H3 || !s.slow() {
		return nil
	}
	byClient, byServer := m.ClientQUIC.BlockedFramesSent, m.ClientQUIC.BlockedFramesReceived
	if m.Server != nil && m.ServerUnreliable == "" {
		byServer = max(m.Server.QUIC.BlockedFramesSent, byServer)
	}
	if byClient == 0 && byServer == 0 {
		return nil
	}
	sender, receiver, end, n := "server", "client", "Client", byServer
	if byClient > byServer {
		sender, receiver, end, n = "client", "server", "Server", byClient
	}
	f := &results.Finding{
		Evidence: fmt.Sprintf("%s: the %s sent %d DATA_BLOCKED/STREAM_DATA_BLOCKED frames (it had data and no flow-control window)", gap(s.c), sender, n),
		Figures:  figures(s.c, []results.Figure{{Name: sender + " blocked frames", Value: float64(n)}}...),
		Fix:      fmt.Sprintf("give the %s bigger QUIC receive windows: quic.Config{MaxStreamReceiveWindow: 64 << 20, MaxConnectionReceiveWindow: 128 << 20} on the %s", receiver, receiver),
		Knobs:    []results.Knob{{Field: end + ".QUIC.MaxStreamReceiveWindow", Value: "64Mi"}, {Field: end + ".QUIC.MaxConnectionReceiveWindow", Value: "128Mi"}},
	}
	if end == "Server" && !s.ownServer() {
		f.Knobs = nil
	}
	return f
}

func errorsRule(s *subject) *results.Finding {
	c := s.c
	if c.Errors.Total == 0 {
		return nil
	}
	first := ""
	for _, r := range c.Repetitions {
		if r.FirstError != "" && !r.Interrupted {
			first = r.FirstError
			break
		}
	}
	fix := "figures of a cell with failures are not comparable: find the cause in the first error"
	if c.Errors.Refused > 0 || strings.Contains(first, "too many open files") {
		fix = "the server refused connections: raise its file-descriptor limit (ulimit -n) or its connection limit, or use fewer connections"
	}
	return &results.Finding{
		Evidence: fmt.Sprintf("%s: %s; first: %s", c.Protocol, c.Errors, first),
		Figures:  []results.Figure{{Name: "errors", Value: float64(c.Errors.Total)}},
		Fix:      fix,
	}
}

// wasWere agrees the verb with n subjects.
func wasWere(n int) string {
	if n > 1 {
		return "were"
	}
	return "was"
}

// whereItWent names, from the cell's attribution (Options.Profile), where
// the hungry sides' extra CPU went; without one, that profiles of both
// ends would say.
func whereItWent(c *results.Cell, hungry []string) string {
	var parts []string
	for _, a := range c.Attribution {
		if slices.Contains(hungry, a.Side) && a.Error == "" && a.ExtraSecondsPerUnit > 0 {
			parts = append(parts, AttributionBrief(a, c.CPUUnit, 2))
		}
	}
	if len(parts) == 0 {
		return "; CPU profiles of both ends, in rounds of their own, say where it goes"
	}
	return "; where it went: " + strings.Join(parts, "; ")
}

// linkDrops says an emulated link n set to drop packets accounts for
// QUIC's losses: lost of sent is within what random loss at the rate the
// link was set to (the larger direction's) loses by chance. Such losses
// are the link's, not full socket buffers', and raising rmem_max would
// not move them; what they cost is congestion-control's and the bound's
// to say.
func linkDrops(n *results.Net, lost, sent int64) bool {
	if n == nil || sent <= 0 {
		return false
	}
	// Random loss p over sent packets loses sent*p of them, give or take
	// sqrt(sent*p*(1-p)) (binomial); more than three of those above is
	// not the link's (by chance once in about 700).
	p := max(n.Up.Loss, n.Down.Loss)
	mean := float64(sent) * p
	return p > 0 && float64(lost) <= mean+3*math.Sqrt(mean*(1-p))
}

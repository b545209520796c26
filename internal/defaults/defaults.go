// Package defaults holds what the library's zero values mean, in one
// place: each public package fills a zero field from here, and the CLI's
// help text states the same constants, so the two cannot drift. The
// public packages' documentation states the values.
package defaults

import (
	"time"

	"github.com/httpvs/httpvs/units"
)

// The client's and server's knobs (config).
const (
	// ReadSize is the client's body read buffer when Client.ReadSize is
	// zero: 8 KiB, what a Go program's io.Copy(io.Discard, resp.Body)
	// reads at a time (io.Discard's ReadFrom). The tuned knob set reads
	// 256 KiB: HTTP/2's and HTTP/3's flow control are then not driven by
	// small reads.
	ReadSize = 8 * units.KiB
	// WriteSize is the server's body write chunk: the payload handler's
	// own choice, as an application's would be (a server has no "as
	// shipped" value for it).
	WriteSize = 256 * units.KiB
	// ClientQUICIdleTimeout is the QUIC idle timeout of httpvs's clients
	// when QUIC.MaxIdleTimeout is zero: a request to a server that died
	// fails after this long instead of quic-go's 30 s.
	ClientQUICIdleTimeout = 5 * time.Second
	// DialTimeout bounds connection set-up (TCP, TLS, QUIC handshakes).
	DialTimeout = 10 * time.Second
)

// The server's limits (transport.ServerOptions).
const (
	ReadHeaderTimeout = 10 * time.Second
	IdleTimeout       = 120 * time.Second
	MaxHeaderBytes    = 1 << 20
	// MinDataRate and MinDataRateGrace are Kestrel's
	// (MinRequestBodyDataRate and MinResponseDataRate: 240 bytes/s after
	// a 5 s grace period).
	MinDataRate      = 240 // bytes per second
	MinDataRateGrace = 5 * time.Second
)

// The payload server's caps (server.Options).
const (
	// MaxSize caps downloads and uploads: 1 TB.
	MaxSize = units.TB
	// MaxEcho caps each /echo body, which is held in memory: 1 MiB, far
	// above the 38,890 bytes of the gonuget benchmark's echo.
	MaxEcho = units.MiB
	// MaxBuffered caps the request bodies held in memory at once, across
	// every request: 64 MiB.
	MaxBuffered = 64 * units.MiB
)

// The load generator's (load.Config).
const (
	LoadDuration       = 10 * time.Second
	LoadRequestTimeout = 30 * time.Second
	// LoadMaxDuration bounds a run by request count (-n).
	LoadMaxDuration = 10 * time.Minute
	// LoadReadSize is each fast-engine worker's body read buffer when the
	// client's is zero: smaller than a single transfer's, since a
	// thousand workers each hold one. The std engine reads as Go as
	// shipped does (ReadSize).
	LoadReadSize = 64 * units.KiB
	// LoadConns and LoadStreams are a load's connections and requests
	// in flight on each when not given: wrk's 10 connections, one request
	// at a time on each, as HTTP/1.1 carries them.
	LoadConns   = 10
	LoadStreams = 1
)

// TransferTimeout bounds each of get's and put's transfers when not
// given (transfer.Plan.RequestTimeout, whose zero is no bound): long
// enough for 10 GB at 20 MB/s, short enough that a stalled server ends.
const TransferTimeout = 10 * time.Minute

// The matrix's (plan.Options).
const (
	// MatrixRepeat and MatrixDuration: eight short rounds pin a ratio
	// closer than three long ones in the same time (Student's t is 2.4
	// for seven degrees of freedom, 4.3 for two), and drift on the machine
	// lands within a round (bench/verdict.sh).
	MatrixRepeat   = 8
	MatrixDuration = 100 * time.Millisecond
	// MatrixTimeout bounds each repetition.
	MatrixTimeout = 2 * time.Minute
	// WarmupRounds is the rounds of each scenario discarded when
	// Options.WarmupRounds is zero.
	WarmupRounds = 1
	// ProfileSpan is the least a cell's profiling round lasts unless
	// Options.ProfileSpan says otherwise: its measurement is repeated
	// until it has, so that a profile sampled at 100 Hz holds enough
	// samples on both sides to say where time went (about 200 from one
	// busy core).
	ProfileSpan = 2 * time.Second
	// BrowserRounds is how many loads each transport gets in the browser
	// when BrowserOptions.Rounds is zero.
	BrowserRounds = 5
	// LossEvents is how many loss events each transfer across a lossy
	// link is sized to see (Options.LossEvents): a loss-limited
	// controller's rate is an average over its sawtooth, one tooth per
	// loss, and a transfer that sees ten of them measures where its
	// window happened to be.
	LossEvents = 100
)

// The experiment's rounds (experiment.Options): what `httpvs run` gives
// each cell.
const (
	// RunRepeat is the first stage of a default run's rounds: every cell
	// gets them (after a warm-up round), and past them rounds go to the
	// cells whose verdict is still open, each stopping once decided
	// (results.Sequential). Four, not MatrixRepeat's eight: the first
	// stage of six took an estimated 48 s of the minute, and a simulation
	// of a default run's 44 cells (the spread and ratios of
	// bench/verdict.sh's record) decided more of them within the budget
	// from four (42.7 of 44) than from six (41.7).
	RunRepeat = 4
	// RunMaxRepeat and RunBudget let a default run add rounds to its
	// widest cells and still end within a minute.
	RunMaxRepeat = 16
	RunBudget    = 58 * time.Second
	// RunDuration is a default run's repetition on loopback: half
	// MatrixDuration. A round's spread of the log ratio there was no
	// wider at 50 ms than at 100 or 200 ms (bench/precision.sh, with
	// other work on the machine): it comes from the round (scheduling,
	// a neighbour), not from the length of its window, so the budget
	// narrows more intervals as more, shorter rounds, and an interval's
	// width falls fastest over its first added looks. With less load
	// (bench/ab.sh) the spread held too, and the intervals narrowed.
	RunDuration = 50 * time.Millisecond
	// QuickDuration and QuickWarmup are Quick's one short round per cell.
	QuickDuration = 100 * time.Millisecond
	QuickWarmup   = 25 * time.Millisecond
	// CIRounds and CIDuration are CI's rounds a cell and their length:
	// a gate of two such runs finds a slowdown of one transport by the
	// change of its ratios, tested over forty-odd cells at once, and each
	// round adds a degree of freedom to every cell's test; much shorter
	// rounds may leave a transfer (sized by each run to take a round) too
	// short to measure the same thing in two runs (bench/gate.sh records
	// what the gate catches and what a run takes).
	CIRounds   = 5
	CIDuration = 75 * time.Millisecond
	// LinkRepeat is the rounds every cell gets across an emulated link,
	// where a round costs dozens of round trips; noisy cells (losses) get
	// more, up to MaxRepeat, within LinkBudgetShare of the first rounds'
	// estimated time on top of them: the time told before the cells
	// start (Options.OnCost) is then met within a fifth.
	LinkRepeat      = 3
	LinkBudgetShare = 0.15
	// QuickGoRounds is QuickVersions' rounds: two, the fewest an interval
	// needs.
	QuickGoRounds = 2
	// CapacityStep is the measured time of each rate a capacity search
	// tries; CapacityBudget bounds the search.
	CapacityStep   = time.Second
	CapacityBudget = 2 * time.Minute
	// CapacityInFlight bounds the requests a capacity search keeps in
	// flight: h1 connections, h2 and h3 streams on one.
	CapacityInFlight = 64
)

// The knob search's (tune.Options).
const (
	TuneBudget = 90 * time.Second
	TuneTrial  = 300 * time.Millisecond
	// TuneProtocols are the transports tuned against h1 (transport
	// names, as transport.ParseList reads them).
	TuneProtocols = "h2c,h2,h3"
)

// QueuePackets is the drop-tail limit of a link direction whose spec sets
// no queue (netem.Spec): 1000 packets, netem's default limit.
const QueuePackets = 1000

// TransferResponse is the response size from which a user's GET is
// measured as a transfer (results.Request.Transfer): from a mebibyte a
// response's bytes, not its request's round trip, take most of its time,
// and its figure is a rate of bytes.
const TransferResponse = units.MiB

// LateThreshold is how far past its intended send time an open-loop
// request must start to count as late (loadresult.Schedule.Late).
const LateThreshold = time.Millisecond

// Across an emulated link rounds are sized by the link's round trip
// (internal/matrix), and help names these.
const (
	// LinkWindowRTTs is the fewest round trips a measured window lasts
	// across a link: a request scenario's window, and the steady part of
	// a transfer. A closed loop counts the requests that start and end
	// inside its window, so a window of n round trips reads about 1/n
	// below the rate: 4% at 24.
	LinkWindowRTTs = 24
	// LinkWarmupRTTs is the fewest round trips a request scenario warms
	// up for across a link before its window: its connections' handshakes
	// (three round trips for TCP and TLS 1.3) and their windows' growth.
	LinkWarmupRTTs = 8
)

package results

import (
	"github.com/httpvs/httpvs/config"
	"github.com/httpvs/httpvs/internal/protoname"
)

// Settings are the knobs the run used.
type Settings struct {
	Protocols []string `json:"protocols"`
	Scenarios []string `json:"scenarios"`
	// Requests are the user's own requests the run measured, as the
	// scenarios request-1, request-1-x50, ... (RequestScenarios); their
	// header values and bodies are not recorded.
	Requests []Request `json:"requests,omitempty"`
	Repeat   int       `json:"repeat"` // rounds every cell gets
	// MaxRepeat is the most rounds a cell may get (the baseline, in every
	// round, may get more): rounds past Repeat are added to open cells
	// while the budget lasts. Equal to Repeat when rounds are fixed.
	MaxRepeat int `json:"max_repeat"`
	// BudgetSeconds is the time since the run's start within which added
	// rounds must fit; zero means only MaxRepeat bounds them.
	BudgetSeconds float64 `json:"budget_seconds"`
	// LossEvents is how many loss events each transfer across a lossy
	// link was sized to see (its steady part carried LossEvents / loss
	// packets); 0 when transfers were sized by time alone.
	LossEvents int `json:"loss_events,omitempty"`
	// Seed is the seed of the rounds' column order: each round measures
	// its columns in a fresh random order drawn from it, so that what one
	// transport leaves behind (GC debt, TIME_WAIT sockets, caches) lands
	// on every column alike.
	Seed uint64 `json:"seed"`
	// WarmupRounds is how many rounds of each scenario ran first and were
	// discarded (their repetitions are not in the cells).
	WarmupRounds int `json:"warmup_rounds"`
	// AA names the scenarios that measured the baseline a second time as
	// an A/A column (Results.AA).
	AA []string `json:"aa,omitempty"`
	// Rounds says how added rounds were decided: RoundsBySpread,
	// RoundsToOpen or RoundsUntilSettled.
	Rounds string `json:"rounds,omitempty"`
	// Sequential is the rule of the intervals when Rounds is
	// RoundsToOpen or RoundsUntilSettled: its design and looks; nil
	// otherwise.
	Sequential *Sequential `json:"sequential,omitempty"`
	// Precision is the half-width (0.10: ±10%) rounds past Repeat were
	// planned to bring every cell within when Rounds is RoundsBySpread; 0
	// in results written before it was recorded (±10%).
	Precision float64 `json:"precision,omitempty"`
	// Pin is where the run pinned the generator and the child server;
	// nil when it did not.
	Pin *Pin `json:"pin,omitempty"`
	// Unpinned says why a run that would have pinned did not (the machine
	// was busy with other programs, say); "" otherwise.
	Unpinned string `json:"unpinned,omitempty"`
	// EstimatedSeconds is what the first Repeat rounds of every cell were
	// expected to take before they started (EstimateRun).
	EstimatedSeconds float64 `json:"estimated_seconds,omitempty"`
	// Paced, when set, says that the run, slower than its estimate, gave
	// some scenarios fewer first rounds than Repeat to hold its budget:
	// which, and how many (each cell records its own: Cell.FirstStage),
	// or that a scenario's first rounds, already at the fewest, were
	// kept though they would end past it; "" when neither happened.
	Paced string `json:"paced,omitempty"`
	// OverrunSeconds is how far past BudgetSeconds the run's rounds
	// ended; zero when they ended within it, or less than a second past
	// it (the last round's estimate is off by about a repetition), or no
	// budget was set.
	OverrunSeconds float64 `json:"overrun_seconds,omitempty"`
	// ProfileSpanSeconds is how long each profiling round of run
	// --profile lasted at least, seconds; zero for a run not profiled (or
	// written before it was recorded: 2 s).
	ProfileSpanSeconds float64 `json:"profile_span_seconds,omitempty"`
	// ProfileDir is the directory the run's profiles were written to, as
	// an absolute path when known; "" for a run not profiled.
	ProfileDir string `json:"profile_dir,omitempty"`
	// ExtraRounds is how many rounds were added past Repeat, over all
	// scenarios.
	ExtraRounds int `json:"extra_rounds"`
	// PrecisionRounds is how many of ExtraRounds went to narrowing the
	// widest intervals once every cell was decided or at its last look.
	PrecisionRounds int `json:"precision_rounds,omitempty"`
	// DurationSeconds is each load repetition's measured time, and the time
	// each transfer repetition is sized to take when SizeBytes is zero.
	DurationSeconds float64 `json:"duration_seconds"`
	WarmupSeconds   float64 `json:"warmup_seconds"` // before each load repetition, not measured
	// SizeBytes is the fixed body size of download and upload cells (split
	// across streams in parallel ones); zero means sized per transport from
	// a short probe.
	SizeBytes int64  `json:"size_bytes"`
	Engine    string `json:"engine"` // the load engine: std or fast
	// Knobs is the knob set the run started from (go-default, tuned, or a
	// tune file's name; ", with --flag" when flags overrode some) and the
	// values it set; Client and Server hold every effective value.
	Knobs KnobSet `json:"knobs"`
	// Alongside is the second knob set whose client knobs measured the
	// variant scenarios ("download:tuned"); nil when there were none.
	Alongside *KnobSet      `json:"alongside,omitempty"`
	Client    config.Client `json:"client"` // the client's knobs; zero fields are Go's or quic-go's defaults
	// Server is the child server's knobs; nil for an external target.
	Server *config.Server `json:"server,omitempty"`
	// Target says what was measured: "child" (httpvs serve started by the
	// run) or the URLs of an external server.
	Target    string `json:"target"`
	TLSTarget string `json:"tls_target,omitempty"`
	// ServerName is the TLS server name sent to TLSTarget (SNI): the one
	// given, or the certificate's learned over TCP when TLSTarget's host
	// is an IP address; empty: TLSTarget's host.
	ServerName string `json:"server_name,omitempty"`
	// HeaderNames are the names of the extra request headers every request
	// carried (Options.Header); their values are not recorded.
	HeaderNames []string `json:"header_names,omitempty"`
	// ServerCPU says where an external target's server CPU came from when
	// the target serves no counters (httpvs serve's GET /stats): "server
	// CPU read from /proc for caddy (pid 1234)", the processes holding
	// the socket each transport connects to, found on this machine's
	// loopback; per transport when they differ ("... for caddy (pid 1234)
	// over h1, h2c; unknown over h3: no socket is bound to UDP port
	// 9543"); or why it is unknown. "" when the counters gave it (the
	// child server, httpvs serve).
	ServerCPU string `json:"server_cpu,omitempty"`
	// UDPBuffers is quic-go's socket buffer warning, if it applied.
	UDPBuffers string `json:"udp_buffers,omitempty"`
	// Net is the emulated link between the client and the server; nil
	// for none.
	Net *Net `json:"net,omitempty"`
	// Baseline is the transport the others are compared with (BaselineOf
	// Protocols); "" in results written before it was recorded: h1.
	Baseline string `json:"baseline,omitempty"`
}

// BaselineProtocol is the transport the run's ratios compare with:
// Baseline, or h1 for results that do not record one.
func (s *Settings) BaselineProtocol() string {
	if s.Baseline != "" {
		return s.Baseline
	}
	return protoname.H1
}

// Pin is the CPUs the generator and the child server ran on, each pinned
// to its own (sched_setaffinity) with GOMAXPROCS set to match: each side
// has one core's worth of CPU, and their goroutines no longer migrate
// across the same cores.
type Pin struct {
	ClientCPUs       []int `json:"client_cpus"`
	ServerCPUs       []int `json:"server_cpus"`
	ClientGOMAXPROCS int   `json:"client_gomaxprocs"`
	ServerGOMAXPROCS int   `json:"server_gomaxprocs"`
}

// Sequential is the rule a cell's interval follows when its rounds stop
// as soon as its verdict is decided: a group-sequential design (Jennison
// and Turnbull, "Group Sequential Methods", 2000) that looks at the cell
// after each of its rounds from First to Last and spends the 5% an
// interval may miss over those looks (Lan and DeMets' alpha spending, t
// the rounds over Last): FirstLookAlpha at the first look, the rest by
// their Pocock-type function, log(1 + (e-1)s) over the information s
// past the first look. Each look's normal boundary is turned into
// Student's t at the pairs' degrees of freedom (the significance-level
// approach, the spread estimated at each look), computed for 4.5% so
// that t's error with few rounds keeps 5% (simulated). The intervals at every look hold together
// (repeated confidence intervals): one that stops on its verdict, on the
// budget or at Last keeps its 95%.
type Sequential struct {
	Rule  string  `json:"rule"`  // SequentialRule
	Alpha float64 `json:"alpha"` // 0.05
	First int     `json:"first"` // the first look: rounds every cell gets
	Last  int     `json:"last"`  // the last look: the most rounds a cell gets
}

package analysis

// ruleInfo is what a rule says in one short sentence, with no figure (a
// cell's Finding carries its evidence), and whether it is a caveat about
// the machine or the measurement rather than a cause in the transport.
type ruleInfo struct {
	what   string
	caveat bool
}

// catalogue holds every rule in rules.
var catalogue = map[string]ruleInfo{
	"concurrency-lowered": {"the server allowed fewer streams than the scenario asks for", true},
	"machine-bound":       {"client and server used all the cores: the ratio is both sides' CPU per unit", true},
	"generator-bound":     {"the generator's CPU, not the transport, limited the figure", true},
	"window-limited":      {"a receive window caps the rate at window / RTT", false},
	"emulator-bound":      {"the emulated link's ceiling, not the transport, may have set the figure", true},
	"h2-small-reads":      {"small body reads, each returning window credit in its own frames", false},
	"h2-small-frames":     {"the client advertises small frames, so DATA comes in many small frames", false},
	"h2-window-updates":   {"many WINDOW_UPDATE frames per MiB, each a read and a flush", false},
	"h2-flow-blocked":     {"the receiver's flow-control windows held the sender back", false},
	"cpu-per-byte":        {"the stack's own work per unit (framing, copies, flow control)", false},
	"allocations":         {"the client stack allocates more per request", false},
	"sender-unmeasured":   {"the client waited for the target's data: its server set the rate, and its CPU is not measured here", false},
	"congestion-control":  {"the congestion controllers differ (kernel TCP's against quic-go's Cubic)", false},
	"quic-losses":         {"the receiver fell behind and datagrams were lost", false},
	"quic-flow-blocked":   {"QUIC receive windows held the sender back", false},
	"errors":              {"requests failed: the cell's figures are not comparable", true},
}

// What is rule's sentence for a reader; "" for a rule this build lacks.
func What(rule string) string { return catalogue[rule].what }

// Caveat says rule is about the machine or the measurement (shown apart
// from causes), not a cause in the transport.
func Caveat(rule string) bool { return catalogue[rule].caveat }

package results

// GoVersions is a run across Go toolchains (httpvs run --go, package
// goversions): the scenarios measured with a server and a client that each
// toolchain built from one small program of httpvs's own, using Go's
// HTTP stacks as that release ships them. Rounds measure every toolchain
// and transport one after another, so a cell's ratio to h1 (the same
// toolchain's) and a change between toolchains are both paired by round.
type GoVersions struct {
	// Toolchains are the toolchains asked for, in the order given; those
	// with an Error were not measured.
	Toolchains []GoToolchain `json:"toolchains"`
	// Cells are each toolchain's scenario x transport cells; a cell's VsBaseline
	// is its ratio to h1 built by the same toolchain.
	Cells []GoVersionCell `json:"cells"`
	// Changes are, for each scenario and transport, the change from each
	// measured toolchain to the next one listed.
	Changes []GoVersionChange `json:"changes,omitempty"`
	// NotMeasured names each scenario or transport asked for that is not
	// measured across versions, with why ("upload: not measured across
	// versions").
	NotMeasured []string `json:"not_measured,omitempty"`
}

// GoToolchain is one Go release a GoVersions run built its program with.
type GoToolchain struct {
	// Asked is the version as listed: "1.24.13", "go1.24.13" or "installed".
	Asked string `json:"asked"`
	// Toolchain is the release built with, e.g. "go1.24.13" (for
	// installed, the version of the go command on PATH); "" when it could
	// not be told.
	Toolchain string `json:"toolchain"`
	// BinaryGo is runtime.Version() as the built program reports it, the
	// same for its server and its client.
	BinaryGo string `json:"binary_go,omitempty"`
	// H2C names the HTTP/2 implementation the program's h2c used: net/http
	// from go1.24 on, golang.org/x/net's http2 before.
	H2C string `json:"h2c,omitempty"`
	// Binary is the built program's path in the cache.
	Binary string `json:"binary,omitempty"`
	// Cached says the binary was built by an earlier run; BuildSeconds is
	// the time fetching the toolchain and building took otherwise.
	Cached       bool    `json:"cached"`
	BuildSeconds float64 `json:"build_seconds,omitempty"`
	// Error, when set, says in one line why this toolchain was not
	// measured (or stopped being: its child failed); the others were.
	Error string `json:"error,omitempty"`
}

// Name is the toolchain's release, or the version as asked when there is none.
func (t GoToolchain) Name() string {
	if t.Toolchain != "" {
		return t.Toolchain
	}
	return t.Asked
}

// GoVersionCell is one toolchain's cell: a scenario over a transport with
// both ends built by Toolchain.
type GoVersionCell struct {
	Toolchain string `json:"toolchain"` // GoToolchain.Toolchain
	Cell
}

// GoVersionChange is how a transport's figures in one scenario moved from
// one toolchain to another measured in the same rounds.
type GoVersionChange struct {
	Scenario string `json:"scenario"`
	Protocol string `json:"protocol"`
	From     string `json:"from"` // the earlier toolchain, as listed
	To       string `json:"to"`   // the later toolchain
	// Figure is To's figure over From's (bytes/s or requests/s), paired by
	// round, with its 95% interval: above 1, To's build is faster.
	Figure Interval `json:"figure"`
	// Ratio is To's ratio to h1 over From's, paired by round: above 1 the
	// transport moved closer to (or further ahead of) h1. Nil for h1.
	Ratio *Interval `json:"ratio,omitempty"`
}

package load

import (
	"fmt"

	"github.com/httpvs/httpvs/internal/fielderr"
)

// Engine is the client implementation a load run drives, and how.
// The zero value is Std.
type Engine struct {
	kind engineKind
	// holdP: the fast engine's HTTP/1.1 event loops may keep their Ps while
	// they wait (lean.Loop.HoldP).
	holdP bool
}

type engineKind uint8

const (
	kindStd engineKind = iota
	kindFast
)

// The engines.
var (
	// Std is net/http's client for h1, h2c, h1-tls and h2 and quic-go's
	// http3 for h3: what Go programs use.
	Std = Engine{kind: kindStd}
	// Fast is httpvs's lean client (package lean), so that the generator is
	// not what gets measured: h1, h1-tls, h2c and h2, with event loops in
	// closed loops, and h3 (HTTP/3 of its own over quic-go's QUIC), with a
	// goroutine per stream.
	Fast = Engine{kind: kindFast}
)

// String returns the engine's name: "std" or "fast".
func (e Engine) String() string {
	if e.kind == kindFast {
		return "fast"
	}
	return "std"
}

// MarshalText returns the engine's name, as results record it.
func (e Engine) MarshalText() ([]byte, error) { return []byte(e.String()), nil }

// UnmarshalText reads an engine's name.
func (e *Engine) UnmarshalText(b []byte) error {
	v, err := parseEngine(string(b))
	if err != nil {
		return err
	}
	*e = v
	return nil
}

// parseEngine reads "std" or "fast".
func parseEngine(s string) (Engine, error) {
	switch s {
	case "std":
		return Std, nil
	case "fast":
		return Fast, nil
	}
	return Std, fielderr.New("Engine", fmt.Sprintf("%q", s), "std or fast")
}

// WithHoldP returns e allowed (or not) to hold its Ps while its HTTP/1.1
// event loops wait. Allow it only when the server runs in another process:
// a loop then answers each response sooner, but a server in this process
// would wait for the Ps the loops hold. It changes nothing for Std.
func (e Engine) WithHoldP(on bool) Engine {
	e.holdP = on && e.kind == kindFast
	return e
}

// HoldsP says whether e's event loops may hold their Ps (see WithHoldP).
func (e Engine) holdsP() bool { return e.holdP }

// isFast says whether e is the fast engine.
func (e Engine) isFast() bool { return e.kind == kindFast }

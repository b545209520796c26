package knobs

import (
	"encoding"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/httpvs/httpvs/config"
	"github.com/httpvs/httpvs/internal/fielderr"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/units"
)

// Setup is what a fix's knobs change: the client's and the server's
// configuration and the load engine.
type Setup struct {
	Client *config.Client
	Server *config.Server // nil: the server is not this run's
	// Engine is the load engine, a *load.Engine, which reads an Engine
	// knob's value by its name; nil: no engine. (Named as an interface
	// so that reading a knob file does not link the load engines.)
	Engine encoding.TextUnmarshaler
}

// Apply sets each of knobs on s. A knob whose field s does not hold, or
// whose value does not parse, is a *config.FieldError.
func (s Setup) Apply(knobs ...results.Knob) error {
	for _, k := range knobs {
		if err := s.apply(k); err != nil {
			return err
		}
	}
	return nil
}

// apply sets one knob on s: the engine, a buffer size, or a knob of
// HTTP/2 or QUIC on the client's or the server's side.
func (s Setup) apply(k results.Knob) error {
	if k.Field == "Engine" {
		return s.applyEngine(k)
	}
	var h2 *config.HTTP2
	var q *config.QUIC
	switch {
	case s.Client != nil && k.Field == "Client.ReadSize":
		return setBytes(&s.Client.ReadSize, k)
	case s.Server != nil && k.Field == "Server.WriteSize":
		return setBytes(&s.Server.WriteSize, k)
	case s.Client != nil && len(k.Field) > 7 && k.Field[:7] == "Client.":
		h2, q = &s.Client.HTTP2, &s.Client.QUIC
	case s.Server != nil && len(k.Field) > 7 && k.Field[:7] == "Server.":
		h2, q = &s.Server.HTTP2, &s.Server.QUIC
	default:
		return fielderr.New(k.Field, k.Value, "a setting of this run")
	}
	return setStack(h2, q, k)
}

// applyEngine sets the load engine k names on s.
func (s Setup) applyEngine(k results.Knob) error {
	if s.Engine == nil {
		return fielderr.New(k.Field, k.Value, "a run with a load engine")
	}
	return s.Engine.UnmarshalText([]byte(k.Value))
}

// setStack sets k, a knob of HTTP/2 or QUIC after its side's prefix
// ("Client." or "Server."), on that side's h2 or q.
func setStack(h2 *config.HTTP2, q *config.QUIC, k results.Knob) error {
	switch k.Field[7:] {
	case "HTTP2.MaxReadFrameSize":
		return setBytes(&h2.MaxReadFrameSize, k)
	case "HTTP2.MaxReceiveBufferPerConnection":
		return setBytes(&h2.MaxReceiveBufferPerConnection, k)
	case "HTTP2.MaxReceiveBufferPerStream":
		return setBytes(&h2.MaxReceiveBufferPerStream, k)
	case "HTTP2.MaxConcurrentStreams":
		n, err := strconv.Atoi(k.Value)
		if err != nil || n < 1 {
			return fielderr.New(k.Field, k.Value, "a count of streams, at least 1")
		}
		h2.MaxConcurrentStreams = n
		return nil
	case "QUIC.MaxStreamReceiveWindow":
		return setBytes(&q.MaxStreamReceiveWindow, k)
	case "QUIC.MaxConnectionReceiveWindow":
		return setBytes(&q.MaxConnectionReceiveWindow, k)
	}
	return fielderr.New(k.Field, k.Value, "a setting of this run")
}

func setBytes(b *units.Bytes, k results.Knob) error {
	v, err := units.ParseBytes(k.Value)
	if err != nil {
		return fielderr.New(k.Field, fmt.Sprintf("%q", k.Value), "a size such as 256Ki")
	}
	*b = v
	return nil
}

// Load is the knob set name means: a built-in one, go-default or tuned
// (Named), else the knob file at that path (ReadFile); a file that
// cannot be opened is os.Open's error.
func Load(name string) (results.KnobSet, error) {
	if s, ok := Named(name); ok {
		return s, nil
	}
	f, err := os.Open(name)
	if err != nil {
		return results.KnobSet{}, err
	}
	defer f.Close()
	return ReadFile(f)
}

// ReadFile reads a knob file (its kind, schema version and name) and
// checks that every knob applies to a run (Setup.Apply on a full setup);
// an Engine knob's value is checked where the run's engine takes it.
func ReadFile(r io.Reader) (results.KnobSet, error) {
	s, err := readFile(r)
	if err != nil {
		return s, err
	}
	if err := fullSetup().Apply(s.Knobs...); err != nil {
		return results.KnobSet{}, fmt.Errorf("%w: %v", ErrFile, err)
	}
	return s, nil
}

// fullSetup is a Setup that holds every field a knob can name, to check
// knobs against.
func fullSetup() Setup {
	var c config.Client
	var s config.Server
	return Setup{Client: &c, Server: &s, Engine: new(anyEngine)}
}

// anyEngine takes any engine's name: ReadFile's check leaves the name to
// the run's load.Engine.
type anyEngine struct{}

func (*anyEngine) UnmarshalText([]byte) error { return nil }

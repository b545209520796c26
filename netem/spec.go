package netem

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/httpvs/httpvs/units"
)

// Spec is an emulated link: one Direction each way. Up carries packets from
// the client to the server, Down from the server to the client.
type Spec struct {
	// Name is the preset the spec started from, "" for none.
	Name string
	// Up is the client-to-server direction.
	Up Direction
	// Down is the server-to-client direction.
	Down Direction
	// Backend is how the link is made; "" or BackendAuto picks one.
	Backend Backend
	// CC is the TCP congestion control both ends' namespaces use
	// (net.ipv4.tcp_congestion_control), e.g. "cubic", "bbr" or "reno";
	// "" leaves the kernel's default for a new namespace, which
	// Link.CongestionControl reports. QUIC's is quic-go's own.
	CC string
}

// Direction is what one direction of a link does to each packet, in this
// order: loss, the drop-tail queue in front of the rate limit, the
// serialization at Rate, then Delay plus a jitter. Packets leave in the
// order they came (jitter never reorders).
type Direction struct {
	// Delay is the one-way propagation delay; rtt=R sets R/2 each way.
	Delay time.Duration
	// Jitter is the largest extra delay added to a packet, drawn uniformly
	// from [0, Jitter]; zero for none.
	Jitter time.Duration
	// Rate is the link rate in bits per second of IP packets (headers
	// included, no link-layer framing); zero for unlimited.
	Rate units.BitsPerSecond
	// Loss is the packet loss model.
	Loss Loss
	// Queue is the drop-tail limit of the queue in front of the rate limit.
	Queue Queue
}

// Queue is a drop-tail limit: a packet that would make the queue exceed
// either limit is dropped. The zero value means 1000 packets.
type Queue struct {
	// Packets is the limit in packets; zero for none (unless Bytes is zero
	// too, which means 1000 packets).
	Packets int
	// Bytes is the limit in bytes of IP packets; zero for none.
	Bytes units.Bytes
}

// RTT returns the round-trip propagation delay of s, without serialization
// or jitter.
func (s Spec) RTT() time.Duration { return s.Up.Delay + s.Down.Delay }

// String prints s in the form Parse reads, every field explicit.
func (s Spec) String() string {
	var text string
	if s.Up == s.Down {
		text = s.Up.format("")
	} else {
		text = s.Up.format("up.") + "," + s.Down.format("down.")
	}
	if s.Backend != "" && s.Backend != BackendAuto {
		text += ",backend=" + string(s.Backend)
	}
	if s.CC != "" {
		text += ",cc=" + s.CC
	}
	return text
}

func (d Direction) format(prefix string) string {
	f := []string{prefix + "delay=" + d.Delay.String()}
	if d.Jitter > 0 {
		f = append(f, prefix+"jitter="+d.Jitter.String())
	}
	rate := "unlimited"
	if d.Rate > 0 {
		rate = formatRate(d.Rate)
	}
	f = append(f, prefix+"rate="+rate, prefix+"loss="+d.Loss.String())
	if d.Queue.Packets > 0 || d.Queue.Bytes > 0 {
		if d.Queue.Packets > 0 {
			f = append(f, prefix+"queue="+strconv.Itoa(d.Queue.Packets))
		}
		if d.Queue.Bytes > 0 {
			f = append(f, prefix+"queue="+d.Queue.Bytes.String()+"B")
		}
	}
	return strings.Join(f, ",")
}

// SpecError is a link spec that cannot be used: Field names the key (or
// "preset"), Value what was given and Want the accepted form.
type SpecError struct {
	// Field is the key of the spec, e.g. "rate" or "up.loss".
	Field string
	// Value is the text that was given.
	Value string
	// Want says what the field accepts.
	Want string
}

func (e *SpecError) Error() string {
	return fmt.Sprintf("net spec %s=%q: want %s", e.Field, e.Value, e.Want)
}

// Accepted forms, used in SpecError.Want.
const (
	wantDuration = "a non-negative duration, e.g. 50ms or 1.5s"
	wantRate     = "a positive rate with a unit bit, kbit, mbit or gbit (e.g. 20mbit, 1.5gbit), or unlimited"
	wantLoss     = "a percentage below 100%, e.g. 1% or 0.5%, or Gilbert-Elliott ge:P%:R%[:BAD%[:GOOD%]]"
	wantQueue    = "a packet count (e.g. 100) or a size in bytes ending in B (e.g. 64KiB, 150kB)"
	wantKey      = "key=value with a key rtt, delay, jitter, rate, loss, queue (each but rtt may start with up. or down.), up= / down= for the rate of one direction, backend=auto|tun|netem, or cc=cubic|bbr|reno (TCP's congestion control)"
	wantCC       = "the name of a TCP congestion control, e.g. cubic, bbr or reno"
)

// Parse reads a link spec: comma-separated key=value fields, optionally
// starting with a preset name whose values later fields override, e.g.
// "rtt=50ms,rate=20mbit,loss=1%", "4g", "4g,loss=2%" or
// "rtt=40ms,down=20mbit,up=5mbit".
//
// Keys: rtt (round-trip delay, half each way), delay (one-way, both
// directions), jitter, rate, loss, queue; delay, jitter, rate, loss and
// queue also take a direction prefix up. (client to server) or down.
// (server to client); up= and down= alone set the rate of one direction.
// Loss is uniform ("1%") or Gilbert-Elliott ("ge:P%:R%[:BAD%[:GOOD%]]").
// Queue is a packet count ("100") or bytes ("64KiB"). backend= picks how
// the link is made (auto, tun or netem; see Backend). A bad field gives a
// *SpecError.
func Parse(s string) (Spec, error) {
	var spec Spec
	s = strings.TrimSpace(s)
	if s == "" {
		return spec, &SpecError{Field: "spec", Value: s, Want: "a preset name or " + wantKey}
	}
	fields := strings.Split(s, ",")
	if !strings.Contains(fields[0], "=") {
		p, err := preset(strings.TrimSpace(fields[0]))
		if err != nil {
			return spec, err
		}
		spec, fields = p, fields[1:]
	}
	seen := map[string]string{}
	for _, f := range fields {
		key, val, ok := strings.Cut(strings.TrimSpace(f), "=")
		if !ok || key == "" {
			return Spec{}, &SpecError{Field: "spec", Value: f, Want: wantKey}
		}
		key, val = strings.ToLower(key), strings.TrimSpace(val)
		if first, twice := seen[key]; twice {
			// rtt=10ms,rtt=50ms took the last value silently.
			return Spec{}, &SpecError{Field: key, Value: val, Want: "one value: " + key + "=" + first + " is given too"}
		}
		seen[key] = val
		if err := spec.set(key, val); err != nil {
			return Spec{}, err
		}
	}
	return spec, nil
}

// set applies one key=value to s.
func (s *Spec) set(key, val string) error {
	switch key {
	case "backend":
		b, err := parseBackend(key, strings.ToLower(val))
		s.Backend = b
		return err
	case "cc":
		s.CC = strings.ToLower(val)
		if !validCC(s.CC) {
			return &SpecError{Field: key, Value: val, Want: wantCC}
		}
		return nil
	case "rtt":
		d, err := parseDuration(key, val)
		if err != nil {
			return err
		}
		s.Up.Delay, s.Down.Delay = d/2, d-d/2
		return nil
	case "up", "down":
		key += ".rate"
	}
	dirs := []*Direction{&s.Up, &s.Down}
	name := key
	switch {
	case strings.HasPrefix(key, "up."):
		dirs, name = dirs[:1], key[len("up."):]
	case strings.HasPrefix(key, "down."):
		dirs, name = dirs[1:], key[len("down."):]
	}
	for _, d := range dirs {
		if err := d.set(key, name, val); err != nil {
			return err
		}
	}
	return nil
}

// set applies one field (name without its direction prefix) to d; key is
// the full key, for errors.
func (d *Direction) set(key, name, val string) (err error) {
	switch name {
	case "delay":
		d.Delay, err = parseDuration(key, val)
	case "jitter":
		d.Jitter, err = parseDuration(key, val)
	case "rate":
		d.Rate, err = parseRate(key, val)
	case "loss":
		d.Loss, err = parseLoss(key, val)
	case "queue":
		d.Queue, err = parseQueue(key, val)
	default:
		return &SpecError{Field: key, Value: val, Want: wantKey}
	}
	return err
}

func parseDuration(key, val string) (time.Duration, error) {
	d, err := time.ParseDuration(val)
	if err != nil || d < 0 || d > time.Minute {
		return 0, &SpecError{Field: key, Value: val, Want: wantDuration + " up to 1m"}
	}
	return d, nil
}

// rateUnits are the accepted rate suffixes, longest first.
var rateUnits = []struct {
	name string
	mult float64
}{{"gbit", 1e9}, {"mbit", 1e6}, {"kbit", 1e3}, {"bit", 1}}

func parseRate(key, val string) (units.BitsPerSecond, error) {
	lower := strings.ToLower(val)
	if lower == "unlimited" {
		return 0, nil
	}
	for _, u := range rateUnits {
		num, ok := strings.CutSuffix(lower, u.name)
		if !ok {
			continue
		}
		f, err := strconv.ParseFloat(num, 64)
		if err != nil || !(f > 0) || f*u.mult < 8000 || f*u.mult > 1e12 {
			break
		}
		return units.BitsPerSecond(f * u.mult), nil
	}
	return 0, &SpecError{Field: key, Value: val, Want: wantRate + ", from 8kbit to 1000gbit"}
}

// formatRate prints r in the form parseRate reads back to the same value:
// in the largest unit that divides it exactly, else in bits.
func formatRate(r units.BitsPerSecond) string {
	for _, u := range rateUnits {
		if v := float64(r) / u.mult; v >= 1 && v*u.mult == float64(r) {
			return strconv.FormatFloat(v, 'f', -1, 64) + u.name
		}
	}
	return strconv.FormatFloat(float64(r), 'f', -1, 64) + "bit"
}

func parseQueue(key, val string) (Queue, error) {
	bad := &SpecError{Field: key, Value: val, Want: wantQueue}
	if n, err := strconv.Atoi(val); err == nil {
		if n < 1 || n > 1_000_000 {
			return Queue{}, bad
		}
		return Queue{Packets: n}, nil
	}
	if !strings.HasSuffix(strings.ToLower(val), "b") {
		return Queue{}, bad
	}
	b, err := units.ParseBytes(val)
	if err != nil || b < 1500 || b > units.GiB {
		bad.Want += ", from 1500B to 1GiB"
		return Queue{}, bad
	}
	return Queue{Bytes: b}, nil
}

// validCC says name can be a TCP congestion control's name: lower-case
// letters, digits and underscores, as the kernel names them. Whether the
// kernel has it is known only when the link is made (Link.setCC).
func validCC(name string) bool {
	if name == "" || len(name) > 15 { // TCP_CA_NAME_MAX is 16 with its NUL
		return false
	}
	for _, r := range name {
		if (r < 'a' || r > 'z') && (r < '0' || r > '9') && r != '_' {
			return false
		}
	}
	return true
}

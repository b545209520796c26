package netem

import (
	"math"
	"strconv"
	"time"

	"github.com/httpvs/httpvs/internal/defaults"
	"github.com/httpvs/httpvs/internal/linkmodel"
)

// mtu is the MTU of both ends of a link (TUN devices or veth pair), in
// bytes: the largest IP packet that crosses it.
const mtu = linkmodel.MTU

// Backend is how a link is made: the spec's backend= key.
type Backend string

const (
	// BackendAuto (or "") picks BackendNetem where the kernel has the netem
	// qdisc, else BackendTUN.
	BackendAuto Backend = "auto"
	// BackendTUN joins the two namespaces by TUN devices and applies the
	// model in this process (the ferries): works wherever TUN devices do,
	// counts every packet, and shares this process's CPU.
	BackendTUN Backend = "tun"
	// BackendNetem joins the two namespaces by a veth pair and applies the
	// model in the kernel, a netem qdisc on each end (sch_netem): no
	// ferry in this process. Its counters come from the qdiscs: packets,
	// bytes and drops (the loss model's and the queue's together, counted
	// as Lost); Late, Overflow and Largest stay zero.
	BackendNetem Backend = "netem"
)

// wantBackend is SpecError.Want for backend=.
const wantBackend = "auto, tun or netem"

func parseBackend(key, val string) (Backend, error) {
	switch b := Backend(val); b {
	case BackendAuto, BackendTUN, BackendNetem:
		return b, nil
	}
	return "", &SpecError{Field: key, Value: val, Want: wantBackend}
}

// vethOverhead is the Ethernet header a veth adds to each IP packet, in
// bytes: netem's rate counts it unless told not to (a negative packet
// overhead), and Rate counts IP bytes.
const vethOverhead = 14

// netemArgs are the tc arguments after "netem" that make a netem qdisc do
// what d does (as far as netem can; docs/net-presets.md says where it
// differs):
//
//   - delay: netem's jitter is uniform in [delay-j, delay+j], the model's
//     in [Delay, Delay+Jitter]: delay Delay+Jitter/2, jitter Jitter/2.
//   - loss: "random P%" or "gemodel P% R% BAD% GOOD%" (netem's p r 1-h 1-k).
//   - rate: of IP packets, the Ethernet header taken off (-14).
//   - limit: see netemLimit.
func netemArgs(d Direction) []string {
	args := []string{"limit", strconv.Itoa(netemLimit(d)), "delay", micros(d.Delay + d.Jitter/2)}
	if d.Jitter > 0 {
		args = append(args, micros(d.Jitter/2))
	}
	switch l := d.Loss; {
	case l.GE:
		args = append(args, "loss", "gemodel", tcPercent(l.P), tcPercent(l.R), tcPercent(l.LossBad), tcPercent(l.LossGood))
	case l.Rate > 0:
		args = append(args, "loss", "random", tcPercent(l.Rate))
	}
	if d.Rate > 0 {
		args = append(args, "rate", strconv.FormatFloat(math.Round(float64(d.Rate)), 'f', 0, 64)+"bit", strconv.Itoa(-vethOverhead))
	}
	return args
}

// netemLimit is the netem qdisc's limit, in packets. netem holds every
// packet until it leaves, delayed ones included, in one queue under one
// limit, where the model's drop-tail queue holds only those waiting for
// the rate: the limit is the queue (bytes counted as MTU-sized packets)
// plus the packets the delay holds when the rate is full (MTU-sized), or
// plus the TUN ferry's delay line for an unlimited rate.
func netemLimit(d Direction) int {
	q := d.Queue.Packets
	if d.Queue.Bytes > 0 {
		qb := int((d.Queue.Bytes + mtu - 1) / mtu)
		if q == 0 || qb < q {
			q = qb
		}
	}
	if q == 0 {
		q = defaults.QueuePackets
	}
	if d.Rate <= 0 {
		return q + delayLine
	}
	inFlight := math.Ceil(float64(d.Rate) * (d.Delay + d.Jitter).Seconds() / 8 / mtu)
	return q + int(inFlight)
}

// micros formats d for tc in whole microseconds.
func micros(d time.Duration) string { return strconv.FormatInt(d.Microseconds(), 10) + "us" }

// tcPercent formats a fraction for tc as a percentage.
func tcPercent(f float64) string { return strconv.FormatFloat(f*100, 'f', -1, 64) + "%" }

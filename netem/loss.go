package netem

import (
	"math/rand/v2"
	"strconv"
	"strings"
)

// Loss is a packet loss model. The zero value loses nothing.
//
// With GE false, each packet is lost independently with probability Rate.
// With GE true it is the Gilbert-Elliott model (as netem's "loss gemodel"):
// a two-state Markov chain moved once per packet, from good to bad with
// probability P and from bad to good with probability R; a packet is lost
// with probability LossBad in the bad state and LossGood in the good one.
// Losses then come in bursts of mean length 1/R packets (when LossBad is 1
// and LossGood 0).
type Loss struct {
	// Rate is the uniform loss probability, in [0, 1).
	Rate float64
	// GE selects the Gilbert-Elliott model below instead of Rate.
	GE bool
	// P is the probability of moving from the good to the bad state.
	P float64
	// R is the probability of moving from the bad to the good state.
	R float64
	// LossBad is the loss probability in the bad state (1 - h).
	LossBad float64
	// LossGood is the loss probability in the good state (1 - k).
	LossGood float64
}

// Mean returns the long-run fraction of packets lost, in [0, 1].
func (l Loss) Mean() float64 {
	if !l.GE {
		return l.Rate
	}
	if l.P+l.R == 0 {
		return l.LossGood
	}
	bad := l.P / (l.P + l.R)
	return bad*l.LossBad + (1-bad)*l.LossGood
}

// String prints l in the form Parse reads: "0%", "1%", "ge:1%:30%:100%:0%".
func (l Loss) String() string {
	if !l.GE {
		return pct(l.Rate)
	}
	return "ge:" + pct(l.P) + ":" + pct(l.R) + ":" + pct(l.LossBad) + ":" + pct(l.LossGood)
}

func pct(f float64) string { return strconv.FormatFloat(f*100, 'f', -1, 64) + "%" }

func parsePercent(s string) (float64, bool) {
	num, ok := strings.CutSuffix(strings.TrimSpace(s), "%")
	if !ok {
		return 0, false
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil || !(f >= 0 && f <= 100) {
		return 0, false
	}
	return f / 100, true
}

func parseLoss(key, val string) (Loss, error) {
	bad := &SpecError{Field: key, Value: val, Want: wantLoss}
	rest, ge := strings.CutPrefix(strings.ToLower(val), "ge:")
	if !ge {
		f, ok := parsePercent(val)
		if !ok || f >= 1 {
			return Loss{}, bad
		}
		return Loss{Rate: f}, nil
	}
	parts := strings.Split(rest, ":")
	if len(parts) < 2 || len(parts) > 4 {
		return Loss{}, bad
	}
	v := []float64{0, 0, 1, 0} // P, R, LossBad, LossGood
	for i, p := range parts {
		f, ok := parsePercent(p)
		if !ok {
			return Loss{}, bad
		}
		v[i] = f
	}
	l := Loss{GE: true, P: v[0], R: v[1], LossBad: v[2], LossGood: v[3]}
	if l.R == 0 || l.Mean() >= 1 {
		bad.Want += " (R above 0%, mean loss below 100%)"
		return Loss{}, bad
	}
	return l, nil
}

// lossState draws losses from a Loss model; not safe for concurrent use.
type lossState struct {
	model Loss
	rng   *rand.Rand
	inBad bool
}

// drop reports whether the next packet is lost.
func (s *lossState) drop() bool {
	m := s.model
	if !m.GE {
		return m.Rate > 0 && s.rng.Float64() < m.Rate
	}
	if s.inBad {
		if s.rng.Float64() < m.R {
			s.inBad = false
		}
	} else if s.rng.Float64() < m.P {
		s.inBad = true
	}
	p := m.LossGood
	if s.inBad {
		p = m.LossBad
	}
	return p > 0 && s.rng.Float64() < p
}

package load

import (
	"fmt"
)

// Share is one generator's part of a load split among several, such as the
// pods of a Kubernetes Indexed Job: part Index (from 0) of Of. The zero
// Share is the whole load.
type Share struct {
	Index int // this generator's part, 0 to Of-1
	Of    int // how many parts the load is split into; 0 or 1 for the whole
}

func (s Share) check() error {
	if s.Of < 0 || s.Index < 0 || (s.Of > 0 && s.Index >= s.Of) || (s.Of == 0 && s.Index != 0) {
		return fmt.Errorf("%d/%d: want INDEX/PARTS with 0 <= INDEX < PARTS", s.Index, s.Of)
	}
	return nil
}

// whole reports whether s is the whole load.
func (s Share) whole() bool { return s.Of <= 1 }

// String returns "I/N", or "" for the whole load.
func (s Share) String() string {
	if s.whole() {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.Index, s.Of)
}

// Requests returns this part of n requests: n/Of, one more for the first
// n%Of parts, so that the parts sum to n exactly.
func (s Share) requests(n int64) int64 {
	if s.whole() {
		return n
	}
	part := n / int64(s.Of)
	if int64(s.Index) < n%int64(s.Of) {
		part++
	}
	return part
}

// Rate returns this part of a rate in requests per second: rate/Of.
func (s Share) rate(rate float64) float64 {
	if s.whole() {
		return rate
	}
	return rate / float64(s.Of)
}

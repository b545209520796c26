// Package stats holds the figures httpvs measures and exchanges: error counts
// by kind, connection I/O counters, the payload server's counters and
// process figures, with their arithmetic (Add, Sub). It is pure: no I/O, no
// protocol knowledge; the transport package decides which kind an error is.
package stats

import (
	"fmt"
	"strings"
)

// ErrorKind says why a request or transfer failed.
type ErrorKind int

// The error kinds, in the order reports list them.
const (
	ErrRefused  ErrorKind = iota // connection refused: nothing listens there
	ErrReset                     // connection or stream reset, broken pipe, closed mid-transfer
	ErrTimeout                   // a deadline or timeout expired
	ErrStatus                    // the server answered with a status other than 2xx
	ErrShort                     // the body ended before the announced or expected length
	ErrProtocol                  // the negotiated protocol is not the one asked for
	ErrTLS                       // TLS handshake or certificate verification failed
	ErrOther                     // anything else
	numErrorKinds
)

var errorKindNames = [numErrorKinds]string{"refused", "reset", "timeout", "status", "short", "protocol", "tls", "other"}

// String returns the kind's name as it appears in JSON: "refused", "reset", ...
func (k ErrorKind) String() string {
	if k < 0 || k >= numErrorKinds {
		return fmt.Sprintf("ErrorKind(%d)", int(k))
	}
	return errorKindNames[k]
}

// ErrorCounts counts failures by kind. Its JSON form has a "total" and one
// field per kind.
type ErrorCounts struct {
	Total    int64 `json:"total"`
	Refused  int64 `json:"refused"`
	Reset    int64 `json:"reset"`
	Timeout  int64 `json:"timeout"`
	Status   int64 `json:"status"`
	Short    int64 `json:"short"`
	Protocol int64 `json:"protocol"`
	TLS      int64 `json:"tls"`
	Other    int64 `json:"other"`
}

func (c *ErrorCounts) field(k ErrorKind) *int64 {
	switch k {
	case ErrRefused:
		return &c.Refused
	case ErrReset:
		return &c.Reset
	case ErrTimeout:
		return &c.Timeout
	case ErrStatus:
		return &c.Status
	case ErrShort:
		return &c.Short
	case ErrProtocol:
		return &c.Protocol
	case ErrTLS:
		return &c.TLS
	default:
		return &c.Other
	}
}

// Count records one failure of kind k.
func (c *ErrorCounts) Count(k ErrorKind) {
	c.Total++
	*c.field(k)++
}

// Of returns how many failures of kind k were counted.
func (c ErrorCounts) Of(k ErrorKind) int64 { return *c.field(k) }

// Add adds o's counts to c.
func (c *ErrorCounts) Add(o ErrorCounts) {
	c.Total += o.Total
	for k := ErrorKind(0); k < numErrorKinds; k++ {
		*c.field(k) += o.Of(k)
	}
}

// String lists the non-zero kinds: "3 errors (2 reset, 1 timeout)", or
// "0 errors".
func (c ErrorCounts) String() string {
	if c.Total == 0 {
		return "0 errors"
	}
	var parts []string
	for k := ErrorKind(0); k < numErrorKinds; k++ {
		if n := c.Of(k); n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, k))
		}
	}
	noun := "errors"
	if c.Total == 1 {
		noun = "error"
	}
	return fmt.Sprintf("%d %s (%s)", c.Total, noun, strings.Join(parts, ", "))
}

package flagset

// load's options as the command line spells them: a rate ("2.5k"), a
// header spec ("100:100") and an engine name with "auto", the engine that
// speaks the transport and is not what gets measured; and get's and put's
// choice of blocking sockets.

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/httpvs/httpvs/internal/fielderr"
	"github.com/httpvs/httpvs/load"
	"github.com/httpvs/httpvs/transport"
)

// ParseHeaders reads N:LEN (the gin post's 100:100): N headers of LEN
// characters, N from 0 to 10000, LEN from 1 to 65536.
func ParseHeaders(s string) (load.HeaderSpec, error) {
	n, l, ok := strings.Cut(s, ":")
	count, err1 := strconv.Atoi(n)
	length, err2 := strconv.Atoi(l)
	if !ok || err1 != nil || err2 != nil || count < 0 || count > 10000 || length < 1 || length > 65536 {
		return load.HeaderSpec{}, fmt.Errorf("header spec %q: want N:LEN, N headers (0 to 10000) of LEN characters (1 to 65536), e.g. 100:100", s)
	}
	return load.HeaderSpec{Count: count, Len: length}, nil
}

// ParseRate reads a rate in requests per second: "1000", "2.5k", "1000/s".
func ParseRate(s string) (float64, error) {
	t := strings.TrimSuffix(strings.ToLower(strings.TrimSpace(s)), "/s")
	mult := 1.0
	if strings.HasSuffix(t, "k") {
		t, mult = strings.TrimSuffix(t, "k"), 1000
	}
	r, err := strconv.ParseFloat(t, 64)
	if err != nil || r*mult <= 0 || r*mult > 1e8 || r != r {
		return 0, fmt.Errorf("rate %q: want requests per second above 0 and up to 1e8, e.g. 1000, 2.5k or 500/s", s)
	}
	return r * mult, nil
}

// ParseEngine reads "std", "fast" or "auto": auto is Fast, which speaks
// every transport, so that the generator is not what gets measured
// (httpvs load's choice).
func ParseEngine(s string) (load.Engine, error) {
	if s == "auto" {
		return load.Fast, nil
	}
	var e load.Engine
	if err := e.UnmarshalText([]byte(s)); err != nil {
		return load.Std, fielderr.New("Engine", fmt.Sprintf("%q", s), "std, fast or auto")
	}
	return e, nil
}

// maxBlockingConns is the most connections get and put read with blocking
// sockets (transport.ClientOptions.BlockingSockets), one OS thread each.
const maxBlockingConns = 64

// BlockingSockets says whether an instrument's run (get, put) over p with
// conns connections should read them with blocking sockets: over HTTP/1.1
// in cleartext, where a download's reader is the process's only busy
// goroutine and Go's poller costs more system time per GB than curl's
// blocking recv (docs/measurements/peers-*.md). h2c keeps Go's poller:
// its speed there is Go's own HTTP/2 client's, already ahead of curl's.
// transfer.Run never sets it on its own: a comparison of Go's transports
// (the matrix) measures Go's I/O.
func BlockingSockets(p transport.Protocol, conns int) bool {
	return p == transport.H1 && conns <= maxBlockingConns
}

// ParseShare reads --share's "I/N", e.g. "0/3": part I of N; load.Config
// checks 0 <= I < N.
func ParseShare(s string) (load.Share, error) {
	i, n, ok := strings.Cut(s, "/")
	index, err1 := strconv.Atoi(i)
	of, err2 := strconv.Atoi(n)
	if !ok || err1 != nil || err2 != nil || index < 0 || of < 1 || index >= of {
		return load.Share{}, fmt.Errorf("%s: want INDEX/PARTS with 0 <= INDEX < PARTS, e.g. 0/3 (the first of three generators)", s)
	}
	return load.Share{Index: index, Of: of}, nil
}

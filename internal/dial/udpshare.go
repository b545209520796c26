package dial

import (
	"context"
	"crypto/tls"
	"net"
	"reflect"
	"sync"

	"github.com/quic-go/quic-go"
)

// udpShare is one UDP socket and the quic.Transport on it that the QUIC
// connections SharedQUIC dials in one network hold together: one
// goroutine reads the datagrams of all of them, a batch of several
// connections' datagrams a system call, where a socket per connection
// (QUIC) has a reader each that mostly finds one.
type udpShare struct {
	tr   *quic.Transport
	udp  *net.UDPConn
	refs int // connections open or being dialed on tr
}

var (
	sharesMu sync.Mutex
	shares   = map[Network]*udpShare{}
)

// SharedQUIC opens a QUIC connection to addr as QUIC does, but from a UDP
// socket that the process's other connections dialed by SharedQUIC in n
// share: it is made (inside n) by the first of them and closed when the
// last one has closed, so none outlives its connections. A network that
// cannot be a map key (its dynamic type is not comparable) gets QUIC's
// socket per connection.
func SharedQUIC(ctx context.Context, n Network, addr string, tlsConf *tls.Config, conf *quic.Config) (*quic.Conn, error) {
	if n != nil && !reflect.TypeOf(n).Comparable() {
		return QUIC(ctx, n, addr, tlsConf, conf)
	}
	s, err := acquireShare(n)
	if err != nil {
		return nil, err
	}
	qc, err := QUICOn(ctx, s.tr, addr, tlsConf, conf)
	if err != nil {
		releaseShare(n, s)
		return nil, err
	}
	context.AfterFunc(qc.Context(), func() { releaseShare(n, s) })
	return qc, nil
}

// acquireShare returns n's share, making its socket inside n if it has
// none, with one more reference held.
func acquireShare(n Network) (*udpShare, error) {
	sharesMu.Lock()
	defer sharesMu.Unlock()
	if s := shares[n]; s != nil {
		s.refs++
		return s, nil
	}
	var udp *net.UDPConn
	if err := In(n, func() (err error) {
		udp, err = net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4zero})
		return err
	}); err != nil {
		return nil, err
	}
	s := &udpShare{tr: &quic.Transport{Conn: udp}, udp: udp, refs: 1}
	shares[n] = s
	return s, nil
}

// releaseShare drops a reference to s, closing its transport and socket
// with the last.
func releaseShare(n Network, s *udpShare) {
	sharesMu.Lock()
	s.refs--
	last := s.refs == 0
	if last {
		delete(shares, n)
	}
	sharesMu.Unlock()
	if last {
		_ = s.tr.Close()
		_ = s.udp.Close()
	}
}

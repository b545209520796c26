package testenv

import (
	"errors"
	"net"
	"sync"
	"time"
)

// zeroRTTMaxHeld bounds the client datagrams a zeroRTTRelay keeps while
// holding.
const zeroRTTMaxHeld = 256

// zeroRTTRelay forwards UDP datagrams between one client and a server.
// While it holds, client datagrams that carry a Handshake or a 1-RTT packet (the
// client's Finished, and anything after it) are kept back, and so is
// everything the server sends until ReleaseServer: a client that has not
// heard the server cannot have 1-RTT keys, so all it sends is 0-RTT. Up to
// zeroRTTMaxHeld datagrams are kept each way (further ones are dropped, as a
// lossy path would); Release sends them on.
type zeroRTTRelay struct {
	ln, up *net.UDPConn
	wg     sync.WaitGroup

	mu         sync.Mutex
	client     *net.UDPAddr
	hold       bool
	held       [][]byte
	holdServer bool
	heldServer [][]byte
	lastClient time.Time // when the client's last datagram came
}

// newZeroRTTRelay relays between a listener on 127.0.0.1 and server (a UDP
// host:port). It does not hold until Hold.
func newZeroRTTRelay(server string) (*zeroRTTRelay, error) {
	raddr, err := net.ResolveUDPAddr("udp", server)
	if err != nil {
		return nil, err
	}
	ln, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		return nil, err
	}
	up, err := net.DialUDP("udp", nil, raddr)
	if err != nil {
		ln.Close()
		return nil, err
	}
	r := &zeroRTTRelay{ln: ln, up: up}
	r.wg.Add(2)
	go r.fromClient()
	go r.fromServer()
	return r, nil
}

// Addr is the address clients send to.
func (r *zeroRTTRelay) Addr() string { return r.ln.LocalAddr().String() }

// Hold starts keeping back the client's handshake-completing datagrams
// and all of the server's.
func (r *zeroRTTRelay) Hold() {
	r.mu.Lock()
	r.hold, r.holdServer = true, true
	r.mu.Unlock()
}

// ReleaseServer stops holding the server's datagrams and sends on those
// held; the client's handshake stays held.
func (r *zeroRTTRelay) ReleaseServer() {
	r.mu.Lock()
	held, client := r.heldServer, r.client
	r.holdServer, r.heldServer = false, nil
	r.mu.Unlock()
	for _, b := range held {
		_, _ = r.ln.WriteToUDP(b, client)
	}
}

// Release stops holding both ways and sends on what was held, in order.
func (r *zeroRTTRelay) Release() {
	r.ReleaseServer()
	r.mu.Lock()
	held := r.held
	r.hold, r.held = false, nil
	r.mu.Unlock()
	for _, b := range held {
		_, _ = r.up.Write(b)
	}
}

// WaitQuiet returns once the client has sent nothing for quiet, or after
// most: by then a client sends what it had queued.
func (r *zeroRTTRelay) WaitQuiet(quiet, most time.Duration) {
	end := time.Now().Add(most)
	for time.Now().Before(end) {
		r.mu.Lock()
		since := time.Since(r.lastClient)
		r.mu.Unlock()
		if since >= quiet {
			return
		}
		time.Sleep(quiet / 5)
	}
}

// Close stops relaying; it returns once both directions have ended.
func (r *zeroRTTRelay) Close() error {
	err := errors.Join(r.ln.Close(), r.up.Close())
	r.wg.Wait()
	return err
}

// fromClient forwards the client's datagrams until the listener closes.
func (r *zeroRTTRelay) fromClient() {
	defer r.wg.Done()
	buf := make([]byte, 65536)
	for {
		n, addr, err := r.ln.ReadFromUDP(buf)
		if err != nil {
			return
		}
		b := append([]byte(nil), buf[:n]...)
		r.mu.Lock()
		r.client, r.lastClient = addr, time.Now()
		keep := r.hold && completesHandshake(b)
		if keep && len(r.held) < zeroRTTMaxHeld {
			r.held = append(r.held, b)
		}
		r.mu.Unlock()
		if !keep {
			_, _ = r.up.Write(b)
		}
	}
}

// fromServer forwards the server's datagrams to the client until the
// upstream socket closes.
func (r *zeroRTTRelay) fromServer() {
	defer r.wg.Done()
	buf := make([]byte, 65536)
	for {
		n, err := r.up.Read(buf)
		if err != nil {
			return
		}
		r.mu.Lock()
		client, keep := r.client, r.holdServer
		if keep && len(r.heldServer) < zeroRTTMaxHeld {
			r.heldServer = append(r.heldServer, append([]byte(nil), buf[:n]...))
		}
		r.mu.Unlock()
		if client != nil && !keep {
			_, _ = r.ln.WriteToUDP(buf[:n], client)
		}
	}
}

// QUIC version 1 long-header packet types (RFC 9000 section 17.2).
const (
	typeInitial   = 0
	type0RTT      = 1
	typeHandshake = 2
)

// completesHandshake reports whether datagram b holds a packet other than
// Initial or 0-RTT ones (a Handshake packet, a 1-RTT packet, or one it
// cannot parse): the packets that carry the client's Finished and what
// follows it. Coalesced packets (RFC 9000 section 12.2) are walked.
func completesHandshake(b []byte) bool {
	for len(b) > 0 {
		first := b[0]
		if first&0x80 == 0 {
			return true // short header: 1-RTT
		}
		typ := first >> 4 & 3
		if typ != typeInitial && typ != type0RTT {
			return true
		}
		rest, ok := skipLongHeader(b[1:], typ == typeInitial)
		if !ok {
			return true
		}
		b = rest
	}
	return false
}

// skipLongHeader skips a long-header packet after its first byte: version,
// connection IDs, an Initial's token, then Length bytes of payload.
func skipLongHeader(b []byte, initial bool) ([]byte, bool) {
	if len(b) < 5 {
		return nil, false
	}
	b = b[4:]     // version
	for range 2 { // destination and source connection IDs
		if len(b) < 1 || len(b) < 1+int(b[0]) {
			return nil, false
		}
		b = b[1+int(b[0]):]
	}
	if initial {
		n, rest, ok := varint(b)
		if !ok || uint64(len(rest)) < n {
			return nil, false
		}
		b = rest[n:]
	}
	n, rest, ok := varint(b)
	if !ok || uint64(len(rest)) < n {
		return nil, false
	}
	return rest[n:], true
}

// varint reads a QUIC variable-length integer (RFC 9000 section 16).
func varint(b []byte) (uint64, []byte, bool) {
	if len(b) == 0 {
		return 0, nil, false
	}
	size := 1 << (b[0] >> 6)
	if len(b) < size {
		return 0, nil, false
	}
	v := uint64(b[0] & 0x3f)
	for _, c := range b[1:size] {
		v = v<<8 | uint64(c)
	}
	return v, b[size:], true
}

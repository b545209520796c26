package lean

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"

	"github.com/httpvs/httpvs/transport"
)

// Lean HTTP/2 receive windows when transport.ClientConfig leaves them zero: Go's
// client defaults.
const (
	leanH2StreamWindow = 4 << 20
	leanH2ConnWindow   = 1 << 30
)

var (
	errClosing = errors.New("client closed")
)

// h2Pool keeps the one HTTP/2 connection of a Client, redialing it
// when it dies.
type h2Pool struct {
	c            *Client
	block        []byte // the request's HPACK header block, stateless
	streamWindow uint32
	connWindow   uint32
	maxFrame     uint32

	mu     sync.Mutex
	cur    *h2Conn
	closed bool
}

func newH2Pool(c *Client, cfg transport.ClientConfig) *h2Pool {
	h := cfg.EffectiveHTTP2()
	p := &h2Pool{c: c, streamWindow: leanH2StreamWindow, connWindow: leanH2ConnWindow, maxFrame: uint32(h.MaxReadFrameSize)}
	if h.MaxReceiveBufferPerStream > 0 {
		p.streamWindow = uint32(h.MaxReceiveBufferPerStream)
	}
	if h.MaxReceiveBufferPerConnection > 0 {
		p.connWindow = uint32(h.MaxReceiveBufferPerConnection)
	}
	// Never-indexed literals leave the encoder's dynamic table empty, so
	// the block can be sent on every stream of every connection.
	var buf bytes.Buffer
	enc := hpack.NewEncoder(&buf)
	req := c.req
	write := func(name, value string) {
		_ = enc.WriteField(hpack.HeaderField{Name: name, Value: value, Sensitive: true}) // writes to a bytes.Buffer
	}
	write(":method", req.Method)
	write(":scheme", req.URL.Scheme)
	write(":authority", req.URL.Host)
	write(":path", req.URL.RequestURI())
	write("user-agent", "httpvs")
	for _, k := range sortedHeaderKeys(req.Header) {
		for _, v := range req.Header[k] {
			write(strings.ToLower(k), v)
		}
	}
	if len(req.Body) > 0 || req.Method == "POST" || req.Method == "PUT" {
		write("content-length", strconv.Itoa(len(req.Body)))
	}
	p.block = buf.Bytes()
	return p
}

func (p *h2Pool) get(ctx context.Context) (*h2Conn, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil, errClosing
	}
	if p.cur != nil && p.cur.usable() {
		return p.cur, nil
	}
	hc, err := p.dial(ctx, nil)
	if err != nil {
		return nil, err
	}
	hc.start()
	p.cur = hc
	return hc, nil
}

// dial opens a connection and sends the preface, without starting its
// reader; loop is the Loop that will drive it, or nil.
func (p *h2Pool) dial(ctx context.Context, loop *h2Loop) (*h2Conn, error) {
	conn, err := p.c.dial(ctx)
	if err != nil {
		return nil, err
	}
	hc, err := newH2Conn(p, conn, loop)
	if err != nil {
		conn.Close()
		return nil, err
	}
	return hc, nil
}

func (p *h2Pool) close() {
	p.mu.Lock()
	p.closed = true
	cur := p.cur
	p.mu.Unlock()
	if cur != nil {
		cur.fail(errClosing)
	}
}

// h2Conn is one HTTP/2 connection: writers share the framer under wmu,
// one goroutine reads.
type h2Conn struct {
	p     *h2Pool
	conn  net.Conn
	br    *bufio.Reader
	reads *readCounter // under br
	loop  *h2Loop      // nil unless a Loop drives the connection

	wmu     sync.Mutex
	pending atomic.Int32 // writers holding or waiting for wmu
	bw      *bufio.Writer
	fr      *http2.Framer

	mu          sync.Mutex
	cond        *sync.Cond // signalled when streams end, windows open or the connection dies
	streams     map[uint32]*h2Stream
	nextID      uint32
	active      uint32
	maxStreams  uint32
	peerMaxData uint32 // the server's SETTINGS_MAX_FRAME_SIZE
	peerInitWin int64  // the server's SETTINGS_INITIAL_WINDOW_SIZE
	sendWin     int64  // connection-level send window
	goingAway   bool
	err         error

	// Reader goroutine only.
	recvUnacked  uint32 // connection bytes not yet returned
	dec          *hpack.Decoder
	hdrStream    uint32 // stream whose header block is being read; 0 if none
	hdrEndStream bool   // that block's HEADERS frame ended the stream
	hdrStatus    int    // :status decoded from it so far
}

// newH2Conn sends the preface and settings on conn; start starts its
// reader.
func newH2Conn(p *h2Pool, conn net.Conn, loop *h2Loop) (*h2Conn, error) {
	hc := &h2Conn{
		p: p, conn: conn, loop: loop,
		reads:       &readCounter{r: conn},
		bw:          bufio.NewWriterSize(conn, 64<<10),
		streams:     make(map[uint32]*h2Stream),
		nextID:      1,
		maxStreams:  100, // until the server's SETTINGS say otherwise
		peerMaxData: 16 << 10,
		peerInitWin: 65535,
		sendWin:     65535,
	}
	hc.cond = sync.NewCond(&hc.mu)
	hc.br = bufio.NewReaderSize(hc.reads, leanReadBuffer)
	hc.fr = http2.NewFramer(hc.bw, hc.br)
	hc.fr.SetReuseFrames()
	hc.fr.SetMaxReadFrameSize(p.maxFrame)
	// Header blocks are decoded here rather than by the framer's
	// ReadMetaHeaders, which allocates a frame and a field slice per
	// response: only :status is kept.
	hc.dec = hpack.NewDecoder(4096, func(f hpack.HeaderField) {
		if f.Name == ":status" && hc.hdrStatus == 0 {
			hc.hdrStatus, _ = strconv.Atoi(f.Value)
		}
	})
	hc.dec.SetMaxStringLength(16 << 20)

	if _, err := hc.bw.WriteString(http2.ClientPreface); err != nil {
		return nil, err
	}
	err := hc.fr.WriteSettings(
		http2.Setting{ID: http2.SettingEnablePush, Val: 0},
		http2.Setting{ID: http2.SettingInitialWindowSize, Val: p.streamWindow},
		http2.Setting{ID: http2.SettingMaxFrameSize, Val: p.maxFrame},
	)
	if err == nil && p.connWindow > 65535 {
		err = hc.fr.WriteWindowUpdate(0, p.connWindow-65535)
	}
	if err == nil {
		err = hc.bw.Flush()
	}
	if err != nil {
		return nil, err
	}
	return hc, nil
}

// start starts the connection's reader.
func (hc *h2Conn) start() {
	if hc.loop != nil {
		go hc.runLoop()
	} else {
		go hc.readLoop()
	}
}

// readCounter counts the reads of the connection, so that a loop reads
// the clock once per read rather than once per frame.
type readCounter struct {
	r io.Reader
	n int
}

func (rc *readCounter) Read(p []byte) (int, error) {
	rc.n++
	return rc.r.Read(p)
}

// unusableErr says why no new stream may start; hc.mu must be held.
func (hc *h2Conn) unusableErr() error {
	switch {
	case hc.err != nil:
		return hc.err
	case hc.goingAway:
		return ErrGoAway
	}
	return nil
}

func (hc *h2Conn) usable() bool {
	hc.mu.Lock()
	defer hc.mu.Unlock()
	return hc.err == nil && !hc.goingAway && hc.nextID < 1<<31-1
}

// fail ends the connection and every stream on it with err.
func (hc *h2Conn) fail(err error) {
	hc.mu.Lock()
	if hc.err == nil {
		hc.err = err
		for id, s := range hc.streams {
			s.finish(err)
			delete(hc.streams, id)
		}
		hc.active = 0
	}
	hc.cond.Broadcast()
	hc.mu.Unlock()
	hc.conn.Close()
}

// lockWrite takes the write lock. Writers queue their frames in the
// buffer; unlockWrite flushes only when no other writer waits, so frames
// written at the same time (many streams' HEADERS) leave in one system
// call, as an event-loop client's would.
func (hc *h2Conn) lockWrite() {
	hc.pending.Add(1)
	hc.wmu.Lock()
}

// unlockWrite releases the write lock, flushing if this writer is the last
// of its burst. A failed write or flush fails the connection.
func (hc *h2Conn) unlockWrite(err error) error {
	if hc.pending.Add(-1) == 0 && err == nil {
		err = hc.bw.Flush()
	}
	hc.wmu.Unlock()
	if err != nil {
		go hc.fail(err)
	}
	return err
}

func (hc *h2Conn) write(fn func(*http2.Framer) error) error {
	hc.lockWrite()
	return hc.unlockWrite(fn(hc.fr))
}

func (hc *h2Conn) readLoop() {
	for {
		f, err := hc.fr.ReadFrame()
		if err != nil {
			hc.fail(eofIsReset(err))
			return
		}
		if err := hc.handle(f); err != nil {
			hc.fail(err)
			return
		}
	}
}

func (hc *h2Conn) handle(f http2.Frame) error {
	switch f := f.(type) {
	case *http2.DataFrame:
		n := f.Header().Length
		hc.mu.Lock()
		s := hc.streams[f.StreamID]
		var streamUpdate uint32
		if s != nil {
			s.bytes += int64(len(f.Data()))
			s.recvUnacked += n
			if !f.StreamEnded() && s.recvUnacked >= hc.p.streamWindow/2 {
				streamUpdate, s.recvUnacked = s.recvUnacked, 0
			}
			if f.StreamEnded() {
				hc.end(s, nil)
			}
		}
		hc.mu.Unlock()
		hc.recvUnacked += n
		connUpdate := uint32(0)
		if hc.recvUnacked >= hc.p.connWindow/2 {
			connUpdate, hc.recvUnacked = hc.recvUnacked, 0
		}
		if streamUpdate > 0 || connUpdate > 0 {
			return hc.write(func(fr *http2.Framer) error {
				if streamUpdate > 0 {
					if err := fr.WriteWindowUpdate(f.StreamID, streamUpdate); err != nil {
						return err
					}
				}
				if connUpdate > 0 {
					return fr.WriteWindowUpdate(0, connUpdate)
				}
				return nil
			})
		}
	case *http2.HeadersFrame:
		hc.hdrStream, hc.hdrEndStream, hc.hdrStatus = f.StreamID, f.StreamEnded(), 0
		return hc.headerBlock(f.HeaderBlockFragment(), f.HeadersEnded())
	case *http2.ContinuationFrame:
		return hc.headerBlock(f.HeaderBlockFragment(), f.HeadersEnded())
	case *http2.RSTStreamFrame:
		hc.mu.Lock()
		if s := hc.streams[f.StreamID]; s != nil {
			hc.end(s, fmt.Errorf("%w (%v)", ErrStreamReset, f.ErrCode))
		}
		hc.mu.Unlock()
	case *http2.SettingsFrame:
		if f.IsAck() {
			return nil
		}
		hc.mu.Lock()
		err := f.ForeachSetting(func(s http2.Setting) error {
			switch s.ID {
			case http2.SettingMaxConcurrentStreams:
				hc.maxStreams = s.Val
			case http2.SettingMaxFrameSize:
				hc.peerMaxData = s.Val
			case http2.SettingInitialWindowSize:
				delta := int64(s.Val) - hc.peerInitWin
				hc.peerInitWin = int64(s.Val)
				for _, st := range hc.streams {
					st.sendWin += delta
				}
			}
			return nil
		})
		hc.cond.Broadcast()
		hc.mu.Unlock()
		if err != nil {
			return err
		}
		return hc.write(func(fr *http2.Framer) error { return fr.WriteSettingsAck() })
	case *http2.WindowUpdateFrame:
		hc.mu.Lock()
		if f.StreamID == 0 {
			hc.sendWin += int64(f.Increment)
		} else if s := hc.streams[f.StreamID]; s != nil {
			s.sendWin += int64(f.Increment)
		}
		hc.cond.Broadcast()
		hc.mu.Unlock()
	case *http2.PingFrame:
		if !f.IsAck() {
			data := f.Data
			return hc.write(func(fr *http2.Framer) error { return fr.WritePing(true, data) })
		}
	case *http2.GoAwayFrame:
		hc.mu.Lock()
		hc.goingAway = true
		for id, s := range hc.streams {
			if id > f.LastStreamID {
				hc.end(s, fmt.Errorf("%w (%v) before stream %d started", ErrGoAway, f.ErrCode, id))
			}
		}
		hc.cond.Broadcast()
		hc.mu.Unlock()
	}
	return nil
}

// headerBlock decodes a fragment of the current header block and, at its
// end, gives the stream its status (the first block's; later ones are
// trailers) and ends it if the HEADERS frame said so. The framer has
// checked that CONTINUATION frames follow their HEADERS.
func (hc *h2Conn) headerBlock(frag []byte, last bool) error {
	if _, err := hc.dec.Write(frag); err != nil {
		return http2.ConnectionError(http2.ErrCodeCompression)
	}
	if !last {
		return nil
	}
	if err := hc.dec.Close(); err != nil {
		return http2.ConnectionError(http2.ErrCodeCompression)
	}
	hc.mu.Lock()
	if s := hc.streams[hc.hdrStream]; s != nil {
		if s.status == 0 {
			s.status = hc.hdrStatus
			if hc.loop != nil {
				s.firstByte = hc.loop.now
			} else {
				s.firstByte = time.Now()
			}
		}
		if hc.hdrEndStream {
			hc.end(s, nil)
		}
	}
	hc.mu.Unlock()
	hc.hdrStream = 0
	return nil
}

// end finishes s and frees its slot; hc.mu must be held.
func (hc *h2Conn) end(s *h2Stream, err error) {
	if hc.streams[s.id] != s {
		return
	}
	delete(hc.streams, s.id)
	hc.active--
	s.finish(err)
	hc.cond.Broadcast()
}

// h2Stream is one worker's stream object, reused for each request.
type h2Stream struct {
	ctx   context.Context
	p     *h2Pool
	done  chan error // buffered 1
	timer *time.Timer

	// Guarded by the connection's mu while the stream is registered.
	id          uint32
	status      int
	firstByte   time.Time // when the response's HEADERS ended
	bytes       int64
	sendWin     int64
	recvUnacked uint32

	// A Loop's stream: the loop's goroutine reads these once the
	// stream has ended.
	loop    *h2Loop
	mark    bool
	started time.Time
	err     error
	rest    []byte // request body not yet sent
}

func newH2Stream(ctx context.Context, p *h2Pool) *h2Stream {
	t := time.NewTimer(time.Hour)
	t.Stop()
	return &h2Stream{ctx: ctx, p: p, done: make(chan error, 1), timer: t}
}

// finish ends the stream with err; hc.mu must be held.
func (s *h2Stream) finish(err error) {
	if s.loop != nil {
		s.err = err
		s.loop.ended = append(s.loop.ended, s)
		return
	}
	select {
	case s.done <- err:
	default:
	}
}

func (s *h2Stream) do(timeout time.Duration) (Response, error) {
	hc, err := s.p.get(s.ctx)
	if err != nil {
		return Response{}, err
	}
	select { // a late signal from an earlier, timed-out request
	case <-s.done:
	default:
	}
	// Reserve a stream slot, waiting without holding the write lock: the
	// reader needs it to answer the frames that free slots.
	hc.mu.Lock()
	for hc.err == nil && !hc.goingAway && hc.active >= hc.maxStreams {
		hc.cond.Wait()
	}
	if err := hc.unusableErr(); err != nil {
		hc.mu.Unlock()
		return Response{}, err
	}
	hc.active++
	hc.mu.Unlock()

	// Stream IDs must reach the wire in increasing order: take the ID and
	// write the HEADERS under one hold of the write lock.
	body := s.p.c.req.Body
	hc.lockWrite()
	hc.mu.Lock()
	if err := hc.unusableErr(); err != nil {
		if hc.err == nil {
			hc.active-- // going away: give the reservation back
		}
		hc.mu.Unlock()
		hc.unlockWrite(nil)
		return Response{}, err
	}
	s.id, s.status, s.firstByte, s.bytes, s.recvUnacked = hc.nextID, 0, time.Time{}, 0, 0
	s.sendWin = hc.peerInitWin
	hc.nextID += 2
	hc.streams[s.id] = s
	maxData := hc.peerMaxData
	hc.mu.Unlock()
	err = hc.unlockWrite(writeHeaderBlock(hc.fr, s.id, s.p.block, len(body) == 0, maxData))
	if err == nil && len(body) > 0 {
		err = s.sendBody(hc, body, maxData)
	}
	if err != nil {
		return Response{}, err
	}

	s.timer.Reset(timeout)
	defer s.timer.Stop()
	select {
	case err = <-s.done:
	case <-s.timer.C:
		err = fmt.Errorf("no response within %v: %w", timeout, context.DeadlineExceeded)
		s.abort(hc, http2.ErrCodeCancel)
	case <-s.ctx.Done():
		err = s.ctx.Err()
		s.abort(hc, http2.ErrCodeCancel)
	}
	hc.mu.Lock()
	resp := Response{Status: s.status, BodyBytes: s.bytes, FirstByte: s.firstByte}
	hc.mu.Unlock()
	return resp, err
}

// sendBody writes body as DATA frames within the peer's flow-control windows.
func (s *h2Stream) sendBody(hc *h2Conn, body []byte, maxData uint32) error {
	for len(body) > 0 {
		hc.mu.Lock()
		for hc.err == nil && hc.streams[s.id] == s && (s.sendWin <= 0 || hc.sendWin <= 0) {
			hc.cond.Wait()
		}
		if hc.err != nil || hc.streams[s.id] != s {
			err := hc.err
			hc.mu.Unlock()
			if err == nil {
				err = ErrStreamReset
			}
			return err
		}
		n := min(int64(len(body)), s.sendWin, hc.sendWin, int64(maxData))
		s.sendWin -= n
		hc.sendWin -= n
		hc.mu.Unlock()
		chunk, last := body[:n], int(n) == len(body)
		if err := hc.write(func(fr *http2.Framer) error { return fr.WriteData(s.id, last, chunk) }); err != nil {
			return err
		}
		body = body[n:]
	}
	return nil
}

// abort resets the stream on the wire and forgets it.
func (s *h2Stream) abort(hc *h2Conn, code http2.ErrCode) {
	hc.mu.Lock()
	registered := hc.streams[s.id] == s
	if registered {
		delete(hc.streams, s.id)
		hc.active--
		hc.cond.Broadcast()
	}
	hc.mu.Unlock()
	if registered {
		id := s.id
		_ = hc.write(func(fr *http2.Framer) error { return fr.WriteRSTStream(id, code) }) // a dead connection is already failed
	}
}

// writeHeaderBlock writes HEADERS and, past maxFrame, CONTINUATION frames.
func writeHeaderBlock(fr *http2.Framer, id uint32, block []byte, endStream bool, maxFrame uint32) error {
	first := true
	for {
		frag := block
		if uint32(len(frag)) > maxFrame {
			frag = frag[:maxFrame]
		}
		block = block[len(frag):]
		last := len(block) == 0
		var err error
		if first {
			err = fr.WriteHeaders(http2.HeadersFrameParam{StreamID: id, BlockFragment: frag, EndStream: endStream, EndHeaders: last})
		} else {
			err = fr.WriteContinuation(id, last, frag)
		}
		if err != nil || last {
			return err
		}
		first = false
	}
}

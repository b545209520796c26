// Package h3 is lean's HTTP/3 client over quic-go's QUIC. quic-go's
// streams block, so there is no loop: each request opens a stream and
// writes a HEADERS frame whose QPACK block was encoded once, and the
// response is read into one buffer per Stream, its header block scanned
// for :status and content-length only. The client keeps its own control
// stream and reads the server's (SETTINGS, GOAWAY); the QUIC connection is
// dialed with the std client's quic.Config (dial.QUICConfig),
// so that both engines run the same QUIC, but from one UDP socket that the
// process's lean connections share (dial.SharedQUIC), which gives each a
// connection ID of quic-go's default length where the std client's own
// socket lets it take none. A connection's streams write the requests they
// have ready together (writeBatch), so that quic-go packs them in one
// datagram.
package h3

// Package lean is httpvs's own load-generator client for h1, h1-tls, h2c,
// h2 and h3. It does only what a benchmark needs: it repeats one request,
// reads each response's status and counts its body, and allocates nothing
// per request on HTTP/1.1. It exists so that the generator is not what
// gets measured; net/http's client and quic-go's http3 (transport.NewClient)
// stay what users measure when they ask about Go's own stacks.
//
// A Client holds the connections to one target. Streams send one request
// at a time from a goroutine each; a Loop runs a closed loop of requests
// from one goroutine, as h2load's and wrk's event loops do: on Linux over
// non-blocking sockets in one epoll set (several HTTP/2 connections, or
// HTTP/1.1 connections), elsewhere on HTTP/2 from the connection's reader.
//
// HTTP/3 runs over quic-go's QUIC (its streams block, so there is no
// Loop): each request opens a stream and writes a HEADERS frame whose
// QPACK block was encoded once, and the response is read from one buffer
// per Stream, its header block scanned for :status and content-length
// only. The client keeps its own control stream and reads the server's
// (SETTINGS, GOAWAY); the QUIC connection is dialed with the std client's
// quic.Config (config.Client.QUICConfig), so that both engines
// run the same QUIC.
package lean

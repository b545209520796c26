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
// The protocols live in lean/h1, lean/h2 and lean/h3; this package picks
// one by the transport's name and keeps the API the load package uses.
// HTTP/3 runs over quic-go's QUIC and has no Loop (its streams block).
package lean

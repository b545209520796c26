// Package lean is httpvs's own load-generator client for h1, h1-tls, h2c
// and h2. It does only what a benchmark needs: it repeats one request,
// reads each response's status and counts its body, and allocates nothing
// per request on HTTP/1.1. It exists so that the generator is not what
// gets measured; net/http's client (transport.NewClient) stays what users
// measure when they ask about Go's own stack.
//
// A Client holds the connections to one target. Streams send one request
// at a time from a goroutine each; a Loop runs a closed loop of requests
// from one goroutine, as h2load's and wrk's event loops do: on Linux over
// non-blocking sockets in one epoll set (several HTTP/2 connections, or
// HTTP/1.1 connections), elsewhere on HTTP/2 from the connection's reader.
package lean

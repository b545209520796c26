// Package h1 is lean's HTTP/1.1 client, cleartext (h1) or over TLS
// (h1-tls): it repeats one serialized request and counts each response's
// body without keeping it, allocating nothing per request. Streams block,
// one connection each; on Linux, RunLoop drives many connections as wrk's
// threads do, from one goroutine over non-blocking sockets in one epoll set.
package h1

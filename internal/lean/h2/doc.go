// Package h2 is lean's HTTP/2 client, h2c (prior knowledge) or h2 (TLS,
// ALPN h2), over one connection to one target. It encodes the request's
// HPACK block once per connection (later requests index it), scans each
// response's header block for :status only, and counts DATA without
// keeping it, sending WINDOW_UPDATEs as the bytes are read.
//
// Streams send one request at a time each, from their own goroutines, the
// connection read by its own goroutine. RunLoop is a closed loop run by
// the connection's reader goroutine; RunPoll (Linux, PollSupported) runs
// several connections' loops from one goroutine over one epoll set, as each
// of h2load's threads does.
package h2

// Package peers starts reference HTTP servers (h2o, nginx, caddy,
// nghttpd) and runs reference HTTP clients (curl, h2load, wrk, oha) as
// child processes on loopback, so that httpvs can tell the cost of a
// protocol from the cost of Go's implementation of it: a Go client
// against h2o, or h2load against a Go server, changes one end at a time.
// Every peer but caddy (Go) is written in C or, oha, Rust.
//
// The catalog (Catalog, Lookup, ParseList, Discover) names each peer, its
// role and language, the binary and the command that installs it (a
// Debian package, or cargo for oha), and the httpvs transports (h1, h2c,
// h1-tls, h2, h3) it speaks. Start runs a
// server peer with a generated configuration in a temporary directory
// and returns a Server with a URL per transport and per payload, and the
// CPU time of its whole process tree. RunCurl, RunH2load, RunWrk and
// RunOha run a bounded client and parse its output into typed results;
// their Parse functions are pure. RunLoad runs any request-load client
// (h2load, wrk, oha) from one set of options into one LoadResult, where
// a failed request is never a success.
//
// Nothing outlives a Server: Stop (or the cancellation of the context
// given to Start) kills the server's process group and removes its
// directory. The package never prints.
package peers

// Package peers starts reference HTTP servers (h2o, nginx, caddy,
// nghttpd) and runs reference HTTP clients (curl, h2load, wrk) as child
// processes on loopback, so that httpvs can tell the cost of a protocol
// from the cost of Go's implementation of it: a Go client against h2o, or
// h2load against a Go server, changes one end at a time.
//
// The catalog (Catalog, Lookup, ParseList, Discover) names each peer, its
// role, the binary and the Debian package that provides it, and the
// httpvs transports (h1, h2c, h1-tls, h2, h3) it speaks. Start runs a
// server peer with a generated configuration in a temporary directory
// and returns a Server with a URL per transport and per payload, and the
// CPU time of its whole process tree. RunCurl, RunH2load and RunWrk run
// a bounded client and parse its output into typed results; their Parse
// functions are pure.
//
// Nothing outlives a Server: Stop (or the cancellation of the context
// given to Start) kills the server's process group and removes its
// directory. The package never prints.
package peers

// Package profiling takes CPU and heap profiles of a server that exposes
// them (run's child, httpvs serve's /debug/profile/) around a measured
// span, and holds the token those routes require (HTTPVS_TOKEN, or a
// random one for this process's own children), refused in cleartext
// beyond loopback.
package profiling

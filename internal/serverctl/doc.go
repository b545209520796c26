// Package serverctl is the client of an httpvs server's control routes,
// the ones beside the payload: its counters (GET /stats), read around a
// measured span and bounded so that a dead server cannot hold the caller
// (transfer, the matrix, capacity); and its CPU and heap profiles (run's
// child, httpvs serve's /debug/profile/), taken around a measured span
// with the token those routes require (HTTPVS_TOKEN, or a random one for
// this process's own children), refused in cleartext beyond loopback.
package serverctl

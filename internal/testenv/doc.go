// Package testenv is the one home of what this module's tests share, as
// Go's own internal/testenv is of the standard library's:
//
//   - for a TestMain whose package's tests mostly wait (on timers,
//     emulated links, child processes, a browser): more parallel tests at
//     once (RaiseParallel), and race-built children that exit without a
//     second's sleep (QuickChildExits);
//   - for the tests of emulated links (netem's own, internal/netcal's,
//     whole runs'): skip where no link can be made (SkipWithoutPrivilege,
//     SkipIfDenied, NeedLink), open one for the test (Link), a context
//     bounded by the test, and fail on what a link left behind (threads
//     and children in its namespace, descriptors of it);
//   - for the tests of whole runs (internal/cli's, experiment's): a buffer
//     a running command writes while the test reads it, and the results a
//     run wrote;
//   - for the tests of QUIC 0-RTT (server's, transport's): a client that
//     resumes a session and sends requests in early data (DialZeroRTT),
//     through a UDP relay that holds back the packets that would complete
//     its handshake until released, so a server meets those requests
//     before the handshake completes, as it would meet a replay of them
//     (RFC 8470). Loopback only;
//   - for the tests that dial a closed port to be refused: the port held
//     bound, never listening, so that no other test's listener takes it
//     (HoldPorts).
//
// It does not import netem, so netem's in-package tests can use it: they
// and the others pass netem's types and its NewLink in.
package testenv

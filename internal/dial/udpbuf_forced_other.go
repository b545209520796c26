//go:build !linux

package dial

// udpBuffersForced is false off Linux: quic-go forces its buffers past the
// caps only there.
func udpBuffersForced() bool { return false }

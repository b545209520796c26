package dial

// UDP buffers: whether the kernel caps UDP socket buffers below what
// quic-go asks for, in one line for the user (UDPBufferWarning).

import (
	"os"
	"strconv"
	"strings"
)

// quicWantBuffer is the UDP socket buffer size quic-go asks for, in bytes.
const quicWantBuffer = 7 << 20

// quicBuffer is the size a quic-go socket's buffer reads back
// (SO_RCVBUF, SO_SNDBUF: the kernel doubles what was set) under a cap of
// capBytes (net.core.rmem_max or wmem_max), as quic-go v0.65 sets it
// (sys_conn_buffers.go): it asks for quicWantBuffer, is given at most the
// cap, and compares the doubled figure the kernel reports with what it
// asked for, so a cap of half of it or more satisfies it; only below that
// does it force (SO_RCVBUFFORCE), which works where forced says this
// process may. Measured by TestQUICSocketBuffers.
func quicBuffer(capBytes int, forced bool) int {
	if got := 2 * min(quicWantBuffer, capBytes); got >= quicWantBuffer {
		return got
	}
	if forced {
		return 2 * quicWantBuffer
	}
	return 2 * capBytes
}

// UDPBufferWarning returns one line saying that the kernel caps UDP
// socket buffers below what quic-go asks for, and what raising the caps
// was measured to do (on loopback: no gain); it returns "" when the caps
// are large enough or cannot be read, or when quic-go forces its buffers
// past them (quicBuffer). HTTP/3 works either way.
func UDPBufferWarning() string {
	r, rerr := readSysctl("/proc/sys/net/core/rmem_max")
	w, werr := readSysctl("/proc/sys/net/core/wmem_max")
	if rerr != nil || werr != nil {
		return ""
	}
	forced := udpBuffersForced()
	if quicBuffer(r, forced) >= 2*quicWantBuffer && quicBuffer(w, forced) >= 2*quicWantBuffer {
		return ""
	}
	return "warning: UDP buffers at " + strconv.Itoa(min(r, w)>>10) + " KiB, below quic-go's 7 MiB: sysctl -w net.core.rmem_max=7500000 net.core.wmem_max=7500000"
}

func readSysctl(path string) (int, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	return strconv.Atoi(strings.TrimSpace(string(b)))
}

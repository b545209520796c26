package dial

import (
	"context"
	"crypto/tls"
	"net"
	"syscall"
	"testing"
	"time"

	"github.com/quic-go/quic-go"
)

// TestQUICSocketBuffers measures what quic-go's socket gets where the test
// runs, against net.core.rmem_max, and holds quicBuffer's model of it (and
// so the warning) to that: here, as root under a 4 MiB cap, quic-go read
// back 8 MiB, took it for the 7 MiB it asked for and did not force, so
// raising rmem_max would change its buffer (to 14 MiB) even as root.
func TestQUICSocketBuffers(t *testing.T) {
	udp, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	tr := &quic.Transport{Conn: udp}
	defer tr.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	// A dial to nowhere sets the socket up as any use of it would.
	_, _ = tr.Dial(ctx, &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 9}, &tls.Config{NextProtos: []string{"h3"}}, nil)
	raw, err := udp.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var got int
	var gerr error
	if err := raw.Control(func(fd uintptr) { got, gerr = syscall.GetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF) }); err != nil || gerr != nil {
		t.Fatal(err, gerr)
	}
	capped, err := readSysctl("/proc/sys/net/core/rmem_max")
	if err != nil {
		t.Skip(err)
	}
	forced := udpBuffersForced()
	want := quicBuffer(capped, forced)
	t.Logf("rmem_max %d KiB, quic-go's socket %d KiB (the kernel reports twice what was set; model %d KiB), may force %v, warning %q",
		capped>>10, got>>10, want>>10, forced, UDPBufferWarning())
	if got != want {
		t.Errorf("quic-go's socket reads back %d KiB, the model %d KiB", got>>10, want>>10)
	}
	wmem, err := readSysctl("/proc/sys/net/core/wmem_max")
	if err != nil {
		t.Skip(err)
	}
	short := want < 2*quicWantBuffer || quicBuffer(wmem, forced) < 2*quicWantBuffer
	if w := UDPBufferWarning(); (w != "") != short {
		t.Errorf("quic-go's buffers short of what it asks for: %v; warning %q", short, w)
	}
}

package tune

import (
	"fmt"
	"strings"

	"github.com/httpvs/httpvs/transport"
	"github.com/httpvs/httpvs/tune/tuneresult"
	"github.com/httpvs/httpvs/units"
)

// goCode writes s as the Go to paste: the client's transport or QUIC
// config, how to read bodies, and how the server should write them.
func goCode(p transport.Protocol, s tuneresult.Settings) string {
	var b strings.Builder
	if p == transport.H3 {
		var fields []string
		if s.QUICStreamWindow > 0 {
			fields = append(fields, "MaxStreamReceiveWindow: "+size(s.QUICStreamWindow))
		}
		if s.QUICConnWindow > 0 {
			fields = append(fields, "MaxConnectionReceiveWindow: "+size(s.QUICConnWindow))
		}
		fmt.Fprintf(&b, "// client (quic-go)\ntr := &http3.Transport{QUICConfig: &quic.Config{%s}}\n", strings.Join(fields, ", "))
	} else {
		var fields []string
		if s.MaxReadFrameSize > 0 {
			fields = append(fields, "MaxReadFrameSize: "+size(s.MaxReadFrameSize))
		}
		if s.StreamWindow > 0 {
			fields = append(fields, "MaxReceiveBufferPerStream: "+size(s.StreamWindow))
		}
		fmt.Fprintf(&b, "// client\ntr := &http.Transport{HTTP2: &http.HTTP2Config{%s}}\n", strings.Join(fields, ", "))
	}
	if s.ReadSize > 0 {
		// io.CopyBuffer ignores buf when dst has ReadFrom or src WriteTo
		// (io.Discard reads 8 KiB at a time): the wrappers hide them.
		fmt.Fprintf(&b, "buf := make([]byte, %s)\n", size(s.ReadSize))
		b.WriteString("// the wrappers hide io.Discard's ReadFrom, which would read 8 KiB at a time and ignore buf\n")
		b.WriteString("io.CopyBuffer(struct{ io.Writer }{dst}, struct{ io.Reader }{resp.Body}, buf)\n")
	}
	if s.WriteSize > 0 {
		fmt.Fprintf(&b, "// server: write response bodies in %s chunks\nw.Write(chunk[:%s])\n", s.WriteSize, size(s.WriteSize))
	}
	return b.String()
}

// size writes n as a Go constant expression: 256 << 10, 4 << 20.
func size(n units.Bytes) string {
	switch {
	case n >= units.MiB && n%units.MiB == 0:
		return fmt.Sprintf("%d << 20", n/units.MiB)
	case n >= units.KiB && n%units.KiB == 0:
		return fmt.Sprintf("%d << 10", n/units.KiB)
	}
	return fmt.Sprint(int64(n))
}

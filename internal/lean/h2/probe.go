package h2

import (
	"context"
	"fmt"
	"io"
	"time"

	"golang.org/x/net/http2"

	"github.com/httpvs/httpvs/internal/lean/internal/target"
)

// ProbeMaxStreams opens one connection to t and returns the server's
// SETTINGS_MAX_CONCURRENT_STREAMS; announced is false when the server set
// no limit. It sends no request and closes the connection with a GOAWAY.
func ProbeMaxStreams(ctx context.Context, t *target.Target) (limit int, announced bool, err error) {
	conn, err := t.Dial(ctx)
	if err != nil {
		return 0, false, err
	}
	defer conn.Close()
	deadline := time.Now().Add(t.Dialer.Timeout)
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	conn.SetDeadline(deadline)
	fr := http2.NewFramer(conn, conn)
	if _, err := io.WriteString(conn, http2.ClientPreface); err != nil {
		return 0, false, err
	}
	if err := fr.WriteSettings(); err != nil {
		return 0, false, err
	}
	for {
		f, err := fr.ReadFrame()
		if err != nil {
			return 0, false, fmt.Errorf("probe streams: %w", target.EOFIsReset(err))
		}
		sf, ok := f.(*http2.SettingsFrame)
		if !ok || sf.IsAck() {
			continue
		}
		if v, ok := sf.Value(http2.SettingMaxConcurrentStreams); ok {
			limit, announced = int(min(v, 1<<31-1)), true
		}
		fr.WriteSettingsAck()
		fr.WriteGoAway(0, http2.ErrCodeNo, nil)
		return limit, announced, nil
	}
}

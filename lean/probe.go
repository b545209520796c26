package lean

import (
	"context"
	"fmt"
	"io"
	"time"

	"golang.org/x/net/http2"

	"github.com/httpvs/httpvs/lean/internal/target"
	"github.com/httpvs/httpvs/transport"
)

// ProbeMaxStreams opens one connection to req's target and returns how
// many streams it may carry at once: over HTTP/2 (h2c, h2) the server's
// SETTINGS_MAX_CONCURRENT_STREAMS, over HTTP/3 its QUIC
// initial_max_streams_bidi; announced is false when the server set no
// limit. It sends no request and closes the connection (HTTP/2 with a
// GOAWAY); the server sees one connection. A load generator asks before it
// opens more streams per connection than the server allows, which would
// otherwise wait unseen.
func ProbeMaxStreams(ctx context.Context, opts transport.ClientOptions, req Request) (limit int, announced bool, err error) {
	if opts.Protocol.Version() == 1 {
		return 0, false, fmt.Errorf("probe streams: %s carries one request at a time", opts.Protocol)
	}
	c, err := NewClient(opts, req)
	if err != nil {
		return 0, false, err
	}
	if c.h3 != nil {
		return probeH3MaxStreams(ctx, c)
	}
	conn, err := c.t.Dial(ctx)
	if err != nil {
		return 0, false, err
	}
	defer conn.Close()
	deadline := time.Now().Add(c.t.Dialer.Timeout)
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

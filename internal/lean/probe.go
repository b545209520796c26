package lean

import (
	"context"
	"fmt"

	"github.com/httpvs/httpvs/internal/lean/h2"
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
		return c.h3.ProbeMaxStreams(ctx)
	}
	return h2.ProbeMaxStreams(ctx, c.t)
}

package transport

import (
	"net/http"

	"github.com/httpvs/httpvs/config"
)

// http2Config returns the http.HTTP2Config for h; zero fields keep Go's defaults.
func http2Config(h config.HTTP2) *http.HTTP2Config {
	return &http.HTTP2Config{
		MaxConcurrentStreams:          h.MaxConcurrentStreams,
		MaxReadFrameSize:              int(h.MaxReadFrameSize),
		MaxReceiveBufferPerConnection: int(h.MaxReceiveBufferPerConnection),
		MaxReceiveBufferPerStream:     int(h.MaxReceiveBufferPerStream),
	}
}

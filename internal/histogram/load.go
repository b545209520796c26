package histogram

import "github.com/httpvs/httpvs/load/loadresult"

// EncodeLoad encodes a load run's histograms (Encode); late is
// nil for a closed loop, which leaves LateBy empty.
func EncodeLoad(latency, connect, tls, ttfb, late *Histogram) (*loadresult.Histograms, error) {
	var h loadresult.Histograms
	for _, e := range []struct {
		dst *string
		src *Histogram
	}{{&h.Latency, latency}, {&h.Connect, connect}, {&h.TLS, tls}, {&h.TTFB, ttfb}, {&h.LateBy, late}} {
		if e.src == nil {
			continue
		}
		s, err := e.src.Encode()
		if err != nil {
			return nil, err
		}
		*e.dst = s
	}
	return &h, nil
}

package tune

import (
	"github.com/httpvs/httpvs/config"
	"github.com/httpvs/httpvs/transport"
	"github.com/httpvs/httpvs/tune/tuneresult"
	"github.com/httpvs/httpvs/units"
)

// goDefaults are Go's own: what a program gets with zero config and
// io.Copy(io.Discard, resp.Body), 8 KiB reads.
func goDefaults(p transport.Protocol) tuneresult.Settings {
	s := tuneresult.Settings{ReadSize: 8 * units.KiB, WriteSize: 8 * units.KiB}
	if p.Version() == 2 {
		s.MaxReadFrameSize = 16 * units.KiB
	}
	return s
}

// knob is one dimension of the search.
type knob struct {
	name   string
	values []units.Bytes
	get    func(*tuneresult.Settings) *units.Bytes
}

func knobs(p transport.Protocol) []knob {
	read := knob{"read size", []units.Bytes{8 * units.KiB, 64 * units.KiB, 256 * units.KiB, units.MiB}, func(s *tuneresult.Settings) *units.Bytes { return &s.ReadSize }}
	write := knob{"server write size", []units.Bytes{8 * units.KiB, 64 * units.KiB, 256 * units.KiB, units.MiB}, func(s *tuneresult.Settings) *units.Bytes { return &s.WriteSize }}
	if p.Version() == 1 {
		return []knob{read, write}
	}
	if p == transport.H3 {
		return []knob{read, write,
			{"QUIC stream window", []units.Bytes{0, 16 * units.MiB, 64 * units.MiB}, func(s *tuneresult.Settings) *units.Bytes { return &s.QUICStreamWindow }},
			{"QUIC connection window", []units.Bytes{0, 32 * units.MiB, 128 * units.MiB}, func(s *tuneresult.Settings) *units.Bytes { return &s.QUICConnWindow }},
		}
	}
	return []knob{read,
		{"frame size", []units.Bytes{16 * units.KiB, 256 * units.KiB, units.MiB, 4 * units.MiB}, func(s *tuneresult.Settings) *units.Bytes { return &s.MaxReadFrameSize }},
		{"stream window", []units.Bytes{0, 16 * units.MiB, 64 * units.MiB}, func(s *tuneresult.Settings) *units.Bytes { return &s.StreamWindow }},
		write,
	}
}

// clientConfig turns s into the client's knobs.
func clientConfig(s tuneresult.Settings) config.Client {
	return config.Client{
		ReadSize: s.ReadSize,
		HTTP2:    config.HTTP2{MaxReadFrameSize: s.MaxReadFrameSize, MaxReceiveBufferPerStream: s.StreamWindow},
		QUIC:     config.QUIC{MaxStreamReceiveWindow: s.QUICStreamWindow, MaxConnectionReceiveWindow: s.QUICConnWindow},
	}
}

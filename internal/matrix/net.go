package matrix

import (
	"time"

	"github.com/httpvs/httpvs/internal/defaults"
	"github.com/httpvs/httpvs/internal/linkmodel"
	"github.com/httpvs/httpvs/internal/netcal"
	"github.com/httpvs/httpvs/netem"
	"github.com/httpvs/httpvs/results"
)

// NewNet describes the link of spec, given as text and made by backend,
// with its calibration c (which took took); SetCounters adds the counters
// of the cells.
func NewNet(text string, spec netem.Spec, backend netem.Backend, c netcal.Calibration, took time.Duration) *results.Net {
	return &results.Net{
		Spec:       text,
		Preset:     spec.Name,
		Backend:    string(backend),
		Configured: spec.String(),
		// QUICCongestion: httpvs leaves quic-go's default.
		QUICCongestion: linkmodel.QUICController(),
		Up:             netDirection(spec.Up),
		Down:           netDirection(spec.Down),
		Calibration: results.NetCalibration{
			UDPRTTSeconds:            c.UDPRTT.Seconds(),
			TCPConnectSeconds:        c.TCPConnect.Seconds(),
			Probes:                   c.Probes,
			UpLoss:                   c.UpLoss,
			DownLoss:                 c.DownLoss,
			UpRateBitsPerSecond:      float64(c.UpRate.Rate),
			DownRateBitsPerSecond:    float64(c.DownRate.Rate),
			UpGoodputBitsPerSecond:   float64(c.Up),
			DownGoodputBitsPerSecond: float64(c.Down),
			Seconds:                  took.Seconds(),
			UpCounters:               netCounters(c.UpStats),
			DownCounters:             netCounters(c.DownStats),
		},
	}
}

// SetNetCounters records on n the link's counters over the cells.
func SetNetCounters(n *results.Net, up, down netem.DirStats) {
	n.UpCounters, n.DownCounters = netCounters(up), netCounters(down)
}

func netDirection(d netem.Direction) results.NetDirection {
	q := d.Queue
	if q.Packets == 0 && q.Bytes == 0 {
		q.Packets = defaults.QueuePackets
	}
	return results.NetDirection{
		DelaySeconds:      d.Delay.Seconds(),
		JitterSeconds:     d.Jitter.Seconds(),
		RateBitsPerSecond: float64(d.Rate),
		Loss:              d.Loss.Mean(),
		LossModel:         d.Loss.String(),
		QueuePackets:      q.Packets,
		QueueBytes:        int64(q.Bytes),
	}
}

func netCounters(s netem.DirStats) results.NetCounters {
	return results.NetCounters{
		Packets: s.Packets, Bytes: s.Bytes, Lost: s.Lost, QueueDrops: s.QueueDrops,
		Overflow: s.Overflow, Delivered: s.Delivered, Late: s.Late,
		MaxLateSeconds: s.MaxLate.Seconds(), Largest: s.Largest,
	}
}

func newRepetitionLink(up, down netem.DirStats) *results.RepetitionLink {
	return &results.RepetitionLink{Up: netCounters(up), Down: netCounters(down)}
}

package tune

import (
	"time"

	"github.com/httpvs/httpvs/internal/defaults"
	"github.com/httpvs/httpvs/internal/linkmodel"
	"github.com/httpvs/httpvs/netem"
	"github.com/httpvs/httpvs/transport"
	"github.com/httpvs/httpvs/units"
)

// LinkTrialsPerProtocol sizes the budget of a search across a link when
// Options.Budget is zero: trials there last seconds, not 300 ms, and a
// transport's final measurements take 8 of them, so 20 leave 6 candidate
// pairs.
const linkTrialsPerProtocol = 20

// LinkTrial is a trial long enough across s that a new connection's
// handshakes and slow start are a third of it at most: three times slow
// start to the link's rate (downGoodput, its calibrated goodput in bits
// per second, when the rate is unlimited) and four round trips, and
// never shorter than 300 ms. Options.Trial is this across a Link
// when zero.
func linkTrial(s netem.Spec, downGoodput float64) time.Duration {
	if s.Down.Rate <= 0 && downGoodput > 0 {
		s.Down.Rate = units.BitsPerSecond(downGoodput)
	}
	return max(defaults.TuneTrial, 3*(linkmodel.SlowStart(s.Down.Rate, s.RTT())+4*s.RTT()))
}

// withDefaults sets o's zero fields: the transports, the trial and the
// budget, sized for the link when there is one.
func (o Options) withDefaults() Options {
	if len(o.Protocols) == 0 {
		o.Protocols, _ = transport.ParseList(defaults.TuneProtocols) // a constant, tested
	}
	if o.Trial == 0 {
		o.Trial = defaults.TuneTrial
		if l := o.Link; l != nil {
			var goodput float64
			if l.Net != nil {
				goodput = l.Net.Calibration.DownGoodputBitsPerSecond
			}
			o.Trial = linkTrial(l.Spec, goodput)
		}
	}
	if o.Budget == 0 {
		o.Budget = defaults.TuneBudget
		if o.Link != nil {
			o.Budget = max(defaults.TuneBudget, linkTrialsPerProtocol*o.Trial*time.Duration(len(o.Protocols)))
		}
	}
	return o
}

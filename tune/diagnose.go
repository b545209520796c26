package tune

import (
	"github.com/httpvs/httpvs/config"
	"github.com/httpvs/httpvs/internal/analysis"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/transfer/transferresult"
	"github.com/httpvs/httpvs/transport"
	"github.com/httpvs/httpvs/tune/tuneresult"
)

// diagnose runs matrix's rules on the default configuration's measurement
// against h1's, across link when there is one.
func diagnose(p transport.Protocol, def transferresult.Result, r tuneresult.Result, link *Link) []string {
	rep := func(x transferresult.Result, rate float64) results.Repetition {
		m := results.Repetition{Value: rate, Seconds: x.Seconds, Bytes: x.Bytes, ClientBodyReads: x.Client.BodyReads,
			ClientReadSize: x.Client.ReadSize, ClientH2: x.Client.H2Frames, ClientQUIC: x.Client.QUIC}
		return m
	}
	// tune's servers run in this process, on loopback or across the
	// link, with its knobs.
	set := results.Settings{Target: "child", Server: &config.Server{}}
	if link != nil {
		set.Net = link.Net
	}
	res := &results.Results{Settings: set, Cells: []results.Cell{
		{Scenario: "download", Protocol: transport.H1.String(), Metric: results.MetricBytesPerSecond, CPUUnit: "GB",
			Repetitions: []results.Repetition{{Value: r.H1BytesPerSecond}}},
		{Scenario: "download", Protocol: p.String(), Metric: results.MetricBytesPerSecond, CPUUnit: "GB",
			Repetitions: []results.Repetition{rep(def, r.DefaultBytesPerSecond)}},
	}}
	analysis.Summarise(res)
	var out []string
	for _, f := range res.Cells[1].Findings {
		out = append(out, f.String())
	}
	return out
}

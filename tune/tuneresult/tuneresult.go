// Package tuneresult is httpvs tune's report as data: each transport's
// defaults and best settings found, their rates and the gain's interval,
// the diagnosis of the defaults and the Go to paste, and the knob set it
// makes. It imports nothing that speaks a protocol: package tune fills it,
// package report renders it.
package tuneresult

import (
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/units"
)

// Settings are one point of the search space. Zero fields mean Go's (or
// quic-go's) defaults.
type Settings struct {
	ReadSize         units.Bytes `json:"read_size"`           // client body read buffer
	MaxReadFrameSize units.Bytes `json:"max_read_frame_size"` // client HTTP2Config.MaxReadFrameSize
	StreamWindow     units.Bytes `json:"stream_window"`       // client HTTP2Config.MaxReceiveBufferPerStream
	WriteSize        units.Bytes `json:"write_size"`          // server handler write chunk
	QUICStreamWindow units.Bytes `json:"quic_stream_window"`  // client quic.Config.MaxStreamReceiveWindow
	QUICConnWindow   units.Bytes `json:"quic_conn_window"`    // client quic.Config.MaxConnectionReceiveWindow
}

// Result is one transport's outcome.
type Result struct {
	Protocol string `json:"protocol"`
	// DefaultRatioToH1 is Go's defaults' throughput over h1's; RatioToH1
	// the best configuration's, both from the final measurements.
	DefaultRatioToH1 float64  `json:"default_ratio_to_h1"`
	RatioToH1        float64  `json:"ratio_to_h1"`
	Default          Settings `json:"default_settings"`
	Best             Settings `json:"settings"`
	// BestBytesPerSecond and H1BytesPerSecond are the final measurements.
	BestBytesPerSecond    float64 `json:"best_bytes_per_second"`
	DefaultBytesPerSecond float64 `json:"default_bytes_per_second"`
	H1BytesPerSecond      float64 `json:"h1_bytes_per_second"`
	Trials                int     `json:"trials"`
	// Gain is the best configuration's rate over the defaults', the
	// geometric mean of the final rounds' paired ratios, with its 95%
	// interval GainLow..GainHigh (Student's t on the logarithms); Pairs
	// is how many final rounds paired them.
	Gain     float64 `json:"gain"`
	GainLow  float64 `json:"gain_low"`
	GainHigh float64 `json:"gain_high"`
	Pairs    int     `json:"pairs"`
	// DefaultsBest says the best configuration found did not measure
	// faster than Go's defaults beyond doubt in the final rounds (its
	// gain's interval reaches 1, or fewer than two rounds paired): Best
	// is then Default and there is no code to paste.
	DefaultsBest bool `json:"defaults_best"`
	// Candidate is the best configuration the search found, and
	// CandidateBytesPerSecond its final rate, kept when DefaultsBest puts
	// the defaults in Best: what was tried and did not beat them.
	Candidate               Settings `json:"candidate_settings"`
	CandidateBytesPerSecond float64  `json:"candidate_bytes_per_second"`
	// Diagnosis explains the default configuration's gap (matrix's
	// rules); GoCode is the best configuration to paste, "" when the
	// defaults are best.
	Diagnosis []string `json:"diagnosis"`
	GoCode    string   `json:"go_code"`
}

// Report is a whole search.
type Report struct {
	Seconds float64  `json:"seconds"`
	Results []Result `json:"results"`
	Partial bool     `json:"partial"` // the budget or an interrupt cut the search short
	// Net is the emulated link the search ran across (Options.Link); nil
	// on loopback.
	Net *results.Net `json:"net,omitempty"`
}

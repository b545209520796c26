package results

// Net is the emulated link a run measured across: the spec asked for,
// a calibration of the link obtained, and the emulator's counters.
type Net struct {
	// Spec is the link spec as given, e.g. "4g" or "rtt=50ms,loss=1%".
	Spec string `json:"spec"`
	// Preset is the preset the spec started from; "" for none.
	Preset string `json:"preset,omitempty"`
	// Backend is how the link was made: NetBackendTUN or NetBackendNetem.
	Backend string `json:"backend"`
	// Configured is the spec with every field explicit (netem.Spec.String).
	Configured string `json:"configured"`
	// TCPCongestion is the TCP congestion control both ends used
	// (netem.Link.CongestionControl: the spec's cc=, or the kernel's
	// default), QUICCongestion HTTP/3's (quic-go's own): a link result
	// compares them as much as the protocols.
	TCPCongestion  string `json:"tcp_congestion,omitempty"`
	QUICCongestion string `json:"quic_congestion,omitempty"`
	// Up (client to server) and Down (server to client) are the
	// configured directions.
	Up   NetDirection `json:"up"`
	Down NetDirection `json:"down"`
	// Calibration is the link as measured before the cells.
	Calibration NetCalibration `json:"calibration"`
	// UpCounters and DownCounters are the link's counters over the cells
	// (calibration traffic left out).
	UpCounters   NetCounters `json:"up_counters"`
	DownCounters NetCounters `json:"down_counters"`
}

// NetDirection is one configured direction of a link.
type NetDirection struct {
	DelaySeconds  float64 `json:"delay_seconds"`  // one-way propagation delay
	JitterSeconds float64 `json:"jitter_seconds"` // largest extra delay per packet
	// RateBitsPerSecond is the rate of IP packets; 0 for unlimited.
	RateBitsPerSecond float64 `json:"rate_bits_per_second"`
	// Loss is the model's mean loss, a fraction in [0, 1]; LossModel the
	// model as in a spec ("1%", "ge:1%:25%:100%:0%").
	Loss      float64 `json:"loss"`
	LossModel string  `json:"loss_model"`
	// QueuePackets and QueueBytes are the drop-tail limits; 0 for none.
	QueuePackets int   `json:"queue_packets"`
	QueueBytes   int64 `json:"queue_bytes"`
}

// NetCalibration is a link as measured across it by the run that made it.
type NetCalibration struct {
	UDPRTTSeconds     float64 `json:"udp_rtt_seconds"`     // median round trip of small UDP probes
	TCPConnectSeconds float64 `json:"tcp_connect_seconds"` // median TCP handshake
	Probes            int     `json:"probes"`              // UDP probes sent up
	UpLoss            float64 `json:"up_loss"`             // fraction of probes lost client to server
	DownLoss          float64 `json:"down_loss"`           // fraction of echoes lost server to client
	// UpRateBitsPerSecond and DownRateBitsPerSecond are each direction's
	// rate, bits per second of IP packets, as paced UDP datagrams found it
	// (the calibration's rate probe): the link's, whatever congestion control runs
	// across it; 0 where no rate is set.
	UpRateBitsPerSecond   float64 `json:"up_rate_bits_per_second,omitempty"`
	DownRateBitsPerSecond float64 `json:"down_rate_bits_per_second,omitempty"`
	// UpGoodputBitsPerSecond and DownGoodputBitsPerSecond are one TCP
	// connection's payload rate each way after slow start, under the
	// link's TCP congestion control (TCPCongestion): that controller's
	// figure on this link (on a lossy one its loss response), kept apart
	// from the link's bound.
	UpGoodputBitsPerSecond   float64 `json:"up_goodput_bits_per_second"`
	DownGoodputBitsPerSecond float64 `json:"down_goodput_bits_per_second"`
	Seconds                  float64 `json:"seconds"` // wall time the calibration took
	// UpCounters and DownCounters are the link's counters over the
	// calibration, whose bulk transfers at an unlimited rate find the
	// emulator's ceiling (packets late).
	UpCounters   NetCounters `json:"up_counters"`
	DownCounters NetCounters `json:"down_counters"`
}

// NetCounters are one direction's counters (netem.DirStats); packets and
// bytes are IP packets.
type NetCounters struct {
	Packets    int64 `json:"packets"`     // entered the direction
	Bytes      int64 `json:"bytes"`       // their total size
	Lost       int64 `json:"lost"`        // dropped by the loss model
	QueueDrops int64 `json:"queue_drops"` // dropped by the drop-tail queue
	// Overflow counts packets the emulator's delay line could not hold:
	// lost by the emulator, not the model.
	Overflow  int64 `json:"overflow"`
	Delivered int64 `json:"delivered"` // written to the receiving side
	// Late counts packets written more than 1 ms after their due time
	// (the emulator could not keep up), MaxLateSeconds the latest one.
	Late           int64   `json:"late"`
	MaxLateSeconds float64 `json:"max_late_seconds"`
	Largest        int64   `json:"largest_packet_bytes"` // the largest packet, bytes
}

// RepetitionLink is what the emulated link did over one repetition, or
// over a cell's repetitions together (CellLink).
type RepetitionLink struct {
	Up   NetCounters `json:"up"`   // client to server
	Down NetCounters `json:"down"` // server to client
}

// The values of Net.Backend (netem.Backend).
const (
	// NetBackendTUN is netem's userspace link: two network namespaces
	// joined by TUN devices, the model applied by this process.
	NetBackendTUN = "tun"
	// NetBackendNetem is two network namespaces joined by a veth pair, the
	// model applied by the kernel's netem qdisc on each end.
	NetBackendNetem = "netem"
)

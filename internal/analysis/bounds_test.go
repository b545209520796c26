package analysis

import (
	"math"
	"strings"
	"testing"

	"github.com/httpvs/httpvs/internal/buildinfo"
	"github.com/httpvs/httpvs/internal/linkmodel"
	"github.com/httpvs/httpvs/internal/vocab"
	"github.com/httpvs/httpvs/plan"
	"github.com/httpvs/httpvs/results"
)

// linkCell is a cell of scenario over protocol whose repetitions read values.
func linkCell(scenario, protocol string, values ...float64) results.Cell {
	sc, _ := plan.ScenarioOf(nil, scenario)
	c := results.Cell{Scenario: scenario, Protocol: protocol, Metric: sc.Metric}
	for i, v := range values {
		c.Repetitions = append(c.Repetitions, results.Repetition{Round: i + 1, Value: v, Seconds: 1})
	}
	SummariseCell(&c)
	return c
}

func TestColdRTTs(t *testing.T) {
	for _, tc := range []struct {
		protocol string
		resumed  bool
		want     int
	}{
		{"h1", false, 2}, {"h2c", true, 2}, {"h1-tls", false, 3}, {"h2", true, 3}, {"h3", false, 2}, {"h3", true, 1}, {vocab.NativeColumn, false, 0},
	} {
		if got, _ := linkmodel.ColdRTTs(tc.protocol, tc.resumed); got != tc.want {
			t.Errorf("%s resumed=%v: %d round trips, want %d", tc.protocol, tc.resumed, got, tc.want)
		}
	}
}

func TestBoundsPlaceCells(t *testing.T) {
	n := linkOf(0.050, 96e6, 0) // 12 MB/s of goodput, 50 ms
	for _, tc := range []struct {
		name        string
		cell        results.Cell
		value       float64 // the bound
		share       float64
		departs     bool
		unexplained bool
	}{
		{"download at the link", linkCell("download", "h2c", 11.9e6, 12e6, 11.8e6), 12e6, 0.99, false, false},
		{"download in slow start", linkCell("download", "h1", 2.4e6, 2.4e6, 2.5e6), 12e6, 0.2, true, true},
		{"download beyond the link", linkCell("download", "h3", 14e6, 14.1e6), 12e6, 14.05 / 12, true, true},
		{"small-concurrent at 50/RTT", linkCell("small-concurrent", "h1", 960, 955, 962), 1000, 0.96, false, false},
		{"small-concurrent in short rounds", linkCell("small-concurrent", "h2c", 530, 640, 600), 1000, 0.6, true, true},
		{"small-sequential at 1/RTT", linkCell("small-sequential", "h3", 19.5, 19.4), 20, 0.975, false, false},
		{"cold-start over TLS at 3 RTT", linkCell("cold-start", "h2", 0.152, 0.153, 0.151), 0.150, 1.013, false, false},
		{"cold-start faster than physics", linkCell("cold-start", "h1-tls", 0.101, 0.102), 0.150, 0.677, true, true},
		{"0-RTT at 1 RTT", linkCell("cold-start-resumed", "h3", 0.052, 0.051), 0.050, 1.03, false, false},
		{"head-of-line behind a download", withBulk(linkCell("head-of-line", "h2c", 0.4, 0.5, 0.45), 11e6), 0.050, 9, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := &results.Results{Settings: results.Settings{Net: n}, Cells: []results.Cell{tc.cell}}
			Bounds(res)
			b := res.Cells[0].Bound
			if b == nil {
				t.Fatal("no bound")
			}
			if math.Abs(b.Value-tc.value) > 1e-9*tc.value || math.Abs(b.Share-tc.share) > 0.01*tc.share {
				t.Errorf("bound %g, share %.3f; want %g, %.3f (%s)", b.Value, b.Share, tc.value, tc.share, b.Basis)
			}
			if b.Departs != tc.departs || b.Unexplained != tc.unexplained {
				t.Errorf("departs %v unexplained %v (explained %q), want %v %v", b.Departs, b.Unexplained, b.Explained, tc.departs, tc.unexplained)
			}
		})
	}
}

// TestBoundsExplainDepartures: each model explains the cells it predicts
// and refuses the others, which are printed as unexplained.
func TestBoundsExplainDepartures(t *testing.T) {
	const mbit = 1e6 / 8 // bytes per second
	bbr := linkCC(withRate(linkOf(0.100, 9e6, 0.01), 10e6), "rtt=100ms,rate=10mbit,loss=1%", "bbr")
	cubic := linkCC(withRate(linkOf(0.100, 1.4e6, 0.01), 10e6), "rtt=100ms,rate=10mbit,loss=1%,cc=cubic", "cubic")
	unknown := linkCC(withRate(linkOf(0.100, 9e6, 0.01), 10e6), "rtt=100ms,rate=10mbit,loss=1%", "")
	at50 := linkCC(withRate(linkOf(0.050, 2.8e6, 0.01), 100e6), "rtt=50ms,rate=100mbit,loss=1%", "cubic")
	// h3's controller as this binary names it: with quic-go's version
	// where the test binary lists its modules (Go 1.27), bare in 1.26.
	builtQUIC := linkmodel.QUICControllerOf(buildinfo.ReadBuild().Modules[linkmodel.QUICModule])
	for _, tc := range []struct {
		name string
		n    *results.Net
		cell results.Cell
		want string // the explanation's start; "" for unexplained
		has  string
	}{
		// Mathis for quic-go's Cubic at 100 ms, 1%: 1.42 Mbit/s.
		{"h3 on Cubic's bound, TCP on BBR: the controllers", bbr, sized(linkCell("download", "h3", 1.6*mbit, 1.5*mbit, 1.7*mbit)), "congestion-control:", "rtt=100ms,rate=10mbit,loss=1%,cc=cubic"},
		{"h3 far below Cubic's bound: refused", bbr, sized(linkCell("download", "h3", 0.2*mbit, 0.25*mbit, 0.22*mbit)), "", ""},
		{"h3 above twice Cubic's bound: refused", bbr, sized(linkCell("download", "h3", 4*mbit, 4.2*mbit, 4.1*mbit)), "", ""},
		{"TCP on BBR below the link: losses refused", bbr, sized(linkCell("download", "h2", 4*mbit, 4.1*mbit, 3.9*mbit)), "", ""},
		{"TCP on Cubic at its bound: losses", cubic, sized(linkCell("download", "h1", 1.5*mbit, 1.4*mbit, 1.45*mbit)), "losses:", "predicts"},
		{"h3 at Cubic's bound, TCP on Cubic too: losses", cubic, sized(linkCell("download", "h3", 1.5*mbit, 1.4*mbit, 1.45*mbit)), "losses:", builtQUIC},
		{"TCP's controller not recorded: no prediction", unknown, sized(linkCell("download", "h1", 1.5*mbit, 1.4*mbit, 1.45*mbit)), "", ""},
		// At 50 ms and 1% Cubic's bound is 2.8 Mbit/s (TCP).
		{"50 ms, 1%: TCP at its bound", at50, sized(linkCell("download", "h1", 2.6*mbit, 2.7*mbit, 2.9*mbit)), "losses:", ""},
		{"50 ms, 1%: TCP at 20% of 96 Mbit/s, four times the bound", at50, sized(linkCell("download", "h1", 19*mbit, 19.5*mbit, 18.5*mbit)), "", ""},
		{"TCP on Cubic beyond the link: a defect, never explained", cubic, sized(linkCell("download", "h1", 11*mbit, 11.5*mbit, 11.2*mbit)), "", ""},
		{"small requests on a lossy link: no loss model", bbr, linkCell("small-concurrent", "h3", 300, 310, 290), "", ""},
		{"head-of-line behind a download at the link", linkOf(0.050, 96e6, 0), withBulk(linkCell("head-of-line", "h2c", 0.4, 0.5, 0.45), 11e6), "head-of-line:", "predict at most"},
		{"head-of-line behind a download at 5% of the link: refused", linkOf(0.050, 96e6, 0), withBulk(linkCell("head-of-line", "h2c", 0.4, 0.5, 0.45), 0.6e6), "", ""},
		{"head-of-line ten seconds late: refused", linkOf(0.050, 96e6, 0), withBulk(linkCell("head-of-line", "h2c", 10, 11, 10.5), 11e6), "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := &results.Results{Settings: results.Settings{Net: tc.n}, Cells: []results.Cell{tc.cell}}
			Bounds(res)
			b := res.Cells[0].Bound
			if b == nil || !b.Departs {
				t.Fatalf("bound %+v: want a departure", b)
			}
			t.Log(b.Explained)
			if b.Unexplained != (tc.want == "") || !strings.HasPrefix(b.Explained, tc.want) || !strings.Contains(b.Explained, tc.has) {
				t.Errorf("explained %q (unexplained %v); want it to start %q and hold %q", b.Explained, b.Unexplained, tc.want, tc.has)
			}
		})
	}
	// A CPU-bound cell is explained by its bottleneck.
	c := linkCell("download", "h2c", 5e6, 5e6)
	for i := range c.Repetitions {
		c.Repetitions[i].Bottleneck = results.BottleneckClient
	}
	res := &results.Results{Settings: results.Settings{Net: linkOf(0.050, 96e6, 0)}, Cells: []results.Cell{c}}
	Bounds(res)
	if b := res.Cells[0].Bound; b == nil || b.Unexplained || !strings.HasPrefix(b.Explained, "cpu-bound") {
		t.Errorf("CPU-bound h2c: %+v, want explained as cpu-bound", b)
	}
	// No bound on loopback, nor for request bodies.
	res = &results.Results{Cells: []results.Cell{linkCell("download", "h1", 1e9)}}
	Bounds(res)
	if res.Cells[0].Bound != nil {
		t.Errorf("loopback cell has a bound: %+v", res.Cells[0].Bound)
	}
	res = &results.Results{Settings: results.Settings{Net: bbr}, Cells: []results.Cell{linkCell("headers-body", "h1", 100)}}
	Bounds(res)
	if res.Cells[0].Bound != nil {
		t.Errorf("headers-body has a bound: %+v", res.Cells[0].Bound)
	}
}

func TestPageBoundOrdersTransports(t *testing.T) {
	n := linkOf(0.070, 11.6e6, 0) // 4g
	bounds := map[string]float64{}
	for _, p := range []string{"h1", "h2c", "h1-tls", "h2", "h3"} {
		b := linkmodel.PageBound(p, n)
		if b == nil {
			t.Fatalf("%s: no bound", p)
		}
		bounds[p] = b.Value
	}
	// The page's bytes take 0.49 s at 11.6 Mbit/s: every bound is above
	// that and the cold handshakes' round trips; one connection with a
	// window grown by the document beats six cold ones; TLS costs h1 and
	// h2 a round trip each; QUIC's larger initial window beats TCP's.
	bytes := 0.0
	for _, o := range linkmodel.Page {
		bytes += float64(o.Bytes)
	}
	for p, v := range bounds {
		if v < bytes*8/11.6e6 {
			t.Errorf("%s: %.3f s, below the page's bytes at the link's rate", p, v)
		}
	}
	if !(bounds["h3"] <= bounds["h2c"] && bounds["h2c"] < bounds["h2"] && bounds["h2"] < bounds["h1-tls"] && bounds["h2c"] < bounds["h1"]) {
		t.Errorf("bounds %v: want h3 <= h2c < h2 < h1-tls, h2c < h1", bounds)
	}
}

// linkOf is a link of rtt seconds (as set) and rate bits per second each
// way, calibrated to goodput, with loss.
func linkOf(rtt, goodput, loss float64) *results.Net {
	n := &results.Net{Spec: "test", Backend: results.NetBackendTUN}
	n.Up.DelaySeconds, n.Down.DelaySeconds = rtt/2, rtt/2
	n.Up.Loss, n.Down.Loss = loss, loss
	n.Calibration.UDPRTTSeconds, n.Calibration.TCPConnectSeconds = rtt*1.1, rtt*1.05
	n.Calibration.UpGoodputBitsPerSecond, n.Calibration.DownGoodputBitsPerSecond = goodput, goodput
	return n
}

// withRate is n with its rate set to rate bits per second each way.
func withRate(n *results.Net, rate float64) *results.Net {
	n.Up.RateBitsPerSecond, n.Down.RateBitsPerSecond = rate, rate
	return n
}

// linkCC is n with its spec and TCP's congestion control set.
func linkCC(n *results.Net, spec, cc string) *results.Net {
	n.Spec, n.TCPCongestion = spec, cc
	return n
}

// sized is transfer c as the run sizes one across a lossy link, long
// enough to meet about a hundred loss events at 1%: each repetition a
// 100-second transfer at its value.
func sized(c results.Cell) results.Cell {
	for i := range c.Repetitions {
		r := &c.Repetitions[i]
		r.Seconds = 100
		r.Bytes = int64(r.Value * r.Seconds)
	}
	return c
}

// withBulk is head-of-line's c with the download's bytes per second over
// each repetition.
func withBulk(c results.Cell, rate float64) results.Cell {
	for i := range c.Repetitions {
		c.Repetitions[i].BulkBytes = int64(rate * c.Repetitions[i].Seconds)
	}
	return c
}

// TestLossyLinkClasses: on a lossy link whose rate is set, the bound is
// the rate less framing whatever the calibration's TCP transfer read (its
// controller's loss response), each cell carries its controller's model,
// and is at the link, at its loss bound, or unexplained; none is above the
// link's bound unflagged.
func TestLossyLinkClasses(t *testing.T) {
	const mbit = 1e6 / 8
	n := linkCC(withRate(linkOf(0.100, 1.4e6, 0.01), 10e6), "rtt=100ms,rate=10mbit,loss=1%,cc=reno", "reno")
	for _, tc := range []struct {
		name, protocol string
		value          float64
		class          string
		limited        bool
	}{
		{"reno at Mathis's bound", "h1-tls", 1.5 * mbit, ClassAtLossBound, true},
		{"quic-go's cubic at its bound", "h3", 1.3 * mbit, ClassAtLossBound, true},
		{"reno at a tenth of Mathis's: refused", "h2", 0.14 * mbit, ClassUnexplained, true},
		{"reno at the link (the model refused, the link holds)", "h1-tls", 9.5 * mbit, ClassAtLink, true},
		{"above the link", "h2", 10.5 * mbit, ClassBeyond, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := &results.Results{Settings: results.Settings{Net: n}, Cells: []results.Cell{sized(linkCell("download", tc.protocol, tc.value, tc.value*1.02, tc.value*0.98))}}
			Bounds(res)
			b := res.Cells[0].Bound
			if b == nil {
				t.Fatal("no bound")
			}
			if want := 10e6 / 8 * 0.95; b.Value < want || b.Value > 10e6/8 {
				t.Errorf("bound %.0f B/s (%s): want the rate less framing, 95-100%% of 1.25 MB/s", b.Value, b.Basis)
			}
			if b.Loss == nil || b.Loss.Limited != tc.limited || b.Loss.Value > 1.5*mbit || b.Loss.Value < 1.3*mbit {
				t.Fatalf("loss model %+v: want the controller's, 1.3-1.5 Mbit/s", b.Loss)
			}
			if got := BoundClass(b); got != tc.class {
				t.Errorf("class %q (explained %q), want %q", got, b.Explained, tc.class)
			}
		})
	}
	// BBR below its threshold: the model is the link.
	bbr := linkCC(withRate(linkOf(0.100, 9e6, 0.01), 10e6), "rtt=100ms,rate=10mbit,loss=1%", "bbr")
	res := &results.Results{Settings: results.Settings{Net: bbr}, Cells: []results.Cell{linkCell("download", "h2", 9.4*mbit, 9.5*mbit, 9.3*mbit)}}
	Bounds(res)
	if b := res.Cells[0].Bound; b == nil || b.Loss == nil || b.Loss.Limited || BoundClass(b) != ClassAtLink {
		t.Errorf("BBR at the link: %+v, want at the link with an unlimited loss model", b)
	}
}

// TestRequestBoundSaysItsBasis: a request with big responses is bounded
// by the link's goodput, named as what it is: the configured rate less
// TCP's framing on a link with a rate, the calibration's goodput on one
// without.
func TestRequestBoundSaysItsBasis(t *testing.T) {
	sc := plan.RequestScenarios([]results.Request{{Method: "GET", Path: "/big"}})[1]
	c := results.Cell{Scenario: sc.Name, Protocol: "h1", ResponseBytes: 1 << 20}
	for _, tc := range []struct {
		n    *results.Net
		want string
	}{
		{withRate(linkOf(0.050, 9e6, 0), 10e6), "the link's rate down less TCP's framing (9."},
		{linkOf(0.050, 9e6, 0), "the link's calibrated TCP goodput down (9.00 Mbit/s; no rate set) over 1048576-byte responses"},
	} {
		b := requestBound(&c, sc, tc.n, 0.050)
		if b == nil || !strings.Contains(b.Basis, tc.want) || b.Value != linkmodel.LinkGoodput(tc.n, false)/float64(c.ResponseBytes) {
			t.Errorf("basis %q, want one holding %q", b.Basis, tc.want)
		}
	}
}

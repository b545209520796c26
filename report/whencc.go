package report

import (
	"fmt"
	"strings"

	"github.com/httpvs/httpvs/internal/protoname"
	"github.com/httpvs/httpvs/internal/vocab"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/units"
)

// linkControllers is a run's congestion controls in a few words: "TCP
// bbr, QUIC quic-go's cubic"; "-" on loopback or where not recorded.
func linkControllers(res *results.Results) string {
	n := res.Settings.Net
	if n == nil || n.TCPCongestion == "" {
		return "-"
	}
	return "TCP " + n.TCPCongestion + ", QUIC " + n.QUICCongestion
}

// controllerLines compare, across runs of one link under different TCP
// congestion controls (run --net ...,cc=bbr,cubic), each transfer's place
// against the link: its share of the link's bound and its class
// (verdict.BoundClass) under each controller, and where the class moves
// with the controller, that the controller, not the transport, sets the
// figure. nil unless two runs or more crossed the same link with
// different controllers.
func controllerLines(runs []*results.Results) []string {
	if !sameLinkOtherCC(runs) {
		return nil
	}
	lines := []string{"by congestion control (the same link under each; QUIC runs quic-go's own on every one):"}
	first := runs[0]
	for _, name := range first.ScenarioNames() {
		for _, p := range first.ProtocolNames(name) {
			var parts []string
			classes := map[string]bool{}
			for _, res := range runs {
				c := res.Cell(name, p)
				if c == nil || c.Bound == nil {
					continue
				}
				b := c.Bound
				class := b.Class
				classes[class] = true
				part := fmt.Sprintf("%s under %s (%s", metricValue(c.Metric, c.Median), ccOf(res, p), class)
				if class == vocab.ClassAtLossBound && b.Loss != nil {
					part += fmt.Sprintf(" %s", units.BitsPerSecond(b.Loss.Value*8))
				}
				parts = append(parts, part+fmt.Sprintf(", %s of the link)", shareText(b)))
			}
			if len(parts) < 2 {
				continue
			}
			line := fmt.Sprintf("  %s/%s: %s", name, p, strings.Join(parts, "; "))
			if len(classes) > 1 && p != protoname.H3 {
				line += ": its class against the link differs by controller (separate runs, not paired rounds)"
			}
			lines = append(lines, line)
		}
	}
	if len(lines) == 1 {
		return nil
	}
	return lines
}

// ccOf names the controller that sent p's data in res.
func ccOf(res *results.Results, p string) string {
	n := res.Settings.Net
	if p == protoname.H3 {
		return n.QUICCongestion
	}
	return n.TCPCongestion
}

// sameLinkOtherCC says runs crossed one link spec (its configured form
// without cc=) under at least two TCP congestion controls.
func sameLinkOtherCC(runs []*results.Results) bool {
	spec, ccs := "", map[string]bool{}
	for i, res := range runs {
		n := res.Settings.Net
		if n == nil || n.TCPCongestion == "" {
			return false
		}
		s := withoutCC(n.Configured)
		if i > 0 && s != spec {
			return false
		}
		spec, ccs[n.TCPCongestion] = s, true
	}
	return len(ccs) > 1
}

// withoutCC is a configured link spec without its cc= field.
func withoutCC(spec string) string {
	var keep []string
	for _, f := range strings.Split(spec, ",") {
		if !strings.HasPrefix(f, "cc=") {
			keep = append(keep, f)
		}
	}
	return strings.Join(keep, ",")
}

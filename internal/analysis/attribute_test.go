package analysis

import (
	"strings"
	"testing"

	"github.com/httpvs/httpvs/internal/attribution"
	"github.com/httpvs/httpvs/results"
)

// TestWhereItWent: cpu-per-byte's fix names where a busy side's extra CPU
// went when the cell was attributed, and only the busy sides'; without an
// attribution it says that profiles would.
func TestWhereItWent(t *testing.T) {
	c := &results.Cell{CPUUnit: "GB", Attribution: []*results.AttributionSide{
		{Side: "client", ExtraSecondsPerUnit: 0.2, SecondsPerUnit: 0.5, BaseSecondsPerUnit: 0.3, Samples: 200, BaseSamples: 200,
			GrowthSecondsPerUnit: 0.2, Areas: []results.AttributionShare{{Name: attribution.AreaSyscall, ChangeSecondsPerUnit: 0.2, Share: 1}}},
		{Side: "server", ExtraSecondsPerUnit: 1.5, SecondsPerUnit: 1.6, BaseSecondsPerUnit: 0.1, Samples: 300, BaseSamples: 150,
			GrowthSecondsPerUnit: 1.6, ShrinkageSecondsPerUnit: 0.1,
			Areas:       []results.AttributionShare{{Name: attribution.AreaHTTP2, ChangeSecondsPerUnit: 0.8, Share: 0.5}, {Name: attribution.AreaSyscall, ChangeSecondsPerUnit: 0.48, Share: 0.3}, {Name: attribution.AreaGC, ChangeSecondsPerUnit: 0.16, Share: 0.1}},
			ShrunkAreas: []results.AttributionShare{{Name: attribution.AreaHTTP1, ChangeSecondsPerUnit: -0.1, Share: 1}},
			Functions:   []results.AttributionShare{{Name: "net/http.(*http2Framer).WriteDataPadded", ChangeSecondsPerUnit: 0.32}, {Name: "a", ChangeSecondsPerUnit: 0.16}, {Name: "b", ChangeSecondsPerUnit: 0.08}}},
	}}
	got := whereItWent(c, []string{"server"})
	want := "; where it went: server +1.50 s/GB (1.60 vs 0.10) = 1.60 grew - 0.10 shrank; grew: HTTP/2 (net/http) +0.80 (50% of the growth), syscalls and the netpoller +0.48 (30%), 0.32 in smaller changes; " +
		"shrank: net/http -0.10 (100% of the shrinkage); functions: net/http.(*http2Framer).WriteDataPadded +0.32, a +0.16"
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	if got := whereItWent(&results.Cell{CPUUnit: "GB"}, []string{"client"}); !strings.Contains(got, "CPU profiles of both ends") {
		t.Errorf("unattributed: %q", got)
	}
}

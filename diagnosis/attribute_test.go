package diagnosis

import (
	"strings"
	"testing"

	"github.com/httpvs/httpvs/attribution"
	"github.com/httpvs/httpvs/results"
)

// TestWhereItWent: cpu-per-byte's fix names where a busy side's extra CPU
// went when the cell was attributed, and only the busy sides'; without an
// attribution it says that profiles would.
func TestWhereItWent(t *testing.T) {
	c := &results.Cell{CPUUnit: "GB", Attribution: []*attribution.Side{
		{Side: "client", ExtraSecondsPerUnit: 0.2, SecondsPerUnit: 0.5, BaseSecondsPerUnit: 0.3, Samples: 200, BaseSamples: 200,
			Areas: []attribution.Share{{Name: attribution.AreaSyscall, Share: 0.7}}},
		{Side: "server", ExtraSecondsPerUnit: 1.5, SecondsPerUnit: 1.6, BaseSecondsPerUnit: 0.1, Samples: 300, BaseSamples: 150,
			Areas:     []attribution.Share{{Name: attribution.AreaHTTP2, Share: 0.5}, {Name: attribution.AreaSyscall, Share: 0.3}, {Name: attribution.AreaGC, Share: 0.1}},
			Functions: []attribution.Share{{Name: "net/http.(*http2Framer).WriteDataPadded", Share: 0.2}, {Name: "a", Share: 0.1}, {Name: "b", Share: 0.05}}},
	}}
	got := whereItWent(c, []string{"server"})
	want := "; where it went: server +1.5 s/GB (1.6 vs 0.1): 50% HTTP/2 (net/http), 30% syscalls and the netpoller; net/http.(*http2Framer).WriteDataPadded 20%, a 10%"
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	if got := whereItWent(&results.Cell{CPUUnit: "GB"}, []string{"client"}); !strings.Contains(got, "CPU profiles of both ends") {
		t.Errorf("unattributed: %q", got)
	}
}

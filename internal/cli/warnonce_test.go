package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/httpvs/httpvs/results"
)

// TestSweepSaysTheUDPWarningOnce: a sweep prints a report per link on
// stdout; the machine's UDP buffer warning, the same for every link, is
// said once, at the top of the output, while each link's results keep it.
func TestSweepSaysTheUDPWarningOnce(t *testing.T) {
	const udp = "warning: UDP buffers at 208 KiB, below quic-go's 7 MiB: sysctl -w net.core.rmem_max=7500000 net.core.wmem_max=7500000"
	var out bytes.Buffer
	e := &env{stdout: &out, stderr: &bytes.Buffer{}}
	f := &runFlags{format: "text", noFiles: true}
	var runs []*results.Results
	for range 2 {
		res := &results.Results{SchemaVersion: results.SchemaVersion, Settings: results.Settings{Protocols: []string{"h1"}, UDPBuffers: udp, Target: "child"}}
		runs = append(runs, res)
		if err := finishRun(e, f, res); err != nil {
			t.Fatal(err)
		}
	}
	if n := strings.Count(out.String(), "UDP buffers at 208 KiB"); n != 1 {
		t.Errorf("the warning %d times in two links' reports, want once:\n%s", n, out.String())
	}
	if runs[1].Settings.UDPBuffers != udp {
		t.Errorf("the second link's results lost the warning")
	}
}

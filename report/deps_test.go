package report

import (
	"os/exec"
	"strings"
	"testing"
)

// report only renders: it must not link a protocol stack, nor the packages
// that measure (their result types live in leaves: loadresult,
// transferresult, results). A new import that drags one in fails here
// rather than silently growing every program that renders.
func TestReportLinksNoProtocolStack(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to list the dependencies with")
	}
	out, err := exec.Command(goBin, "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	banned := []string{"github.com/quic-go/", "google.golang.org/grpc", "github.com/httpvs/httpvs/internal/lean",
		"github.com/httpvs/httpvs/transport", "github.com/httpvs/httpvs/internal/wire"}
	measurers := map[string]bool{"github.com/httpvs/httpvs/load": true, "github.com/httpvs/httpvs/transfer": true,
		"github.com/httpvs/httpvs/internal/peers": true, "github.com/httpvs/httpvs/tune": true, "github.com/httpvs/httpvs/internal/matrix": true,
		"github.com/httpvs/httpvs/internal/analysis": true, "github.com/httpvs/httpvs/experiment": true}
	for _, dep := range strings.Fields(string(out)) {
		for _, b := range banned {
			if strings.HasPrefix(dep, b) {
				t.Errorf("report links %s", dep)
			}
		}
		if measurers[dep] {
			t.Errorf("report links %s", dep)
		}
	}
}

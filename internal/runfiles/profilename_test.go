package runfiles

import (
	"testing"

	"github.com/httpvs/httpvs/internal/vocab"
)

func TestProfileFile(t *testing.T) {
	for _, tc := range []struct{ scenario, protocol, want string }{
		{"download", "h2c", "download_h2c.client.cpu.pprof"},
		{"download" + vocab.VariantSep + "tuned", "h2", "download+tuned_h2.client.cpu.pprof"},
		{"GET /api/items?id=7", "h1-tls", "GET__api_items_id_7_h1-tls.client.cpu.pprof"},
	} {
		if got := ProfileFile(tc.scenario, tc.protocol, "client", "cpu"); got != tc.want {
			t.Errorf("%s/%s: %q, want %q", tc.scenario, tc.protocol, got, tc.want)
		}
	}
}

package results

import (
	"slices"
	"testing"

	"github.com/httpvs/httpvs/transport"
)

// transports must name transport.All, in its order: reports list columns
// by it.
func TestTransportsAreTransportAll(t *testing.T) {
	var want []string
	for _, p := range transport.All {
		want = append(want, p.String())
	}
	if !slices.Equal(transports, want) {
		t.Fatalf("results.transports %v, transport.All %v", transports, want)
	}
}

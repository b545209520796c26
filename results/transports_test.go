package results

import (
	"slices"
	"testing"

	"github.com/httpvs/httpvs/transport"
)

// Transports must name transport.All, in its order: reports list columns
// by it.
func TestTransportsAreTransportAll(t *testing.T) {
	var want []string
	for _, p := range transport.All {
		want = append(want, p.String())
	}
	if !slices.Equal(Transports, want) {
		t.Fatalf("results.Transports %v, transport.All %v", Transports, want)
	}
}

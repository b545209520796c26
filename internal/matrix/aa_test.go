package matrix

import (
	"testing"

	"github.com/httpvs/httpvs/plan"
	"github.com/httpvs/httpvs/transport"
)

// TestAAEachKind: each-kind gives the A/A column to the first scenario of
// each kind of work run (a transfer, a request load, gRPC) and to no
// other; named scenarios and all keep their meaning.
func TestAAEachKind(t *testing.T) {
	scs, err := plan.ParseScenarios("upload,download,small-concurrent,small-sequential,grpc-50,grpc-1,cold-start")
	if err != nil {
		t.Fatal(err)
	}
	o := Options{Options: plan.Options{Scenarios: scs, Protocols: []transport.Protocol{transport.H1, transport.H2}, AA: []string{plan.AAEachKind}}}
	var got []string
	for _, sc := range scs {
		if p, ok := o.aaBaseline(sc.Name); ok {
			if p != transport.H1 {
				t.Errorf("%s: A/A of %s, want h1", sc.Name, p)
			}
			got = append(got, sc.Name)
		}
	}
	// Report order: download before upload, small-sequential before
	// small-concurrent, grpc-1 before grpc-50.
	want := []string{"download", "small-sequential", "grpc-1", "cold-start"}
	if len(got) != len(want) {
		t.Fatalf("A/A in %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("A/A in %v, want %v", got, want)
		}
	}
	o.AA = []string{"upload"}
	if _, ok := o.aaBaseline("download"); ok {
		t.Error("download given an A/A when only upload was named")
	}
	if _, ok := o.aaBaseline("upload"); !ok {
		t.Error("upload named and not given an A/A")
	}
}

package experiment_test

import (
	"context"
	"errors"
	"testing"

	"github.com/httpvs/httpvs/experiment"
	"github.com/httpvs/httpvs/netem"
	"github.com/httpvs/httpvs/plan"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/transport"
)

// links are LinkSpecs for the texts given.
func links(t *testing.T, texts ...string) []experiment.LinkSpec {
	t.Helper()
	var out []experiment.LinkSpec
	for _, text := range texts {
		spec, err := netem.Parse(text)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, experiment.LinkSpec{Name: text, Spec: spec})
	}
	return out
}

// TestSweep measures small-sequential across two links: one results per
// link, in order, each its own link's, every request paying its round
// trip; OnLink and OnLinkDone hear of each link as it starts and ends.
func TestSweep(t *testing.T) {
	t.Parallel() // see TestMain
	needLink(t)
	o := experiment.SweepOptions{Base: quick(t, "small-sequential").Base, Links: links(t, "rtt=10ms", "rtt=30ms")}
	o.Matrix.Protocols = []transport.Protocol{transport.H1}
	var heard []string
	o.OnLink = func(i int, l experiment.LinkSpec) { heard = append(heard, "start "+l.Name) }
	o.OnLinkDone = func(i int, res *results.Results) error {
		heard = append(heard, "done "+res.Settings.Net.Spec)
		return nil
	}
	runs, err := experiment.Sweep(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 2 {
		t.Fatalf("%d runs, want one per link", len(runs))
	}
	for i, rtt := range []float64{0.010, 0.030} {
		res := runs[i]
		if res.Partial || res.Settings.Net == nil || res.Settings.Net.Spec != o.Links[i].Name || len(res.Cells) != 1 {
			t.Fatalf("run %d: partial %v, net %+v, %d cells: want %s's one cell", i, res.Partial, res.Settings.Net, len(res.Cells), o.Links[i].Name)
		}
		for _, r := range res.Cells[0].Repetitions {
			if r.Errors.Total != 0 || r.Latency.Count == 0 || r.Latency.Min < rtt*0.99 {
				t.Errorf("%s: %d errors, %d requests, fastest %.4fs: want each to take %v s", o.Links[i].Name, r.Errors.Total, r.Latency.Count, r.Latency.Min, rtt)
			}
		}
	}
	want := []string{"start rtt=10ms", "done rtt=10ms", "start rtt=30ms", "done rtt=30ms"}
	if len(heard) != len(want) {
		t.Fatalf("heard %q, want %q", heard, want)
	}
	for i := range want {
		if heard[i] != want[i] {
			t.Errorf("heard %q, want %q", heard, want)
		}
	}
}

// TestSweepInterrupted: an interrupt during a sweep keeps the links
// measured and starts no other; it is not an error.
func TestSweepInterrupted(t *testing.T) {
	t.Parallel() // see TestMain
	needLink(t)
	o := experiment.SweepOptions{Base: quick(t, "small-sequential").Base, Links: links(t, "rtt=5ms", "rtt=20ms")}
	o.Matrix.Protocols = []transport.Protocol{transport.H1}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	started := 0
	o.OnLink = func(int, experiment.LinkSpec) { started++ }
	o.OnLinkDone = func(int, *results.Results) error { cancel(); return nil }
	runs, err := experiment.Sweep(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 1 || started != 1 || runs[0].Settings.Net == nil || runs[0].Settings.Net.Spec != "rtt=5ms" {
		t.Fatalf("%d runs, %d links started: want the first link's alone", len(runs), started)
	}
}

// TestOptionsRefused: what the entries refuse, before anything starts,
// as *OptionsError.
func TestOptionsRefused(t *testing.T) {
	two := links(t, "lan", "4g")
	target := plan.Target{Plain: "http://127.0.0.1:1"}
	ctx := context.Background()
	for _, tt := range []struct {
		name string
		run  func() error
	}{
		{"sweep without links", func() error { _, err := experiment.Sweep(ctx, experiment.SweepOptions{}); return err }},
		{"a link to a target", func() error {
			o := experiment.Quick()
			o.Link, o.Target = &two[0], target
			_, err := experiment.Run(ctx, o)
			return err
		}},
		{"a Go version misspelt", func() error {
			_, err := experiment.Versions(ctx, experiment.VersionsOptions{Versions: []string{"1.26.11"}})
			return err
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if err, oe := tt.run(), (*experiment.OptionsError)(nil); !errors.As(err, &oe) {
				t.Errorf("err %v (%T), want *experiment.OptionsError", err, err)
			}
		})
	}
}

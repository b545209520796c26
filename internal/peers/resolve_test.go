package peers

import (
	"os"
	"path/filepath"
	"testing"
)

// TestResolveSplitsByPath: with only curl in PATH, a list splits into
// curl and the rest asked for; auto into curl and every other peer.
func TestResolveSplitsByPath(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "curl"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
	names := func(ps []Peer) (out []string) {
		for _, p := range ps {
			out = append(out, p.Name)
		}
		return out
	}
	in, out, err := Resolve("wrk,curl")
	if err != nil || len(in) != 1 || in[0].Name != "curl" || len(out) != 1 || out[0].Name != "wrk" {
		t.Fatalf("wrk,curl: installed %v, missing %v, %v", names(in), names(out), err)
	}
	in, out, err = Resolve("auto")
	_, all := Discover()
	if err != nil || len(in) != 1 || in[0].Name != "curl" || len(out) != len(all) || len(out) == 0 {
		t.Fatalf("auto: installed %v, missing %v (want %d), %v", names(in), names(out), len(all), err)
	}
	if _, _, err := Resolve("nosuch"); err == nil {
		t.Fatal("nosuch: no error")
	}
}

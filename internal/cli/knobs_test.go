package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/httpvs/httpvs/internal/knobs"

	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/units"
)

// tune --write FILE, then run --knobs FILE: the run measures with the
// file's settings, names the set, and a flag given beside it wins.
func TestTuneWriteThenRunKnobs(t *testing.T) {
	t.Parallel() // see TestMain
	if testing.Short() {
		t.Skip("runs tune's search and a run: not under -short")
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "knobs.json")
	code, _, stderr := runMain(t, "tune", "--protocols", "h2c", "--budget", "6s", "--trial", "50ms", "--json", "--write", file)
	if code != 0 {
		t.Fatalf("tune exit %d: %s", code, stderr)
	}
	set, err := loadKnobSet(file)
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Knobs) == 0 {
		// A 6 s search on a loaded machine can find nothing above Go's
		// defaults, and then tune writes an empty set (a measured
		// outcome). The run's side is tested with a set of known knobs
		// written the same way.
		t.Logf("tune wrote no knobs (%q); running with a written set instead", set.Name)
		set = results.KnobSet{Name: "known", Knobs: []results.Knob{{Field: "Client.ReadSize", Value: "256Ki"}, {Field: "Server.WriteSize", Value: "128Ki"}}}
		f, err := os.Create(file)
		if err != nil {
			t.Fatal(err)
		}
		if err := knobs.WriteFile(f, set); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
		if set, err = loadKnobSet(file); err != nil {
			t.Fatal(err)
		}
	}
	out := t.TempDir()
	code, _, stderr = runMain(t, "run", "--quick", "--scenarios", "download", "--protocols", "h1,h2c", "--knobs", file, "--server-write-size", "64Ki", "--out", out)
	if code != 0 {
		t.Fatalf("run exit %d: %s", code, stderr)
	}
	res, _ := readResults(t, out)
	for _, k := range set.Knobs {
		if k.Field == "Server.WriteSize" {
			continue // overridden by --server-write-size
		}
		got := res.Settings.Client
		if err := (knobs.Setup{Client: &got}).Apply(k); err != nil {
			t.Fatalf("%s: %v", k.Field, err)
		}
		if got != res.Settings.Client {
			t.Errorf("results' client settings lack %s=%s", k.Field, k.Value)
		}
	}
	if s := res.Settings.Server; s == nil || s.WriteSize != 64*units.KiB {
		t.Fatalf("server settings %+v, want the flag's write size", s)
	}
	name := set.Name
	for _, k := range set.Knobs {
		if k.Field == "Server.WriteSize" {
			name += ", with --server-write-size"
		}
	}
	if res.Settings.Knobs.Name != name {
		t.Errorf("knob set %q, want %q", res.Settings.Knobs.Name, name)
	}
}

// TestKnobFileBadEngine: a knob file is read without the load engines
// (internal/knobs), so run --knobs checks its Engine knob against them:
// a name no engine has is bad input, in one line, before anything runs.
func TestKnobFileBadEngine(t *testing.T) {
	file := filepath.Join(t.TempDir(), "k.json")
	body := `{"kind":"httpvs-knobs","schema_version":1,"name":"x","knobs":[{"field":"Engine","value":"warp"}]}`
	if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runMain(t, "run", "--knobs", file)
	if code != exitUsage || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "--knobs "+file) || !strings.Contains(stderr, "warp") {
		t.Fatalf("exit %d, stdout %q, stderr %q: want exit %d and one line naming --knobs and the engine", code, stdout, stderr, exitUsage)
	}
	body = strings.Replace(body, "warp", "fast", 1)
	if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	set, err := loadKnobSet(file)
	if err != nil || len(set.Knobs) != 1 || set.Knobs[0].Value != "fast" {
		t.Fatalf("fast: %+v, %v", set, err)
	}
}

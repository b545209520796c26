package analysis

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/httpvs/httpvs/internal/runfiles"
	"github.com/httpvs/httpvs/internal/vocab"
	"github.com/httpvs/httpvs/results"
)

// ProfilesIn reads a cell's profile under runfiles.ProfileFile's name,
// falls back to the name earlier runs gave it (the variant's ':' kept),
// says which file is missing when neither is there, and passes on any
// other error without falling back.
func TestProfilesIn(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	read := ProfilesIn(dir)
	variant := &results.Cell{Scenario: "download" + vocab.VariantSep + "tuned", Protocol: "h2"}

	write("download:tuned_h2.client.cpu.pprof", "old name")
	if b, err := read(variant, "client"); err != nil || string(b) != "old name" {
		t.Errorf("old name only: %q, %v; want its content", b, err)
	}
	write("download+tuned_h2.client.cpu.pprof", "new name")
	if b, err := read(variant, "client"); err != nil || string(b) != "new name" {
		t.Errorf("both names: %q, %v; want the new name's content", b, err)
	}

	_, err := read(variant, "server")
	if want := "no download+tuned_h2.server.cpu.pprof in " + dir; err == nil || err.Error() != want {
		t.Errorf("neither name: %v; want %q", err, want)
	}

	// The new name is there but unreadable (a directory): its error, not
	// the old name's file.
	other := &results.Cell{Scenario: "upload" + vocab.VariantSep + "big", Protocol: "h3"}
	if err := os.Mkdir(filepath.Join(dir, "upload+big_h3.client.cpu.pprof"), 0o755); err != nil {
		t.Fatal(err)
	}
	write("upload:big_h3.client.cpu.pprof", "old name")
	b, err := read(other, "client")
	if err == nil || strings.HasPrefix(err.Error(), "no ") || !strings.Contains(err.Error(), "upload+big_h3.client.cpu.pprof") || string(b) == "old name" {
		t.Errorf("new name a directory: %q, %v; want the read's own error", b, err)
	}
}

// AttributeProfiles with ProfilesIn attributes a slower cell from the
// profiles a directory holds under runfiles.ProfileFile's names.
func TestAttributeProfilesFromDir(t *testing.T) {
	dir := t.TempDir()
	base := flatProfile(t, map[string]int64{"syscall.Syscall": 500}, nil)
	slow := flatProfile(t, map[string]int64{"syscall.Syscall": 500, "net/http.(*http2Framer).WriteDataPadded": 200}, nil)
	for name, p := range map[string][]byte{
		runfiles.ProfileFile("download", "h1", "client", "cpu"):  base,
		runfiles.ProfileFile("download", "h2c", "client", "cpu"): slow,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), p, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rep := []results.Repetition{{Bytes: 1e9, Requests: 1, Profiled: true}}
	res := &results.Results{Cells: []results.Cell{
		{Scenario: "download", Protocol: "h1", CPUUnit: "GB", Repetitions: rep},
		{Scenario: "download", Protocol: "h2c", CPUUnit: "GB", Repetitions: rep, VsBaseline: &results.Interval{Ratio: 0.9, Pairs: 5, Verdict: results.VerdictSlower}},
	}}
	if errs := AttributeProfiles(res, ProfilesIn(dir)); len(errs) != 0 {
		t.Fatal(errs)
	}
	a := res.Cell("download", "h2c").Attribution
	if len(a) == 0 || a[0].Side != "client" || a[0].ExtraSecondsPerUnit < 0.199 || a[0].ExtraSecondsPerUnit > 0.201 {
		t.Fatalf("attribution %+v: want the client's +0.2 s/GB", a)
	}
}

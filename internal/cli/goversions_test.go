package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestRunGoBadValues(t *testing.T) {
	for _, tt := range []struct {
		name string
		args []string
		want string
	}{
		{"syntax", []string{"--go", "1.x"}, `--go 1.x: want installed or a Go release such as 1.24.13`},
		{"language-version", []string{"--go", "1.24"}, "--go 1.24: name a release, such as 1.24.0"},
		{"too-old", []string{"--go", "installed,1.21.13"}, "--go 1.21.13: older than go1.22"},
		{"empty", []string{"--go", ""}, "without empty items"},
		{"twice", []string{"--go", "1.27.4,go1.27.4"}, "listed twice"},
		{"net", []string{"--go", "installed", "--net", "4g"}, "--net does not go with --go"},
		{"target", []string{"--go", "installed", "--target", "http://127.0.0.1:1"}, "--target does not go with --go"},
		{"knob", []string{"--go", "installed", "--read-size", "256Ki"}, "--read-size does not go with --go"},
		{"h3-only", []string{"--go", "installed", "--protocols", "h3"}, "h3 is not measured across Go versions"},
		{"scenario", []string{"--go", "installed", "--scenarios", "upload"}, "--scenarios upload: want download or small-sequential: they alone are measured across Go versions"},
		{"benchstat", []string{"--go", "installed", "--format", "benchstat"}, "want text, markdown or json"},
		{"repeat", []string{"--go", "installed", "--repeat", "0"}, "--repeat 0: want at least 1"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runMain(t, append([]string{"run", "--no-files"}, tt.args...)...)
			if code != exitUsage || stdout != "" {
				t.Fatalf("exit %d (want %d), stdout %q, stderr %q", code, exitUsage, stdout, stderr)
			}
			if strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, tt.want) {
				t.Fatalf("stderr %q, want one line containing %q", stderr, tt.want)
			}
		})
	}
}

// TestRunGoVersions runs the installed toolchain beside one the module
// proxy does not have: that one gets its line, the installed one its
// verdict row, and the run exits 1 after writing its results.
func TestRunGoVersions(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the child program with a toolchain: not under -short")
	}
	gocache, err := exec.Command("go", "env", "GOCACHE").Output()
	if err != nil {
		t.Skipf("no go command: %v", err)
	}
	version, err := exec.Command("go", "env", "GOVERSION").Output()
	if err != nil {
		t.Fatal(err)
	}
	installed := strings.TrimSpace(string(version))
	// The binaries are cached under a directory of the test's own; the go
	// command's build cache stays where it is.
	t.Setenv("GOCACHE", strings.TrimSpace(string(gocache)))
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	out := t.TempDir()
	code, stdout, stderr := runMain(t, "run", "--go", "installed,1.99.0", "--scenarios", "download", "--protocols", "h1,h2c",
		"--repeat", "2", "--duration", "50ms", "--size", "2Mi", "--out", out)
	if code != exitFailure {
		t.Fatalf("exit %d, want %d; stderr %q", code, exitFailure, stderr)
	}
	for _, want := range []string{
		installed + ": the go command on PATH; binary reports " + installed,
		"go1.99.0: not measured: fetch: ",
		"  download " + installed + "  ",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	if !strings.Contains(stderr, "1 of 2 toolchains not measured (go1.99.0); the others were") {
		t.Errorf("stderr %q", stderr)
	}
	res, dir := readResults(t, out)
	gv := res.GoVersions
	if gv == nil || len(gv.Toolchains) != 2 || gv.Toolchains[0].BinaryGo != installed || len(gv.Cells) != 2 {
		t.Fatalf("results.json go_versions: %+v", gv)
	}
	if iv := gv.Cells[1].VsBaseline; gv.Cells[1].Protocol != "h2c" || iv == nil || iv.Pairs != 2 {
		t.Errorf("h2c's ratio to h1: %+v", iv)
	}
	page, err := os.ReadFile(filepath.Join(dir, "report.html"))
	if err != nil || !strings.Contains(string(page), `id="across-download"`) {
		t.Errorf("report.html: no chart across toolchains (%v)", err)
	}
	bins, _ := filepath.Glob(filepath.Join(os.Getenv("XDG_CACHE_HOME"), "httpvs", "go", installed, "child-*"))
	if len(bins) != 1 {
		t.Errorf("cache holds %v, want one binary for %s", bins, installed)
	}
}

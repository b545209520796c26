package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/httpvs/httpvs/server"
	"github.com/httpvs/httpvs/transport"
)

// Three httpvs load processes share one load (--share) and start together
// (--start-at) against one server; httpvs merge sums them exactly.
func TestThreeLoadProcessesMerge(t *testing.T) {
	t.Parallel() // see TestMain: it waits for --start-at, a server of its own
	if testing.Short() {
		t.Skip("three load processes that wait for --start-at: not under -short (go test ./internal/cli runs it)")
	}
	srv, err := server.Start(server.Config{Transport: server.Loopback()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	url := srv.Transport.URL(transport.H2C) + "/small"
	files, startAt := runSharedLoads(t, url)
	code, stdout, stderr := runMain(t, append([]string{"merge", "--json"}, files...)...)
	if code != 0 {
		t.Fatalf("merge exit %d: %s", code, stderr)
	}
	var m mergedJSON
	if err := json.Unmarshal([]byte(stdout), &m); err != nil {
		t.Fatalf("merge --json: %v\n%s", err, stdout)
	}
	// 1000 requests in shares of 334, 333 and 333.
	if m.Requests != 1000 || m.Succeeded != 1000 || m.Parts != 3 || len(m.Merge.Inputs) != 3 {
		t.Fatalf("merged requests %d, succeeded %d, parts %d, inputs %d", m.Requests, m.Succeeded, m.Parts, len(m.Merge.Inputs))
	}
	checkMergedParts(t, m, files, startAt)
	if got := srv.Server.Stats().Protocols["h2c"].Requests; got != m.Requests {
		t.Errorf("server counted %d h2c requests, merged result %d", got, m.Requests)
	}
	if len(m.Merge.Warnings) != 0 {
		t.Errorf("warnings: %v", m.Merge.Warnings)
	}
}

// runSharedLoads runs three httpvs load processes that share 1000
// requests to url and start together, and returns their --json files and
// the start they were given.
func runSharedLoads(t *testing.T, url string) (files []string, startAt time.Time) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	startAt = time.Now().Add(4 * time.Second).UTC().Truncate(time.Second).Add(time.Second)
	files = make([]string, 3)
	var wg sync.WaitGroup
	errs := make([]error, 3)
	for i := range files {
		files[i] = filepath.Join(dir, fmt.Sprintf("part%d.json", i))
		wg.Go(func() {
			cmd := exec.Command(exe, "load", url, "-p", "h2c", "-c", "2", "-n", "1000", "--share", fmt.Sprintf("%d/3", i),
				"--start-at", startAt.Format(time.RFC3339), "--json")
			cmd.Env = append(os.Environ(), mainEnv+"=1")
			out, err := cmd.Output()
			if err == nil {
				err = os.WriteFile(files[i], out, 0o600)
			} else if ee, ok := err.(*exec.ExitError); ok {
				err = fmt.Errorf("%v: %s", err, ee.Stderr)
			}
			errs[i] = err
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("load %d: %v", i, err)
		}
	}
	return files, startAt
}

// checkMergedParts checks the merged result against its parts: each
// started at --start-at and ran its share, the shares sum to the total,
// and the merged median lies within the parts'.
func checkMergedParts(t *testing.T, m mergedJSON, files []string, startAt time.Time) {
	t.Helper()
	var sum int64
	lo, hi := m.Latency.P50, m.Latency.P50
	for i, in := range m.Merge.Inputs {
		sum += in.Requests
		if in.Started.Before(startAt) {
			t.Errorf("part %d started measuring at %v, before --start-at %v", i, in.Started, startAt)
		}
		var part struct {
			Requests int64 `json:"requests"`
			Latency  struct {
				P50 float64 `json:"p50"`
			} `json:"latency_seconds"`
		}
		raw, _ := os.ReadFile(files[i])
		if err := json.Unmarshal(raw, &part); err != nil {
			t.Fatal(err)
		}
		if want := int64(333 + boolInt(i == 0)); part.Requests != want {
			t.Errorf("part %d ran %d requests, want %d", i, part.Requests, want)
		}
		lo, hi = min(lo, part.Latency.P50), max(hi, part.Latency.P50)
	}
	if sum != m.Requests {
		t.Errorf("inputs sum to %d requests, merged %d", sum, m.Requests)
	}
	if lo > m.Latency.P50 || hi < m.Latency.P50 {
		t.Errorf("merged p50 %v outside the parts' %v..%v", m.Latency.P50, lo, hi)
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func TestMergeAndStartAtBadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	empty := write("empty.json", "")
	run := write("results.json", `{"kind":"run","schema_version":1}`)
	old := write("old.json", `{"engine":"fast","requests":3}`)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"merge"}, "merge takes the files"},
		{[]string{"merge", empty}, "empty: no load result"},
		{[]string{"merge", run}, `not a load result (httpvs load --json): kind "run"`},
		{[]string{"merge", old}, `kind ""`},
		{[]string{"merge", filepath.Join(dir, "none.json")}, "no such file"},
		{[]string{"load", "http://127.0.0.1:1/small", "-n", "3", "--start-at", "2020-01-01T00:00:00Z"}, "--start-at 2020-01-01T00:00:00Z is past"},
		{[]string{"load", "http://127.0.0.1:1/small", "-n", "3", "--start-at", "10:00"}, "want an RFC 3339 time"},
		{[]string{"load", "http://127.0.0.1:1/small", "-n", "3", "--start-at", time.Now().Add(48 * time.Hour).UTC().Format(time.RFC3339)}, "a typo in the date?"},
		{[]string{"load", "http://127.0.0.1:1/small", "-n", "3", "--share", "3/3"}, "--share 3/3: want INDEX/PARTS"},
		{[]string{"load", "http://127.0.0.1:1/small", "--share", "1/2"}, "a share of a rate or of a request count"},
	} {
		code, _, stderr := runMain(t, c.args...)
		if code != exitUsage || !strings.Contains(stderr, c.want) || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and one line with %q", c.args, code, stderr, c.want)
		}
	}
}

// One load run given twice to merge is refused in one line with exit 2,
// whether the file is named twice, under another path, or copied: its
// counts would be doubled.
func TestMergeRefusesOneRunTwice(t *testing.T) {
	ts, _ := testServer(t)
	code, stdout, stderr := runMain(t, "load", ts.URL(transport.H1)+"/small", "-c", "2", "-n", "40", "--json")
	if code != 0 {
		t.Fatalf("load exit %d: %s", code, stderr)
	}
	dir := t.TempDir()
	p0 := filepath.Join(dir, "p0.json")
	cp := filepath.Join(dir, "copy.json")
	link := filepath.Join(dir, "link.json")
	for _, f := range []string{p0, cp} {
		if err := os.WriteFile(f, []byte(stdout), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(p0, link); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{p0, p0}, p0 + " is given twice: merging a run with itself would double its counts"},
		{[]string{p0, link}, p0 + " and " + link + " are the same file"},
		{[]string{p0, cp}, p0 + " and " + cp + " are the same run (same host, measured window and counts)"},
		{[]string{"--json", cp, p0}, cp + " and " + p0 + " are the same run"},
	} {
		code, stdout, stderr := runMain(t, append([]string{"merge"}, c.args...)...)
		if code != exitUsage || stdout != "" || !strings.Contains(stderr, c.want) || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("merge %v: exit %d, stdout %q, stderr %q; want exit 2, nothing on stdout and one line with %q", c.args, code, stdout, stderr, c.want)
		}
	}
	// The run merged alone is its own counts.
	code, stdout, stderr = runMain(t, "merge", "--json", p0)
	var m mergedJSON
	if err := json.Unmarshal([]byte(stdout), &m); code != 0 || err != nil || m.Requests != 40 || m.Succeeded != 40 {
		t.Fatalf("merge of one run: exit %d (%s), err %v, requests %d, succeeded %d; want 40", code, stderr, err, m.Requests, m.Succeeded)
	}
}

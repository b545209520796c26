package cli

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/httpvs/httpvs/internal/knobs"

	"github.com/httpvs/httpvs/internal/analysis"
	"github.com/httpvs/httpvs/internal/buildinfo"
	"github.com/httpvs/httpvs/results"
)

// TestGrammarRefusals: every zero, negative or malformed value, and every
// spelling that changed meaning, is refused in one line with exit 2,
// before anything is measured.
func TestGrammarRefusals(t *testing.T) {
	dir := t.TempDir()
	notDir := filepath.Join(dir, "file")
	if err := os.WriteFile(notDir, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	const u = "http://127.0.0.1:1/x"
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"get-c-0", []string{"get", u, "-c", "0"}, "-c 0: want at least 1"},
		{"get-conns-0", []string{"get", u, "--conns", "0"}, "--conns 0: want at least 1"},
		{"get-n-neg", []string{"get", u, "-n", "-1"}, "-n -1: want at least 1"},
		{"get-P-0", []string{"get", u, "-P", "0"}, "-P 0: want at least 1"},
		{"get-P-above-n", []string{"get", u, "-n", "2", "--parallel", "3"}, "--parallel 3: want 1 to 2, the transfers"},
		{"get-c-above-P", []string{"get", u, "-n", "4", "-P", "2", "-c", "3"}, "-c 3: want 1 to 2, the transfers at once"},
		{"get-timeout-0", []string{"get", u, "--timeout", "0"}, "--timeout 0s: want a positive duration, e.g. 10m0s"},
		{"get-read-size-0", []string{"get", u, "--read-size", "0"}, "--read-size 0: want a positive size"},
		{"get-dial-timeout-neg", []string{"get", u, "--dial-timeout", "-1s"}, "--dial-timeout -1s: want a positive duration"},
		{"put-write-size-0", []string{"put", u, "1M", "--write-size", "0"}, "--write-size 0: want a positive size"},
		{"put-write-size-huge", []string{"put", u, "1M", "--write-size", "2Gi"}, "--write-size 2Gi: want 1 byte to 1Gi"},
		{"put-size-twice", []string{"put", u, "1M", "--body", "2M"}, "the size is given twice"},
		{"put-body-missing", []string{"put", u, "--body", "@" + filepath.Join(dir, "nope")}, "nope: no such file or directory"},
		{"put-body-dir", []string{"put", u, "--body", "@" + dir}, "cannot read it: not a regular file"},
		{"put-body-empty-name", []string{"put", u, "--body", "@"}, "want @FILE"},
		{"load-body-missing", []string{"load", u, "--body", "@" + filepath.Join(dir, "nope")}, "no such file or directory"},
		{"load-c-0", []string{"load", u, "-c", "0"}, "-c 0: want at least 1"},
		{"load-n-neg", []string{"load", u, "-n", "-1"}, "-n -1: want at least 1"},
		{"load-n-0", []string{"load", u, "--requests", "0"}, "--requests 0: want at least 1"},
		{"load-d-0", []string{"load", u, "-d", "0"}, "-d 0s: want a positive duration, e.g. 10s"},
		{"load-duration-0", []string{"load", u, "--duration", "0"}, "--duration 0s: want a positive duration"},
		{"load-timeout-0", []string{"load", u, "--timeout", "0s"}, "--timeout 0s: want a positive duration"},
		{"load-m-0", []string{"load", u, "-m", "0"}, "-m 0: want at least 1"},
		{"header-no-colon", []string{"get", u, "-H", "X-Test"}, `want "Name: value"`},
		{"header-bad-name", []string{"load", u, "-H", "X Test: v"}, `want "Name: value"`},
		{"header-control", []string{"put", u, "1M", "--header", "X-Test: a\x01b"}, "control character"},
		{"header-host", []string{"get", u, "-H", "Host: example.com"}, "Host is set by the client"},
		{"header-content-length", []string{"load", u, "-H", "content-length: 3"}, "Content-Length is set by the client"},
		{"run-timeout-renamed", []string{"run", "--timeout", "1m"}, "run's bound on each repetition is --rep-timeout"},
		{"run-rep-timeout-0", []string{"run", "--rep-timeout", "0"}, "--rep-timeout 0s: want a positive duration"},
		{"run-duration-0", []string{"run", "--duration", "0"}, "--duration 0s: want a positive duration"},
		{"run-repeat-0", []string{"run", "--repeat", "0"}, "--repeat 0: want at least 1"},
		{"run-max-repeat-neg", []string{"run", "--max-repeat", "-2"}, "--max-repeat -2: want at least 1"},
		{"run-size-0", []string{"run", "--size", "0"}, "--size 0: want a positive size"},
		{"run-out-unwritable", []string{"run", "--quick", "--protocols", "h1", "--out", filepath.Join(notDir, "sub")}, "--out " + filepath.Join(notDir, "sub") + ": cannot create it: not a directory"},
		{"tune-trial-0", []string{"tune", "--trial", "0"}, "--trial 0s: want a positive duration"},
		{"serve-idle-0", []string{"serve", "--idle-timeout", "0"}, "--idle-timeout 0s: want a positive duration"},
		{"serve-max-streams-0", []string{"serve", "--h2-max-streams", "0"}, "--h2-max-streams 0: want at least 1"},
		{"profile-span-alone", []string{"run", "--profile-span", "5s"}, "--profile-span 5s goes with --profile DIR"},
		{"compare-one-file", []string{"compare", "a.json"}, "compare takes two results.json files"},
		{"version-arg", []string{"version", "x"}, "version takes no arguments"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runMain(t, tt.args...)
			if code != exitUsage {
				t.Fatalf("exit %d, want %d; stderr %q", code, exitUsage, stderr)
			}
			if stdout != "" {
				t.Errorf("stdout not empty: %q", stdout)
			}
			if strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, tt.want) {
				t.Fatalf("stderr %q, want one line containing %q", stderr, tt.want)
			}
		})
	}
}

// seen records what a test server received: each request's X-Test and
// User-Agent headers and its body's length.
type seen struct {
	mu       sync.Mutex
	xtest    []string
	agents   []string
	bodyLens []int64
}

// headerServer is an h1 and h2c server that records every request.
func headerServer(t *testing.T) (*httptest.Server, *seen) {
	t.Helper()
	s := &seen{}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, _ := io.Copy(io.Discard, r.Body)
		s.mu.Lock()
		s.xtest = append(s.xtest, r.Header.Get("X-Test"))
		s.agents = append(s.agents, r.Header.Get("User-Agent"))
		s.bodyLens = append(s.bodyLens, n)
		s.mu.Unlock()
		w.Write([]byte("ok"))
	}))
	srv.Config.Protocols = new(http.Protocols)
	srv.Config.Protocols.SetHTTP1(true)
	srv.Config.Protocols.SetUnencryptedHTTP2(true)
	srv.Start()
	t.Cleanup(srv.Close)
	return srv, s
}

func (s *seen) take() (xtest, agents []string, lens []int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	xtest, agents, lens = s.xtest, s.agents, s.bodyLens
	s.xtest, s.agents, s.bodyLens = nil, nil, nil
	return xtest, agents, lens
}

// TestHeadersAndBodyFileReachServer: -H reaches the server on every
// request of get, put and load (both engines, h1 and h2c), and --body
// @FILE sends the file's exact byte count.
func TestHeadersAndBodyFileReachServer(t *testing.T) {
	srv, s := headerServer(t)
	file := filepath.Join(t.TempDir(), "body")
	const size = 100_003
	if err := os.WriteFile(file, make([]byte, size), 0o644); err != nil {
		t.Fatal(err)
	}
	h := []string{"-H", "X-Test: v1", "--header", "user-agent: httpvs-test"}
	tests := []struct {
		name      string
		args      []string
		requests  int
		bodyLen   int64
		writeSize int // recorded by put
	}{
		{"get-h1", []string{"get", srv.URL + "/x", "-n", "4", "-P", "2", "--no-server-stats"}, 4, 0, 0},
		{"get-h2c", []string{"get", srv.URL + "/x", "-p", "h2c", "-n", "3", "--no-server-stats"}, 3, 0, 0},
		{"put-size", []string{"put", srv.URL + "/x", "1000", "-p", "h2c", "--no-server-stats"}, 1, 1000, 0},
		{"put-body-file", []string{"put", srv.URL + "/x", "--body", "@" + file, "-n", "2", "--no-server-stats"}, 2, size, 0},
		{"put-body-file-chunks", []string{"put", srv.URL + "/x", "--body", "@" + file, "--write-size", "4Ki", "--no-server-stats"}, 1, size, 4096},
		{"put-h2c-chunks", []string{"put", srv.URL + "/x", "--body", "@" + file, "-p", "h2c", "--write-size", "1000", "--no-server-stats"}, 1, size, 1000},
		{"load-std-h1", []string{"load", srv.URL + "/x", "-n", "5", "-c", "1", "--engine", "std"}, 5, 0, 0},
		{"load-fast-h1", []string{"load", srv.URL + "/x", "-n", "5", "-c", "1", "--engine", "fast"}, 5, 0, 0},
		{"load-fast-h2c", []string{"load", srv.URL + "/x", "-p", "h2c", "-n", "5", "-c", "1", "--engine", "fast"}, 5, 0, 0},
		{"load-std-h2c-body", []string{"load", srv.URL + "/x", "-p", "h2c", "-n", "5", "-c", "1", "--engine", "std", "--method", "POST", "--body", "@" + file}, 5, size, 0},
		{"load-fast-h1-body", []string{"load", srv.URL + "/x", "-n", "5", "-c", "1", "--engine", "fast", "--method", "POST", "--body", "@" + file}, 5, size, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s.take()
			code, stdout, stderr := runMain(t, append(append(tt.args, h...), "--json")...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			var rec struct {
				HeaderNames []string `json:"header_names"`
				WriteSize   int      `json:"write_size"`
			}
			if err := json.Unmarshal([]byte(stdout), &rec); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(rec.HeaderNames, []string{"User-Agent", "X-Test"}) {
				t.Errorf("header_names %q, want [User-Agent X-Test]", rec.HeaderNames)
			}
			if rec.WriteSize != tt.writeSize {
				t.Errorf("write_size %d, want %d", rec.WriteSize, tt.writeSize)
			}
			xtest, agents, lens := s.take()
			if len(xtest) < tt.requests {
				t.Fatalf("%d requests arrived, want %d", len(xtest), tt.requests)
			}
			for i := range xtest {
				if xtest[i] != "v1" || agents[i] != "httpvs-test" {
					t.Fatalf("request %d: X-Test %q, User-Agent %q", i, xtest[i], agents[i])
				}
				if lens[i] != tt.bodyLen {
					t.Fatalf("request %d: body %d bytes, want %d", i, lens[i], tt.bodyLen)
				}
			}
		})
	}
}

// TestGetParallel: -n transfers run -P at a time, over one connection
// each on h1.
func TestGetParallel(t *testing.T) {
	srv, _ := headerServer(t)
	code, stdout, stderr := runMain(t, "get", srv.URL+"/x", "-n", "6", "-P", "2", "--json", "--no-server-stats")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got struct{ Streams, Connections int }
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatal(err)
	}
	if got.Streams != 6 || got.Connections != 2 {
		t.Fatalf("streams %d connections %d, want 6 and 2", got.Streams, got.Connections)
	}
}

func TestVersionOutput(t *testing.T) {
	for _, args := range [][]string{{"--version"}, {"version"}, {"-V"}} {
		code, stdout, _ := runMain(t, args...)
		if code != 0 || !strings.HasPrefix(stdout, "httpvs ") || !strings.Contains(stdout, runtime.Version()) || strings.Count(stdout, "\n") != 1 {
			t.Errorf("%v: exit %d, %q", args, code, stdout)
		}
	}
	code, stdout, _ := runMain(t, "--version", "--json")
	var b buildinfo.Build
	if err := json.Unmarshal([]byte(stdout), &b); code != 0 || err != nil || b.Go != runtime.Version() || b.Version == "" {
		t.Fatalf("version --json: exit %d, %v, %q", code, err, stdout)
	}
}

// writeRun writes a results.json of two cells, one of them on new's side
// only, with edit applied.
func writeRun(t *testing.T, name string, protos []string, edit func(*results.Results)) string {
	t.Helper()
	r := &results.Results{SchemaVersion: results.SchemaVersion, Env: results.Env{GoVersion: "go1.26.8"},
		Settings: results.Settings{Protocols: protos, Repeat: 2, MaxRepeat: 2, DurationSeconds: 0.1, Engine: "std", Target: "child", Knobs: results.KnobSet{Name: "go-default"}}}
	for i, p := range protos {
		c := results.Cell{Scenario: "download", Protocol: p, Metric: "bytes_per_second"}
		for v := range 2 {
			c.Repetitions = append(c.Repetitions, results.Repetition{Value: float64(1e9 * (i + 1 + v))})
		}
		r.Cells = append(r.Cells, c)
	}
	analysis.Summarise(r)
	if edit != nil {
		edit(r)
	}
	path := filepath.Join(t.TempDir(), name)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := r.WriteJSON(f); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestCompareWarnsOfSettings(t *testing.T) {
	old := writeRun(t, "old.json", []string{"h1"}, nil)
	new := writeRun(t, "new.json", []string{"h1", "h2c"}, func(r *results.Results) {
		r.Env.GoVersion, r.Settings.DurationSeconds = "go1.27.4", 0.3
	})
	code, stdout, stderr := runMain(t, "compare", old, new)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "warning: the runs used different settings") ||
		!strings.Contains(stderr, "duration 100ms (warmup 0s) vs 300ms (warmup 0s)") || !strings.Contains(stderr, "go go1.26.8 vs go1.27.4") ||
		!strings.Contains(stderr, "protocols h1 vs h1,h2c") || strings.Contains(stderr, "knobs") {
		t.Errorf("stderr %q", stderr)
	}
	if !strings.Contains(stdout, "not tested: 1 of 2 cells: 1 only in new") || strings.Contains(stdout, "note:") {
		t.Errorf("stdout lacks the one not-tested line:\n%s", stdout)
	}
	code, stdout, _ = runMain(t, "compare", "--json", old, new)
	var got comparedJSON
	if err := json.Unmarshal([]byte(stdout), &got); code != 0 || err != nil {
		t.Fatalf("--json: exit %d, %v: %s", code, err, stdout)
	}
	if len(got.SettingsDiffer) != 3 || len(got.Cells) != 2 || got.NotTested.OnlyNew != 1 || got.NotTested.TooFew != 0 {
		t.Fatalf("--json: %+v", got)
	}
	// Runs alike: no warning.
	if code, _, stderr := runMain(t, "compare", old, old); code != 0 || stderr != "" {
		t.Fatalf("same run: exit %d, stderr %q", code, stderr)
	}
}

// TestCompareSaysTheKnobsMovedTheBaseline: a default run against one
// with other knobs, where h1 itself got 40% faster: compare calls out h1's
// move under the table and puts it down to the knob sets as well.
func TestCompareSaysTheKnobsMovedTheBaseline(t *testing.T) {
	old := writeRun(t, "old.json", []string{"h1", "h2c"}, nil)
	new := writeRun(t, "new.json", []string{"h1", "h2c"}, func(r *results.Results) {
		r.Settings.Knobs = knobs.Tuned
		for i := range r.Cells {
			for j := range r.Cells[i].Repetitions {
				r.Cells[i].Repetitions[j].Value *= 1.4
			}
		}
		analysis.Summarise(r)
	})
	code, stdout, stderr := runMain(t, "compare", old, new)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"h1 itself moved: download ~ +40% (1.50 GB/s -> 2.10 GB/s", "different knob sets (go-default vs tuned), which set h1's client too"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("missing %q in:\n%s", want, stdout)
		}
	}
	code, stdout, _ = runMain(t, "compare", "--json", old, new)
	var got comparedJSON
	if err := json.Unmarshal([]byte(stdout), &got); code != 0 || err != nil || len(got.BaselineMoved) != 1 || got.BaselineMoved[0].Protocol != "h1" {
		t.Fatalf("--json: exit %d, %v: %+v", code, err, got.BaselineMoved)
	}
}

// TestOneGrammar: the transport flag is spelled alike on every command,
// an unknown flag gets the nearest one named, and internal flags stay out
// of help.
func TestOneGrammar(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--protocl", "h2c"}, "unknown flag --protocl: did you mean --protocol?"},
		{[]string{"run", "--scenaros", "download"}, "did you mean --scenarios?"},
		{[]string{"load", "--protocls", "h1", "http://127.0.0.1:1/"}, "did you mean --protocols?"},
		{[]string{"tune", "--budge", "1s"}, "did you mean --budget?"},
		{[]string{"run", "--zzzzzzzz"}, "unknown flag --zzzzzzzz (see"},
	} {
		code, _, stderr := runMain(t, tc.args...)
		if code != exitUsage || !strings.Contains(stderr, tc.want) || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("%v: exit %d, %q; want %q", tc.args, code, stderr, tc.want)
		}
	}
	for _, cmd := range []string{"run", "tune", "get", "put", "load"} {
		_, stdout, _ := runMain(t, cmd, "-h")
		if !strings.Contains(stdout, "-p, ") || !strings.Contains(stdout, "--protocol, --protocols") {
			t.Errorf("%s -h: the transport flag is not -p, --protocol, --protocols:\n%s", cmd, stdout)
		}
	}
}

// TestGrammarDocFlagsExist: every flag docs/grammar.md's table lists is
// accepted by each command it names.
func TestGrammarDocFlagsExist(t *testing.T) {
	text, err := os.ReadFile("../../docs/grammar.md")
	if err != nil {
		t.Fatal(err)
	}
	section := string(text)
	i := strings.Index(section, "# One grammar for every command")
	j := strings.Index(section[max(i, 0):], "\n\n| flag")
	if i < 0 || j < 0 {
		t.Fatal("docs/grammar.md has no grammar table")
	}
	rows := 0
	for _, line := range strings.Split(section[i+j+2:], "\n") {
		if !strings.HasPrefix(line, "| `") {
			if rows > 0 {
				break
			}
			continue
		}
		cols := strings.Split(line, "|")
		flags := regexp.MustCompile("`(-{1,2}[a-z][a-z-]*)").FindAllStringSubmatch(cols[1], -1)
		for _, cmd := range regexp.MustCompile(`\b(get|put|load|run|tune|serve|compare|merge)\b`).FindAllString(cols[3], -1) {
			_, help, _ := runMain(t, cmd, "-h")
			for _, f := range flags {
				if !strings.Contains(help, "  "+f[1]+" ") && !strings.Contains(help, " "+f[1]+",") && !strings.Contains(help, ", "+f[1]+"\n") && !strings.Contains(help, "  "+f[1]+"\n") && !strings.Contains(help, ", "+f[1]+" ") {
					t.Errorf("docs/grammar.md lists %s on %s; %s -h does not", f[1], cmd, cmd)
				}
			}
		}
		rows++
	}
	if rows < 10 {
		t.Errorf("read %d rows of the grammar table", rows)
	}
}

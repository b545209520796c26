package peers

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/httpvs/httpvs/transport"
)

// The files in testdata are real outputs, captured on loopback against
// httpvs serve (curl 7.88.1, h2load 1.52.0, wrk 4.1.0 with wrk.lua - the
// -non2xx and -interrupted files with its response hook -, and oha 1.16.0
// built with --features http3: oha --no-tui --output-format json
// --http-version V -c C -p P -z 300ms [--insecure] URL).

func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestParseCurl(t *testing.T) {
	tests := []struct {
		file, scheme string
		want         CurlResult
		wantErr      string
	}{
		{file: "curl-h1.json", scheme: "http", want: CurlResult{Status: 200, Protocol: transport.H1, DownloadBytes: 1000003}},
		{file: "curl-h2.json", scheme: "https", want: CurlResult{Status: 200, Protocol: transport.H2, DownloadBytes: 1000003,
			Total: 12507 * time.Microsecond, DownloadSpeed: 79955464}},
		{file: "curl-h2c-upload.json", scheme: "http", want: CurlResult{Status: 200, Protocol: transport.H2C, DownloadBytes: 40, UploadBytes: 3000001}},
		{file: "curl-refused.json", scheme: "http", wantErr: "curl exit 7: Failed to connect"},
		{file: "curl-h2c-400.json", scheme: "http", wantErr: "status 400"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			got, err := ParseCurl(readTestdata(t, tt.file), tt.scheme)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.Status != tt.want.Status || got.Protocol != tt.want.Protocol ||
				got.DownloadBytes != tt.want.DownloadBytes || got.UploadBytes != tt.want.UploadBytes {
				t.Fatalf("got %+v, want %+v", got, tt.want)
			}
			if got.Total <= 0 || (tt.want.Total != 0 && (got.Total != tt.want.Total || got.DownloadSpeed != tt.want.DownloadSpeed)) {
				t.Fatalf("times: got %v %v B/s, want %v %v B/s", got.Total, got.DownloadSpeed, tt.want.Total, tt.want.DownloadSpeed)
			}
		})
	}
	if _, err := ParseCurl([]byte("curl: (6) no"), "http"); err == nil {
		t.Error("ParseCurl accepted text that is not JSON")
	}
}

// h2loadCase is one h2load report in testdata and what it parses to.
type h2loadCase struct {
	file      string
	proto     transport.Protocol
	total     int64
	succeeded int64
	finished  time.Duration
	rps       float64
	reqMean   time.Duration
	wantErr   string
}

func TestParseH2load(t *testing.T) {
	tests := []h2loadCase{
		{file: "h2load-h2c.txt", proto: transport.H2C, total: 200, succeeded: 200, finished: 9660 * time.Microsecond, rps: 20712.51, reqMean: 846 * time.Microsecond},
		{file: "h2load-h1.txt", proto: transport.H1, total: 200, succeeded: 200, finished: 9350 * time.Microsecond, rps: 21394.95},
		{file: "h2load-h2.txt", proto: transport.H2, total: 200, succeeded: 200, finished: 31400 * time.Microsecond, rps: 6370.24},
		{file: "h2load-h2c-duration.txt", proto: transport.H2C, total: 18473, succeeded: 18473, finished: time.Second, rps: 18473},
		{file: "h2load-refused.txt", wantErr: "no request succeeded: 10 of 10 failed, 10 errored"},
		{file: "h2load-h2c-400.txt", wantErr: "no request succeeded: 100 of 100 failed"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			checkH2load(t, tt)
		})
	}
	// h1 over TLS: the "TLS Protocol" line tells it from h1.
	tlsOut := strings.Replace(string(readTestdata(t, "h2load-h1.txt")), "Application protocol:", "TLS Protocol: TLSv1.3\nApplication protocol:", 1)
	if got, err := ParseH2load([]byte(tlsOut)); err != nil || got.Protocol != transport.H1TLS {
		t.Errorf("h1 with TLS: %v, %v; want h1-tls", got.Protocol, err)
	}
	if _, err := ParseH2load([]byte("starting benchmark...\n")); err == nil {
		t.Error("ParseH2load accepted a report without figures")
	}
}

// checkH2load parses tt's report and checks it against tt: the error
// asked for, or the counts, times and protocol.
func checkH2load(t *testing.T, tt h2loadCase) {
	t.Helper()
	got, err := ParseH2load(readTestdata(t, tt.file))
	if tt.wantErr != "" {
		if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
			t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	if got.Protocol != tt.proto || got.Total != tt.total || got.Succeeded != tt.succeeded ||
		got.Done != tt.total || got.Failed != 0 || got.Status[0] < tt.succeeded || // -D mode: one more 2xx than succeeded

		got.Finished != tt.finished || got.RequestsPerSecond != tt.rps {
		t.Fatalf("got %+v", got)
	}
	if tt.reqMean != 0 && got.Request.Mean != tt.reqMean {
		t.Fatalf("request mean %v, want %v", got.Request.Mean, tt.reqMean)
	}
	if got.Request.Min <= 0 || got.Request.Max < got.Request.Min || got.Connect.Mean <= 0 {
		t.Fatalf("times %+v %+v", got.Request, got.Connect)
	}
}

func TestParseWrk(t *testing.T) {
	got, err := ParseWrk(readTestdata(t, "wrk-h1.txt"))
	if err != nil {
		t.Fatal(err)
	}
	want := WrkResult{Duration: 1101505 * time.Microsecond, Requests: 32006, Succeeded: 32006, Bytes: 3296618,
		Latency: WrkLatency{Min: 14 * time.Microsecond, Max: 193898 * time.Microsecond, Mean: 7823797 * time.Nanosecond,
			StdDev: 28226663 * time.Nanosecond, P50: 178 * time.Microsecond, P90: 8286 * time.Microsecond,
			P99: 160073 * time.Microsecond, P999: 190047 * time.Microsecond}}
	want.RequestsPerSecond = 32006 / want.Duration.Seconds()
	if got != want {
		t.Fatalf("got %+v\nwant %+v", got, want)
	}
	checkWrkStatusErrors(t)
	// Interrupted at 300 ms: wrk stopped at its next 100 ms tick and says so.
	cut, err := ParseWrk(readTestdata(t, "wrk-h1-interrupted.txt"))
	if err != nil || cut.Duration != 400272*time.Microsecond || cut.Succeeded != 13782 || cut.Errors.Total() != 0 {
		t.Fatalf("interrupted: %+v, %v", cut, err)
	}
	checkWrkRefusals(t)
}

// checkWrkStatusErrors checks that a run whose every response was a 400
// parses with the 400s counted, by wrk or by wrk.lua's response hook.
func checkWrkStatusErrors(t *testing.T) {
	t.Helper()
	// Status errors are counted, not fatal: every response was a 400.
	bad, err := ParseWrk(readTestdata(t, "wrk-h1-400.txt"))
	if err != nil || bad.Errors.Status != 35813 || bad.Errors.Total() != 35813 || bad.Requests != 35813 || bad.Succeeded != 0 || bad.RequestsPerSecond != 0 {
		t.Fatalf("400s: %+v, %v", bad, err)
	}
	// With wrk.lua's response hook: non2xx counts the same 400s once.
	bad, err = ParseWrk(readTestdata(t, "wrk-h1-400-non2xx.txt"))
	if err != nil || bad.Errors.Non2xx != 30834 || bad.Errors.Total() != 30834 || bad.Succeeded != 0 || bad.Load(transport.H1).Failed != 30834 {
		t.Fatalf("400s counted by the hook: %+v, %v", bad, err)
	}
}

// checkWrkRefusals checks that a run whose connections were refused, or one that
// completed no request, is an error.
func checkWrkRefusals(t *testing.T) {
	t.Helper()
	if _, err := ParseWrk(readTestdata(t, "wrk-refused.txt")); err == nil || !strings.Contains(err.Error(), "Connection refused") {
		t.Fatalf("refused: error %v, want one quoting wrk's message", err)
	}
	if _, err := ParseWrk([]byte(wrkMarker + `{"duration_us":1000000,"requests":0,"errors":{"connect":4}}` + "\n")); err == nil {
		t.Fatal("ParseWrk accepted a run that completed no request")
	}
}

// TestWrkErrorsTotal: 3xx are failures too (wrk's own status count starts
// at 400), and a 4xx counted by both wrk and the hook counts once.
func TestWrkErrorsTotal(t *testing.T) {
	out := wrkMarker + `{"duration_us":1000000,"requests":100,"errors":{"connect":1,"read":2,"write":3,"status":10,"timeout":4,"non2xx":30}}` + "\n"
	r, err := ParseWrk([]byte(out))
	if err != nil {
		t.Fatal(err)
	}
	if r.Errors.Total() != 1+2+3+4+30 || r.Succeeded != 100-30-4 || r.RequestsPerSecond != 66 {
		t.Fatalf("%+v: total %d", r, r.Errors.Total())
	}
	if l := r.Load(transport.H1TLS); l.Failed != 40 || l.Succeeded != 66 || l.Protocol != transport.H1TLS || l.Client != "wrk" {
		t.Fatalf("load %+v", l)
	}
}

func FuzzParseH2load(f *testing.F) {
	for _, name := range []string{"h2load-h2c.txt", "h2load-refused.txt"} {
		f.Add(readTestdata(f, name))
	}
	f.Fuzz(func(t *testing.T, b []byte) { _, _ = ParseH2load(b) })
}

func FuzzParseWrk(f *testing.F) {
	f.Add(readTestdata(f, "wrk-h1.txt"))
	f.Fuzz(func(t *testing.T, b []byte) { _, _ = ParseWrk(b) })
}

func FuzzParseCurl(f *testing.F) {
	f.Add(readTestdata(f, "curl-h1.json"), "http")
	f.Fuzz(func(t *testing.T, b []byte, scheme string) { _, _ = ParseCurl(b, scheme) })
}

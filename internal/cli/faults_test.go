package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net"
	"net/http"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/httpvs/httpvs/internal/childserver"
	"github.com/httpvs/httpvs/load/loadresult"
	"github.com/httpvs/httpvs/stats"
	"github.com/httpvs/httpvs/transfer/transferresult"
)

// TestServerKilledMidRun SIGKILLs a child `httpvs serve` while `get` and
// `load` run against it: each exits 1, prints one valid JSON object with
// what it measured, and counts the failures by kind.
func TestServerKilledMidRun(t *testing.T) {
	if testing.Short() {
		t.Skip("kills servers and waits on QUIC's silence: not under -short (go test ./internal/cli runs it)")
	}
	for _, tt := range []struct {
		name string
		args func(plain, tls string) []string
		// check inspects the JSON and returns a problem, or "".
		check func(out string) string
	}{
		{"get-h1", func(plain, _ string) []string {
			return []string{"get", plain + "/bytes/1t", "-n", "2", "--json", "--no-server-stats"}
		}, checkTransfer},
		{"get-h2", func(_, tls string) []string {
			return []string{"get", tls + "/bytes/1t", "-k", "--json", "--no-server-stats"}
		}, checkTransfer},
		{"load-h2c", func(plain, _ string) []string {
			return []string{"load", plain + "/small", "-p", "h2c", "-c", "2", "-m", "4", "-d", "20s", "--json"}
		}, checkLoad},
		{"load-h1", func(plain, _ string) []string {
			return []string{"load", plain + "/small", "-c", "4", "-d", "20s", "--json"}
		}, checkLoad},
		// Over HTTP/3 nothing comes back from a dead server: the run ends
		// at its time, before the 5 s QUIC idle timeout can, with the
		// requests then in flight (one per stream) counted as timeouts.
		{"load-h3-std", func(_, tls string) []string {
			return []string{"load", tls + "/small", "-p", "h3", "-k", "--engine", "std", "-c", "2", "-m", "2", "-d", "5s", "--json"}
		}, checkLoadH3},
		{"load-h3-fast", func(_, tls string) []string {
			return []string{"load", tls + "/small", "-p", "h3", "-k", "--engine", "fast", "-c", "2", "-m", "2", "-d", "5s", "--json"}
		}, checkLoadH3},
		{"load-h3-text", func(_, tls string) []string {
			return []string{"load", tls + "/small", "-p", "h3", "-k", "-c", "2", "-m", "2", "-d", "5s"}
		}, func(out string) string {
			if !timeoutsText.MatchString(out) || !strings.Contains(out, "the server stopped answering at ") {
				return "the text does not count the requests in flight as timeouts, or say when the server stopped answering"
			}
			return ""
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			// Each kills a child server of its own and mostly waits (h3 5 s
			// on QUIC's silence); the checks are counts by kind, exit codes
			// and a 15 s bound, not rates.
			t.Parallel()
			child, err := childserver.Start(context.Background(), "", nil, childserver.Spec{})
			if err != nil {
				t.Fatal(err)
			}
			defer child.Stop()
			go func() {
				if strings.HasPrefix(tt.name, "load") {
					// Once it has answered: a load result then says when
					// it stopped, however slow the machine.
					waitServed(child.Ready.Plain, 20, 15*time.Second)
				} else {
					time.Sleep(700 * time.Millisecond)
				}
				syscall.Kill(child.Ready.PID, syscall.SIGKILL)
			}()
			start := time.Now()
			code, stdout, stderr := runMain(t, tt.args(child.Ready.Plain, child.Ready.TLS)...)
			if code != exitFailure {
				t.Fatalf("exit %d, want %d; stderr %q", code, exitFailure, stderr)
			}
			if d := time.Since(start); d > 15*time.Second {
				t.Errorf("took %v to notice the server was gone", d)
			}
			if problem := tt.check(stdout); problem != "" {
				t.Errorf("%s\nstdout: %s\nstderr: %s", problem, stdout, stderr)
			}
		})
	}
}

// waitServed returns once the server at base (its cleartext URL) has
// served n requests over any transport, as its /stats says, or after d.
func waitServed(base string, n int64, d time.Duration) {
	for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		resp, err := http.Get(base + "/stats")
		if err != nil {
			continue
		}
		var st stats.ServerStats
		err = json.NewDecoder(resp.Body).Decode(&st)
		resp.Body.Close()
		var served int64
		for _, p := range st.Protocols {
			served += p.Requests
		}
		if err == nil && served >= n {
			return
		}
	}
}

func checkTransfer(out string) string {
	var res transferresult.Result
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		return "not one JSON object: " + err.Error()
	}
	// The bytes the streams moved before the kill are kept apart: a
	// failed transfer never counts as throughput.
	if res.Bytes != 0 || res.BitsPerSecond != 0 || res.FailedBytes == 0 || res.Errors.Total == 0 || res.Errors.Total != int64(res.Streams) {
		return "want bytes moved only by failed streams, counted apart, and every stream failed"
	}
	if res.Errors.Of(stats.ErrReset)+res.Errors.Of(stats.ErrShort) != res.Errors.Total {
		return "errors not counted as reset or short: " + res.Errors.String()
	}
	return ""
}

func checkLoad(out string) string {
	var res loadresult.Result
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		return "not one JSON object: " + err.Error()
	}
	if res.Requests == 0 || res.Errors.Total == 0 || res.Requests <= res.Errors.Total {
		return "want requests answered before the kill and failures after it"
	}
	if s := res.Errors.String(); !strings.Contains(s, "refused") && !strings.Contains(s, "reset") {
		return "errors not counted as refused or reset: " + s
	}
	return checkLive(res)
}

// timeoutsText is the text report's count of up to 4 requests (2 x 2
// streams) in flight, all timeouts.
var timeoutsText = regexp.MustCompile(`; [1-4] errors? \([1-4] timeout\)\n`)

// checkLoadH3 checks load's JSON after an HTTP/3 server was killed.
func checkLoadH3(out string) string {
	var res loadresult.Result
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		return "not one JSON object: " + err.Error()
	}
	// One per stream, but for a request whose response had begun when
	// the server was killed: its body's progress is not timed, and it is
	// not counted.
	if e := res.Errors; res.Succeeded == 0 || e.Total == 0 || e.Total > 4 || e.Timeout != e.Total || res.Requests != res.Succeeded+e.Total {
		return fmt.Sprintf("requests %d, succeeded %d, errors %v: want up to 4 timeouts, one per stream", res.Requests, res.Succeeded, res.Errors)
	}
	return checkLive(res)
}

// checkLive checks that a result says when its server stopped answering
// and has its rates over the time before.
func checkLive(res loadresult.Result) string {
	if res.StoppedAnswering <= 0 || res.Seconds != res.StoppedAnswering || res.RanSeconds <= res.Seconds || res.Stopped == "" {
		return fmt.Sprintf("stopped answering at %v s, seconds %v, ran %v s, stopped %q: want the rates over the time it answered",
			res.StoppedAnswering, res.Seconds, res.RanSeconds, res.Stopped)
	}
	if want := float64(res.Succeeded) / res.Seconds; math.Abs(res.RequestsPerSecond-want) > 1e-6*want {
		return fmt.Sprintf("%v req/s, want %d / %v s", res.RequestsPerSecond, res.Succeeded, res.Seconds)
	}
	return ""
}

// TestGetUnreachableH3DialsOnce: with nothing on a UDP port, the first
// /stats read's QUIC handshake times out and no transfer is attempted, so
// the command costs one dial timeout, not two; every transfer is counted as
// a timeout.
func TestGetUnreachableH3DialsOnce(t *testing.T) {
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := pc.LocalAddr().String()
	pc.Close()
	code, stdout, stderr := runMain(t, "get", "--json", "-p", "h3", "-k", "-n", "2", "--dial-timeout", "500ms", "https://"+addr+"/1M")
	if code != exitFailure {
		t.Fatalf("exit %d, want %d; stderr %q", code, exitFailure, stderr)
	}
	var res transferresult.Result
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatalf("not one JSON object: %v\n%s", err, stdout)
	}
	if res.Errors.Total != 2 || res.Errors.Of(stats.ErrTimeout) != 2 || res.Bytes != 0 || res.Connections != 0 {
		t.Errorf("errors %v, %d bytes, %d connections: want 2 timeouts and nothing moved", res.Errors, res.Bytes, res.Connections)
	}
	if !strings.Contains(res.ServerNote, "no transfer attempted") {
		t.Errorf("server note %q: want it to say no transfer was attempted", res.ServerNote)
	}
}

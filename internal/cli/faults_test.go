package cli

import (
	"context"
	"encoding/json"
	"net"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/httpvs/httpvs/load"
	"github.com/httpvs/httpvs/stats"
	"github.com/httpvs/httpvs/transfer"
)

// TestServerKilledMidRun SIGKILLs a child `httpvs serve` while `get` and
// `load` run against it: each exits 1, prints one valid JSON object with
// what it measured, and counts the failures by kind.
func TestServerKilledMidRun(t *testing.T) {
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
	} {
		t.Run(tt.name, func(t *testing.T) {
			child, err := startChild(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			defer child.stop()
			go func() {
				time.Sleep(700 * time.Millisecond)
				syscall.Kill(child.ready.PID, syscall.SIGKILL)
			}()
			start := time.Now()
			code, stdout, stderr := runMain(t, tt.args(child.ready.Plain, child.ready.TLS)...)
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

func checkTransfer(out string) string {
	var res transfer.Result
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
	var res load.Result
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		return "not one JSON object: " + err.Error()
	}
	if res.Requests == 0 || res.Errors.Total == 0 || res.Requests <= res.Errors.Total {
		return "want requests answered before the kill and failures after it"
	}
	if s := res.Errors.String(); !strings.Contains(s, "refused") && !strings.Contains(s, "reset") {
		return "errors not counted as refused or reset: " + s
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
	var res transfer.Result
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

package report

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/httpvs/httpvs/stats"
	"github.com/httpvs/httpvs/transfer/transferresult"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./report -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s differs from the golden file:\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

func sample() transferresult.Result {
	var errs stats.ErrorCounts
	errs.Count(stats.ErrReset)
	return transferresult.Result{
		URL: "http://127.0.0.1:8080/1g", Direction: "download", Requested: "h2c", Protocol: "h2c",
		Streams: 2, Connections: 1, Bytes: 1_500_000_000, Seconds: 0.75, BitsPerSecond: 16e9,
		Errors: errs, FirstError: "GET http://127.0.0.1:8080/1g: body failed after 500000000 bytes: connection reset by peer",
		PerStream: []transferresult.Stream{
			{Bytes: 1_000_000_000, Seconds: 0.5, BitsPerSecond: 16e9},
			{Bytes: 500_000_000, Seconds: 0.75, BitsPerSecond: 5.33e9, Error: "connection reset by peer", ErrorKind: "reset"},
		},
		Client: transferresult.ClientSide{
			BodyReads: 6000, ReadSize: 262144,
			TCP:     stats.IOStats{Connections: 1, Reads: 40000, ReadBytes: 1_500_100_000, Writes: 100, WriteBytes: 2600},
			Process: stats.ProcessStats{CPUUserSeconds: 0.2, CPUSystemSeconds: 0.4},
		},
		Server: &stats.ServerStats{
			Seconds:   0.8,
			Protocols: map[string]stats.ProtocolCounters{"h2c": {Requests: 2, Connections: 1, BodyBytesSent: 1_500_000_000, BodyWrites: 5722, TransferSeconds: 1.2}},
			TCP:       stats.IOStats{Connections: 1, Reads: 120, ReadBytes: 3000, Writes: 1500, WriteBytes: 1_500_020_000},
			Process:   stats.ProcessStats{CPUUserSeconds: 0.3, CPUSystemSeconds: 0.3, GCCycles: 2},
		},
	}
}

func TestTransferGolden(t *testing.T) {
	var b bytes.Buffer
	if err := Transfer(&b, sample()); err != nil {
		t.Fatal(err)
	}
	golden(t, "transfer.txt", b.Bytes())
}

// TestTransferJSONRoundTrips: get --json's object decodes to what was
// measured.
func TestTransferJSONRoundTrips(t *testing.T) {
	var b bytes.Buffer
	if err := json.NewEncoder(&b).Encode(sample()); err != nil {
		t.Fatal(err)
	}
	var back transferresult.Result
	dec := json.NewDecoder(&b)
	if err := dec.Decode(&back); err != nil {
		t.Fatal(err)
	}
	if dec.More() || back.Bytes != 1_500_000_000 || back.Errors.Reset != 1 || back.Server.Protocols["h2c"].BodyWrites != 5722 {
		t.Fatalf("round trip lost data: %+v", back)
	}
}

func TestTransferSaysHowBlockingSocketsWaited(t *testing.T) {
	r := sample()
	r.Requested, r.Protocol = "h1", "h1"
	r.Client.BlockingSockets = true
	r.Client.ReadWaits = &stats.ReadWaits{Reads: 100, Polled: 70, Polls: 150, Blocked: 20}
	var b bytes.Buffer
	if err := Transfer(&b, r); err != nil {
		t.Fatal(err)
	}
	want := "blocking sockets, outside Go's poller, waits polling: of 100 reads 70 ended by polls (150 empty polls), 20 in a blocking recv;"
	if !strings.Contains(b.String(), want) {
		t.Fatalf("client line lacks %q:\n%s", want, b.String())
	}
	r.Client.ReadWaits.Batched, r.Client.ReadWaits.Stalled = 30, 2
	b.Reset()
	if err := Transfer(&b, r); err != nil {
		t.Fatal(err)
	}
	if want := "20 in a blocking recv, 30 waited for a batch of bytes (2 found none in time);"; !strings.Contains(b.String(), want) {
		t.Fatalf("client line lacks %q:\n%s", want, b.String())
	}
}

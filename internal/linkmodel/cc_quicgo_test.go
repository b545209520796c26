package linkmodel

import (
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestQUICFiguresFromSource reads quic-go's initial window and packet
// sizes from the source of the version go.mod requires (the module
// cache): a new quic-go that changes them fails here until the figures
// are checked again.
func TestQUICFiguresFromSource(t *testing.T) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Version}} {{.Dir}}", "github.com/quic-go/quic-go").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	version, dir, _ := strings.Cut(strings.TrimSpace(string(out)), " ")
	if dir == "" {
		t.Skipf("quic-go %s is not in the module cache", version)
	}
	for _, c := range []struct {
		file, name string
		want       int
	}{
		{"internal/congestion/cubic_sender.go", "initialCongestionWindow", QUICInitialWindowPackets},
		{"internal/protocol/params.go", "InitialPacketSize", QUICInitialPacketBytes},
		{"internal/protocol/protocol.go", "MaxPacketBufferSize", QUICMaxPacketBytes},
		{"internal/congestion/cubic.go", "cubeCongestionWindowScale", int(math.Round(CubicC * 1024))},
	} {
		src, err := os.ReadFile(filepath.Join(dir, c.file))
		if err != nil {
			t.Fatalf("quic-go %s: %v", version, err)
		}
		m := regexp.MustCompile(`\b` + c.name + `\s*(?:protocol\.ByteCount\s*)?=\s*(\d+)`).FindSubmatch(src)
		if m == nil {
			t.Errorf("quic-go %s: %s has no constant %s", version, c.file, c.name)
			continue
		}
		if got, _ := strconv.Atoi(string(m[1])); got != c.want {
			t.Errorf("quic-go %s: %s = %d, httpvs models %d", version, c.name, got, c.want)
		}
	}
	src, err := os.ReadFile(filepath.Join(dir, "internal/congestion/cubic.go"))
	if err != nil {
		t.Fatalf("quic-go %s: %v", version, err)
	}
	m := regexp.MustCompile(`const beta float32 = ([0-9.]+)`).FindSubmatch(src)
	if m == nil {
		t.Fatalf("quic-go %s: cubic.go has no beta", version)
	}
	if got, _ := strconv.ParseFloat(string(m[1]), 64); got != CubicBeta {
		t.Errorf("quic-go %s: Cubic's beta = %g, httpvs models %g", version, got, CubicBeta)
	}
}

// TestLossBound: Mathis et al.'s bound at 1% loss and 100 ms with
// 1448-byte segments is 1.42 Mbit/s; BBR is not loss-based.
func TestLossBound(t *testing.T) {
	got := LossBound(TCPSegmentBytes, 0.100, 0.01) * 8
	if got < 1.41e6 || got > 1.43e6 {
		t.Errorf("LossBound = %.3g bit/s, want 1.42 Mbit/s", got)
	}
	if LossBound(TCPSegmentBytes, 0.1, 0) != 0 {
		t.Error("no loss: want no bound")
	}
	for cc, want := range map[string][2]bool{"bbr": {false, true}, "cubic": {true, true}, QUICCongestion: {true, true}, "": {false, false}, "vegas": {false, false}} {
		if lb, known := LossBased(cc); lb != want[0] || known != want[1] {
			t.Errorf("LossBased(%q) = %v, %v; want %v", cc, lb, known, want)
		}
	}
	// 12 Mbit/s at 70 ms holds 105 KB: three doublings of TCP's 14.5 KB,
	// two of quic-go's 41 KB.
	if tcp, quic := SlowStartRTTs(1.5e6, 70*time.Millisecond, InitialWindowBytes(false)), SlowStartRTTs(1.5e6, 70*time.Millisecond, InitialWindowBytes(true)); tcp != 3 || quic != 2 {
		t.Errorf("slow start: TCP %d, QUIC %d round trips; want 3, 2", tcp, quic)
	}
}

// TestQUICController: the controller recorded for h3 names the quic-go
// version go.mod requires, and the loss models know it by that name.
func TestQUICController(t *testing.T) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Version}}", QUICModule).Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	version := strings.TrimSpace(string(out))
	got := QUICControllerOf(version)
	if want := "quic-go " + version + "'s cubic"; got != want {
		t.Errorf("QUICControllerOf(%q) = %q, want %q", version, got, want)
	}
	if QUICControllerOf("") != QUICCongestion {
		t.Error("no version (no build information): want QUICCongestion")
	}
	t.Log(got)
	if lb, known := LossBased(got); !lb || !known {
		t.Errorf("LossBased(%q) = %v, %v: want a loss-based controller", got, lb, known)
	}
	if _, ok := PredictLoss(got, 1e6, 1423, 0.1, 0.01); !ok {
		t.Errorf("PredictLoss(%q): no model", got)
	}
}

package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
)

// machine is what the run measured of where it ran: every machine,
// version, controller and load fact a row or the header states comes
// from here, read at the start of the run.
type machine struct {
	cpuModel   string // /proc/cpuinfo's first "model name"
	procCPUs   int    // /proc/cpuinfo's "processor" entries
	numCPU     int    // runtime.NumCPU: the CPUs this process may use
	gomaxprocs int    // runtime.GOMAXPROCS(0) at the start
	kernel     string // /proc/sys/kernel/osrelease
	goVersion  string // runtime.Version: the toolchain that built this program
	quicGo     string // module versions built in (runtime/debug.ReadBuildInfo)
	grpcGo     string
	netX       string
	curl       string // curl --version's first two words; "" when curl is absent
	tcpCC      string // /proc/sys/net/ipv4/tcp_congestion_control
}

// facts is the machine this run is on, read once by run before any
// section; rows read it through diff and the other methods.
var facts = machine{goVersion: runtime.Version(), numCPU: runtime.NumCPU(), gomaxprocs: runtime.GOMAXPROCS(0)}

func readMachine() machine {
	m := machine{numCPU: runtime.NumCPU(), gomaxprocs: runtime.GOMAXPROCS(0), goVersion: runtime.Version()}
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		m.cpuModel, m.procCPUs = parseCPUInfo(b)
	}
	m.kernel = readTrim("/proc/sys/kernel/osrelease")
	m.tcpCC = readTrim("/proc/sys/net/ipv4/tcp_congestion_control")
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			v := d.Version
			if d.Replace != nil {
				v = d.Replace.Version
			}
			switch d.Path {
			case "github.com/quic-go/quic-go":
				m.quicGo = v
			case "google.golang.org/grpc":
				m.grpcGo = v
			case "golang.org/x/net":
				m.netX = v
			}
		}
	}
	if out, err := exec.Command("curl", "--version").Output(); err == nil {
		m.curl = parseCurlVersion(out)
	}
	return m
}

// parseCPUInfo is /proc/cpuinfo's first model name and its number of
// processor entries.
func parseCPUInfo(b []byte) (model string, n int) {
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		switch strings.TrimSpace(k) {
		case "processor":
			n++
		case "model name":
			if model == "" {
				model = strings.TrimSpace(v)
			}
		}
	}
	return model, n
}

// parseCurlVersion is `curl --version`'s program and version ("curl
// X.Y.Z").
func parseCurlVersion(out []byte) string {
	f := strings.Fields(string(out))
	if len(f) < 2 {
		return ""
	}
	return f[0] + " " + f[1]
}

func readTrim(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return "unknown"
	}
	return strings.TrimSpace(string(b))
}

// or is s, or "unknown" when s is empty.
func or(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

// cores is the machine's CPUs as measured: /proc/cpuinfo's count and
// model, and runtime.NumCPU where it differs (an affinity mask).
func (m machine) cores() string {
	s := fmt.Sprintf("%d cores (%s)", m.procCPUs, or(m.cpuModel))
	if m.numCPU != m.procCPUs {
		s += fmt.Sprintf(", %d usable by this process", m.numCPU)
	}
	return s
}

// diff is what every row's setup differs from its publication in:
// the machine, the toolchain and quic-go, as read at the start.
func (m machine) diff() string {
	return fmt.Sprintf("%s, GOMAXPROCS %d, Linux %s, %s and quic-go %s here", m.cores(), m.gomaxprocs, m.kernel, m.goVersion, or(m.quicGo))
}

// load is one reading of /proc/loadavg: the 1, 5 and 15 minute
// averages.
type load [3]float64

func readLoad() (load, bool) {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return load{}, false
	}
	return parseLoad(string(b))
}

func parseLoad(s string) (load, bool) {
	f := strings.Fields(s)
	if len(f) < 3 {
		return load{}, false
	}
	var l load
	for i := range 3 {
		v, err := strconv.ParseFloat(f[i], 64)
		if err != nil {
			return load{}, false
		}
		l[i] = v
	}
	return l, true
}

func (l load) String() string { return fmt.Sprintf("%.2f %.2f %.2f", l[0], l[1], l[2]) }

// loadSentence says plainly what the measured load means for the
// figures: the 1-minute average against the cores, before, during (the
// highest reading taken as each section ended) and after.
func loadSentence(before, highest, after load, cores int) string {
	top := max(before[0], highest[0], after[0])
	s := fmt.Sprintf("1-minute load average %.2f before, at most %.2f as sections ended, %.2f after, on %d cores: ", before[0], highest[0], after[0], cores)
	switch {
	case top > float64(cores):
		return s + "more runnable work than cores, so other work shared the machine with this run (it runs one measurement at a time); every figure here is noisier than on a quiet machine, and the intervals, not the medians, are what to read."
	case top > float64(cores)/2:
		return s + "this run's own measurements account for up to its core count; other work may have shared the machine, and the intervals, not the medians, are what to read."
	}
	return s + "the machine was quiet."
}

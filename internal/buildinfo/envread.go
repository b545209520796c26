package buildinfo

import (
	"bufio"
	"os"
	"runtime"
	"strings"

	"github.com/httpvs/httpvs/results"
)

// CurrentEnv describes this process's machine and build.
func CurrentEnv() results.Env {
	e := results.Env{
		GoVersion:  runtime.Version(),
		OS:         runtime.GOOS,
		Arch:       runtime.GOARCH,
		Cores:      runtime.NumCPU(),
		GOMAXPROCS: runtime.GOMAXPROCS(0),
		CPUModel:   cpuModel(),
		Kernel:     kernel(),
	}
	if b := ReadBuild(); b.Version != "(unknown)" {
		e.Version, e.Commit, e.Modified = b.Version, b.Revision, b.Modified
	}
	return e
}

// cpuModel reads the first "model name" of /proc/cpuinfo (Linux).
func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// kernel reads the kernel release (Linux).
func kernel() string {
	b, err := os.ReadFile("/proc/sys/kernel/osrelease")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

package results

import (
	"bufio"
	"os"
	"runtime"
	"strings"
)

// Env is the machine and build a run happened on.
type Env struct {
	GoVersion  string `json:"go_version"`
	OS         string `json:"os"`
	Arch       string `json:"arch"`
	CPUModel   string `json:"cpu_model"` // "" where unknown
	Cores      int    `json:"cores"`     // logical CPUs (runtime.NumCPU)
	GOMAXPROCS int    `json:"gomaxprocs"`
	Kernel     string `json:"kernel"` // "" where unknown
	Version    string `json:"httpvs_version"`
	Commit     string `json:"httpvs_commit"` // VCS revision, "" if not built from a checkout
	Modified   bool   `json:"httpvs_modified"`
}

// CurrentEnv describes this process's machine and build.
func CurrentEnv() Env {
	e := Env{
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

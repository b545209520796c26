package results

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

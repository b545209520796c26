package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

	"github.com/httpvs/httpvs/internal/buildinfo"
	"github.com/httpvs/httpvs/results"
)

// record collects the rows and writes the document and its record.
type record struct {
	p                     sizes
	began                 time.Time
	env                   results.Env
	commit, loadBefore    string
	loadAfter, took       string
	rows                  []Row
	details               []string
	sectionTimes          []string
	quicGo, grpcGo, netVx string
}

func newRecord(p sizes, began time.Time) *record {
	r := &record{p: p, began: began.UTC(), env: buildinfo.CurrentEnv(), loadBefore: loadavg()}
	out, err := exec.Command("git", "rev-parse", "--short", "HEAD").Output()
	r.commit = strings.TrimSpace(string(out))
	if err != nil {
		r.commit = "unknown"
	}
	if exec.Command("git", "diff", "--quiet", "HEAD", "--", ".", ":!docs").Run() != nil {
		r.commit += " (with uncommitted changes)"
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			switch d.Path {
			case "github.com/quic-go/quic-go":
				r.quicGo = d.Version
			case "google.golang.org/grpc":
				r.grpcGo = d.Version
			case "golang.org/x/net":
				r.netVx = d.Version
			}
		}
	}
	return r
}

// loadavg is uptime's load averages.
func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

func (r *record) add(name string, rows []Row, detail string, took time.Duration) {
	r.rows = append(r.rows, rows...)
	if detail != "" {
		r.details = append(r.details, "### "+name+"\n\n"+detail)
	}
	r.sectionTimes = append(r.sectionTimes, fmt.Sprintf("%s %s", name, took.Round(time.Second)))
}

func (r *record) finish(took time.Duration) {
	r.loadAfter, r.took = loadavg(), took.Round(time.Second).String()
}

func (r *record) header() string {
	e := r.env
	return fmt.Sprintf(`- date: %s (UTC), running time %s (%s)
- commit: %s
- machine: %d cores (GOMAXPROCS %d), %s, %s %s
- Go %s, quic-go %s, grpc-go %s, golang.org/x/net %s, %s
- command: %s
- load average (1, 5, 15 min) before: %s; after: %s. The machine was shared with about six other
  sessions building and testing at the same time: every figure here is noisier than on a quiet
  machine, and the intervals (not the medians) are what to read.
`, r.began.Format("2006-01-02 15:04"), r.took, strings.Join(r.sectionTimes, ", "), r.commit, e.Cores, e.GOMAXPROCS, e.CPUModel, e.Kernel, runtime.GOARCH,
		e.GoVersion, r.quicGo, r.grpcGo, r.netVx, curlVersion(), r.p.command, r.loadBefore, r.loadAfter)
}

func (r *record) table() string {
	var b strings.Builder
	b.WriteString("| # | source | published | setup here, and how it differs | httpvs | rule | verdict |\n|---|---|---|---|---|---|---|\n")
	for i, row := range r.rows {
		v := "**" + row.Verdict + "**"
		if row.Note != "" {
			v += ": " + row.Note
		}
		fmt.Fprintf(&b, "| %d | %s | %s | %s | %s | %s | %s |\n", i+1, row.Source, cellText(row.Claim), cellText(row.Setup), cellText(row.Figure), row.Rule, cellText(v))
	}
	return b.String()
}

func cellText(s string) string { return strings.ReplaceAll(s, "|", "/") }

func (r *record) counts() string {
	n := map[string]int{}
	for _, row := range r.rows {
		n[row.Verdict]++
	}
	return fmt.Sprintf("%d rows: %d agree, %d disagree, %d not comparable", len(r.rows), n[agrees], n[disagrees], n[notComparable])
}

const rules = `## How a claim is judged (fixed before the results)

- **R1, a published ratio** (throughput, or the inverse of ns/op, over the baseline's; above 1 is
  faster): it **agrees** when it lies inside httpvs's 95% interval (Student's t on the logarithms of
  the rounds' paired ratios) widened on each side by the run's noise floor for that measurement (the
  A/A interval's largest distance from 1: the baseline measured twice in the same rounds); outside, it
  **disagrees**. Without an interval (fewer than two rounds), or when the widened interval spans more
  than a factor of 3 (high over low: it would agree with almost anything), it is **not comparable**.
- **R2, a direction** (faster or slower, more or fewer, present or absent): **agrees** when httpvs's
  interval (or count) lies wholly on the claimed side, **disagrees** when wholly on the other,
  **not comparable** when the interval holds 1 (undecided here) or the figure was not measured.
- **R3, a count that barely varies between rounds** (allocations, bytes allocated, reads): the ratio
  to the same baseline **agrees** within a factor of 1.5 of the published ratio (Go, quic-go and
  grpc-go versions differ from the publications', and allocate differently), else **disagrees**.

Every row also says how its setup differs from the publication's. "Not comparable" is not a
disagreement: it says this run could not decide.
`

func (r *record) document() string {
	var b strings.Builder
	b.WriteString("# Replications: the published record beside httpvs\n\n")
	b.WriteString("Generated by `bench/replay.sh` (bench/replay): each published figure httpvs reproduces — the user's five\n")
	b.WriteString("documents (golang/go#47840 and its fork, the gonuget benchmark, the gRPC ServeHTTP post, the gin post) and two\n")
	b.WriteString("papers (Zhang et al., \"QUIC is not Quick Enough over Fast Internet\", WWW 2024; Yu and Benson, \"Dissecting\n")
	b.WriteString("Performance of Production QUIC\", WWW 2021) — run as closely as this machine allows, in its own shape, beside\n")
	b.WriteString("httpvs's figure. Do not edit by hand: rerun the script.\n\n")
	b.WriteString(r.header() + "\n" + rules + "\n## The claims\n\n" + r.counts() + ".\n\n" + r.table() + "\n" + r.disagreements() + "\n## Details\n\n")
	b.WriteString(strings.Join(r.details, "\n\n") + "\n")
	return b.String()
}

// write puts the document in docs/replications.md and the same, with
// its provenance, in docs/measurements/replay-DATE.md.
func (r *record) write() error {
	doc := r.document()
	name := "replay-" + r.began.Format("2006-01-02T1504Z") + pick(r.p.quick, "-quick", "") + ".md"
	dir := filepath.Join(r.p.docs, "measurements")
	if r.p.quick {
		dir = os.TempDir() // a check, not a measurement to keep
	}
	rec := filepath.Join(dir, name)
	if err := os.WriteFile(rec, []byte(strings.Replace(doc, "# Replications:", "# bench/replay.sh, "+r.began.Format("2006-01-02T1504Z")+":", 1)), 0o644); err != nil {
		return err
	}
	fmt.Println("replay: wrote", rec)
	if r.p.quick {
		fmt.Println("replay: --quick leaves docs/replications.md as it is")
		return nil
	}
	out := filepath.Join(r.p.docs, "replications.md")
	fmt.Println("replay: wrote", out, "-", r.counts())
	return os.WriteFile(out, []byte(doc), 0o644)
}

// disagreements lists the rows that disagree, each with what was
// measured about its cause.
func (r *record) disagreements() string {
	var b strings.Builder
	b.WriteString("## The disagreements and their causes\n\n")
	n := 0
	for i, row := range r.rows {
		if row.Verdict != disagrees {
			continue
		}
		n++
		note := row.Note
		if note == "" {
			note = "no cause measured"
		}
		fmt.Fprintf(&b, "- row %d (%s, %s): %s\n", i+1, row.Source, row.Claim, note)
	}
	if n == 0 {
		b.WriteString("None in this run.\n")
	}
	b.WriteString("\nThe gRPC post's one-at-a-time ordering, which httpvs's grpc-1 reads the other way, is taken apart setting by setting under Details (the gRPC post's benchmarks).\n")
	return b.String()
}

package cli

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/httpvs/httpvs/internal/merge"
	"github.com/httpvs/httpvs/load/loadresult"
	"github.com/httpvs/httpvs/report"
)

// Merge writes a merge of load results for people: a line per input, the
// merged line, the start skew and the warnings, then the merged result in
// full as Load writes it.
func Merge(w io.Writer, parts []merge.Part, m merge.Merged) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "input\thost\tstarted (UTC)\tseconds\trequests\tsucceeded\terrors\treq/s\tp50\tp99\t")
	for _, p := range parts {
		mergeLine(tw, p.Name, p.Result.Host, p.Result)
	}
	host := m.Result.Host
	if host == "" {
		host = plural(len(m.Result.Hosts), "host")
	}
	mergeLine(tw, fmt.Sprintf("merged (%s)", plural(m.Result.Parts, "run")), host, m.Result)
	if err := tw.Flush(); err != nil {
		return err
	}
	p := &printer{w: w}
	p.f("start skew %v (latest start minus earliest); rates over %.2f s, the union of the windows\n",
		m.StartSkew.Round(time.Microsecond), m.Result.Seconds)
	for _, warn := range m.Warnings {
		p.f("warning: %s\n", warn)
	}
	if p.err != nil {
		return p.err
	}
	fmt.Fprintln(w)
	return report.Load(w, m.Result)
}

func mergeLine(w io.Writer, name, host string, r loadresult.Result) {
	if host == "" {
		host = "?"
	}
	lat := []string{"-", "-"}
	if r.Latency.Count > 0 {
		lat = []string{dur(r.Latency.P50), dur(r.Latency.P99)}
	}
	fmt.Fprintf(w, "%s\t%s\t%s\t%.2f\t%d\t%d\t%d\t%.0f\t%s\t\n", name, host, r.Started.UTC().Format("15:04:05.000"),
		r.Seconds, r.Requests, r.Succeeded, r.Errors.Total, r.RequestsPerSecond, strings.Join(lat, "\t"))
}

package report

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/httpvs/httpvs/transfer"
	"github.com/httpvs/httpvs/units"
)

// Compare writes one row per transfer result, with each one's throughput
// as a ratio to the h1 row's (the seeds' question: is 2 faster than 1?).
// Rows without an h1 row to compare with show "-".
func Compare(w io.Writer, results []transfer.Result) error {
	var h1 float64
	for _, r := range results {
		if r.Requested == "h1" && r.Errors.Total == 0 {
			h1 = r.BitsPerSecond
		}
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "transport\tnegotiated\tbytes\tseconds\tthroughput\tvs h1\tbody reads\tserver writes\terrors\t")
	for _, r := range results {
		ratio := "-"
		if h1 > 0 && r.Errors.Total == 0 {
			ratio = fmt.Sprintf("%.2fx", r.BitsPerSecond/h1)
		}
		writes := "-"
		if r.Server != nil {
			writes = fmt.Sprint(r.Server.Protocols[r.Requested].BodyWrites)
		}
		neg := r.Protocol
		if neg == "" {
			neg = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%.3f\t%s\t%s\t%d\t%s\t%d\t\n", r.Requested, neg, r.Bytes, r.Seconds,
			units.BitsPerSecond(r.BitsPerSecond), ratio, r.Client.BodyReads, writes, r.Errors.Total)
	}
	return tw.Flush()
}

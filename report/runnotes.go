package report

import (
	"fmt"
	"strings"

	"github.com/httpvs/httpvs/results"
)

// runNotes are the lines a run's report prints once, at its top, rather
// than under every table or on every command: the environment's warnings
// (each with the one command that fixes it) and what holds for every
// table alike (server figures the target does not give, and where its
// CPU came from instead).
func runNotes(res *results.Results) []string {
	var out []string
	if w := res.Settings.UDPBuffers; w != "" {
		if !strings.HasPrefix(w, "warning: ") {
			w = "warning: " + w
		}
		out = append(out, w)
	}
	if n := foldedServerNote(res); n != "" {
		out = append(out, n)
	}
	if s := res.Settings.ServerCPU; s != "" {
		out = append(out, s)
	}
	return out
}

// foldedServerNote is the one line saying why server figures are n/a
// when every cell that lacks them lacks them for the same reason and they
// span more than one table, so the tables need not each repeat it; ""
// otherwise (the tables' own notes say it). httpvs reads the server's
// counters once for all transports, from one address: the line says so,
// so that an https cell's reason citing an http:// address reads right.
func foldedServerNote(res *results.Results) string {
	reason, kind, missing, measured := "", 0, 0, 0
	tables := map[string]bool{}
	for i := range res.Cells {
		c := &res.Cells[i]
		if c.Skipped != "" || len(c.Repetitions) == 0 {
			continue
		}
		measured++
		m := medianRep(c)
		k, gap := serverGap(m)
		if !gap {
			continue
		}
		if reason != "" && (m.ServerNote != reason || k != kind) {
			return ""
		}
		reason, kind, missing = m.ServerNote, k, missing+1
		tables[c.Scenario] = true
	}
	if len(tables) < 2 {
		return ""
	}
	where := "every table"
	if missing < measured {
		where = fmt.Sprintf("%d cells of %d tables", missing, len(tables))
	}
	return fmt.Sprintf("%s in %s (the server's counters are read once for every transport, from one address): %s", serverGapWords[kind], where, reason)
}

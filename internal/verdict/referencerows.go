package verdict

import (
	"slices"

	"github.com/httpvs/httpvs/results"
)

// ReferenceRow is one client's scenario over one transport, as the
// reference peers played it: a cell per server.
type ReferenceRow struct {
	Scenario, Protocol, Client string
	ByServer                   map[string]*results.ReferenceCell
}

// ReferenceRows groups r.References into rows (h1's included, which the
// others' ratios are to), in the order they first appear, and lists the
// servers in the same order.
func ReferenceRows(r *results.Results) (servers []string, rows []ReferenceRow) {
	index := map[[3]string]int{}
	for i := range r.References {
		c := &r.References[i]
		if !slices.Contains(servers, c.Server) {
			servers = append(servers, c.Server)
		}
		k := [3]string{c.Scenario, c.Protocol, c.Client}
		j, ok := index[k]
		if !ok {
			j = len(rows)
			index[k] = j
			rows = append(rows, ReferenceRow{Scenario: c.Scenario, Protocol: c.Protocol, Client: c.Client, ByServer: map[string]*results.ReferenceCell{}})
		}
		rows[j].ByServer[c.Server] = c
	}
	return servers, rows
}

// ReferenceRowOf returns the row of rows for scenario, protocol and
// client; nil when the peers did not play it.
func ReferenceRowOf(rows []ReferenceRow, scenario, protocol, client string) *ReferenceRow {
	for i := range rows {
		if rows[i].Scenario == scenario && rows[i].Protocol == protocol && rows[i].Client == client {
			return &rows[i]
		}
	}
	return nil
}

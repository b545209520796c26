package analysis

import (
	"github.com/httpvs/httpvs/results"
)

// ReferenceRow is one client's scenario over one transport
// (results.ReferenceRow).
type ReferenceRow = results.ReferenceRow

// ReferenceRows groups r.References into rows (results.Results.ReferenceRows).
func ReferenceRows(r *results.Results) ([]string, []ReferenceRow) { return r.ReferenceRows() }

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

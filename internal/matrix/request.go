package matrix

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/httpvs/httpvs/results"
)

// requestsOf are the user's requests scenarios measure, each once.
func requestsOf(scenarios []Scenario) []results.Request {
	var out []results.Request
	seen := map[*results.Request]bool{}
	for _, sc := range scenarios {
		if spec(&sc).Req != nil && !seen[spec(&sc).Req] {
			seen[spec(&sc).Req] = true
			out = append(out, *spec(&sc).Req)
		}
	}
	return out
}

// mergeHeaders is a's headers, then b's added.
func mergeHeaders(a, b http.Header) http.Header {
	if len(b) == 0 {
		return a
	}
	out := a.Clone()
	if out == nil {
		out = http.Header{}
	}
	for k, vs := range b {
		out[k] = append(out[k], vs...)
	}
	return out
}

// responsesDiffer notes in each measured cell of a user's request whose
// response body lengths differ between transports how they differ.
func responsesDiffer(cells []results.Cell) {
	var parts []string
	lengths := map[int64]bool{}
	for _, c := range cells {
		if c.Skipped == "" {
			lengths[c.ResponseBytes] = true
			parts = append(parts, fmt.Sprintf("%s %d bytes", c.Protocol, c.ResponseBytes))
		}
	}
	if len(lengths) < 2 {
		return
	}
	note := "the response bodies differ by transport: " + strings.Join(parts, ", ")
	for i := range cells {
		if cells[i].Skipped == "" {
			cells[i].ResponsesDiffer = note
		}
	}
}

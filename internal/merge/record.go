package merge

import (
	"time"

	"github.com/httpvs/httpvs/load/loadresult"
)

// Record is a merge as httpvs merge --json prints it: the merged result
// in load's schema, so that Read reads it back and it can be merged
// again, and what the merge saw under "merge".
type Record struct {
	loadresult.Result
	Merge Info `json:"merge"`
}

// Info is what a merge saw: its inputs, how far apart they started and
// its warnings.
type Info struct {
	// Inputs are the parts merged, in the order given.
	Inputs []Input `json:"inputs"`
	// StartSkewSeconds is the latest part's start minus the earliest
	// one's, in seconds (Merged.StartSkew).
	StartSkewSeconds float64 `json:"start_skew_seconds"`
	// Warnings are the merge's warnings' texts (Warning.Text), in order;
	// empty, not nil, when there are none.
	Warnings []string `json:"warnings"`
}

// Input is one part merged, as its result describes it.
type Input struct {
	Name      string    `json:"name"`      // the part's name (Part.Name)
	Host      string    `json:"host"`      // the generator's host name; "" for a merge of several hosts
	Started   time.Time `json:"started"`   // start of its measured phase (wall clock, UTC)
	Finished  time.Time `json:"finished"`  // end of its measured phase
	Requests  int64     `json:"requests"`  // requests ended in its measured phase
	Succeeded int64     `json:"succeeded"` // of them, those that succeeded
}

// NewRecord returns the Record of m, the merge of parts (what Merge
// returned for them).
func NewRecord(parts []Part, m Merged) Record {
	out := Record{Result: m.Result, Merge: Info{StartSkewSeconds: m.StartSkew.Seconds(), Warnings: []string{}}}
	for _, p := range parts {
		out.Merge.Inputs = append(out.Merge.Inputs, Input{Name: p.Name, Host: p.Result.Host, Started: p.Result.Started,
			Finished: p.Result.Finished, Requests: p.Result.Requests, Succeeded: p.Result.Succeeded})
	}
	for _, w := range m.Warnings {
		out.Merge.Warnings = append(out.Merge.Warnings, w.Text)
	}
	return out
}

// Command betweenruns estimates compare's between-run margin from
// results.json files of runs of one build (analysis.EstimateBetweenRuns)
// and prints it as the JSON compare --margin reads and
// internal/analysis/betweenruns.json holds:
//
//	go run ./bench/betweenruns RUN/results.json... >margin.json
package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/httpvs/httpvs/internal/analysis"
	"github.com/httpvs/httpvs/internal/runfiles"
	"github.com/httpvs/httpvs/results"
)

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: betweenruns RUN/results.json RUN/results.json... (two runs of one build or more)")
		os.Exit(2)
	}
	var runs []*results.Results
	for _, p := range os.Args[1:] {
		r, err := runfiles.ReadResults(p)
		if err != nil {
			fmt.Fprintln(os.Stderr, "betweenruns:", err)
			os.Exit(2)
		}
		runs = append(runs, r)
	}
	m := analysis.EstimateBetweenRuns(runs)
	m.Source = analysis.BetweenRunsSource(runs)
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(m); err != nil {
		fmt.Fprintln(os.Stderr, "betweenruns:", err)
		os.Exit(1)
	}
}

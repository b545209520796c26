package cli

import (
	"github.com/httpvs/httpvs/internal/merge"
	"github.com/httpvs/httpvs/results"
)

// comparedJSON is what compare --json prints.
type comparedJSON = results.Comparison

// mergedJSON is what merge --json prints.
type mergedJSON = merge.Record

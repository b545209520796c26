package cli

import (
	"github.com/httpvs/httpvs/internal/merge"
	"github.com/httpvs/httpvs/internal/verdict"
)

// comparedJSON is what compare --json prints.
type comparedJSON = verdict.Comparison

// mergedJSON is what merge --json prints.
type mergedJSON = merge.Record

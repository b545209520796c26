package results

// AttributionShare is a function's or an area's change in CPU per unit
// from the baseline's: it grew (ChangeSecondsPerUnit above zero) or
// shrank. The figures come from internal/attribution's comparison of CPU
// profiles; the types live here because they are part of results.json.
type AttributionShare struct {
	// Name is the function (package-qualified, module paths shortened)
	// or the area.
	Name string `json:"name"`
	// Area is a function's area (e.g. "crypto/tls", "quic-go"); "" for an
	// area itself.
	Area string `json:"area,omitempty"`
	// SecondsPerUnit and BaseSecondsPerUnit are its own time (pprof's
	// flat, or an area's sum of it) in the cell's profile and in the
	// baseline's, CPU seconds per unit, as measured.
	SecondsPerUnit     float64 `json:"seconds_per_unit"`
	BaseSecondsPerUnit float64 `json:"base_seconds_per_unit"`
	// ChangeSecondsPerUnit is SecondsPerUnit less BaseSecondsPerUnit, CPU
	// seconds per unit: above zero it grew, below zero it shrank.
	ChangeSecondsPerUnit float64 `json:"change_seconds_per_unit"`
	// Share is the change's part, 0 to 1, of its side's growth (for what
	// grew: AttributionSide.GrowthSecondsPerUnit for areas,
	// AttributionSide.FunctionGrowthSecondsPerUnit for functions) or of
	// its side's shrinkage (for what shrank): never of the net extra.
	Share float64 `json:"share"`
}

// AttributionSide is the attribution of one process's extra CPU: the
// client's or the server's. Its net extra is what grew less what shrank:
// ExtraSecondsPerUnit = GrowthSecondsPerUnit - ShrinkageSecondsPerUnit
// (and likewise over functions).
type AttributionSide struct {
	// Side is "client" or "server".
	Side string `json:"side"`
	// Error says why the side could not be attributed (a profile that
	// did not parse); "" when it was.
	Error string `json:"error,omitempty"`
	// Summary is the side in one line, as the analysis words it (its
	// cost over the baseline's, the areas and functions that grew and
	// shrank); "" in results written before it was recorded.
	Summary string `json:"summary,omitempty"`
	// Samples and BaseSamples are the CPU samples in the cell's profile
	// and in the baseline's (100 a second of CPU by default), excluded
	// ones left out: with fewer than 100 samples, shares are
	// rough.
	Samples     int `json:"samples"`
	BaseSamples int `json:"base_samples"`
	// SecondsPerUnit and BaseSecondsPerUnit are the CPU seconds per unit
	// the profiles hold for the cell and for its baseline, excluded
	// samples left out.
	SecondsPerUnit     float64 `json:"seconds_per_unit"`
	BaseSecondsPerUnit float64 `json:"base_seconds_per_unit"`
	// ExtraSecondsPerUnit is SecondsPerUnit less BaseSecondsPerUnit, the
	// net extra; at or below zero the cell spent no more than its
	// baseline.
	ExtraSecondsPerUnit float64 `json:"extra_seconds_per_unit"`
	// GrowthSecondsPerUnit is the sum of the growth of every area that
	// grew, ShrinkageSecondsPerUnit the sum of the fall of every area that
	// shrank (a positive figure), CPU seconds per unit: their difference
	// is ExtraSecondsPerUnit.
	GrowthSecondsPerUnit    float64 `json:"growth_seconds_per_unit"`
	ShrinkageSecondsPerUnit float64 `json:"shrinkage_seconds_per_unit"`
	// FunctionGrowthSecondsPerUnit and FunctionShrinkageSecondsPerUnit
	// are the same sums over functions; they are at least the areas'
	// (within an area one function can grow while another shrinks), and
	// their difference is ExtraSecondsPerUnit too.
	FunctionGrowthSecondsPerUnit    float64 `json:"function_growth_seconds_per_unit"`
	FunctionShrinkageSecondsPerUnit float64 `json:"function_shrinkage_seconds_per_unit"`
	// Areas are the areas that grew, largest growth first; ShrunkAreas
	// those that shrank, largest fall first. Each is at least 3% of its
	// side's growth (or shrinkage).
	Areas       []AttributionShare `json:"areas,omitempty"`
	ShrunkAreas []AttributionShare `json:"shrunk_areas,omitempty"`
	// Functions are the few functions whose own time grew most, largest
	// first, and ShrunkFunctions the few whose own time fell most: at
	// most six each.
	Functions       []AttributionShare `json:"functions,omitempty"`
	ShrunkFunctions []AttributionShare `json:"shrunk_functions,omitempty"`
	// ExcludedSecondsPerUnit and BaseExcludedSecondsPerUnit are the CPU
	// seconds per unit left out of the cell's and the baseline's profile
	// (samples of the emulator's goroutines, which carry a pprof label): the link emulator's own work.
	ExcludedSecondsPerUnit     float64 `json:"excluded_seconds_per_unit,omitempty"`
	BaseExcludedSecondsPerUnit float64 `json:"base_excluded_seconds_per_unit,omitempty"`
}

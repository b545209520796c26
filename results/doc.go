// Package results is results.json: a run's cells and their repetitions,
// the environment and every setting in effect, the link it crossed, the
// reference peers' and Go versions' cells, the figures read from them
// (medians, ratios to the baseline and their intervals, verdicts) and the
// knob sets, as data. It reads and writes the schema (SchemaVersion) and
// imports nothing that speaks a protocol: the experiment fills it, package
// report renders it; the arithmetic behind its figures is the module's
// own (internal/analysis).
package results

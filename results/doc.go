// Package results is results.json: a run's cells and their repetitions,
// the environment and every setting in effect, the link it crossed, the
// reference peers' and Go versions' cells, with the arithmetic read from
// them (medians, ratios to the baseline and their intervals, verdicts,
// compare's paired tests), the knob sets and the scenario catalogue.
// It reads and writes the schema (SchemaVersion) and imports nothing that
// speaks a protocol: package matrix fills it, package report renders it.
package results

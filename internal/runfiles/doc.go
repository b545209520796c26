// Package runfiles names and reads the files a run keeps beside
// results.json: knob files (tune --write writes one, run --knobs reads
// it; the built-in sets go-default and tuned) and the names of the
// profiles a run writes; CheckDir makes sure a run can write them, and
// ReadResults reads a run's results.json back.
package runfiles

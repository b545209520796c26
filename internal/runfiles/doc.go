// Package runfiles names and reads the files a run keeps beside
// results.json: the names of the profiles a run writes (knob files are
// internal/knobs'); CheckDir makes sure a run can write them, and
// ReadResults reads a run's results.json back.
package runfiles

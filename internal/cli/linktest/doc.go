// Package linktest holds the measured checks of runs across an emulated
// link: rates at the link's bound, round trips per handshake, losses as
// set. They measure speed, so they build only with -tags measured and run
// in .ci/run's measured step, one package at a time with nothing else
// running (go test -tags measured -p 1); without the tag this package is
// empty. Each calls the library as `httpvs run --net` does
// (experiment.Run, or experiment.Sweep across several links) and reads
// its results and the report's text of them; the command's own wording
// is internal/cli's tests'.
package linktest

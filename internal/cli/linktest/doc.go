// Package linktest holds the measured checks of runs across an emulated
// link: rates at the link's bound, round trips per handshake, losses as
// set. They measure speed, so they build only with -tags measured and run
// in .ci/run's measured step, one package at a time with nothing else
// running (go test -tags measured -p 1); without the tag this package is
// empty. The cold-start and head-of-line checks call experiment.Run and
// read its results and report.Matrix's text; the others still drive
// `httpvs run --net` through cli.Main.
package linktest

// Package experiment is where `httpvs run` lives: one call, Run, takes an
// experiment's Options (what to measure, how long, across which link,
// against which server, with which knobs and peers) and returns its
// complete, diagnosed results. It starts the child server (this program
// started again, served by ServeChild at the top of main: a process of
// its own so that its CPU is measured apart from the client's), makes
// and calibrates the emulated link, sizes the rounds and their budget, takes profiles, measures the reference peers,
// and stops everything it started before it returns. Sweep runs the same
// experiment across several links, one results per link (`httpvs run
// --net A --net B`); Versions measures Go as shipped across Go
// toolchains instead (`httpvs run --go`). Capacity searches each
// transport's capacity at an objective instead (`httpvs run --slo`), and
// Tune runs package tune's search, on loopback or across an emulated link
// it makes and calibrates (`httpvs tune --net`). The CLI maps flags to
// Options and renders what Run and Sweep return; a Go program does the
// same.
//
// The zero Options are `httpvs run`: Go as shipped, with the command's
// rounds (across a link when Link is set); Quick is its --quick.
package experiment

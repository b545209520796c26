// Package analysis judges measured results, once: the statistics
// (means, Student's t, Welch's and the moderated t-tests, medians), each
// cell's interval and verdict against its baseline, the group-sequential
// rule and the rounds it plans, the noise floors of A/A cells, the
// precision a run reached, the diagnosis (rules naming a cause with its
// evidence and a fix, each cell held against the emulated link's
// physics), the main cause and marks of each cell, the tuned rows'
// gain, the comparison of two runs, the browser cells' model check, the
// ratio of two capacities and the attribution's text. Everything a
// report says beyond the measured figures is computed here and kept in
// results.json; renderers only format it. The measuring side calls the
// per-round interval its stopping rule needs; Judge is the one entry
// for a run.
package analysis

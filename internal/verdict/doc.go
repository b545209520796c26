// Package verdict computes what results holds: the intervals and
// verdicts of cells against their baseline, the group-sequential rule
// and the rounds it plans, the noise floors of A/A cells, the precision a
// run reached, the comparison of two runs, the browser cells' model
// check, the ratio of two capacities, a cell's class against its link
// and the attribution's text. results keeps the
// schema; the arithmetic under these lives in internal/stat.
package verdict

// Package matrix measures httpvs's comparison: the workloads of a
// plan.Options (scenarios, each traceable to a public experiment) times
// transports, each cell repeated in rounds, against a payload server the
// caller started or named. It fills results.Results, the content of
// results.json. It never prints; package experiment runs it with a server
// and a link and diagnoses what it returns, package report renders that.
package matrix

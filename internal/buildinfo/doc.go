// Package buildinfo reads this binary's build (version, revision, Go,
// module versions: httpvs version) and the machine it runs on, the
// figures a run records in results.Env.
package buildinfo

// Package diagnosis explains a run's figures: rules over each cell, its
// baseline cell and the run's settings that name a cause with its
// evidence and a fix (Diagnose), and each cell held against the emulated
// link's physics, with what explains a departure (Bounds). It writes what
// it finds into the results, so that results.json carries it and package
// report only renders it.
package diagnosis

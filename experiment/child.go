package experiment

import (
	"github.com/httpvs/httpvs/internal/childserver"
)

// ServeChild serves as an experiment's child server when this process was
// started as one, and returns true once the experiment lets go of it;
// main should then return. In any other process it returns false at
// once. The child server is this program re-executed (as docker's reexec
// does), so that its CPU is measured apart from the client's and no other
// binary is needed: a program that runs an experiment with
// Options.Executable unset calls ServeChild first thing in main:
//
//	func main() {
//		if experiment.ServeChild() {
//			return
//		}
//		// ... experiment.Run(ctx, experiment.Quick()) ...
//	}
//
// A child server that fails exits with status 1, its reason on stderr,
// which the experiment reports. A program that forgets the line is
// refused at once, in the child, before it could start itself again.
func ServeChild() bool { return childserver.Main() }

// notInChild refuses to run an experiment in a process started as a child
// server whose main did not call ServeChild first: it would start itself
// again, and again. The experiment that started it hears why at once.
func notInChild() error {
	if err := childserver.Refuse("the child server (this program, started again) ran an experiment instead of serving: call experiment.ServeChild first in main (if experiment.ServeChild() { return }), or set Options.Executable to an httpvs binary"); err != nil {
		return &OptionsError{err}
	}
	return nil
}

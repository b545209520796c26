package cli

import (
	"github.com/httpvs/httpvs/internal/cli/flagset"
)

// newFlagSet is the flag set of the command name, printing its -h to the
// command's stdout.
func newFlagSet(e *env, name, synopsis string) *flagset.Set {
	return flagset.New(name, synopsis, e.stdout)
}

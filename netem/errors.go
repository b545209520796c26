package netem

import (
	"errors"
	"fmt"
)

// ErrUnsupported is wrapped by the SetupError of a system that has no
// userspace link at all (not Linux).
var ErrUnsupported = errors.New("network namespaces and TUN devices need Linux")

// SetupError is a link that could not be built because the system lacks a
// privilege or a kernel feature: Need says what is missing, in a few words
// a user can act on.
type SetupError struct {
	// Need names what is missing, e.g. "root (CAP_SYS_ADMIN and CAP_NET_ADMIN) for network namespaces".
	Need string
	// Err is the underlying error.
	Err error
}

func (e *SetupError) Error() string { return fmt.Sprintf("net link: need %s: %v", e.Need, e.Err) }

// Unwrap returns the underlying error.
func (e *SetupError) Unwrap() error { return e.Err }

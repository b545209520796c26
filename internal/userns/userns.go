// Package userns runs this program again in a user namespace of its own,
// where the caller is root, so that a user without root can make network
// namespaces and devices (emulated links), which the kernel allows inside
// a user namespace.
package userns

import "fmt"

// Env marks a program re-executed in a user namespace of its own, so
// that it does not try again.
const Env = "HTTPVS_IN_USER_NAMESPACE"

// ExitCode is the exit code of the re-executed program, which explained
// it on its own standard error.
type ExitCode int

func (c ExitCode) Error() string { return fmt.Sprintf("exit status %d", int(c)) }

// RefusedError is a system that refuses this user a user namespace.
type RefusedError struct{ Err error }

func (e *RefusedError) Error() string { return e.Err.Error() }

func (e *RefusedError) Unwrap() error { return e.Err }

// ExecutableError is this program not found, to run it again.
type ExecutableError struct{ Err error }

func (e *ExecutableError) Error() string { return e.Err.Error() }

func (e *ExecutableError) Unwrap() error { return e.Err }

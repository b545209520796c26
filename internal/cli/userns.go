package cli

import "fmt"

// usernsRun runs this program again in a user namespace of its own,
// where the caller is root, so that a user without root can make network
// namespaces and devices (emulated links), which the kernel allows inside
// a user namespace.

// usernsEnv marks a program re-executed in a user namespace of its own, so
// that it does not try again.
const usernsEnv = "HTTPVS_IN_USER_NAMESPACE"

// usernsExit is the exit code of the re-executed program, which explained
// it on its own standard error.
type usernsExit int

func (c usernsExit) Error() string { return fmt.Sprintf("exit status %d", int(c)) }

// usernsRefusedError is a system that refuses this user a user namespace.
type usernsRefusedError struct{ Err error }

func (e *usernsRefusedError) Error() string { return e.Err.Error() }

func (e *usernsRefusedError) Unwrap() error { return e.Err }

// usernsExecutableError is this program not found, to run it again.
type usernsExecutableError struct{ Err error }

func (e *usernsExecutableError) Error() string { return e.Err.Error() }

func (e *usernsExecutableError) Unwrap() error { return e.Err }

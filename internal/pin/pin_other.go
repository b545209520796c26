//go:build !linux

package pin

// Available returns ErrUnsupported: there is no affinity mask to read.
func Available() ([]int, error) { return nil, ErrUnsupported }

// Self returns ErrUnsupported.
func Self([]int) (func(), error) { return nil, ErrUnsupported }

// Process returns ErrUnsupported.
func Process(int, []int) error { return ErrUnsupported }

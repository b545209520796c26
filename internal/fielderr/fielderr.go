// Package fielderr makes the *config.FieldError every public package's
// Validate returns: the Go field that is out of range, its value and what
// would be right.
package fielderr

import (
	"errors"
	"fmt"

	"github.com/httpvs/httpvs/config"
)

// New returns a *config.FieldError; Want is formatted from format and
// args.
func New(field string, value any, format string, args ...any) *config.FieldError {
	return &config.FieldError{Field: field, Value: value, Want: fmt.Sprintf(format, args...)}
}

// Within returns err with prefix+"." before its field, when err is a
// *config.FieldError: how a struct's Validate reports a field of a
// nested one.
func Within(prefix string, err error) error {
	var fe *config.FieldError
	if errors.As(err, &fe) {
		c := *fe
		c.Field = prefix + "." + c.Field
		return &c
	}
	return err
}

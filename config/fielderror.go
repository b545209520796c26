package config

import (
	"errors"
	"fmt"
)

// FieldError says which field of a configuration is out of range and what
// would be right. Field is the Go name, dotted from the struct that was
// validated ("ReadSize", "HTTP2.MaxReadFrameSize", "Server.WriteSize"), so
// that a front end can name the field its own way: the httpvs CLI maps it
// to its flag. Validate methods across httpvs's packages return it.
type FieldError struct {
	Field string // Go field path, e.g. "HTTP2.MaxReadFrameSize"
	Value any    // the value given
	Want  string // what would be right, e.g. "16Ki to 16777215"
}

func (e *FieldError) Error() string {
	return fmt.Sprintf("%s %v: want %s", e.Field, e.Value, e.Want)
}

// fieldf returns a FieldError; Want is formatted from format and args.
func fieldf(field string, value any, format string, args ...any) *FieldError {
	return &FieldError{Field: field, Value: value, Want: fmt.Sprintf(format, args...)}
}

// withinField returns err with prefix+"." before its field, when err is a
// FieldError: how a struct's Validate reports a field of a nested one.
func withinField(prefix string, err error) error {
	var fe *FieldError
	if errors.As(err, &fe) {
		c := *fe
		c.Field = prefix + "." + c.Field
		return &c
	}
	return err
}

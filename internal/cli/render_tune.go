package cli

import (
	"github.com/httpvs/httpvs/units"
)

// orDefault is a size, or "default" for zero, as package report says it.
func orDefault(b units.Bytes) string {
	if b == 0 {
		return "default"
	}
	return b.String()
}

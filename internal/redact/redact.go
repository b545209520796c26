// Package redact is what results keep of a user's own request headers:
// their names, never their values, which may be credentials (load,
// transfer and the matrix record the same).
package redact

import (
	"net/http"
	"slices"
)

// HeaderNames returns the canonical names of h's headers, sorted, or nil
// for none: what a result records of the extra headers a user sent, whose
// values may be credentials.
func HeaderNames(h http.Header) []string {
	if len(h) == 0 {
		return nil
	}
	names := make([]string, 0, len(h))
	for k := range h {
		names = append(names, http.CanonicalHeaderKey(k))
	}
	slices.Sort(names)
	return slices.Compact(names)
}

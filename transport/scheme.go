package transport

import (
	"fmt"
)

// SchemeError is a URL whose scheme the transport cannot use.
type SchemeError struct {
	Protocol Protocol
	Scheme   string // as given, lowercased
}

func (e *SchemeError) Error() string {
	switch {
	case e.Scheme != "http" && e.Scheme != "https":
		return fmt.Sprintf("unsupported URL scheme %q: want http:// or https://", e.Scheme)
	case e.Scheme == "https":
		return fmt.Sprintf("transport %s is cleartext but the URL is https://: use h1-tls, h2 or h3, or an http:// URL", e.Protocol)
	}
	return fmt.Sprintf("transport %s needs TLS but the URL is http://: use h1 or h2c, or an https:// URL", e.Protocol)
}

package serverctl

import (
	"crypto/rand"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"sync"

	"github.com/httpvs/httpvs/internal/dial"
	"github.com/httpvs/httpvs/transport"
)

// TokenEnv names the environment variable that holds the token httpvs
// serve requires for POST /stats/reset and /debug/profile/, and that the
// clients send there (a Kubernetes Secret's, say).
const TokenEnv = "HTTPVS_TOKEN"

// childToken is the token of the servers this process starts for itself
// (run's child, on loopback or inside its network namespace) when
// HTTPVS_TOKEN is not set: random, never printed.
var childToken = sync.OnceValue(func() string { return rand.Text() })

// ClientToken is the token this process sends to the routes that need
// one: HTTPVS_TOKEN's, or else its own children's.
func ClientToken() string {
	if t := os.Getenv(TokenEnv); t != "" {
		return t
	}
	return childToken()
}

// WithToken adds the client's token to req, for a route that needs it.
func WithToken(req *http.Request) *http.Request {
	req.Header.Set("Authorization", "Bearer "+ClientToken()) // RFC 6750, as the server reads it
	return req
}

// TokenTravelsSafely reports whether the token may be sent to serverURL
// reached through network: over TLS (https), to a loopback host
// (127.0.0.0/8, ::1, localhost), or inside a network namespace this
// process made (network not nil), where it never leaves the machine.
// Anywhere else a cleartext request would show it to the path.
func TokenTravelsSafely(serverURL string, network transport.Network) bool {
	u, err := url.Parse(serverURL)
	if err != nil {
		return false
	}
	if u.Scheme == "https" || network != nil {
		return true
	}
	return dial.LoopbackHost(u.Hostname())
}

// CleartextTokenError is the refusal to send the token to a server
// beyond loopback over cleartext HTTP (TokenTravelsSafely).
type CleartextTokenError struct {
	URL string // the server's base URL
}

func (e *CleartextTokenError) Error() string {
	return fmt.Sprintf("the server's profiles at %s would need %s sent in cleartext beyond loopback; profile a server on loopback, or over https (client profiles only)", e.URL, TokenEnv)
}

package experiment

import (
	"crypto/rand"
	"net/http"
	"os"
	"sync"

	"github.com/httpvs/httpvs/server"
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
	req.Header.Set(server.TokenHeader, "Bearer "+ClientToken())
	return req
}

package cli

import (
	"crypto/rand"
	"net/http"
	"os"
	"sync"

	"github.com/httpvs/httpvs/server"
)

// tokenEnv names the environment variable that holds the token httpvs
// serve requires for POST /stats/reset and /debug/profile/, and that the
// clients send there (a Kubernetes Secret's, say).
const tokenEnv = "HTTPVS_TOKEN"

// childToken is the token of the servers this process starts for itself
// (run's child, on loopback or inside its network namespace) when
// HTTPVS_TOKEN is not set: random, never printed.
var childToken = sync.OnceValue(func() string { return rand.Text() })

// clientToken is the token this process sends to the routes that need
// one: HTTPVS_TOKEN's, or else its own children's.
func clientToken() string {
	if t := os.Getenv(tokenEnv); t != "" {
		return t
	}
	return childToken()
}

// withToken adds the client's token to req, for a route that needs it.
func withToken(req *http.Request) *http.Request {
	req.Header.Set(server.TokenHeader, "Bearer "+clientToken())
	return req
}

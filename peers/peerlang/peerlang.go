// Package peerlang says what each reference peer of package peers is
// written in, by the peer's name. It is a leaf, and the one home of these
// facts: package peers fills its catalog's Language from it, and renderers
// (package report) ask it whether a reference row speaks for a transport
// without Go, without linking package peers, which runs the peers and
// composes transports.
package peerlang

import "strings"

// languages maps each peer's name, as users type it, to its language.
// caddy is Go: its HTTP/2 is net/http's and its HTTP/3 quic-go's, as
// httpvs's own server, so it does not tell Go's cost from the protocol's.
var languages = map[string]string{
	"h2o":     "C",
	"nginx":   "C",
	"caddy":   "Go",
	"nghttpd": "C",
	"curl":    "C",
	"h2load":  "C",
	"wrk":     "C",
	"oha":     "Rust",
}

// Of returns the language the peer named name (case-insensitive) is
// written in: "C", "Go" or "Rust"; "" for a name it does not know.
func Of(name string) string {
	return languages[strings.ToLower(strings.TrimSpace(name))]
}

// NotGo reports whether the peer named name is known and not written in
// Go: a reference that separates Go's implementation from the protocol.
func NotGo(name string) bool {
	l := Of(name)
	return l != "" && l != "Go"
}

//go:build !linux

package h1

import (
	"context"
	"errors"

	"github.com/httpvs/httpvs/internal/lean/internal/target"
)

// LoopSupported says whether RunLoop runs here: HTTP/1.1 closed loops
// need epoll; elsewhere the fast engine keeps a goroutine per connection.
const LoopSupported = false

// RunLoop fails: it needs Linux's epoll.
func (c *Client) RunLoop(context.Context, target.Loop) error {
	return errors.New("HTTP/1.1 loops need Linux's epoll")
}

//go:build !linux

package lean

import (
	"context"
	"errors"
)

// h1LoopSupported: HTTP/1.1 closed loops need epoll; elsewhere the fast
// engine keeps a goroutine per connection.
const h1LoopSupported = false

func (c *Client) runH1Loop(context.Context, Loop) error {
	return errors.New("HTTP/1.1 loops need Linux's epoll")
}

//go:build !linux

package lean

import (
	"context"
	"errors"
)

// h2PollSupported: elsewhere an HTTP/2 loop reads its one connection from
// a goroutine (runH2Loop).
const h2PollSupported = false

func (c *Client) runH2Poll(context.Context, Loop) error {
	return errors.New("HTTP/2 loops over several connections need Linux's epoll")
}

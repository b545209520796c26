//go:build !linux

package h2

import (
	"context"
	"errors"

	"github.com/httpvs/httpvs/internal/lean/internal/target"
)

// PollSupported says whether RunPoll runs here: not without epoll, where
// an HTTP/2 loop reads its one connection from a goroutine (RunLoop).
const PollSupported = false

// RunPoll fails: it needs Linux's epoll.
func (c *Client) RunPoll(context.Context, target.Loop) error {
	return errors.New("HTTP/2 loops over several connections need Linux's epoll")
}

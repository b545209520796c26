package lean

import (
	"context"
	"errors"
	"fmt"

	"github.com/httpvs/httpvs/internal/lean/h1"
	"github.com/httpvs/httpvs/internal/lean/h2"
	"github.com/httpvs/httpvs/internal/lean/internal/target"
	"github.com/httpvs/httpvs/transport"
)

// Loop is a closed loop of requests run by one goroutine, as h2load's
// and wrk's event loops run theirs (see target.Loop for its fields).
type Loop = target.Loop

// CanLoop says whether RunLoop runs on this client: HTTP/2 (h2c, h2), and
// plain HTTP/1.1 on Linux.
func (c *Client) CanLoop() bool {
	return c.h2 != nil || (c.t.Proto == transport.H1 && h1.LoopSupported)
}

// pollH2 says whether HTTP/2 loops run on epoll; tests turn it off to
// run the goroutine-per-connection loop that other systems use.
var pollH2 = h2.PollSupported

// CanShareLoop says whether one Loop may drive several HTTP/2
// connections (Loop.Conns > 1): on Linux.
func (c *Client) CanShareLoop() bool { return c.h2 != nil && pollH2 }

// RunLoop runs l until Next says stop and every request has ended, or ctx
// ends. A connection that fails fails its requests in flight and is
// redialed; a dial that fails fails the request it was for, and its
// connection slot waits before it dials again: dial.RedialMin after one
// failure in a row, doubling with each more up to dial.RedialMax (5 ms to
// 1 s), until a dial succeeds. (Without the wait a loop against a closed
// port refused tens of thousands of connections a second.) The client
// must not be used for anything else meanwhile. Its error is for a loop
// that cannot run at all (see CanLoop).
func (c *Client) RunLoop(ctx context.Context, l Loop) error {
	if !c.CanLoop() {
		return fmt.Errorf("RunLoop runs on h2c, h2 and (on Linux) h1, not %s", c.t.Proto)
	}
	if l.Streams < 1 || l.Timeout <= 0 || l.Next == nil || l.Done == nil {
		return errors.New("RunLoop needs Streams >= 1, Timeout > 0, Next and Done")
	}
	if c.h2 == nil {
		return c.h1.RunLoop(ctx, l)
	}
	if pollH2 {
		return c.h2.RunPoll(ctx, l)
	}
	if l.Conns > 1 {
		return errors.New("RunLoop drives several HTTP/2 connections only on Linux")
	}
	return c.h2.RunLoop(ctx, l)
}

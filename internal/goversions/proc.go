package goversions

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"time"

	"github.com/httpvs/httpvs/internal/childproc"
)

// startTimeout bounds a child's start, up to its hello line.
const startTimeout = 15 * time.Second

// hello is the child's first line (child/main.go's Hello).
type hello struct {
	Go      string `json:"go"`
	H2C     string `json:"h2c"`
	Plain   string `json:"plain"`
	TLS     string `json:"tls"`
	CertPEM string `json:"cert"`
	PID     int    `json:"pid"`
}

// round and result are child/client.go's Round and Result.
type round struct {
	Scenario string        `json:"scenario"`
	Protocol string        `json:"protocol"`
	URL      string        `json:"url"`
	CertPEM  string        `json:"cert,omitempty"`
	Size     int64         `json:"size,omitempty"`
	Duration time.Duration `json:"duration,omitempty"`
	Warmup   time.Duration `json:"warmup,omitempty"`
	Timeout  time.Duration `json:"timeout,omitempty"`
}

type result struct {
	Value      float64 `json:"value"`
	Seconds    float64 `json:"seconds"`
	Bytes      int64   `json:"bytes"`
	Requests   int64   `json:"requests"`
	Errors     int64   `json:"errors"`
	FirstError string  `json:"first_error"`
	Problem    string  `json:"problem"`
	Negotiated string  `json:"negotiated"`
}

// child is the built program running as a server or a client. It never
// outlives the run: stop closes its stdin (its signal to exit) and kills
// it if it has not exited soon after; on Linux the kernel kills it if
// httpvs dies; and it exits by itself after the lifetime it was given.
type child struct {
	proc  *childproc.Proc
	hello hello
}

// startChild starts bin in role ("serve" or "client"), bounded to life,
// and waits for its hello line.
func startChild(ctx context.Context, bin, role string, life time.Duration) (*child, error) {
	proc, err := childproc.Start(exec.Command(bin, role, "-max", life.String()), nil)
	if err != nil {
		return nil, fmt.Errorf("start %s: %w", role, err)
	}
	c := &child{proc: proc}
	line, err := proc.Next(ctx, startTimeout)
	if err != nil {
		c.stop()
		return nil, fmt.Errorf("start %s: %w", role, err)
	}
	if err := json.Unmarshal([]byte(line), &c.hello); err != nil || c.hello.Go == "" {
		c.stop()
		return nil, fmt.Errorf("start %s: it said %q, not its hello line", role, line)
	}
	return c, nil
}

// do sends r to a client child and returns its result, waiting up to
// timeout.
func (c *child) do(ctx context.Context, r round, timeout time.Duration) (result, error) {
	b, err := json.Marshal(r)
	if err != nil {
		return result{}, err
	}
	if err := c.proc.Send(b); err != nil {
		return result{}, fmt.Errorf("client: %w", err)
	}
	line, err := c.proc.Next(ctx, timeout)
	if err != nil {
		return result{}, fmt.Errorf("client: %w", err)
	}
	var res result
	if err := json.Unmarshal([]byte(line), &res); err != nil {
		return result{}, fmt.Errorf("client said %q, not a result", line)
	}
	if res.Problem != "" {
		return res, errors.New(res.Problem)
	}
	return res, nil
}

// stop closes the child's stdin, kills it if it has not exited within
// 2 s, and reaps it. It may be called more than once.
func (c *child) stop() { c.proc.Stop(2 * time.Second) }

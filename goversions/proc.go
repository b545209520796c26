package goversions

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"time"

	"github.com/httpvs/httpvs/tail"
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
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan string // stdout, line by line; closed at its end
	stderr *tail.Buffer
	exited chan struct{}
	hello  hello
}

// startChild starts bin in role ("serve" or "client"), bounded to life,
// and waits for its hello line.
func startChild(ctx context.Context, bin, role string, life time.Duration) (*child, error) {
	cmd := exec.Command(bin, role, "-max", life.String())
	detach(cmd)
	c := &child{cmd: cmd, stderr: tail.New(4096), exited: make(chan struct{}), lines: make(chan string, 1)}
	cmd.Stderr = c.stderr
	var err error
	if c.stdin, err = cmd.StdinPipe(); err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", role, err)
	}
	// Every line is read before Wait returns (it closes the pipe): the
	// reader owns stdout and Wait runs after it.
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			c.lines <- sc.Text()
		}
		close(c.lines)
		_ = cmd.Wait()
		close(c.exited)
	}()
	line, err := c.next(ctx, startTimeout)
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

// next returns the child's next line, waiting up to timeout.
func (c *child) next(ctx context.Context, timeout time.Duration) (string, error) {
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case line, ok := <-c.lines:
		if !ok {
			<-c.exited
			return "", fmt.Errorf("exited (%v): %s", c.cmd.ProcessState, c.stderr.LastLineOr("nothing on stderr"))
		}
		return line, nil
	case <-timer.C:
		return "", fmt.Errorf("no answer after %v", timeout)
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// do sends r to a client child and returns its result, waiting up to
// timeout.
func (c *child) do(ctx context.Context, r round, timeout time.Duration) (result, error) {
	b, err := json.Marshal(r)
	if err != nil {
		return result{}, err
	}
	if _, err := c.stdin.Write(append(b, '\n')); err != nil {
		return result{}, fmt.Errorf("client: %w (%s)", err, c.stderr.LastLineOr("nothing on stderr"))
	}
	line, err := c.next(ctx, timeout)
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
func (c *child) stop() {
	c.stdin.Close()
	timer := time.NewTimer(2 * time.Second)
	defer timer.Stop()
	for {
		// Lines it still writes are dropped, so that the reader reaches
		// Wait.
		select {
		case _, ok := <-c.lines:
			if ok {
				continue
			}
		case <-timer.C:
			_ = c.cmd.Process.Kill()
			for range c.lines {
			}
		}
		<-c.exited
		return
	}
}

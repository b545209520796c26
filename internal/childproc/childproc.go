// Package childproc runs a child process that speaks in lines: its stdout
// read line by line, its stdin held open as its leash (the children httpvs
// starts exit when it closes), the tail of its stderr kept to say why it
// failed, and, on Linux, the kernel asked to kill it if the parent dies.
// httpvs's child server (package experiment) and its per-toolchain
// children (package goversions) are started this way; Tail, the end of
// what a child wrote, also serves the browser (internal/browser).
package childproc

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os/exec"
	"runtime"
	"time"
)

// Proc is a started child.
type Proc struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan string // stdout, line by line; closed at its end
	stderr *Tail
	exited chan struct{}
}

// maxLine bounds one line of the child's stdout, bytes.
const maxLine = 1 << 20

// Start starts cmd, whose Stdin, Stdout and Stderr must be unset, with
// start (nil: cmd.Start from a thread held until the child exits; a
// network namespace's own start, for one), in a process group of its own
// (Detach).
func Start(cmd *exec.Cmd, start func(*exec.Cmd) error) (*Proc, error) {
	Detach(cmd)
	p := &Proc{cmd: cmd, stderr: NewTail(4096), exited: make(chan struct{}), lines: make(chan string, 1)}
	if start == nil {
		start = func(cmd *exec.Cmd) error { return startHeld(cmd, p.exited) }
	}
	cmd.Stderr = p.stderr
	var err error
	if p.stdin, err = cmd.StdinPipe(); err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := start(cmd); err != nil {
		return nil, err
	}
	// Every line is read before Wait returns (it closes the pipe): the
	// reader owns stdout and Wait runs after it.
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 64<<10), maxLine)
		for sc.Scan() {
			p.lines <- sc.Text()
		}
		close(p.lines)
		_, _ = io.Copy(io.Discard, stdout)
		_ = cmd.Wait()
		close(p.exited)
	}()
	return p, nil
}

// Next returns the child's next line, waiting up to timeout; an error
// says when it exited first (with its last line on stderr), stayed
// silent, or ctx ended.
func (p *Proc) Next(ctx context.Context, timeout time.Duration) (string, error) {
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case line, ok := <-p.lines:
		if !ok {
			<-p.exited
			return "", fmt.Errorf("exited (%s): %s", p.State(), p.stderr.LastLineOr("nothing on stderr"))
		}
		return line, nil
	case <-timer.C:
		return "", fmt.Errorf("no answer after %v: %s", timeout, p.stderr.LastLineOr("nothing on stderr"))
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// Send writes line and a newline to the child's stdin.
func (p *Proc) Send(line []byte) error {
	if _, err := p.stdin.Write(append(line, '\n')); err != nil {
		return fmt.Errorf("%w (%s)", err, p.stderr.LastLineOr("nothing on stderr"))
	}
	return nil
}

// Exited is closed once the child has exited and been reaped.
func (p *Proc) Exited() <-chan struct{} { return p.exited }

// State says how the child ended ("exit status 2", "signal: killed"), or
// "running".
func (p *Proc) State() string {
	if st := p.cmd.ProcessState; st != nil {
		return st.String()
	}
	return "running"
}

// Stderr is the last line the child wrote to stderr, or def.
func (p *Proc) Stderr(def string) string { return p.stderr.LastLineOr(def) }

// PID is the child's process id.
func (p *Proc) PID() int { return p.cmd.Process.Pid }

// Stop closes the child's stdin (its signal to exit), kills it if it has
// not exited within grace, and reaps it; lines it still writes are
// dropped. It may be called more than once.
func (p *Proc) Stop(grace time.Duration) {
	p.stdin.Close()
	timer := time.NewTimer(grace)
	defer timer.Stop()
	for {
		select {
		case _, ok := <-p.lines:
			if ok {
				continue
			}
		case <-timer.C:
			_ = p.cmd.Process.Kill()
			for range p.lines {
			}
		}
		<-p.exited
		return
	}
}

// Discard drops whatever the child writes to stdout from now on, for a
// child that is not read again: its writes never block on a full pipe.
func (p *Proc) Discard() {
	go func() {
		for range p.lines {
		}
	}()
}

// startHeld starts cmd from a goroutine locked to its thread until exited
// is closed. The kernel kills a child with Pdeathsig when the thread that
// started it ends, and Go ends a thread when a goroutine exits locked to
// it (a network namespace's do): a child started from an idle thread
// died when such a goroutine later landed on that thread.
func startHeld(cmd *exec.Cmd, exited <-chan struct{}) error {
	errc := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		if err := cmd.Start(); err != nil {
			errc <- err
			return
		}
		errc <- nil
		<-exited
	}()
	return <-errc
}

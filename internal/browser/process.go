package browser

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"sync"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/httpvs/httpvs/internal/childproc"
)

// Bounds on stopping a browser: how long its process group gets to go
// after SIGKILL, and how long its profile directory is retried (a
// process still exiting can write in it after the first try).
const (
	reapWait   = 10 * time.Second
	removeWait = 5 * time.Second
)

// process is one running browser: its command, its fresh profile
// directory and the DevTools pipe to it.
type process struct {
	cmd    *exec.Cmd
	dir    string          // --user-data-dir, made for this browser; stop removes it
	out    *childproc.Tail // the browser's stdout and stderr, the end of them
	conn   *chromedp.PipeConn
	exited chan struct{} // closed once the process is reaped
	mu     sync.Mutex
	err    error // cmd.Wait's, valid after exited closes
}

// launch starts the browser at path with args (a fresh --user-data-dir and
// --remote-debugging-pipe are added) through startFn, or from a thread of
// its own when startFn is nil.
func launch(path string, args []string, startFn func(*exec.Cmd) error) (*process, error) {
	dir, err := os.MkdirTemp("", "httpvs-browser-")
	if err != nil {
		return nil, fmt.Errorf("browser profile directory: %w", err)
	}
	p := &process{dir: dir, out: childproc.NewTail(8 << 10), exited: make(chan struct{})}
	// The browser reads commands from its descriptor 3 and writes answers
	// and events to its descriptor 4.
	childIn, parentOut, err := os.Pipe()
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	parentIn, childOut, err := os.Pipe()
	if err != nil {
		childIn.Close()
		parentOut.Close()
		os.RemoveAll(dir)
		return nil, err
	}
	args = append(append([]string{}, args...), "--user-data-dir="+dir, "--remote-debugging-pipe", "about:blank")
	p.cmd = exec.Command(path, args...)
	p.cmd.ExtraFiles = []*os.File{childIn, childOut}
	p.cmd.Stdout, p.cmd.Stderr = p.out, p.out
	p.cmd.Env = append(os.Environ(), "HOME="+dir) // nothing of the user's profile
	ownGroup(p.cmd)
	err = start(p, startFn)
	childIn.Close()
	childOut.Close()
	if err != nil {
		parentIn.Close()
		parentOut.Close()
		os.RemoveAll(dir)
		return nil, fmt.Errorf("start %s: %w", path, err)
	}
	p.conn = chromedp.NewPipeConn(parentIn, parentOut)
	return p, nil
}

// start starts p's command with startFn, or, when it is nil, from a
// goroutine locked to its thread until the browser exits: the kernel sends
// the browser SIGKILL when the thread that started it ends (Pdeathsig),
// and Go ends a thread only when a goroutine locked to it exits.
func start(p *process, startFn func(*exec.Cmd) error) error {
	started := make(chan error, 1)
	go func() {
		if startFn == nil {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			startFn = (*exec.Cmd).Start
		}
		if err := startFn(p.cmd); err != nil {
			started <- err
			return
		}
		started <- nil
		err := p.cmd.Wait()
		p.mu.Lock()
		p.err = err
		p.mu.Unlock()
		close(p.exited)
	}()
	return <-started
}

// exitErr is how the browser ended, once it has; nil while it runs.
func (p *process) exitErr() error {
	select {
	case <-p.exited:
	default:
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.err == nil {
		return errors.New("exited")
	}
	return p.err
}

// stop ends the browser and everything it started (its process group,
// then any process still running with its profile directory), reaps it and
// removes its profile directory. It returns an error only when something
// is left behind.
func (p *process) stop() error {
	p.conn.Close()
	killGroup(p.cmd)
	var errs []error
	select {
	case <-p.exited:
	case <-time.After(reapWait):
		errs = append(errs, fmt.Errorf("browser pid %d not reaped %v after SIGKILL", p.cmd.Process.Pid, reapWait))
	}
	killLeftovers(p.dir)
	deadline := time.Now().Add(removeWait)
	for {
		err := os.RemoveAll(p.dir)
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			errs = append(errs, fmt.Errorf("remove browser profile %s: %w", p.dir, err))
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	return errors.Join(errs...)
}

// crashed turns err, met while driving the browser, into what the caller
// should read: when the browser has exited, that it did, how, and the
// last line it wrote.
func (p *process) crashed(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return err
	}
	select {
	case <-p.exited:
	case <-time.After(500 * time.Millisecond):
		return err
	}
	return &ExitError{Err: p.exitErr(), Output: p.out.LastLine()}
}

// ExitError says the browser exited before the page loaded: it crashed or
// refused its flags.
type ExitError struct {
	Err    error  // how it exited (an *exec.ExitError, usually)
	Output string // the last line it wrote; "" if none
}

func (e *ExitError) Error() string {
	msg := "browser exited before the page loaded: " + e.Err.Error()
	if e.Output != "" {
		msg += ": " + e.Output
	}
	return msg
}

func (e *ExitError) Unwrap() error { return e.Err }

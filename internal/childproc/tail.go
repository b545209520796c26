package childproc

import (
	"strings"
	"sync"
)

// Tail keeps the last bytes a child process wrote (to its stderr), so
// that when it dies the one line saying why can be told: the child
// server, a Go toolchain's build, a browser. It is safe for concurrent
// use, as an exec.Cmd's Stderr.
type Tail struct {
	mu  sync.Mutex
	max int
	b   []byte
}

// NewTail returns a Tail keeping the last max bytes.
func NewTail(max int) *Tail { return &Tail{max: max} }

// Write keeps the end of p; it never fails.
func (t *Tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = t.b[len(t.b)-t.max:]
	}
	return len(p), nil
}

// LastLine returns the last non-empty line written, trimmed; "" when
// nothing but space was written.
func (t *Tail) LastLine() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	lines := strings.Split(strings.TrimSpace(string(t.b)), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

// LastLineOr returns LastLine, or none when it is "".
func (t *Tail) LastLineOr(none string) string {
	if l := t.LastLine(); l != "" {
		return l
	}
	return none
}

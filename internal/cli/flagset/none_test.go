package flagset

import (
	"io"
	"strings"
	"testing"
	"time"
)

// TestZeroIsNone: a 0 given to a ZeroIsNone flag reaches the library as
// its none (-1), given by an alias too; a flag not given keeps its value,
// and a negative one is refused, saying what 0 means.
func TestZeroIsNone(t *testing.T) {
	parse := func(args ...string) (int, time.Duration, error) {
		fs := New("t", "[flags]", io.Discard)
		n := fs.Int("events", 100, "")
		d := fs.Duration("budget", 0, "")
		fs.Alias("budget", "b")
		fs.ZeroIsNone("events", "size by time")
		fs.ZeroIsNone("budget", "no bound")
		_, err := fs.Parse(args)
		return *n, *d, err
	}
	for _, tt := range []struct {
		args   []string
		events int
		budget time.Duration
	}{
		{nil, 100, 0},
		{[]string{"--events", "0", "--budget", "0"}, -1, -1},
		{[]string{"-b", "0"}, 100, -1},
		{[]string{"--events", "7", "-b", "1s"}, 7, time.Second},
	} {
		n, d, err := parse(tt.args...)
		if err != nil || n != tt.events || d != tt.budget {
			t.Errorf("%q: events %d, budget %v, %v; want %d, %v", tt.args, n, d, err, tt.events, tt.budget)
		}
	}
	if _, _, err := parse("--budget", "-1s"); err == nil || !strings.Contains(err.Error(), "want 0 (no bound) or more") {
		t.Errorf("--budget -1s: %v", err)
	}
}

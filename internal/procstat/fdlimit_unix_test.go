//go:build unix

package procstat

import (
	"syscall"
	"testing"
)

// TestFileLimitShort lowers this process's soft open-file limit to 200 and
// asks what MaxConns connections need: 150 plus the reserve of 64 is
// short, 100 is not, and 0 (no bound) never is.
func TestFileLimitShort(t *testing.T) {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl); err != nil {
		t.Skip(err)
	}
	if rl.Max < 200 {
		t.Skipf("hard open-file limit %d", rl.Max)
	}
	saved := rl
	rl.Cur = 200
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &rl); err != nil {
		t.Skip(err)
	}
	defer func() {
		if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &saved); err != nil {
			t.Fatal(err)
		}
	}()
	for _, tc := range []struct {
		maxConns, need int
		short          bool
	}{
		{150, 214, true},
		{100, 164, false},
		{0, 64, false},
	} {
		limit, need, short := FileLimitShort(tc.maxConns)
		if limit != 200 || need != tc.need || short != tc.short {
			t.Errorf("MaxConns %d: limit %d, need %d, short %v; want 200, %d, %v", tc.maxConns, limit, need, short, tc.need, tc.short)
		}
	}
}

package experiment_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/httpvs/httpvs/experiment"
	"github.com/httpvs/httpvs/plan"
)

// childPIDs returns the processes whose parent is this one and whose
// environment marks them a child server. Linux only.
func childPIDs(t *testing.T) []int {
	t.Helper()
	dirs, err := filepath.Glob("/proc/[0-9]*/stat")
	if err != nil || len(dirs) == 0 {
		t.Skip("needs /proc")
	}
	me := strconv.Itoa(os.Getpid())
	var pids []int
	for _, stat := range dirs {
		b, err := os.ReadFile(stat)
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces; split after ')'.
		_, rest, ok := strings.Cut(string(b), ") ")
		fields := strings.Fields(rest)
		if !ok || len(fields) < 2 || fields[1] != me {
			continue
		}
		environ, _ := os.ReadFile(filepath.Join(filepath.Dir(stat), "environ"))
		if strings.Contains("\x00"+string(environ), "\x00HTTPVS_CHILD=1\x00") {
			if pid, err := strconv.Atoi(filepath.Base(filepath.Dir(stat))); err == nil {
				pids = append(pids, pid)
			}
		}
	}
	return pids
}

// TestRunChildDied kills the child server during the run's third
// repetition: the run ends partial, says the server died, and keeps no
// repetition measured after the death.
func TestRunChildDied(t *testing.T) {
	o := quick(t, "download")
	reps := 0
	killed := false
	o.Matrix.Progress = func(plan.Progress) {
		if reps++; reps == 3 && !killed {
			killed = true
			killChildren(t)
		}
	}
	res, err := experiment.Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if !killed {
		t.Fatalf("the run measured %d repetitions, too few to kill its server in the third", reps)
	}
	if !res.Partial || !strings.Contains(res.PartialReason, "server") || !strings.Contains(res.PartialReason, "died") {
		t.Fatalf("partial %v, reason %q; want partial, saying the server died", res.Partial, res.PartialReason)
	}
	n := 0
	for _, c := range res.Cells {
		n += len(c.Repetitions)
	}
	if n > 2 {
		t.Fatalf("%d repetitions kept; want at most the 2 measured before the server died", n)
	}
}

func procExists(pid int) bool {
	_, err := os.Stat("/proc/" + strconv.Itoa(pid))
	return err == nil
}

// TestRunChildDiedMarksCells kills the child server in the second of
// four rounds: the run is partial, and each cell the death cut short says
// so (results.Cell.Partial, naming the death) and keeps only repetitions
// of the first round, none of them failed.
func TestRunChildDiedMarksCells(t *testing.T) {
	o := quick(t, "download")
	o.Matrix.Repeat, o.Matrix.MaxRepeat = 4, 4
	killed := false
	// Progress is reported as each repetition starts: the first of round 2
	// is killed before it measures anything.
	o.Matrix.Progress = func(p plan.Progress) {
		if !p.Warmup && p.Repetition == 2 && !killed {
			killed = true
			killChildren(t)
		}
	}
	res, err := experiment.Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if !killed || !res.Partial {
		t.Fatalf("killed %v, partial %v (%s): want the server killed in round 2 and the run partial", killed, res.Partial, res.PartialReason)
	}
	if len(res.Cells) == 0 {
		t.Fatal("no cell kept: want round 1's")
	}
	for _, c := range res.Cells {
		if !strings.Contains(c.Partial, "died") || !strings.Contains(c.Partial, "round 2") {
			t.Errorf("%s/%s: partial %q; want it marked cut short in round 2 by the server's death", c.Scenario, c.Protocol, c.Partial)
		}
		for _, m := range c.Repetitions {
			if m.Round != 1 || m.Errors.Total > 0 {
				t.Errorf("%s/%s kept round %d's repetition with %v errors; want round 1's alone, none failed", c.Scenario, c.Protocol, m.Round, m.Errors)
			}
		}
	}
}

// killChildren SIGKILLs this process's child servers and waits until each
// is reaped (its /proc entry gone), at most 5 s, and a moment for the run
// to hear of it.
func killChildren(t *testing.T) {
	t.Helper()
	for _, pid := range childPIDs(t) {
		if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
			t.Errorf("kill %d: %v", pid, err)
		}
		for i := 0; i < 500 && procExists(pid); i++ {
			time.Sleep(10 * time.Millisecond)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

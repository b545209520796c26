package experiment_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/httpvs/httpvs/experiment"
	"github.com/httpvs/httpvs/internal/pin"
	"github.com/httpvs/httpvs/plan"
)

// TestRunPins: on loopback with a child server and two CPUs, Run binds
// this process (the generator) to the first half of its CPUs and the
// child to the rest while the cells are measured, records both, and
// gives this process its mask and GOMAXPROCS back; without Pin (the
// zero value) both stay where they were.
func TestRunPins(t *testing.T) {
	before, err := pin.Available()
	if err != nil || len(before) < 2 {
		t.Skipf("two CPUs needed to pin apart (have %v, %v)", before, err)
	}
	client, server, _ := pin.Split(before)
	procs := runtime.GOMAXPROCS(0)
	for _, noPin := range []bool{false, true} {
		t.Run(fmt.Sprintf("Pin=%v", !noPin), func(t *testing.T) {
			o := quick(t, "small-sequential")
			o.Pin = !noPin
			var seen []string
			o.Matrix.Progress = func(plan.Progress) {
				mine, _ := pin.Available()
				seen = append(seen, fmt.Sprintf("generator %s GOMAXPROCS %d, server %s", pin.Format(mine), runtime.GOMAXPROCS(0), childCPUs()))
			}
			res, err := experiment.Run(context.Background(), o)
			if err != nil {
				t.Fatal(err)
			}
			want := fmt.Sprintf("generator %s GOMAXPROCS %d, server %s", pin.Format(client), len(client), pin.Format(server))
			if !noPin && res.Settings.Unpinned != "" {
				// Other test packages kept the machine busy: the run says
				// why it did not pin, and did not.
				t.Logf("not pinned: %s", res.Settings.Unpinned)
				if !strings.Contains(res.Settings.Unpinned, "other programs used") {
					t.Fatalf("unpinned %q: want the busy machine named", res.Settings.Unpinned)
				}
				noPin = true
			}
			if noPin {
				want = fmt.Sprintf("generator %s GOMAXPROCS %d, server %s", pin.Format(before), procs, pin.Format(before))
			}
			if len(seen) == 0 || slices.ContainsFunc(seen, func(s string) bool { return s != want }) {
				t.Fatalf("while measuring: %q, want each %q", seen, want)
			}
			p := res.Settings.Pin
			switch {
			case noPin && p != nil:
				t.Fatalf("pin %+v recorded without Pin", p)
			case !noPin && (p == nil || !slices.Equal(p.ClientCPUs, client) || !slices.Equal(p.ServerCPUs, server) || p.ClientGOMAXPROCS != len(client)):
				t.Fatalf("pin recorded %+v, want client %v server %v", p, client, server)
			}
			if after, _ := pin.Available(); !slices.Equal(after, before) || runtime.GOMAXPROCS(0) != procs {
				t.Fatalf("after the run: mask %v GOMAXPROCS %d, want %v and %d", after, runtime.GOMAXPROCS(0), before, procs)
			}
		})
	}
}

// childCPUs is the CPU list of this process's child processes (the child
// server), each read from /proc; "?" when there is none.
func childCPUs() string {
	tasks, _ := os.ReadDir("/proc/self/task")
	var lists []string
	for _, task := range tasks {
		kids, _ := os.ReadFile("/proc/self/task/" + task.Name() + "/children")
		for _, f := range strings.Fields(string(kids)) {
			if _, err := strconv.Atoi(f); err != nil {
				continue
			}
			b, err := os.ReadFile("/proc/" + f + "/status")
			if err != nil {
				continue
			}
			for _, line := range strings.Split(string(b), "\n") {
				if v, ok := strings.CutPrefix(line, "Cpus_allowed_list:\t"); ok {
					cpus, err := pin.Parse(v) // the kernel writes ranges: 0-1
					if v = "?" + v; err == nil {
						v = pin.Format(cpus)
					}
					if !slices.Contains(lists, v) {
						lists = append(lists, v)
					}
				}
			}
		}
	}
	if len(lists) == 0 {
		return "?"
	}
	return strings.Join(lists, "|")
}

// TestRunDoesNotPinABusyMachine: asked to pin with another program
// spinning beside it, Run leaves both sides unpinned and says why.
func TestRunDoesNotPinABusyMachine(t *testing.T) {
	if cpus, err := pin.Available(); err != nil || len(cpus) < 2 {
		t.Skipf("two CPUs needed to pin apart (have %v, %v)", cpus, err)
	}
	spin := exec.Command("sh", "-c", `end=$(($(date +%s) + 3)); while [ "$(date +%s)" -lt "$end" ]; do :; done`)
	if err := spin.Start(); err != nil {
		t.Skip("no sh:", err)
	}
	defer func() { spin.Process.Kill(); spin.Wait() }()
	o := quick(t, "small-sequential")
	o.Pin = true
	res, err := experiment.Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Settings.Pin != nil || !strings.Contains(res.Settings.Unpinned, "other programs used") {
		t.Fatalf("pin %+v, unpinned %q: want none, and the busy machine named", res.Settings.Pin, res.Settings.Unpinned)
	}
}

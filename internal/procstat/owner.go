package procstat

import (
	"errors"
	"fmt"
	"io/fs"
	"net/netip"
	"os"
	"slices"
	"strconv"
	"strings"
)

// Listener is the processes that hold a socket listening on a local
// port (TCP) or bound to it (UDP), found in /proc: the server a
// connection to that port reaches. Several hold one socket when a server
// forks workers after binding it (nginx): their CPU is its CPU.
type Listener struct {
	Network string // "tcp" or "udp"
	Port    uint16
	Procs   []Proc // by PID
}

// Proc is one process that holds a Listener's socket.
type Proc struct {
	PID   int
	Comm  string // /proc/<pid>/comm: the command's name
	start uint64 // Stat.Start when found: a reused PID reads another
}

// FindListener finds the processes holding the socket of network ("tcp"
// or "udp") that takes connections to port at one of addrs. Its error
// says in a line why none was found: nothing listens there, /proc is
// not Linux's, or the holder is hidden from this user (another user's
// process, whose descriptors only root reads).
func FindListener(network string, port uint16, addrs []netip.Addr) (*Listener, error) {
	if why := procSupported(); why != "" {
		return nil, errors.New(why)
	}
	what := fmt.Sprintf("%s port %d", strings.ToUpper(network), port)
	inodes, err := socketInodes(network, port, addrs)
	if err != nil {
		return nil, fmt.Errorf("read the sockets: %w", err)
	}
	if len(inodes) == 0 {
		verb := "listens on"
		if network == "udp" {
			verb = "is bound to"
		}
		return nil, fmt.Errorf("no socket %s %s", verb, what)
	}
	l := &Listener{Network: network, Port: port}
	denied, err := l.holders(inodes)
	if err != nil {
		return nil, err
	}
	switch {
	case len(l.Procs) == 0 && denied > 0:
		return nil, fmt.Errorf("the process holding %s is hidden from this user: %d processes' descriptors could not be read (another user's; root reads them)", what, denied)
	case len(l.Procs) == 0:
		return nil, fmt.Errorf("no process holds the socket on %s (in another network namespace?)", what)
	}
	for _, p := range l.Procs {
		if p.PID == os.Getpid() {
			return nil, fmt.Errorf("%s is this process's own: its CPU is the client's too", what)
		}
	}
	return l, nil
}

// holders fills l.Procs with the processes whose descriptors name one
// of inodes' sockets; denied counts those whose descriptors this user
// may not read.
func (l *Listener) holders(inodes map[uint64]bool) (denied int, err error) {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return 0, fmt.Errorf("list processes: %w", err)
	}
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue // not a process
		}
		holds, err := holdsSocket(pid, inodes)
		switch {
		case errors.Is(err, fs.ErrPermission):
			denied++
		case err != nil || !holds:
			// gone since the listing, or holds none of them
		default:
			if p, err := newProc(pid); err == nil {
				l.Procs = append(l.Procs, p)
			}
		}
	}
	slices.SortFunc(l.Procs, func(a, b Proc) int { return a.PID - b.PID })
	return denied, nil
}

// holdsSocket says whether one of pid's descriptors is a socket of inodes.
func holdsSocket(pid int, inodes map[uint64]bool) (bool, error) {
	dir := "/proc/" + strconv.Itoa(pid) + "/fd"
	fds, err := os.ReadDir(dir)
	if err != nil {
		return false, err
	}
	for _, fd := range fds {
		link, err := os.Readlink(dir + "/" + fd.Name())
		if err != nil {
			continue // closed since the listing
		}
		n, ok := strings.CutPrefix(link, "socket:[")
		if !ok {
			continue
		}
		if inode, err := strconv.ParseUint(strings.TrimSuffix(n, "]"), 10, 64); err == nil && inodes[inode] {
			return true, nil
		}
	}
	return false, nil
}

// newProc reads pid's name and start time.
func newProc(pid int) (Proc, error) {
	s, err := ReadStat(pid)
	if err != nil {
		return Proc{}, err
	}
	comm, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/comm")
	if err != nil {
		return Proc{}, err
	}
	return Proc{PID: pid, Comm: strings.TrimSpace(string(comm)), start: s.Start}, nil
}

// CPU returns the user and system CPU time, in seconds, that l's
// processes have spent (with their waited-for children's), or an error
// when one of them has exited since FindListener found it: the figure
// would no longer be the server's.
func (l *Listener) CPU() (user, sys float64, err error) {
	for _, p := range l.Procs {
		s, err := ReadStat(p.PID)
		if err != nil || s.Start != p.start {
			return 0, 0, fmt.Errorf("%s (pid %d) has exited", p.Comm, p.PID)
		}
		u, y := s.Seconds()
		user, sys = user+u, sys+y
	}
	return user, sys, nil
}

// String names l's processes: "caddy (pid 1234)", "nginx (pids 10, 11)",
// "a (pid 1), b (pid 2)".
func (l *Listener) String() string {
	var names []string
	byName := map[string][]string{}
	for _, p := range l.Procs {
		if byName[p.Comm] == nil {
			names = append(names, p.Comm)
		}
		byName[p.Comm] = append(byName[p.Comm], strconv.Itoa(p.PID))
	}
	parts := make([]string, len(names))
	for i, n := range names {
		pids := byName[n]
		word := "pid"
		if len(pids) > 1 {
			word = "pids"
		}
		parts[i] = fmt.Sprintf("%s (%s %s)", n, word, strings.Join(pids, ", "))
	}
	return strings.Join(parts, ", ")
}

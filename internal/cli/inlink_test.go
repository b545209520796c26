package cli

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/httpvs/httpvs/internal/testenv"
)

// inLink counts the tests making links in this process (parallelLink)
// that run at once. What one link leaves behind (threads in a namespace,
// descriptors, a child server in one) is this process's, so no such test
// can tell its leftovers from another's running link: the check is made
// once the last of those running together has ended, against what this
// process held before the first began.
var inLink struct {
	mu     sync.Mutex
	n      int
	before map[string]bool
	names  []string
}

// parallelLink runs t in parallel with the other tests, and skips it
// where no link can be made (needLink); once it and the link tests that
// overlapped it have ended, nothing of their links may be left in this
// process (testenv.CheckNoLeftovers, reported in the test that ended last).
func parallelLink(t *testing.T) {
	t.Helper()
	t.Parallel()
	inLink.mu.Lock()
	if inLink.n == 0 {
		inLink.before, inLink.names = linkLeftovers(t), nil
	}
	inLink.n++
	inLink.names = append(inLink.names, t.Name())
	inLink.mu.Unlock()
	t.Cleanup(func() {
		inLink.mu.Lock()
		defer inLink.mu.Unlock()
		if inLink.n--; inLink.n > 0 {
			return
		}
		failed := t.Failed()
		checkLinkLeftovers(t, inLink.before)
		if !failed && t.Failed() {
			t.Logf("left by one of the tests that made links in this process together: %s", strings.Join(slices.Compact(inLink.names), ", "))
		}
	})
	needLink(t)
}

// linkLeftovers is netLeftovers without this process's children that run
// this binary as httpvs (runMainProcess, startRunProc): each is a run of
// its own, its links in it, checked by its test.
func linkLeftovers(t *testing.T) map[string]bool {
	t.Helper()
	found := netLeftovers(t)
	for what := range found {
		dir, ok := strings.CutPrefix(what, "child ")
		if !ok {
			continue
		}
		dir, _, _ = strings.Cut(dir, " in ")
		env, _ := os.ReadFile(filepath.Join(dir, "environ"))
		if slices.Contains(strings.Split(string(env), "\x00"), mainEnv+"=1") {
			delete(found, what)
		}
	}
	return found
}

// checkLinkLeftovers is testenv.CheckNoLeftovers with linkLeftovers.
func checkLinkLeftovers(t *testing.T, before map[string]bool) {
	t.Helper()
	testenv.CheckNoLeftoversOf(t, before, linkLeftovers)
}

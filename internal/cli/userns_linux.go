package cli

import (
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// usernsNeeded says whether usernsRun would run this program again: not for root,
// nor for the re-executed program.
func usernsNeeded() bool { return os.Geteuid() != 0 && os.Getenv(usernsEnv) == "" }

// usernsRun runs this program again with args, standard input and the writers
// given, in a new user namespace where the caller is root (uid and gid 0
// mapped to the caller's, as `unshare -Ur` does). It returns false,
// doing nothing, when not usernsNeeded. An interrupt (ctx) is passed on; the
// re-executed program dies with this one (Pdeathsig). Its exit code, when
// not 0, is an usernsExit; a system that refuses the namespace a
// *usernsRefusedError.
func usernsRun(ctx context.Context, args []string, stdout, stderr io.Writer) (bool, error) {
	if !usernsNeeded() {
		return false, nil
	}
	exe, err := os.Executable()
	if err != nil {
		return true, &usernsExecutableError{err}
	}
	cmd := exec.CommandContext(ctx, exe, args...)
	cmd.Env = append(os.Environ(), usernsEnv+"=1")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, stdout, stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{
		Cloneflags:  syscall.CLONE_NEWUSER,
		UidMappings: []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getuid(), Size: 1}},
		GidMappings: []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getgid(), Size: 1}},
		Pdeathsig:   syscall.SIGKILL,
		// Its own process group: a terminal's Ctrl-C reaches this
		// program only, which passes it on once.
		Setpgid: true,
	}
	// On an interrupt the program ends its run itself and reports what it
	// measured; it is killed only if it has not within a minute.
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = time.Minute
	err = cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return true, nil
	case errors.As(err, &exit) && exit.ExitCode() > 0:
		return true, usernsExit(exit.ExitCode())
	case cmd.Process == nil && ctx.Err() == nil:
		return true, &usernsRefusedError{err}
	}
	return true, err
}

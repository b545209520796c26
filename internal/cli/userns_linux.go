package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// userNSEnv marks a command re-executed in a user namespace of its own,
// so that it does not try again.
const userNSEnv = "HTTPVS_IN_USER_NAMESPACE"

// inUserNS runs this command again, with the same arguments and standard
// streams, in a new user namespace where the caller is root (uid and gid 0
// mapped to the caller's, as `unshare -Ur` does), so that a user without
// root can make --net's network namespaces and devices, which the kernel
// allows inside a user namespace. It returns false, doing nothing, for
// root and for the re-executed command. An interrupt is passed on; the
// re-executed command dies with this one (Pdeathsig). Its exit code
// becomes this command's.
func inUserNS(ctx context.Context, e *env, name string, args []string) (bool, error) {
	if os.Geteuid() == 0 || os.Getenv(userNSEnv) != "" {
		return false, nil
	}
	exe, err := os.Executable()
	if err != nil {
		return true, fmt.Errorf("--net without root: find this program to run it in a user namespace: %w", err)
	}
	cmd := exec.CommandContext(ctx, exe, append([]string{name}, args...)...)
	cmd.Env = append(os.Environ(), userNSEnv+"=1")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, e.stdout, e.stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{
		Cloneflags:  syscall.CLONE_NEWUSER,
		UidMappings: []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getuid(), Size: 1}},
		GidMappings: []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getgid(), Size: 1}},
		Pdeathsig:   syscall.SIGKILL,
		// Its own process group: a terminal's Ctrl-C reaches this
		// command only, which passes it on once.
		Setpgid: true,
	}
	// On an interrupt the command ends its run itself and reports what it
	// measured; it is killed only if it has not within a minute.
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = time.Minute
	err = cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return true, nil
	case errors.As(err, &exit) && exit.ExitCode() > 0:
		return true, exitCode(exit.ExitCode())
	case cmd.Process == nil && ctx.Err() == nil:
		return true, fmt.Errorf("--net needs root, or a user namespace, which this system refuses (%v): run as root, or allow unprivileged user namespaces (sysctl user.max_user_namespaces, kernel.unprivileged_userns_clone, AppArmor's restrict_unprivileged_userns)", err)
	}
	return true, fmt.Errorf("--net in a user namespace: %w", err)
}

package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/httpvs/httpvs/internal/userns"
)

// inUserNS runs this command again in a user namespace of its own
// (userns.Run), so that a user without root can make --net's namespaces
// and devices; false, doing nothing, for root and the re-executed
// command. Its exit code becomes this command's.
func (e *env) inUserNS(ctx context.Context, args []string) (bool, error) {
	done, err := userns.Run(ctx, append([]string{e.name}, args...), e.stdout, e.stderr)
	var (
		code    userns.ExitCode
		refused *userns.RefusedError
		noExe   *userns.ExecutableError
	)
	switch {
	case err == nil:
		return done, nil
	case errors.As(err, &code):
		return done, exitCode(code)
	case errors.As(err, &noExe):
		return done, fmt.Errorf("--net without root: find this program to run it in a user namespace: %w", noExe.Err)
	case errors.As(err, &refused):
		return done, fmt.Errorf("--net needs root, or a user namespace, which this system refuses (%v): run as root, or allow unprivileged user namespaces (sysctl user.max_user_namespaces, kernel.unprivileged_userns_clone, AppArmor's restrict_unprivileged_userns)", refused.Err)
	}
	return done, fmt.Errorf("--net in a user namespace: %w", err)
}

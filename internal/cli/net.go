package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/httpvs/httpvs/experiment"
	"github.com/httpvs/httpvs/internal/cli/flagset"
	"github.com/httpvs/httpvs/netem"
)

// netFlagUsage is --net's help; sweep tells whether the command takes
// several links (run) or one (tune).
func netFlagUsage(sweep bool) string {
	several, ccSeveral := "; one link", ""
	if sweep {
		ccSeveral = "; cc=bbr,cubic runs the same link once under each, in one report"
		several = "; repeat the flag for several links, run one after another with a table across them at the end: --net 4g --net lossy --net rtt=80ms"
	}
	return "emulate a network `link` between the client and the server: a preset (" + strings.Join(netem.Presets(), ", ") +
		"), key=value fields (rtt=50ms,rate=20mbit,loss=1%) or both (4g,loss=2%)" + several + ". backend=tun or backend=netem picks how the link is made (default auto: the kernel's netem where it has it, else TUN devices). cc=bbr|reno|cubic sets TCP's congestion control in the link's namespaces (default: the kernel's for a new namespace; the report names it, and QUIC's, quic-go's cubic)" + ccSeveral + ". See docs/net-presets.md. Linux: root, or any user where the system allows user namespaces (httpvs then runs itself in one)"
}

// oneLink reads one --net value as one link (experiment.ParseLink).
func oneLink(text string) (experiment.LinkSpec, error) {
	l, err := experiment.ParseLink(text)
	return l, netUsage(err)
}

// linksOf reads one --net value of run as its links
// (experiment.ParseLinks): one, or with cc= naming several congestion
// controls (cc=bbr,cubic) the same link once per controller, in the
// order named.
func linksOf(text string) ([]experiment.LinkSpec, error) {
	links, err := experiment.ParseLinks(text)
	return links, netUsage(err)
}

// netUsage is a usage error for a --net value that is not one link,
// saying what to type; a bad field names it.
func netUsage(err error) error {
	var (
		te *experiment.LinkTextError
		se *netem.SpecError
	)
	switch {
	case errors.As(err, &te) && len(te.CCs) > 1:
		return usagef("--net %q: cc= names %d congestion controls; this command takes one link", te.Text, len(te.CCs))
	case errors.As(err, &te) && len(te.Links) > 1:
		return usagef("--net %q: one link per --net; for several links repeat the flag: --net %s", te.Text, strings.Join(te.Links, " --net "))
	case errors.As(err, &te):
		return usagef("--net \"\": want a link: a preset (%s), key=value fields (rtt=50ms,rate=20mbit) or both (4g,loss=2%%)", strings.Join(netem.Presets(), ", "))
	case errors.As(err, &se) && se.Field == "preset" && flagset.Nearest(strings.ToLower(se.Value), netem.Presets()) != "":
		return usagef("--net %s: no such preset: did you mean %s? (want %s)", se.Value, flagset.Nearest(strings.ToLower(se.Value), netem.Presets()), se.Want)
	case errors.As(err, &se):
		return usagef("--net %s=%q: want %s", se.Field, se.Value, se.Want)
	}
	return err
}

// inUserNS runs this command again in a user namespace of its own
// (usernsRun), so that a user without root can make --net's namespaces
// and devices; false, doing nothing, for root and the re-executed
// command. Its exit code becomes this command's.
func (e *env) inUserNS(ctx context.Context, args []string) (bool, error) {
	done, err := usernsRun(ctx, append([]string{e.name}, args...), e.stdout, e.stderr)
	var (
		code    usernsExit
		refused *usernsRefusedError
		noExe   *usernsExecutableError
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

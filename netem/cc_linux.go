package netem

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
)

// ccPath is TCP's congestion control under /proc/sys, per network
// namespace: what a thread in the namespace reads and writes.
const ccPath = "net/ipv4/tcp_congestion_control"

// setCC sets TCP's congestion control to cc in both of l's namespaces
// ("" leaves the default) and records what the client's uses. An
// algorithm the kernel lacks is an error listing those it has.
func (l *Link) setCC(cc string) error {
	for _, ns := range []*Namespace{l.client, l.server} {
		err := ns.Run(func() error {
			if cc != "" {
				if err := sysctl(ccPath, cc); err != nil {
					return err
				}
			}
			b, err := os.ReadFile("/proc/sys/" + ccPath)
			l.cc = strings.TrimSpace(string(b))
			return err
		})
		if errors.Is(err, fs.ErrPermission) {
			// A namespace other than the first may only default to the
			// algorithms the machine allows (the kernel: "only init netns
			// can set default to a restricted algorithm").
			b, _ := os.ReadFile("/proc/sys/net/ipv4/tcp_allowed_congestion_control")
			allowed := strings.TrimSpace(string(b))
			return fmt.Errorf("net spec cc=%q: a link's namespaces may use only the congestion controls this machine allows (%s); as root, allow it with sysctl -w net.ipv4.tcp_allowed_congestion_control=\"%s %s\"", cc, allowed, allowed, cc)
		}
		if errors.Is(err, fs.ErrNotExist) {
			b, _ := os.ReadFile("/proc/sys/net/ipv4/tcp_available_congestion_control")
			return fmt.Errorf("net spec cc=%q: this kernel has no such TCP congestion control (it has: %s; another needs its module loaded, e.g. modprobe tcp_%s)", cc, strings.TrimSpace(string(b)), cc)
		}
		if err != nil {
			return fmt.Errorf("set TCP congestion control %q: %w", cc, err)
		}
	}
	return nil
}

// CongestionControl is the TCP congestion control the link's namespaces
// use: Spec.CC, or the kernel's default for a new namespace.
func (l *Link) CongestionControl() string { return l.cc }

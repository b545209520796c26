package netem

import (
	"encoding/binary"
	"fmt"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// setTxQueueLen sets the transmit queue of the device with index ifindex,
// in the calling thread's network namespace, to qlen packets through
// rtnetlink (RTM_NEWLINK with IFLA_TXQLEN), as `ip link set txqueuelen`
// does. The SIOCSIFTXQLEN ioctl would do it for root only: it asks for
// CAP_NET_ADMIN over the whole system, where netlink asks for it over the
// namespace, which a user namespace's root has.
func setTxQueueLen(ifindex int, qlen uint32) error {
	fd, err := unix.Socket(unix.AF_NETLINK, unix.SOCK_RAW|unix.SOCK_CLOEXEC, unix.NETLINK_ROUTE)
	if err != nil {
		return fmt.Errorf("netlink socket: %w", err)
	}
	defer unix.Close(fd)
	if err := unix.Bind(fd, &unix.SockaddrNetlink{Family: unix.AF_NETLINK}); err != nil {
		return fmt.Errorf("netlink bind: %w", err)
	}
	msg := make([]byte, unix.NLMSG_HDRLEN+unix.SizeofIfInfomsg+unix.SizeofRtAttr+4)
	ne := binary.NativeEndian
	ne.PutUint32(msg[0:], uint32(len(msg)))                            // nlmsg_len
	ne.PutUint16(msg[4:], unix.RTM_NEWLINK)                            // nlmsg_type
	ne.PutUint16(msg[6:], unix.NLM_F_REQUEST|unix.NLM_F_ACK)           // nlmsg_flags
	ne.PutUint32(msg[8:], 1)                                           // nlmsg_seq
	info := (*unix.IfInfomsg)(unsafe.Pointer(&msg[unix.NLMSG_HDRLEN])) // family AF_UNSPEC
	info.Index = int32(ifindex)
	attr := msg[unix.NLMSG_HDRLEN+unix.SizeofIfInfomsg:]
	ne.PutUint16(attr[0:], unix.SizeofRtAttr+4) // rta_len
	ne.PutUint16(attr[2:], unix.IFLA_TXQLEN)    // rta_type
	ne.PutUint32(attr[4:], qlen)
	if err := unix.Sendto(fd, msg, 0, &unix.SockaddrNetlink{Family: unix.AF_NETLINK}); err != nil {
		return fmt.Errorf("netlink send: %w", err)
	}
	buf := make([]byte, 4096)
	n, _, err := unix.Recvfrom(fd, buf, 0)
	if err != nil {
		return fmt.Errorf("netlink receive: %w", err)
	}
	msgs, err := syscall.ParseNetlinkMessage(buf[:n])
	if err != nil {
		return fmt.Errorf("netlink answer: %w", err)
	}
	for _, m := range msgs {
		if m.Header.Type == unix.NLMSG_ERROR && len(m.Data) >= 4 {
			if errno := int32(ne.Uint32(m.Data)); errno != 0 {
				return unix.Errno(-errno)
			}
			return nil
		}
	}
	return fmt.Errorf("netlink: no acknowledgement")
}

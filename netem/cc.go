package netem

// validCC says name can be a TCP congestion control's name: lower-case
// letters, digits and underscores, as the kernel names them. Whether the
// kernel has it is known only when the link is made (Link.setCC).
func validCC(name string) bool {
	if name == "" || len(name) > 15 { // TCP_CA_NAME_MAX is 16 with its NUL
		return false
	}
	for _, r := range name {
		if (r < 'a' || r > 'z') && (r < '0' || r > '9') && r != '_' {
			return false
		}
	}
	return true
}

// QUICCongestion is the congestion control quic-go uses for HTTP/3 as
// httpvs configures it (quic-go's default): its own Cubic, whatever TCP's
// is.
const QUICCongestion = "quic-go's cubic"

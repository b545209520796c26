package procstat

// The process's open-file limit, raised and reported, so that many
// parallel connections fail with a clear message before they start
// rather than with "too many open files" halfway through.

// FileReserve is how many descriptors a plan should leave for everything
// besides its connections (stdio, listeners, the runtime's poller).
const FileReserve = 64

// RaiseFileLimit lifts the soft open-file limit to the hard limit. It
// returns "" on success or where limits do not apply, and a one-line
// warning otherwise.
func RaiseFileLimit() string { return raiseFileLimit() }

// FileLimit returns the soft open-file limit, or -1 where there is none
// to read.
func FileLimit() int { return fileLimit() }

// FileLimitShort reports whether the process's soft open-file limit
// (limit) is below need: the descriptors maxConns connections on a listener take,
// plus a reserve of 64 for everything else (stdio, listeners, the
// runtime's poller). Connections past the limit are refused. It is false
// where there is no limit to read and when maxConns is zero (no bound).
func FileLimitShort(maxConns int) (limit, need int, short bool) {
	limit, need = FileLimit(), maxConns+FileReserve
	return limit, need, limit > 0 && maxConns > 0 && need > limit
}

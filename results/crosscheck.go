package results

// ServerFigure returns the server figure f and whether it may be used: it
// is known (the server's counters were read) and the server's counts agreed
// with the client's.
func (m *Repetition) ServerFigure(f *float64) (float64, bool) {
	if f == nil || m.ServerUnreliable != "" {
		return 0, false
	}
	return *f, true
}

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

// Counts reports whether r is a measurement the cell's figures use: its
// median, min and max, its median repetition, the rounds paired for its
// interval, and the diagnosis' bounds. It is one when r ran to its end
// (an interrupted repetition measured the interrupt), no request or
// transfer in it failed, and it read above zero. A repetition with a
// failure measured other work than a clean one (a refused connection is
// fast, a timeout stalls a slot) and its failures are in Cell.Errors,
// which the errors finding reports; zero means nothing finished, a time
// or rate that was not measured, and has no ratio.
func (r Repetition) Counts() bool {
	return !r.Interrupted && r.Errors.Total == 0 && r.Value > 0
}

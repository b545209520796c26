package cli

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/httpvs/httpvs/load"
	"github.com/httpvs/httpvs/plan"
	"github.com/httpvs/httpvs/tune/tuneresult"
)

// Progress rewrites one terminal line with where a command is: a run's
// cell, a load's pace, a tune search's settings. Clear erases it.
type Progress struct {
	w     io.Writer
	start time.Time
	shown bool
}

// NewProgress returns a Progress on w, counting time from now.
func NewProgress(w io.Writer) *Progress { return &Progress{w: w, start: time.Now()} }

// TerminalProgress is NewProgress(w) when w is a terminal, else nil.
func TerminalProgress(w io.Writer) *Progress {
	if !IsTerminal(w) {
		return nil
	}
	return NewProgress(w)
}

// IsTerminal reports whether w is a terminal.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// Cell shows the cell a run measures (plan.Options.Progress).
func (p *Progress) Cell(pr plan.Progress) {
	left := "estimating time left"
	if pr.Remaining > 0 {
		left = "about " + pr.Remaining.Round(time.Second).String() + " left"
	}
	rep := fmt.Sprintf("repetition %d", pr.Repetition)
	if pr.Warmup {
		rep = "warm-up round (discarded)"
	}
	p.Text(fmt.Sprintf("[%d/%d] %s over %s, %s; %s", pr.Done+1, pr.Total, pr.Scenario, pr.Protocol, rep, left))
}

// Load shows a load run's pace (load.Config.Progress).
func (p *Progress) Load(pr load.Progress) {
	p.Text(fmt.Sprintf("  %6.1fs  %d done  %.0f req/s  %d errors", pr.Elapsed.Seconds(), pr.Done, pr.RequestsPerSecond, pr.Errors))
}

// Tune shows the settings a search measures (tune.Options.Progress),
// with the seconds since it began.
func (p *Progress) Tune(protocol string, s tuneresult.Settings) {
	p.Text(fmt.Sprintf("%5.1fs  %s  read %s frame %s window %s write %s", time.Since(p.start).Seconds(),
		protocol, s.ReadSize, orDefault(s.MaxReadFrameSize), orDefault(s.StreamWindow+s.QUICStreamWindow), s.WriteSize))
}

// Text shows line.
func (p *Progress) Text(line string) {
	fmt.Fprintf(p.w, "\r\033[K%s", line)
	p.shown = true
}

// Clear erases the line; p may be nil.
func (p *Progress) Clear() {
	if p != nil && p.shown {
		fmt.Fprint(p.w, "\r\033[K")
	}
}

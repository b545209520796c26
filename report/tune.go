package report

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/httpvs/httpvs/tune/tuneresult"
	"github.com/httpvs/httpvs/units"
)

// Tune writes httpvs tune's report as text: where it measured, then per
// transport Go's defaults and the best found against h1, the gain's
// interval, why the defaults are slow, and the Go to paste (none when
// the defaults were best).
func orDefault(b units.Bytes) string {
	if b == 0 {
		return "default"
	}
	return b.String()
}

func Tune(w io.Writer, rep *tuneresult.Report) error {
	fmt.Fprintf(w, "httpvs tune: single-stream download, %s, %.0f s; h1 measured in the same run\n", describeLink(rep), rep.Seconds)
	if rep.Partial {
		fmt.Fprintf(w, "PARTIAL: cut short; these are the transports measured in full until then\n")
	}
	for _, r := range rep.Results {
		s := r.Best
		fmt.Fprintf(w, "\n%s: Go's defaults %.2fx h1 (%s), best found %.2fx h1 (%s), %d trials\n", r.Protocol,
			r.DefaultRatioToH1, units.BitsPerSecond(r.DefaultBytesPerSecond*8).Human(), r.RatioToH1, units.BitsPerSecond(r.BestBytesPerSecond*8).Human(), r.Trials)
		if r.Pairs > 0 {
			fmt.Fprintf(w, "  the best found over the defaults: %.2fx [%.2f, %.2f] (%d final rounds paired)\n", r.Gain, r.GainLow, r.GainHigh, r.Pairs)
		}
		fmt.Fprintf(w, "  best: read %s, frame %s, stream window %s, server write %s, QUIC windows %s / %s\n",
			s.ReadSize, orDefault(s.MaxReadFrameSize), orDefault(s.StreamWindow), s.WriteSize, orDefault(s.QUICStreamWindow), orDefault(s.QUICConnWindow))
		for _, d := range r.Diagnosis {
			fmt.Fprintf(w, "  why the default is slow: %s\n", d)
		}
		if r.DefaultsBest {
			fmt.Fprintf(w, "  Go's defaults are best here: no setting tried measured faster beyond the final rounds' noise (its gain's interval reaches 1); nothing to paste\n")
			continue
		}
		fmt.Fprintf(w, "  paste:\n")
		for _, line := range strings.Split(strings.TrimSuffix(r.GoCode, "\n"), "\n") {
			fmt.Fprintf(w, "    %s\n", line)
		}
	}
	return nil
}

// describeLink is the line Tune starts with saying where it measured.
func describeLink(rep *tuneresult.Report) string {
	if rep.Net == nil {
		return "in-process server on loopback"
	}
	c := rep.Net.Calibration
	return fmt.Sprintf("in-process server across the emulated link %s (%s backend; measured RTT %.1f ms, TCP goodput %.0f Mbit/s down)",
		rep.Net.Spec, rep.Net.Backend, c.UDPRTTSeconds*1e3, c.DownGoodputBitsPerSecond/1e6)
}

// TuneProgress returns a tune.Options.Progress that rewrites one
// terminal line on w with the seconds since the search began and the
// settings being measured.
func TuneProgress(w io.Writer) func(string, tuneresult.Settings) {
	start := time.Now()
	return func(p string, s tuneresult.Settings) {
		fmt.Fprintf(w, "\r\033[K%5.1fs  %s  read %s frame %s window %s write %s",
			time.Since(start).Seconds(), p, s.ReadSize, orDefault(s.MaxReadFrameSize), orDefault(s.StreamWindow+s.QUICStreamWindow), s.WriteSize)
	}
}

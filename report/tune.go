package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/httpvs/httpvs/tune/tuneresult"
	"github.com/httpvs/httpvs/units"
)

// orDefault is a knob's size, or "default" for zero (Go's or quic-go's).
func orDefault(b units.Bytes) string {
	if b == 0 {
		return "default"
	}
	return b.String()
}

// Tune writes httpvs tune's report as text: where it measured, then per
// transport Go's defaults and the best found against h1, the gain's
// interval, why the defaults are slow, and the Go to paste (none when
// the defaults were best); last, the values of its knob file that were
// one transport's best where the others did best at another.
func Tune(w io.Writer, rep *tuneresult.Report) error {
	fmt.Fprintf(w, "httpvs tune: single-stream download, %s, %.0f s; h1 measured in the same run\n", describeLink(rep), rep.Seconds)
	if rep.Partial {
		fmt.Fprintf(w, "PARTIAL: cut short; these are the transports measured in full until then\n")
	}
	for _, r := range rep.Results {
		tuneResult(w, r)
	}
	fmt.Fprint(w, knobConflicts(rep))
	return nil
}

// knobConflicts says, a line each, which values of rep's knob file
// (tuneresult.Report.KnobSet) were one transport's best where the others
// did best at another value: one client serves every transport, so the
// file holds one value per knob. "" when every value suited all.
func knobConflicts(rep *tuneresult.Report) string {
	var b strings.Builder
	set := rep.KnobSet("")
	for _, k := range set.Knobs {
		proto, others, ok := strings.Cut(set.BestFor[k.Field], " (")
		if ok {
			fmt.Fprintf(&b, "httpvs tune: %s %s is %s's best; the others did best at another value (%s: one client serves every transport\n", k.Field, k.Value, proto, others)
		}
	}
	return b.String()
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

// tuneResult writes one transport's search: the defaults compared (their
// settings and rate), the best configuration found and its gain over
// them, and either the Go to paste or, when nothing beat the defaults
// beyond the final rounds' noise, that the defaults are best, with the
// candidate that did not beat them, so that no line contradicts another.
func tuneResult(w io.Writer, r tuneresult.Result) {
	rate := func(bps float64) string { return units.BitsPerSecond(bps * 8).Human() }
	fmt.Fprintf(w, "\n%s: %d trials; h1 %s in the same rounds\n", r.Protocol, r.Trials, rate(r.H1BytesPerSecond))
	fmt.Fprintf(w, "  Go's defaults: %.2fx h1 (%s) with %s\n", r.DefaultRatioToH1, rate(r.DefaultBytesPerSecond), settingsText(r.Default))
	gain := ""
	if r.Pairs > 0 {
		gain = fmt.Sprintf(", %.2fx [%.2f, %.2f] the defaults over %d final rounds paired", r.Gain, r.GainLow, r.GainHigh, r.Pairs)
	}
	for _, d := range r.Diagnosis {
		fmt.Fprintf(w, "  why the default is slow: %s\n", d)
	}
	if r.DefaultsBest {
		if r.Candidate != (tuneresult.Settings{}) && r.Candidate != r.Default {
			fmt.Fprintf(w, "  best candidate: %s (%s%s)\n", settingsText(r.Candidate), rate(r.CandidateBytesPerSecond), gain)
		}
		fmt.Fprintf(w, "  Go's defaults are best here: no setting tried measured faster beyond the final rounds' noise (the gain's interval reaches 1); nothing to paste\n")
		return
	}
	fmt.Fprintf(w, "  best found: %.2fx h1 (%s%s) with %s\n", r.RatioToH1, rate(r.BestBytesPerSecond), gain, settingsText(r.Best))
	fmt.Fprintf(w, "  paste:\n")
	for _, line := range strings.Split(strings.TrimSuffix(r.GoCode, "\n"), "\n") {
		fmt.Fprintf(w, "    %s\n", line)
	}
}

// settingsText is a configuration in words.
func settingsText(s tuneresult.Settings) string {
	return fmt.Sprintf("read %s, frame %s, stream window %s, server write %s, QUIC windows %s / %s",
		s.ReadSize, orDefault(s.MaxReadFrameSize), orDefault(s.StreamWindow), s.WriteSize, orDefault(s.QUICStreamWindow), orDefault(s.QUICConnWindow))
}

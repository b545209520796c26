package report

import (
	"strings"
	"testing"

	"github.com/httpvs/httpvs/tune/tuneresult"
	"github.com/httpvs/httpvs/units"
)

// TestTuneSaysOneThing: where nothing beat the defaults, the report shows
// the defaults it compared and the candidate that did not beat them, with
// no "best found" line to contradict "the defaults are best"; where one
// did, the best found, its gain and the code to paste.
func TestTuneSaysOneThing(t *testing.T) {
	def := tuneresult.Settings{ReadSize: 8 * units.KiB, WriteSize: 256 * units.KiB}
	cand := tuneresult.Settings{ReadSize: 256 * units.KiB, WriteSize: 8 * units.KiB}
	rep := &tuneresult.Report{Results: []tuneresult.Result{{
		Protocol: "h3", Trials: 12, Default: def, Best: def, Candidate: cand, DefaultsBest: true,
		DefaultBytesPerSecond: 136.6e6, BestBytesPerSecond: 136.6e6, CandidateBytesPerSecond: 220e6, H1BytesPerSecond: 3.4e9,
		DefaultRatioToH1: 0.04, RatioToH1: 0.04, Gain: 1.62, GainLow: 0.97, GainHigh: 2.70, Pairs: 4,
	}}}
	var b strings.Builder
	if err := Tune(&b, rep); err != nil {
		t.Fatal(err)
	}
	got := b.String()
	for _, want := range []string{"Go's defaults: 0.04x h1", "read 8Ki", "server write 256Ki", "best candidate: read 256Ki", "1.62x [0.97, 2.70] the defaults", "Go's defaults are best here", "nothing to paste"} {
		if !strings.Contains(got, want) {
			t.Errorf("lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "best found") || strings.Contains(got, "paste:") {
		t.Errorf("a best found beside 'defaults are best':\n%s", got)
	}
	r := &rep.Results[0]
	r.DefaultsBest, r.Best, r.BestBytesPerSecond, r.RatioToH1, r.GainLow, r.GoCode = false, cand, 220e6, 0.065, 1.2, "tr := &http.Transport{}\n"
	b.Reset()
	if err := Tune(&b, rep); err != nil {
		t.Fatal(err)
	}
	got = b.String()
	for _, want := range []string{"best found: 0.07x h1", "with read 256Ki", "paste:", "tr := &http.Transport{}"} {
		if !strings.Contains(got, want) {
			t.Errorf("lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "defaults are best") {
		t.Errorf("'defaults are best' beside a best found:\n%s", got)
	}
}

// TestKnobConflicts: Tune ends with a line for each value of the knob file that was one
// transport's best where others did best at another value, in the knob
// file's order; nothing for values every transport agreed on or that one
// transport alone tuned, nor for a transport whose defaults were best.
func TestKnobConflicts(t *testing.T) {
	rep := &tuneresult.Report{Results: []tuneresult.Result{
		{Protocol: "h2c", Best: tuneresult.Settings{ReadSize: units.MiB, MaxReadFrameSize: units.MiB, WriteSize: 256 * units.KiB}},
		{Protocol: "h2", Best: tuneresult.Settings{ReadSize: 64 * units.KiB, WriteSize: 256 * units.KiB, StreamWindow: 4 * units.MiB}},
		{Protocol: "h3", Best: tuneresult.Settings{ReadSize: 64 * units.KiB, WriteSize: 32 * units.KiB, QUICStreamWindow: 16 * units.MiB}},
		{Protocol: "h1-tls", DefaultsBest: true, Best: tuneresult.Settings{ReadSize: 8 * units.KiB}},
	}}
	want := "httpvs tune: Client.ReadSize 1Mi is h2c's best; the others did best at another value (h2: 64Ki, h3: 64Ki): one client serves every transport\n" +
		"httpvs tune: Server.WriteSize 256Ki is h2c's best; the others did best at another value (h3: 32Ki): one client serves every transport\n"
	if got := knobConflicts(rep); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	rep.Results = rep.Results[:1]
	if got := knobConflicts(rep); got != "" {
		t.Errorf("one transport tuned: %q, want nothing", got)
	}
}

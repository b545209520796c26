package experiment_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/httpvs/httpvs/experiment"
	"github.com/httpvs/httpvs/netem"
)

// TestParseLinks: a link's text is one link, or with cc= naming several
// controllers the same link once per controller, each named by its own
// text; several links in one text, an empty one and a bad field are
// typed errors that say which.
func TestParseLinks(t *testing.T) {
	for _, tc := range []struct {
		text  string
		want  []string // the links' names
		links []string // a *LinkTextError's links
		err   any      // the error's type, when one
	}{
		{text: "4g", want: []string{"4g"}},
		{text: "4g,loss=2%", want: []string{"4g,loss=2%"}},
		{text: "rtt=100ms,loss=1%,cc=bbr,cubic", want: []string{"rtt=100ms,loss=1%,cc=bbr", "rtt=100ms,loss=1%,cc=cubic"}},
		{text: "cc=bbr,reno,rtt=50ms", want: []string{"rtt=50ms,cc=bbr", "rtt=50ms,cc=reno"}},
		{text: "4g,lossy", links: []string{"4g", "lossy"}, err: &experiment.LinkTextError{}},
		{text: "rtt=10ms;rtt=30ms", links: []string{"rtt=10ms", "rtt=30ms"}, err: &experiment.LinkTextError{}},
		{text: " ", err: &experiment.LinkTextError{}},
		{text: "rtt=fast", err: &netem.SpecError{}},
	} {
		t.Run(tc.text, func(t *testing.T) {
			links, err := experiment.ParseLinks(tc.text)
			var te *experiment.LinkTextError
			var se *netem.SpecError
			switch tc.err.(type) {
			case nil:
				if err != nil {
					t.Fatal(err)
				}
			case *experiment.LinkTextError:
				if !errors.As(err, &te) || strings.Join(te.Links, " ") != strings.Join(tc.links, " ") {
					t.Fatalf("err %v (%T), want a *LinkTextError naming links %q", err, err, tc.links)
				}
				return
			case *netem.SpecError:
				if !errors.As(err, &se) {
					t.Fatalf("err %v (%T), want a *netem.SpecError", err, err)
				}
				return
			}
			var got []string
			for _, l := range links {
				got = append(got, l.Name)
				if cc := l.Spec.CC; cc != "" && !strings.HasSuffix(l.Name, "cc="+cc) {
					t.Errorf("%s: spec's cc %q", l.Name, cc)
				}
			}
			if strings.Join(got, " ") != strings.Join(tc.want, " ") {
				t.Errorf("links %q, want %q", got, tc.want)
			}
		})
	}
	var te *experiment.LinkTextError
	if _, err := experiment.ParseLink("rtt=50ms,cc=bbr,cubic"); !errors.As(err, &te) || len(te.CCs) != 2 {
		t.Errorf("ParseLink with two controllers: %v, want a *LinkTextError naming both", err)
	}
}

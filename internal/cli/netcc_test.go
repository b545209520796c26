package cli

import (
	"strings"
	"testing"
)

// TestLinksOfCC: cc= naming several controllers is the same link once per
// controller, in order; a preset after cc= is still a second link (an
// error), and tune's one link refuses several controllers.
func TestLinksOfCC(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string
		err  string
	}{
		{"rtt=100ms,rate=10mbit,loss=1%,cc=bbr,cubic", []string{"rtt=100ms,rate=10mbit,loss=1%,cc=bbr", "rtt=100ms,rate=10mbit,loss=1%,cc=cubic"}, ""},
		{"cc=bbr,reno,rtt=50ms", []string{"rtt=50ms,cc=bbr", "rtt=50ms,cc=reno"}, ""},
		{"4g,cc=reno", []string{"4g,cc=reno"}, ""},
		{"rtt=50ms,cc=bbr,4g", nil, "4g"},
		{"rtt=50ms,cc=b.r,reno", nil, "cc"},
	} {
		t.Run(tc.text, func(t *testing.T) {
			links, err := linksOf(tc.text)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err %v, want one naming %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, l := range links {
				got = append(got, l.Name)
				if cc := l.Spec.CC; !strings.HasSuffix(l.Name, "cc="+cc) {
					t.Errorf("%s: spec's cc %q", l.Name, cc)
				}
			}
			if strings.Join(got, " ") != strings.Join(tc.want, " ") {
				t.Errorf("links %q, want %q", got, tc.want)
			}
		})
	}
	if _, err := tuneLink([]string{"rtt=50ms,cc=bbr,cubic"}); err == nil || !strings.Contains(err.Error(), "one link") {
		t.Errorf("tune with two controllers: %v, want a usage error", err)
	}
}

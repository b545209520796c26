package analysis

import (
	"testing"
)

func TestBaselineOf(t *testing.T) {
	for _, tc := range []struct {
		in   []string
		want string
	}{
		{[]string{"h1", "h2c", "h3"}, "h1"}, {[]string{"h1-tls", "h2", "h3"}, "h1-tls"}, {[]string{"h2", "h3", "h1-tls"}, "h1-tls"},
		{[]string{"h2c", "h3"}, "h2c"}, {[]string{"h2", "h3"}, "h2"}, {nil, "h1"},
	} {
		if got := BaselineOf(tc.in); got != tc.want {
			t.Errorf("BaselineOf(%v) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

package flagset

import "testing"

// TestNearest: a typo within two edits, or a prefix of three characters
// or more, finds its name; a word far from every name finds none.
func TestNearest(t *testing.T) {
	names := []string{"3g", "4g", "intercontinental", "lan", "lossy", "satellite", "wifi"}
	for in, want := range map[string]string{"4gg": "4g", "wfi": "wifi", "sat": "satellite", "lossyy": "lossy", "zzzz": "", "6ghz": ""} {
		if got := Nearest(in, names); got != want {
			t.Errorf("Nearest(%q) = %q, want %q", in, got, want)
		}
	}
}

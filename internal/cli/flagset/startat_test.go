package flagset

import (
	"strings"
	"testing"
	"time"
)

// TestParseStartAt: a time ahead within a day is taken; a past one, one
// more than a day ahead and one not in RFC 3339 are refused, saying so.
func TestParseStartAt(t *testing.T) {
	now := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	if at, err := ParseStartAt("2026-11-23T10:05:00Z", now); err != nil || !at.Equal(now.Add(5*time.Minute)) {
		t.Fatalf("%v, %v", at, err)
	}
	for in, want := range map[string]string{
		"2026-11-23T10:00:00Z": "is past (now 2026-11-23T10:00:00Z): give a time ahead, e.g. 2026-11-23T10:01:00Z",
		"2026-11-25T10:00:00Z": "is 48h0m0s ahead, more than 24h0m0s: a typo in the date?",
		"10:00":                "want an RFC 3339 time such as 2026-11-23T10:01:00Z",
	} {
		if _, err := ParseStartAt(in, now); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", in, err, want)
		}
	}
}

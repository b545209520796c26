package redact

import (
	"net/http"
	"slices"
	"testing"
)

func TestHeaderNames(t *testing.T) {
	h := http.Header{}
	h.Add("x-b", "1")
	h["x-a"] = []string{"2"} // not canonical: set directly
	h.Add("X-A", "3")
	if got := HeaderNames(h); !slices.Equal(got, []string{"X-A", "X-B"}) {
		t.Errorf("HeaderNames = %q, want [X-A X-B]", got)
	}
	if got := HeaderNames(nil); got != nil {
		t.Errorf("HeaderNames(nil) = %q, want nil", got)
	}
}

package experiment

import (
	"testing"

	"github.com/httpvs/httpvs/plan"
)

// TestTargetTrailingSlash: a target's base URL given with a trailing
// slash is the same base URL, the paths appended to it as without.
func TestTargetTrailingSlash(t *testing.T) {
	o := Options{Target: plan.Target{Plain: "http://127.0.0.1:8080/", TLS: "https://127.0.0.1:8443/"}}
	if err := o.fill(); err != nil {
		t.Fatal(err)
	}
	if o.Target.Plain != "http://127.0.0.1:8080" || o.Target.TLS != "https://127.0.0.1:8443" {
		t.Errorf("target %q and %q, want no trailing slash", o.Target.Plain, o.Target.TLS)
	}
}

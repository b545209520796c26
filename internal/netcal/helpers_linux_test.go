package netcal

import (
	"testing"

	"github.com/httpvs/httpvs/internal/testenv"
	"github.com/httpvs/httpvs/netem"
)

// newTestLink makes a link for text, or skips the test with the reason
// when this system cannot; the link is closed when the test ends.
func newTestLink(t *testing.T, text string) *netem.Link {
	t.Helper()
	return testenv.Link[*netem.SetupError](t, text, func(text string) (*netem.Link, error) {
		spec, err := netem.Parse(text)
		if err != nil {
			return nil, err
		}
		return netem.NewLink(spec)
	})
}

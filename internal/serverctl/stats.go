package serverctl

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/httpvs/httpvs/stats"
	"github.com/httpvs/httpvs/transport"
)

// Bounds of a /stats read: StatsTimeout normally (a first connection to a
// busy server may need seconds); timeoutAfterFailure after a run in
// which requests failed, when the server is likely gone and a dead h3
// server would otherwise hold the caller for the whole bound.
const (
	StatsTimeout             = 10 * time.Second
	statsTimeoutAfterFailure = time.Second
)

// StatsTimeoutAfter is the bound of a /stats read after a run in which
// failed requests failed.
func StatsTimeoutAfter(failed int64) time.Duration {
	if failed > 0 {
		return statsTimeoutAfterFailure
	}
	return StatsTimeout
}

// FetchStats reads an httpvs server's GET /stats at url with c,
// giving up after limit. When the counters cannot be had it returns nil and
// a one-line reason (not an httpvs server, unreachable, ...).
func FetchStats(ctx context.Context, c *transport.Client, url string, limit time.Duration) (*stats.ServerStats, string) {
	st, note, _ := ReachStats(ctx, c, url, limit)
	return st, note
}

// ReachStats is FetchStats that also returns the request's error when
// no response came: the server could not be reached or did not answer.
func ReachStats(ctx context.Context, c *transport.Client, url string, limit time.Duration) (*stats.ServerStats, string, error) {
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err.Error(), nil
	}
	resp, err := c.Do(req)
	if err != nil {
		return nil, fmt.Sprintf("server counters unavailable: GET %s: %v", url, WithoutURL(err)), err
	}
	defer resp.Body.Close()
	var st stats.ServerStats
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Sprintf("server counters unavailable: GET %s: %s (not an httpvs server?)", url, resp.Status), nil
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&st); err != nil || st.Protocols == nil {
		return nil, fmt.Sprintf("server counters unavailable: %s is not httpvs's /stats", url), nil
	}
	return &st, "", nil
}

// WithoutURL drops the method and URL that net/http's *url.Error repeats
// from err's text: our own messages name them, or the user's URL instead.
func WithoutURL(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return errors.New(strings.Replace(err.Error(), ue.Error(), ue.Err.Error(), 1))
	}
	return err
}

package server

import (
	"fmt"
	"net/http"
	"time"
)

// sinkOmit reads /sink's ?omit= query: how long after the request's
// headers arrived its steady rate begins (0 without it).
func sinkOmit(r *http.Request) (time.Duration, error) {
	v := r.URL.Query().Get("omit")
	if v == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 || d > time.Hour {
		return 0, fmt.Errorf("bad omit=%q: want a duration from 0 to 1h, e.g. omit=500ms", v)
	}
	return d, nil
}

// steadySink follows an upload's bytes past its omitted start: before is
// the total read when the first read after from ended, last when the last
// bytes came.
type steadySink struct {
	from   time.Time
	began  bool
	before int64
	last   time.Time
}

// read records n bytes read, total so far including them.
func (s *steadySink) read(n int, total int64) {
	if n <= 0 {
		return
	}
	now := time.Now()
	if now.Before(s.from) {
		return
	}
	if !s.began {
		// The bytes of this read arrived around from: count them in
		// the omitted part, and time the steady part from from.
		s.began, s.before = true, total
	}
	s.last = now
}

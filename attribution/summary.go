package attribution

import (
	"fmt"
	"strings"
)

// Summary says in one line where s's extra CPU went, per unit (e.g. "GB",
// "1000 requests"): "server +1.90 s/GB (3.10 vs 1.20): 41% HTTP/2
// (net/http), 20% syscalls and the netpoller; net/http.(*http2Framer).
// WriteDataPadded 12%, ...". A side that spent no more than its baseline
// says so.
func (s *Side) Summary(unit string) string {
	if s == nil {
		return ""
	}
	if s.Error != "" {
		return s.Side + ": not attributed: " + s.Error
	}
	per := "s/" + unit
	if strings.Contains(unit, " ") {
		per = "s per " + unit
	}
	if s.ExtraSecondsPerUnit <= 0 {
		return fmt.Sprintf("%s %.3g %s, no more than the baseline's %.3g", s.Side, s.SecondsPerUnit, per, s.BaseSecondsPerUnit)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s +%.3g %s (%.3g vs %.3g)", s.Side, s.ExtraSecondsPerUnit, per, s.SecondsPerUnit, s.BaseSecondsPerUnit)
	if n := min(s.Samples, s.BaseSamples); n < RoughSamples {
		fmt.Fprintf(&b, " [rough: %d samples]", n)
	}
	sep := ": "
	for _, a := range s.Areas {
		fmt.Fprintf(&b, "%s%.0f%% %s", sep, 100*a.Share, a.Name)
		sep = ", "
	}
	sep = "; "
	for _, f := range s.Functions {
		fmt.Fprintf(&b, "%s%s %.0f%%", sep, f.Name, 100*f.Share)
		sep = ", "
	}
	return b.String()
}

// Brief is Summary cut to the largest areas and functions, at most n of
// each: "server +1.45 s/GB: 60% runtime (scheduler, other), 33% syscalls
// and the netpoller; most in internal/runtime/syscall/linux.Syscall6 via
// net/http.http2writeWithByteTimeout (16%)".
func (s *Side) Brief(unit string, n int) string {
	if s == nil || s.Error != "" || s.ExtraSecondsPerUnit <= 0 {
		return s.Summary(unit)
	}
	c := *s
	c.Areas = c.Areas[:min(n, len(c.Areas))]
	c.Functions = c.Functions[:min(n, len(c.Functions))]
	return c.Summary(unit)
}

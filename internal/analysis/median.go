package analysis

import "slices"

// Number is what Median takes: float64 figures or time.Duration.
type Number interface{ ~float64 | ~int64 }

// Median is the median of values, in any order (values is not changed):
// the middle one, or the mean of the two middle ones for an even count; 0
// for none. Which values count (no failed round, no zero) is the
// caller's to choose.
func Median[T Number](values []T) T {
	n := len(values)
	if n == 0 {
		return 0
	}
	s := values
	if !slices.IsSorted(values) {
		s = slices.Clone(values)
		slices.Sort(s)
	}
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

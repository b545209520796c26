package flagset

import "strings"

// Nearest is the one of names closest to name, a likely typo of it:
// within two edits, or, first, one that name (three characters or more)
// begins; "" when none is.
func Nearest(name string, names []string) string {
	best, bestD := "", 3
	for _, n := range names {
		d := editDistance(name, n)
		if len(name) >= 3 && strings.HasPrefix(n, name) {
			d = 0 // a name begun beats one a typo away: tun is tune, not run
		}
		if d < bestD {
			best, bestD = n, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

//go:build !unix

package fdlimit

func raise() string { return "" }

func limit() int { return -1 }

//go:build !unix

package procstat

func raiseFileLimit() string { return "" }

func fileLimit() int { return -1 }

package analysis

import "github.com/httpvs/httpvs/results"

// delta is a results.Delta while Compare computes it: the samples it
// tested and its value's test before the correction.
type delta struct {
	results.Delta
	valuePRaw   float64 // ValueP before the correction; 0: untested
	valueTested bool
	ol, nl      []float64 // the tested log-ratios, old and new
}

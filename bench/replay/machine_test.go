package main

import (
	"strings"
	"testing"
)

// TestParseCPUInfo: the first model name and the number of processors.
func TestParseCPUInfo(t *testing.T) {
	in := "processor\t: 0\nmodel name\t: Intel(R) Xeon(R) Processor\nflags\t: fpu\n\nprocessor\t: 1\nmodel name\t: Intel(R) Xeon(R) Processor\n"
	if m, n := parseCPUInfo([]byte(in)); m != "Intel(R) Xeon(R) Processor" || n != 2 {
		t.Errorf("parseCPUInfo = %q, %d", m, n)
	}
	if m, n := parseCPUInfo(nil); m != "" || n != 0 {
		t.Errorf("empty: %q, %d", m, n)
	}
}

func TestParseCurlVersion(t *testing.T) {
	if v := parseCurlVersion([]byte("curl 7.88.1 (x86_64-pc-linux-gnu) libcurl/7.88.1\nRelease-Date: 2023-02-20\n")); v != "curl 7.88.1" {
		t.Errorf("got %q", v)
	}
	if v := parseCurlVersion([]byte("curl")); v != "" {
		t.Errorf("got %q", v)
	}
}

func TestParseLoad(t *testing.T) {
	l, ok := parseLoad("2.31 0.57 0.19 13/175 7393\n")
	if !ok || l != (load{2.31, 0.57, 0.19}) || l.String() != "2.31 0.57 0.19" {
		t.Errorf("parseLoad = %v, %v", l, ok)
	}
	if _, ok := parseLoad("x y"); ok {
		t.Error("a short line parsed")
	}
}

// TestLoadSentence: the sentence follows the measured load against the
// cores, never a fixed claim.
func TestLoadSentence(t *testing.T) {
	for _, tc := range []struct {
		before, top, after float64
		want               string
	}{
		{0.2, 0.5, 0.3, "the machine was quiet"},
		{0.5, 1.8, 1.2, "may have shared"},
		{3, 5.5, 4, "other work shared the machine"},
	} {
		s := loadSentence(load{tc.before}, load{tc.top}, load{tc.after}, 2)
		if !strings.Contains(s, tc.want) || strings.Contains(s, "six") {
			t.Errorf("loadSentence(%v, %v, %v) = %q, want %q", tc.before, tc.top, tc.after, s, tc.want)
		}
	}
}

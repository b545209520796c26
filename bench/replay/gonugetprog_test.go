package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestGonugetProgram runs two of the rebuilt benchmarks on loopback and
// reads their lines back.
func TestGonugetProgram(t *testing.T) {
	if testing.Short() {
		t.Skip("runs benchmarks")
	}
	var out bytes.Buffer
	if rc := gonugetMain([]string{"-benchtime", "20ms", "HTTP2_Request", "HTTP3_ConcurrentRequests"}, &out); rc != 0 {
		t.Fatalf("exit %d:\n%s", rc, out.String())
	}
	if n := strings.Count(out.String(), "\n"); n != 2 {
		t.Errorf("%d lines, want 2:\n%s", n, out.String())
	}
	res, err := parseBenchLines(out.String())
	if err != nil || len(res) != 2 || res["HTTP2_Request"].ns <= 0 || res["HTTP3_ConcurrentRequests"].allocs <= 0 {
		t.Errorf("parseBenchLines = %v, %v", res, err)
	}
}

// TestGonugetUsage: no names, an unknown name or a bad flag exit 2.
func TestGonugetUsage(t *testing.T) {
	for _, args := range [][]string{nil, {"-benchtime", "1s", "Nope"}, {"-x", "HTTP1_Request"}, {"-benchtime", "0s", "HTTP1_Request"}} {
		if rc := gonugetMain(args, new(bytes.Buffer)); rc != 2 {
			t.Errorf("%v: exit %d, want 2", args, rc)
		}
	}
}

func TestParseBenchLines(t *testing.T) {
	in := "goos: linux\nBenchmarkHTTP1_Request-8\t  120000\t     29839 ns/op\t    4528 B/op\t      53 allocs/op\nPASS\n"
	r, err := parseBenchLines(in)
	if err != nil || r["HTTP1_Request"] != (benchResult{29839, 4528, 53}) {
		t.Errorf("got %v, %v", r, err)
	}
	if _, err := parseBenchLines("PASS\n"); err == nil {
		t.Error("no line: want an error")
	}
}

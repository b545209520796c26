package main

import (
	"bufio"
	"bytes"
	"strings"
	"testing"
)

// TestIssue47840Program runs the rebuilt program whole on loopback: both
// downloads arrive complete, over the protocol each names, and the
// output reads back as two rates.
func TestIssue47840Program(t *testing.T) {
	var out bytes.Buffer
	if rc := issue47840Main([]string{"-size", "3000000", "-write", "1000"}, &out); rc != 0 {
		t.Fatalf("exit %d, output:\n%s", rc, out.String())
	}
	for _, want := range []string{"(http1.1)", "(http/2 cleartext)", "receiving data with HTTP/1.1", "receiving data with HTTP/2.0", "received 3000000 bytes in "} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	rates, err := parseIssueOutput(out.String())
	if err != nil || len(rates) != 2 || rates["HTTP/1.1"] <= 0 || rates["HTTP/2.0"] <= 0 {
		t.Errorf("parseIssueOutput = %v, %v", rates, err)
	}
	urls, err := issueListening(bufio.NewReader(&out))
	if err != nil || len(urls) != 2 || !strings.HasPrefix(urls[0], "http://127.0.0.1:") {
		t.Errorf("issueListening = %v, %v", urls, err)
	}
}

// TestIssue47840Usage: bad flags are one line and exit 2.
func TestIssue47840Usage(t *testing.T) {
	for _, args := range [][]string{{"-size", "0"}, {"-write", "-1"}, {"-nope"}, {"extra"}} {
		var out bytes.Buffer
		if rc := issue47840Main(args, &out); rc != 2 {
			t.Errorf("%v: exit %d, want 2", args, rc)
		}
	}
}

func TestParseIssueOutput(t *testing.T) {
	in := "receiving data with HTTP/1.1\nreceived 10000000000 bytes in 1.996206772s = 40.1 Gbps\nreceiving data with HTTP/2.0\nreceived 10000000000 bytes in 11.259359779s = 7.1 Gbps\n"
	r, err := parseIssueOutput(in)
	if err != nil || int(r["HTTP/1.1"]/1e6) != 5009 || int(r["HTTP/2.0"]/1e6) != 888 {
		t.Errorf("got %v, %v", r, err)
	}
	if _, err := parseIssueOutput("nothing\n"); err == nil {
		t.Error("no line: want an error")
	}
	if _, err := parseIssueOutput("received 10 bytes in 1s = 0 Gbps\n"); err == nil {
		t.Error("no protocol line before: want an error")
	}
}

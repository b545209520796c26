package main

import (
	"bytes"
	"io"
	"net"
	"testing"
)

// TestLarkingProgram runs the rebuilt post's three benchmarks, with and
// without the split listener, and reads their lines back.
func TestLarkingProgram(t *testing.T) {
	if testing.Short() {
		t.Skip("runs benchmarks")
	}
	for _, split := range []string{"-cmux=true", "-cmux=false"} {
		var out bytes.Buffer
		if rc := larkingMain([]string{"-benchtime", "20ms", split, lkNative, lkServeHTTP, lkJSON}, &out); rc != 0 {
			t.Fatalf("%s: exit %d:\n%s", split, rc, out.String())
		}
		res, err := parseBenchLines(out.String())
		if err != nil || len(res) != 3 || res[lkNative].allocs <= 0 || res[lkServeHTTP].ns <= 0 || res[lkJSON].bytes <= 0 {
			t.Errorf("%s: parseBenchLines = %v, %v", split, res, err)
		}
	}
}

func TestLarkingUsage(t *testing.T) {
	for _, args := range [][]string{nil, {"Nope"}, {"-benchtime", "0s", lkJSON}, {"-x", lkJSON}} {
		if rc := larkingMain(args, io.Discard); rc != 2 {
			t.Errorf("%v: exit %d, want 2", args, rc)
		}
	}
}

// TestSplitListener: a connection that opens with the HTTP/2 preface
// goes to the first listener, another to the second, each with every
// byte it sent.
func TestSplitListener(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	h2, other := splitListener(ln)
	defer h2.Close()
	defer other.Close()
	for _, c := range []struct {
		send string
		to   net.Listener
	}{{h2Preface + "rest", h2}, {"GET / HTTP/1.1\r\n\r\n", other}, {"PRI x", other}} {
		conn, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.WriteString(conn, c.send); err != nil {
			t.Fatal(err)
		}
		conn.(*net.TCPConn).CloseWrite()
		got, err := c.to.Accept()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(got)
		if err != nil || string(b) != c.send {
			t.Errorf("sent %q, read %q, %v", c.send, b, err)
		}
		got.Close()
		conn.Close()
	}
}

func TestGRPCFromBuildInfo(t *testing.T) {
	in := "/tmp/replay: go1.26.8\n\tpath\tgithub.com/httpvs/httpvs/bench/replay\n\tdep\tgoogle.golang.org/grpc\tv1.64.1\th1:abc=\n"
	if v := grpcFromBuildInfo(in); v != "v1.64.1" {
		t.Errorf("got %q", v)
	}
	if v := grpcFromBuildInfo("nothing"); v != "(unknown version)" {
		t.Errorf("got %q", v)
	}
}

// Command child is the program httpvs builds with each Go toolchain it
// compares (httpvs run --go): a server and a client of Go's own HTTP
// stacks, as shipped, and nothing else, so that one source builds with
// every release from go1.22 on. Package goversions embeds this directory,
// copies it to a temporary module whose go line is the toolchain's own
// version (the GODEBUG defaults that release ships with) and builds it
// there; the go.mod.txt and go.sum.txt files are that module's go.mod and
// go.sum. Before go1.24 net/http has no http.Protocols, so h2c comes from
// golang.org/x/net's http2 package (h2c_old.go).
//
// Usage:
//
//	child serve [-max D]    serve h1 and h2c on one loopback port and h1-tls
//	                        and h2 on another; print a Hello line; exit when
//	                        stdin closes or after D
//	child client [-max D]   print a Hello line, then for each Round line
//	                        read from stdin, run it and print a Result line
//
// Lines are JSON objects, one per line. The client reads response bodies
// as most code does, io.Copy(io.Discard, resp.Body), with zero-valued
// transports (TLS ones trusting the server's certificate).
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"time"
)

// Hello is the first line either role prints.
type Hello struct {
	Go      string `json:"go"`              // runtime.Version()
	H2C     string `json:"h2c"`             // the HTTP/2 implementation h2c uses
	Plain   string `json:"plain,omitempty"` // serve: base URL for h1 and h2c
	TLS     string `json:"tls,omitempty"`   // serve: base URL for h1-tls and h2
	CertPEM string `json:"cert,omitempty"`  // serve: the TLS port's certificate
	PID     int    `json:"pid"`             // this process
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: child serve|client [-max D]")
		os.Exit(2)
	}
	fs := flag.NewFlagSet(os.Args[1], flag.ExitOnError)
	maxLife := fs.Duration("max", 30*time.Minute, "exit after this long whatever happens")
	_ = fs.Parse(os.Args[2:])
	// Bounded in time even if the parent forgets to close stdin.
	time.AfterFunc(*maxLife, func() {
		fmt.Fprintf(os.Stderr, "child: exiting after -max %v\n", *maxLife)
		os.Exit(3)
	})
	var err error
	switch os.Args[1] {
	case "serve":
		err = serve(os.Stdin, os.Stdout)
	case "client":
		err = client(os.Stdin, os.Stdout)
	default:
		err = fmt.Errorf("unknown role %q: want serve or client", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "child:", err)
		os.Exit(1)
	}
}

// hello is the Hello line's common part.
func hello() Hello {
	return Hello{Go: runtime.Version(), H2C: h2cImplementation, PID: os.Getpid()}
}

func writeLine(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}

// client runs each Round read from in and writes its Result to out.
func client(in io.Reader, out io.Writer) error {
	if err := writeLine(out, hello()); err != nil {
		return err
	}
	c := newClients()
	defer c.close()
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64<<10), 1<<20) // a Round carries a certificate
	for sc.Scan() {
		var r Round
		var res Result
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			res.Problem = "bad round: " + err.Error()
		} else {
			res = c.run(r)
		}
		if err := writeLine(out, res); err != nil {
			return err
		}
	}
	return sc.Err()
}

package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"runtime"
	"sync"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/protojson"

	"github.com/httpvs/httpvs/internal/bookstore"
	"github.com/httpvs/httpvs/internal/bookstore/bookstorepb"
)

// larkingMain is the gRPC post's three benchmarks rebuilt from its text
// (larking itself, its mux and its generated service are not built
// here: the Bookstore's GetBook stands for the post's): in one process,
// BenchmarkLarking serves gRPC through grpc.Server.ServeHTTP and the
// JSON route on one net/http listener (h1 and h2c), called with
// grpc-go's client and with http.DefaultClient (GET, a Content-Type
// header, read all, protojson), and BenchmarkGRPC serves grpc-go's own
// server behind a listener split by the connection's first bytes (as
// cmux: the HTTP/2 preface to gRPC, the rest to net/http). -cmux=false
// serves it on a listener of its own. It prints go test's line for each
// benchmark, in the order given.
// It is started by replay as `replay --program larking NAME...`.
func larkingMain(args []string, stdout io.Writer) int {
	fs := flag.NewFlagSet("larking", flag.ContinueOnError)
	benchtime := fs.Duration("benchtime", time.Second, "each benchmark's time (go test's -benchtime)")
	split := fs.Bool("cmux", true, "serve grpc-go's own server behind a split listener, as the post's cmux")
	fs.SetOutput(io.Discard)
	names := map[string]bool{"Larking/GRPC_GetBook": true, "Larking/HTTP_GetBook": true, "GRPC/GRPC_GetBook": true}
	bad := fs.Parse(args) != nil || fs.NArg() == 0 || *benchtime <= 0
	for _, n := range fs.Args() {
		bad = bad || !names[n]
	}
	if bad {
		fmt.Fprintln(os.Stderr, "larking: [-benchtime D] [-cmux=false] NAME... (Larking/GRPC_GetBook, Larking/HTTP_GetBook, GRPC/GRPC_GetBook)")
		return 2
	}
	calls, stop, err := larkingServe(*split)
	if err != nil {
		fmt.Fprintln(os.Stderr, "larking:", err)
		return 1
	}
	defer stop()
	testing.Init()
	if err := flag.Set("test.benchtime", benchtime.String()); err != nil {
		fmt.Fprintln(os.Stderr, "larking:", err)
		return 1
	}
	for _, name := range fs.Args() {
		r := testing.Benchmark(loopBench(calls[name], false))
		if r.N == 0 {
			fmt.Fprintf(os.Stderr, "larking: Benchmark%s failed\n", name)
			return 1
		}
		fmt.Fprintf(stdout, "Benchmark%s-%d\t%d\t%d ns/op\t%d B/op\t%d allocs/op\n", name, runtime.GOMAXPROCS(0), r.N, r.NsPerOp(), r.AllocedBytesPerOp(), r.AllocsPerOp())
	}
	return 0
}

// larkingServe starts the two benchmarks' servers on loopback and
// returns each benchmark's call.
func larkingServe(split bool) (map[string]func() error, func(), error) {
	mux := http.NewServeMux()
	mux.HandleFunc(bookstore.JSONPattern, bookstore.ServeJSON)
	viaHTTP := bookstore.NewGRPCServer()
	hs := &http.Server{Handler: bookstore.Mount(viaHTTP, mux), Protocols: new(http.Protocols)}
	hs.Protocols.SetHTTP1(true)
	hs.Protocols.SetUnencryptedHTTP2(true)
	lisL, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, nil, err
	}
	go hs.Serve(lisL)
	native := bookstore.NewGRPCServer()
	lisG, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		hs.Close()
		return nil, nil, err
	}
	nativeHTTP := &http.Server{Handler: mux}
	if split {
		grpcL, httpL := splitListener(lisG)
		go native.Serve(grpcL)
		go nativeHTTP.Serve(httpL)
	} else {
		go native.Serve(lisG)
	}
	sh, err := bookstore.NewClient(bookstore.ClientOptions{Binding: bookstore.ServeHTTPH2C, Addr: lisL.Addr().String()})
	if err != nil {
		return nil, nil, err
	}
	nc, err := bookstore.NewClient(bookstore.ClientOptions{Binding: bookstore.Native, Addr: lisG.Addr().String()})
	if err != nil {
		return nil, nil, err
	}
	stop := func() {
		sh.Close()
		nc.Close()
		hs.Close()
		nativeHTTP.Close()
		native.Stop()
		viaHTTP.Stop()
		lisG.Close()
	}
	jsonURL := "http://" + lisL.Addr().String() + "/v1/" + bookstore.DefaultBookName
	return map[string]func() error{
		"Larking/GRPC_GetBook": func() error { _, err := sh.GetBook(context.Background()); return err },
		"Larking/HTTP_GetBook": func() error { return larkingJSON(jsonURL) },
		"GRPC/GRPC_GetBook":    func() error { _, err := nc.GetBook(context.Background()); return err },
	}, stop, nil
}

// larkingJSON is the post's HTTP call: a GET with a JSON content type
// through http.DefaultClient, the body read whole and decoded.
func larkingJSON(u string) error {
	req, err := http.NewRequest(http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: %s", u, resp.Status)
	}
	var book bookstorepb.Book
	return protojson.Unmarshal(body, &book)
}

// h2Preface is what an HTTP/2 client sends first (RFC 9113, 3.4).
const h2Preface = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"

// splitListener is cmux's idea in a few lines: each connection ln
// accepts goes to the first listener when it starts with the HTTP/2
// preface, else to the second, with the bytes read to decide put back.
func splitListener(ln net.Listener) (h2, other net.Listener) {
	a, b := newChanListener(ln), newChanListener(ln)
	go func() {
		defer a.Close()
		defer b.Close()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				buf, isH2 := sniffH2(c)
				to := b
				if isH2 {
					to = a
				}
				select {
				case to.c <- &sniffedConn{Conn: c, r: io.MultiReader(bytes.NewReader(buf), c)}:
				case <-to.done:
					c.Close()
				}
			}()
		}
	}()
	return a, b
}

// sniffH2 reads until the bytes either part from the preface or make
// all of it, within five seconds.
func sniffH2(c net.Conn) ([]byte, bool) {
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	defer c.SetReadDeadline(time.Time{})
	buf := make([]byte, len(h2Preface))
	got := 0
	for got < len(buf) {
		n, err := c.Read(buf[got:])
		got += n
		if !bytes.HasPrefix([]byte(h2Preface), buf[:got]) || err != nil {
			return buf[:got], false
		}
	}
	return buf, true
}

// sniffedConn reads the sniffed bytes again before the connection's.
type sniffedConn struct {
	net.Conn
	r io.Reader
}

func (c *sniffedConn) Read(p []byte) (int, error) { return c.r.Read(p) }

// chanListener hands out the connections split to it.
type chanListener struct {
	ln   net.Listener
	c    chan net.Conn
	once sync.Once
	done chan struct{}
}

func newChanListener(ln net.Listener) *chanListener {
	return &chanListener{ln: ln, c: make(chan net.Conn), done: make(chan struct{})}
}

func (l *chanListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.c:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

// Close stops this side; the listener underneath is its owner's to close.
func (l *chanListener) Close() error { l.once.Do(func() { close(l.done) }); return nil }

func (l *chanListener) Addr() net.Addr { return l.ln.Addr() }

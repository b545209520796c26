// Command plaingo is golang/go#47840's experiment as a plain Go program:
// net/http on both ends, nothing of httpvs, the server in a process of
// its own. It downloads one body over h1 and over h2c (cleartext HTTP/2,
// prior knowledge), read as io.Copy(io.Discard, body) reads, in rounds
// of both in random order, a new connection for each transfer, and
// prints each transfer's rate and the h2c/h1 ratio of each round. It is
// what bench/plaingo.sh holds httpvs run's download/h2c against.
//
//	plaingo [-size 128MiB] [-rounds 10]
//	plaingo -serve ADDR     (started by the former; serves GET /N: N bytes)
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"time"
)

func main() {
	serve := flag.String("serve", "", "serve on this address (the child process)")
	size := flag.Int64("size", 128<<20, "bytes per transfer")
	rounds := flag.Int("rounds", 10, "rounds of one h1 and one h2c transfer")
	flag.Parse()
	if *serve != "" {
		if err := server(*serve); err != nil {
			fmt.Fprintln(os.Stderr, "plaingo:", err)
			os.Exit(1)
		}
		return
	}
	if *size <= 0 || *rounds <= 0 {
		fmt.Fprintln(os.Stderr, "plaingo: -size and -rounds: want positive numbers, e.g. -size 134217728 -rounds 10")
		os.Exit(2)
	}
	if err := client(*size, *rounds); err != nil {
		fmt.Fprintln(os.Stderr, "plaingo:", err)
		os.Exit(1)
	}
}

// server serves GET /N with N bytes of zeros over h1 and h2c on addr.
func server(addr string) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	fmt.Println(ln.Addr()) // the parent reads the port
	buf := make([]byte, 32<<10)
	srv := &http.Server{Protocols: new(http.Protocols), Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, err := strconv.ParseInt(strings.TrimPrefix(r.URL.Path, "/"), 10, 64)
		if err != nil || n < 0 {
			http.Error(w, "want GET /N", http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Length", strconv.FormatInt(n, 10))
		for n > 0 {
			k := min(n, int64(len(buf)))
			if _, err := w.Write(buf[:k]); err != nil {
				return
			}
			n -= k
		}
	})}
	srv.Protocols.SetHTTP1(true)
	srv.Protocols.SetUnencryptedHTTP2(true)
	return srv.Serve(ln)
}

// client starts the server and measures the rounds.
func client(size int64, rounds int) error {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	self, err := os.Executable()
	if err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, self, "-serve", "127.0.0.1:0")
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	defer cmd.Wait()
	defer cmd.Process.Kill()
	addr, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		return fmt.Errorf("server gave no address: %v", err)
	}
	url := fmt.Sprintf("http://%s/%d", strings.TrimSpace(addr), size)
	fmt.Printf("# %d bytes a transfer, %d rounds, go %s\n", size, rounds, strings.TrimPrefix(runtime.Version(), "go"))
	for r := 1; r <= rounds; r++ {
		rate := map[string]float64{}
		order := []string{"h1", "h2c"}
		rand.Shuffle(2, func(i, j int) { order[i], order[j] = order[j], order[i] })
		for _, proto := range order {
			v, err := download(ctx, url, proto == "h2c", size)
			if err != nil {
				return fmt.Errorf("round %d %s: %v", r, proto, err)
			}
			rate[proto] = v
		}
		fmt.Printf("round %d h1 %.0f MB/s h2c %.0f MB/s ratio %.4f\n", r, rate["h1"]/1e6, rate["h2c"]/1e6, rate["h2c"]/rate["h1"])
	}
	return nil
}

// download fetches url once over a new connection and returns its rate
// in bytes a second, from the request to the body's last byte.
func download(ctx context.Context, url string, h2c bool, size int64) (float64, error) {
	tr := &http.Transport{Protocols: new(http.Protocols)}
	if h2c {
		tr.Protocols.SetUnencryptedHTTP2(true)
	} else {
		tr.Protocols.SetHTTP1(true)
	}
	defer tr.CloseIdleConnections()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return 0, err
	}
	start := time.Now()
	resp, err := (&http.Client{Transport: tr, Timeout: 2 * time.Minute}).Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	n, err := io.Copy(io.Discard, resp.Body)
	if err != nil {
		return 0, err
	}
	major := 1
	if h2c {
		major = 2
	}
	if n != size || resp.ProtoMajor != major {
		return 0, fmt.Errorf("got %d bytes over HTTP/%d, want %d", n, resp.ProtoMajor, size)
	}
	return float64(n) / time.Since(start).Seconds(), nil
}

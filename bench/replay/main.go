// Command replay runs each published experiment httpvs reproduces (the
// seeds: golang/go#47840 and its fork, the gonuget benchmark, the gRPC
// ServeHTTP post, the gin post; and Zhang et al. WWW 2024, Yu and Benson
// WWW 2021) as closely as this machine allows, and writes
// docs/replications.md and a dated record under docs/measurements/: each
// claim as published, the setup here, httpvs's figure with its interval
// and a verdict by rules stated before the results. bench/replay.sh
// builds and runs it.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"testing"
	"time"
)

// sizes is how much the run measures: the full run or --quick.
type sizes struct {
	quick       bool
	exe         string // the httpvs binary experiment starts as its child server
	docs        string // where replications.md and measurements/ go
	command     string // the command line, for the record
	curlBytes   int64
	curlRounds  int
	benchTime   time.Duration
	benchRounds int
	repeat      int      // rounds of experiment.Run's loopback matrix
	sweepLinks  []string // Zhang et al.'s links
	yuLink      string   // Yu and Benson's lossy link, with cc=bbr,reno
	lossEvents  int
	ginRequests int
	parallel    int    // the fork's 1000 parallel downloads
	readBytes   int64  // the fork's read counts: one download's size
	causeRounds int    // R4's test of Zhang et al.'s cause: rounds
	causeBytes  int64  // and one download's size
	goRounds    int    // rounds of each Go toolchain's download cells
	pubBytes    int64  // the rebuilt #47840 program: one download's size
	pubRounds   int    // and its rounds
	oldGRPC     string // this program built against an older grpc-go, or ""
}

func newSizes(quick bool) sizes {
	p := sizes{
		curlBytes: 600e6, curlRounds: 6, benchTime: 200 * time.Millisecond, benchRounds: 8, repeat: 6,
		sweepLinks: []string{"rtt=0ms,rate=100mbit", "rtt=0ms,rate=500mbit", "rtt=0ms,rate=1gbit",
			"rtt=10ms,rate=100mbit", "rtt=40ms,rate=100mbit"},
		yuLink: "rtt=10ms,rate=50mbit,loss=1%,cc=bbr,reno", lossEvents: 30, ginRequests: 4000, parallel: 1000, readBytes: 500e6,
		causeRounds: 10, causeBytes: 100e6, goRounds: 4, pubBytes: 600e6, pubRounds: 6,
	}
	if quick {
		p.quick = true
		p.curlBytes, p.curlRounds, p.benchTime, p.benchRounds, p.repeat = 300e6, 2, 50*time.Millisecond, 2, 2
		p.sweepLinks = []string{"rtt=0ms,rate=100mbit", "rtt=0ms,rate=1gbit"}
		p.lossEvents, p.ginRequests, p.readBytes, p.causeRounds, p.causeBytes, p.goRounds = 8, 1500, 100e6, 2, 50e6, 2
		p.pubBytes, p.pubRounds = 200e6, 2
	}
	return p
}

// estimate is the expected running time, from the sections' sizes as
// measured here at a load average of 20-30 (curl at ~200 MB/s, a
// testing.Benchmark column-round ~1.2 s, a loopback round ~18 s, a link
// ~22 s, a lossy link ~1 s per loss event), and about a minute for the
// settings varied to take disagreements apart.
func (p sizes) estimate() time.Duration {
	curl := time.Duration(p.curlRounds+1) * 3 * time.Duration(p.curlBytes/200e3) * time.Millisecond
	bench := time.Duration(p.benchRounds+1) * 4 * (p.benchTime*4 + 50*time.Millisecond) * 6 // gonuget x2, gRPC x4
	matrix := time.Duration(p.repeat+1) * 18 * time.Second
	sweep := time.Duration(len(p.sweepLinks)) * 22 * time.Second
	yu := 2 * time.Duration(p.lossEvents) * 800 * time.Millisecond
	parallel := 2 * time.Duration(pick3(p.quick, 20, 30)) * time.Second
	published := time.Duration(p.pubRounds+1) * 9 * 2 * time.Duration(p.pubBytes/1e6) * time.Millisecond // ~1 GB/s at ~2x the rounds' bytes, 9 settings
	programs := time.Duration(p.benchRounds+1) * (6 + 3) * 2 * (p.benchTime*2 + 100*time.Millisecond)    // gonuget's six and the post's three, varied about as long again
	return curl + bench + matrix + sweep + yu + parallel + published + programs + 80*time.Second
}

func main() {
	if len(os.Args) > 1 && (os.Args[1] == "--program" || os.Args[1] == "-program") {
		if len(os.Args) < 3 {
			fmt.Fprintln(os.Stderr, "replay: --program NAME [ARGS]: want issue47840, gonuget or larking")
			os.Exit(2)
		}
		os.Exit(runProgram(os.Args[2], os.Args[3:]))
	}
	testing.Init()
	quick := flag.Bool("quick", false, "a short run for checking the program (about 3 minutes): one or two rounds each, two links")
	exe := flag.String("httpvs", "", "the httpvs binary the experiments start as their child server (bench/replay.sh builds it)")
	docs := flag.String("docs", "docs", "the docs directory: replications.md and measurements/ are written there")
	oldGRPC := flag.String("old-grpc", "", "this program built against an older grpc-go (bench/replay.sh builds it), for the gRPC post's program to be run under; empty: not varied")
	flag.Parse()
	if *exe == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "replay: --httpvs PATH is needed (the binary of ./cmd/httpvs), and no arguments; run bench/replay.sh")
		os.Exit(2)
	}
	p := newSizes(*quick)
	p.exe, p.docs, p.oldGRPC = *exe, *docs, *oldGRPC
	p.command = "bench/replay.sh" + pick(*quick, " --quick", "")
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, p); err != nil {
		fmt.Fprintln(os.Stderr, "replay:", err)
		os.Exit(1)
	}
}

// runProgram runs the published program name, rebuilt here, with args.
func runProgram(name string, args []string) int {
	switch name {
	case "issue47840":
		return issue47840Main(args, os.Stdout)
	case "gonuget":
		return gonugetMain(args, os.Stdout)
	case "larking":
		return larkingMain(args, os.Stdout)
	}
	fmt.Fprintf(os.Stderr, "replay: --program %s: want issue47840, gonuget or larking\n", name)
	return 2
}

// section is one part of the replay: its rows and a detail paragraph.
type section struct {
	name string
	fn   func(context.Context, sizes) ([]Row, string, error)
}

func run(ctx context.Context, p sizes) error {
	began := time.Now()
	facts = readMachine()
	rec := newRecord(p, began)
	fmt.Printf("replay: expected running time about %s (%s run); load now: %s\n", p.estimate().Round(time.Minute), pick(p.quick, "--quick", "full"), rec.loadBefore)
	sections := []section{
		{"golang/go#47840 with curl", curlSection},
		{"httpvs run's scenarios on loopback", loopbackSection},
		{"golang/go#47840's program itself", publishedSection},
		{"the #47840 fork's 1000 parallel downloads", parallelSection},
		{"gonuget's go test -bench", gonugetSection},
		{"the gRPC post's benchmarks", grpcSection},
		{"the gin post's connections and file descriptors", ginSection},
		{"Zhang et al.'s link-rate sweep", zhangSection},
		{"Yu and Benson's congestion controllers", yuSection},
	}
	for _, s := range sections {
		t := time.Now()
		fmt.Printf("replay: %s ...\n", s.name)
		rows, detail, err := s.fn(ctx, p)
		if err != nil {
			return fmt.Errorf("%s: %w", s.name, err)
		}
		rec.add(s.name, rows, detail, time.Since(t))
		fmt.Printf("replay: %s: %d rows in %s\n", s.name, len(rows), time.Since(t).Round(time.Second))
		for _, r := range rows {
			fmt.Printf("  %-14s %s | %s\n", r.Verdict, r.Claim, r.Figure)
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
	rec.finish(time.Since(began))
	return rec.write()
}

package main

import (
	"context"
	"fmt"

	"github.com/httpvs/httpvs/experiment"
	"github.com/httpvs/httpvs/internal/analysis"
	"github.com/httpvs/httpvs/plan"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/transport"
)

// The sources, as the document names them.
const (
	src47840   = "golang/go#47840 (seed 000)"
	srcFork    = "#47840 fork (seed 001)"
	srcGonuget = "gonuget benchmark (seed 002)"
	srcGRPC    = "gRPC ServeHTTP post (seed 003)"
	srcGin     = "gin post (seed 004)"
	srcZhang   = "Zhang et al., WWW 2024"
	srcYu      = "Yu and Benson, WWW 2021"
)

// nativeColumn is the gRPC scenarios' column of grpc-go's own server.
const nativeColumn = "grpc-native"

// loopback is the run of httpvs's own scenarios the rows read.
var loopback *results.Results

// loopbackSection runs `httpvs run`'s scenarios (experiment.Run, Go as
// shipped, the child server as its own process) with an A/A column in
// every scenario, and holds their cells against the seeds' figures.
func loopbackSection(ctx context.Context, p sizes) ([]Row, string, error) {
	scen, err := plan.ParseScenarios("download,download-parallel,small-sequential,small-concurrent,headers-body,grpc-1,grpc-50")
	if err != nil {
		return nil, "", err
	}
	var o experiment.Options // zero: httpvs run's rounds and budget
	o.Executable, o.NoTuned = p.exe, true
	o.Matrix.Scenarios = scen
	o.Matrix.Protocols = []transport.Protocol{transport.H1, transport.H2C, transport.H2, transport.H3}
	o.Matrix.Repeat, o.Matrix.MaxRepeat = p.repeat, p.repeat
	o.Matrix.AA = []string{plan.AAAll}
	o.Budget = -1
	res, err := experiment.Run(ctx, o)
	if err != nil {
		return nil, "", err
	}
	loopback = res
	var rows []Row
	var versions map[string][]variation // measured once, when a row needs it
	for _, c := range loopbackClaims {
		r := c.row(res)
		switch {
		case r.Verdict == disagrees && c.source == srcFork:
			r.Note = forkNote(res, c.scenario)
		case r.Verdict == disagrees && (c.scenario == "download" || c.scenario == "small-sequential" && c.column == "h2"):
			if versions == nil {
				if versions, err = goVersionsVaried(ctx, p); err != nil {
					return nil, "", fmt.Errorf("go versions: %w", err)
				}
			}
			r.Note = takeApart(c.pub, r.iv, versions[c.scenario+"/"+c.column]) + pick(c.scenario == "download",
				"; the issue's 2021 Go (1.17, x/net before MaxReadFrameSize and the inbound flow-control rewrite) is older than any toolchain this program builds; earlier: "+goVersionsRecord,
				"; gonuget's Go 1.21 is older than any toolchain this program builds; GOMAXPROCS is varied in gonuget's own shape below")
		}
		rows = append(rows, r)
	}
	rows = append(rows, ginMatrix(res))
	return rows, fmt.Sprintf("httpvs run's scenarios: %d rounds a cell after a warm-up round, Go as shipped, the child server a process of its own, an A/A column (h1 twice) in every scenario for its noise floor.", p.repeat), nil
}

// claim is a published ratio held to one cell by R1 or R2.
type claim struct {
	source, text, scenario, column, setup string
	pub                                   float64
	direction                             bool // R2: only faster (pub > 1) or slower is claimed
}

var loopbackClaims = []claim{
	{src47840, "Go client from Go's server, 10 GB: h1 40.1 Gbps, h2c 7.1 Gbps: 0.18x", "download", "h2c",
		"httpvs run's download (Go's client, io.Copy reads, child server), one stream sized to take 100 ms", 7.1 / 40.1, false},
	{srcFork, "10 downloads at once: h1 3.0 Gbps, h2 4.8 Gbps: h2 1.6x faster", "download-parallel-10", "h2c",
		"download-parallel-10 (10 x 1 MiB-class transfers sized to 100 ms, h1 a connection each, h2c one), not 10 x 10 GB", 4.8 / 3.0, true},
	{srcFork, "100 downloads at once: h1 248.5 Mbps, h2 952.4 Mbps: h2 3.8x faster", "download-parallel-100", "h2c",
		"download-parallel-100, sized to 100 ms, not 100 x 1 GB", 952.4 / 248.5, true},
	{srcGonuget, "sequential requests: HTTP/2 +35% ns/op (0.74x)", "small-sequential", "h2",
		"small-sequential: GET /small one at a time, client and server in two processes (gonuget: one go test process)", 29839.0 / 40210, false},
	{srcGonuget, "sequential requests: HTTP/3 +100% ns/op (0.50x)", "small-sequential", "h3",
		"small-sequential over h3 (gonuget's quic-go was of 2025)", 29839.0 / 59746, false},
	{srcGonuget, "concurrent requests: HTTP/2 +7% ns/op (0.93x)", "small-concurrent", "h2",
		"small-concurrent: 50 requests in flight (gonuget: RunParallel, GOMAXPROCS goroutines on an M4 Pro)", 9967.0 / 10710, false},
	{srcGonuget, "concurrent requests: HTTP/3 +68% ns/op (0.60x)", "small-concurrent", "h3",
		"small-concurrent over h3", 9967.0 / 16791, false},
	{srcGRPC, "one unary call: native 36,980 ns/op vs HTTP/1 JSON 47,049: native 1.27x faster", "grpc-1", nativeColumn,
		"grpc-1: GetBook one at a time, grpc-go's server against HTTP/1 JSON, the server a child process (the post: one go test process, GOMAXPROCS 8)", 47049.0 / 36980, false},
	{srcGRPC, "one unary call: ServeHTTP 73,217 ns/op vs HTTP/1 JSON 47,049: 0.64x", "grpc-1", "h2c",
		"grpc-1's h2c column: grpc-go's client to grpc.Server.ServeHTTP over net/http's h2c", 47049.0 / 73217, false},
	{srcGRPC, "native 1.27x faster than HTTP/1 JSON (the post's calls were one at a time; here 50 at a time)", "grpc-50", nativeColumn,
		"grpc-50: 50 calls in flight: a shape the post did not run", 47049.0 / 36980, false},
	{srcGRPC, "ServeHTTP 0.64x HTTP/1 JSON (the post: one at a time; here 50 at a time)", "grpc-50", "h2c",
		"grpc-50's h2c column", 47049.0 / 73217, false},
}

func (c claim) row(res *results.Results) Row {
	r := Row{Source: c.source, Claim: c.text, Setup: c.setup + "; " + facts.diff(), published: c.pub}
	cell := res.Cell(c.scenario, c.column)
	if cell == nil || cell.Skipped != "" || cell.VsBaseline == nil {
		r.Verdict, r.Rule, r.Note = notComparable, "R1", "httpvs measured no interval for "+c.scenario+"/"+c.column
		return r
	}
	iv := *cell.VsBaseline
	if c.direction {
		r.Rule, r.Verdict, r.Figure = "R2", directionRule(c.pub > 1, iv), c.column+"/h1 "+ivText(iv)
		return r
	}
	r.Rule, r.col, r.iv = "R1", c.column, iv
	r.Verdict, r.Figure, r.Noise = ratioRule(c.pub, iv, aaNoise(res, c.scenario))
	r.Figure = c.column + "/h1 " + r.Figure
	return r
}

// aaNoise is scenario's A/A noise floor in res.
func aaNoise(res *results.Results, scenario string) float64 {
	for _, c := range res.AA {
		if c.Scenario == scenario && c.VsBaseline != nil {
			return noiseOf(*c.VsBaseline)
		}
	}
	return 0
}

// ginMatrix holds the gin post's direction (HTTP/1.1 many connections,
// HTTP/2 one) to headers-body's connections, bodies read and closed.
func ginMatrix(res *results.Results) Row {
	r := Row{Source: srcGin, Claim: "HTTP/1.1 many connections (15,349), HTTP/2 one", Rule: "R2",
		Setup: "headers-body: POST /echo, 38,890-byte body, 100 headers of 100 characters, 50 at a time, bodies read and closed (the post left them unread)"}
	h1, h2 := res.Cell("headers-body", "h1"), res.Cell("headers-body", "h2")
	if h1 == nil || h2 == nil || len(h1.Repetitions) == 0 || len(h2.Repetitions) == 0 {
		r.Verdict = notComparable
		return r
	}
	c1, c2 := analysis.MedianRepetition(h1).Connections, analysis.MedianRepetition(h2).Connections
	r.Figure = fmt.Sprintf("h1 %d connections, h2 %d per repetition", c1, c2)
	r.Verdict = pick(c2 == 1 && c1 > 1, agrees, disagrees)
	return r
}

// goVersionsRecord is the earlier record of the same variation, over
// every toolchain from 1.22 (cited, not measured in this run).
const goVersionsRecord = "docs/measurements/goversions-2026-11-24T2112Z.md (bench/goversions.sh)"

// goVersions are the toolchains the Go-client row is varied over, both
// ends built by each (the module proxy serves them): the oldest this
// program builds, and the newest.
var goVersions = []string{"go1.22.12", "go1.27.4"}

// goVersionsVaried measures download h2c/h1 and small-sequential h2/h1
// with both ends built by each of goVersions (experiment.Versions, Go
// as shipped), by "scenario/column".
func goVersionsVaried(ctx context.Context, p sizes) (map[string][]variation, error) {
	res, err := experiment.Versions(ctx, experiment.VersionsOptions{Versions: goVersions, Protocols: []transport.Protocol{transport.H1, transport.H2C, transport.H2},
		Scenarios: []string{"download", "small-sequential"}, Rounds: p.goRounds, MaxRounds: p.goRounds, Budget: -1})
	if err != nil {
		return nil, err
	}
	vs := map[string][]variation{}
	for _, c := range res.GoVersions.Cells {
		if c.Protocol != transport.H1.String() && c.VsBaseline != nil {
			k := c.Scenario + "/" + c.Protocol
			vs[k] = append(vs[k], variation{"both ends built by " + c.Toolchain + " (GOTOOLCHAIN)", *c.VsBaseline})
		}
	}
	for _, t := range res.GoVersions.Toolchains {
		if t.Error != "" {
			for _, k := range []string{"download/h2c", "small-sequential/h2"} {
				vs[k] = append(vs[k], variation{setting: t.Asked + " not measured: " + t.Error})
			}
		}
	}
	return vs, nil
}

// forkNote measures where the fork's parallel figures part from httpvs's:
// its HTTP/1.1 arm lost 95% of its single download's rate when run ten
// at a time (3.0 against 55.2 Gbps); httpvs's h1 here, in the same run.
func forkNote(res *results.Results, scenario string) string {
	single, par := res.Cell("download", "h1"), res.Cell(scenario, "h1")
	if single == nil || par == nil || single.Median <= 0 {
		return "open: the single download's h1 cell was not measured"
	}
	pub := map[string]float64{"download-parallel-10": 3.0 / 55.2, "download-parallel-100": 0.2485 / 55.2}[scenario]
	return fmt.Sprintf("measured: h1 %s moves %.0f MB/s against %.0f MB/s for one download here (%.2fx), where the fork's h1 fell to %.3fx of its single download: the disagreement is in the fork's HTTP/1.1 arm; open: varied the number of downloads at once (1, 10, 100, this run's cells); none made h1 fall as the fork's did",
		scenario, par.Median/1e6, single.Median/1e6, par.Median/single.Median, pub)
}
